"""The chart the seeding and the odds use: the best bot's simulated chart (the prior) blended
with the real verified games' chart (the statistics app), real games weighed by their count;
its page shows both and the blend."""

from __future__ import annotations

import pytest
from django.urls import reverse

from simulations import selectors
from simulations.odds import entrant_models, game_matrix
from tests.matches.factories import PlayerFactory
from tests.simulations.test_jobs import finished_job
from tests.stats.helpers import confirm, log_won_by, versus
from tests.tournaments.factories import EventFactory, entrants_create
from tournaments.models import EntrantMember

pytestmark = pytest.mark.django_db
PAIR = ["rook", "setsuki"]


@pytest.fixture
def three_real_wins(django_capture_on_commit_callbacks) -> None:
    """Setsuki beats Rook in three confirmed (verified) Versus games."""
    a, b = PlayerFactory(), PlayerFactory()
    for _ in range(3):
        confirm(versus(a, b), log_won_by("P1", "setsuki", "rook"),
                django_capture_on_commit_callbacks)


def cell(chart: selectors.BlendedChart, a: str, b: str) -> selectors.BlendedCell:
    return chart.cells[chart.characters.index(a)][chart.characters.index(b)]


def test_real_games_move_the_simulated_prior_by_their_count(three_real_wins, settings) -> None:
    job = finished_job("strong", PAIR, {})  # an even simulated matchup: 5 out of 10
    chart = selectors.chart_in_use()
    assert chart.job == job and chart.characters == PAIR and chart.real_games == 3
    c = cell(chart, "setsuki", "rook")
    assert c.simulated is not None and c.simulated.score == pytest.approx(5.0)
    assert (c.real.games, c.real_score) == (3, pytest.approx(10.0))
    assert c.score == pytest.approx(10 * (20 * 0.5 + 3) / 23)  # the prior is worth 20 games
    assert cell(chart, "rook", "setsuki").score == pytest.approx(10 * (20 * 0.5) / 23)
    assert cell(chart, "rook", "rook").score == pytest.approx(5.0)
    settings.YOMI_CHART_PRIOR_GAMES = 1  # a weaker prior: the real games weigh more
    assert cell(selectors.chart_in_use(), "setsuki", "rook").score == pytest.approx(
        10 * (0.5 + 3) / 4)


def test_without_a_simulation_the_real_games_alone(three_real_wins) -> None:
    chart = selectors.chart_in_use()
    assert chart.job is None and chart.characters == PAIR
    assert cell(chart, "setsuki", "rook").score == pytest.approx(10.0)
    assert cell(chart, "setsuki", "rook").simulated is None


def test_the_odds_use_the_blend_and_say_which_chart(three_real_wins) -> None:
    from simulations.odds import stage_odds_refresh
    from tests.tournaments.factories import StageFactory
    from tournaments.models import Stage

    job = finished_job("strong", PAIR, {})
    event = EventFactory()
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    a, b = entrants_create(event, 2)
    EntrantMember.objects.filter(entrant=a).update(character="setsuki")
    EntrantMember.objects.filter(entrant=b).update(character="rook")
    p = game_matrix(entrant_models([a, b]))[0][1]
    # equal ratings: the game probability is the blended chart's score
    assert p == pytest.approx(10 * (20 * 0.5 + 3) / 23 / 10)
    odds = stage_odds_refresh(stage_id=stage.pk, runs=50)
    assert odds is not None
    assert odds.data["chart"] == {"job": job.pk, "bot": "strong", "real_games": 3,
                                  "prior_games": 20}


def test_the_page_shows_the_simulated_the_real_and_the_blend(three_real_wins, client) -> None:
    job = finished_job("strong", PAIR, {})
    html = client.get(reverse("simulations:chart-in-use")).content.decode()
    assert 'id="plot-blendheatmap"' in html and 'id="blended-chart-table"' in html
    assert f"simulation #{job.pk}</a>, <strong>strong</strong> bot" in html
    assert "3 verified games" in html
    blend = f"{10 * 13 / 23:.3f}"
    assert f'data-cell="setsuki:rook" data-blend="{blend}"' in html
    assert "sim 5.0 · real 10.0 (n=3)" in html
    # the job page of the chart in use links here
    page = client.get(reverse("simulations:job", args=[job.pk])).content.decode()
    assert reverse("simulations:chart-in-use") in page


def test_the_page_with_nothing_yet(client) -> None:
    html = client.get(reverse("simulations:chart-in-use")).content.decode()
    assert "the odds use the ratings alone" in html
