"""Every statistics plot names both its axes, /stats/ and the leaderboards have a plot, and on a
phone no plot's title is cut off (issue 35, "Plots"). Drawn by plotly.js in real Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.matches.factories import PlayerFactory
from tests.stats.helpers import log_won_by, versus
from tests.stats.test_browser import _confirm
from tests.support.browser import wait_until
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrant_create
from tests.tournaments.helpers import report
from tournaments.services.generation import stage_generate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def games() -> Any:
    """Setsuki beats Rook four times out of six; the players' ratings move game by game."""
    a, b = PlayerFactory(display_name="Alice"), PlayerFactory(display_name="Bob")
    for winner in ("P1", "P1", "P2", "P1", "P2", "P1"):
        _confirm(versus(a, b), log_won_by(winner, "setsuki", "rook"))
    # a set of an event: rated, so Alice has a rating over time
    event = EventFactory(organizers=[UserFactory()])
    entrant_create(event, [a], seed=1)
    entrant_create(event, [b], seed=2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=event.organizers.get())
    report(stage, "W1-1", "a", event.organizers.get())
    return a


def _plots(page: Any) -> list[dict[str, Any]]:
    page.wait_for_load_state("load")
    areas = page.locator("[data-plot]")
    for i in range(areas.count()):
        areas.nth(i).locator("xpath=.").wait_for()
        wait_until(page, "el => el.dataset.rendered === 'true'",
                   arg=areas.nth(i).element_handle(), timeout=20)
    return page.evaluate("""() => Array.from(document.querySelectorAll('[data-plot]')).map(el => {
        const title = el.querySelector('.gtitle');
        const t = title ? title.getBoundingClientRect() : null;
        const axis = a => (el.layout[a] && el.layout[a].title && el.layout[a].title.text) || '';
        return {id: el.id, x: axis('xaxis'), y: axis('yaxis'),
                titleLeft: t ? t.left : 0, titleRight: t ? t.right : 0};
    })""")


def test_every_plot_names_its_axes_and_fits_a_phone(browser, live_server, games) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    pages = {
        "index": reverse("stats:index"),
        "leaderboards": reverse("stats:leaderboards"),
        "matchups": reverse("stats:matchups"),
        "character": reverse("stats:character", args=["setsuki"]),
        "player": reverse("stats:player", args=[games.pk]),
    }
    seen: dict[str, list[str]] = {}
    for name, path in pages.items():
        page.goto(live_server.url + path)
        plots = _plots(page)
        seen[name] = [p["id"] for p in plots]
        for plot in plots:
            assert plot["x"] and plot["y"], (name, plot)
            # the title is on the phone's screen (the heatmap's was cut off)
            assert plot["titleLeft"] >= 0 and plot["titleRight"] <= 390, (name, plot)
    assert seen["index"] == ["plot-characters-area"]
    assert seen["leaderboards"] == ["plot-leaders-area"]
    assert "plot-heatmap-area" in seen["matchups"]
    assert len(seen["character"]) == 3 and len(seen["player"]) == 2
