"""The plots render in a real browser with the right data (Debian's Chromium via Playwright).

Skipped when no Chromium is installed, unless YOMI_REQUIRE_SERVICES=1 (CI), which installs it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from stats.selectors import Scope, character_stats, matchup_chart
from tests.matches.factories import PlayerFactory
from tests.stats.helpers import log_won_by, versus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def _confirm(match: Any, text: str) -> None:
    # autocommit: each service commits, and its on-commit tasks run in-process
    from matches.services import match_log_confirm, match_log_submit

    match_log_submit(match=match, submitted_by=match.sides.get(side=1).player.user,
                     log_bytes=text.encode())
    match_log_confirm(match=match, user=match.sides.get(side=2).player.user)




@pytest.fixture
def six_games() -> None:
    """Setsuki beats Rook four times out of six (enough games for a rate)."""
    a, b = PlayerFactory(), PlayerFactory()
    for winner in ("P1", "P1", "P2", "P1", "P2", "P1"):
        _confirm(versus(a, b), log_won_by(winner, "setsuki", "rook"))


def _rendered(page: Any, plot: str) -> dict[str, Any]:
    selector = f"#plot-{plot}-area[data-rendered='true']"
    page.wait_for_selector(selector, timeout=20_000)
    return page.evaluate(
        """sel => { const el = document.querySelector(sel);
           return {data: el.data.map(t => ({type: t.type, x: t.x, y: t.y, z: t.z,
                                           customdata: t.customdata})),
                   svg: el.querySelectorAll('svg.main-svg').length,
                   texts: Array.from(el.querySelectorAll('text')).map(t => t.textContent),
                   width: el.getBoundingClientRect().width}; }""",
        selector,
    )


def test_matchup_heatmap_renders_the_chart_on_a_phone(browser, live_server, six_games) -> None:
    chart = matchup_chart(scope=Scope())
    cell = chart.cell("setsuki", "rook")
    assert (cell.games, cell.wins) == (6, 4)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(live_server.url + reverse("stats:matchups"))
    plot = _rendered(page, "heatmap")
    names = [name for _, name in chart.characters]
    heatmap = plot["data"][0]
    assert heatmap["type"] == "heatmap" and heatmap["x"] == names and heatmap["y"] == names
    row, col = names.index("Setsuki"), names.index("Rook")
    assert heatmap["z"][row][col] == round(100 * cell.win_rate, 1)
    assert heatmap["z"][col][row] == round(100 * (1 - cell.win_rate), 1)
    assert heatmap["z"][row][row] is None  # no mirror games: a gap
    assert plot["svg"] >= 1
    assert "67%n=6" in "".join(plot["texts"]).replace(" ", "")  # the cell's label is drawn
    assert page.locator("td[data-cell='setsuki:rook']").inner_text().startswith("67%")
    # on a phone the chart scrolls inside its own box; the page itself does not
    assert page.evaluate("document.querySelector('main').scrollWidth") <= 390


def test_character_page_plots_the_matchup_row_and_options(browser, live_server,
                                                          six_games) -> None:
    stats = character_stats(character="setsuki", scope=Scope())
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(live_server.url + reverse("stats:character", args=["setsuki"]))
    plot = _rendered(page, "matchups")
    assert plot["data"][0]["customdata"] == ["rook"]
    assert plot["data"][0]["x"] == [round(100 * stats.overall.win_rate, 1)]
    options = _rendered(page, "options")
    assert options["data"][0]["y"] == [o["label"] for o in stats.options]
    assert options["data"][0]["x"] == [round(100 * o["share"], 1) for o in stats.options]
    assert page.locator("#overall-games").inner_text().startswith("6 games")
    # readable on a phone: the plots fit the screen and the content does not scroll sideways
    assert 300 <= plot["width"] <= 390 and options["width"] <= 390
    assert page.evaluate("document.querySelector('main').scrollWidth") <= 390
