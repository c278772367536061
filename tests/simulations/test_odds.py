"""Event odds: computed from ratings (and the simulated chart), stored before the first result
and after every result (the hook on set results), shown on the event page; the 'simulated'
seeding; the calibration page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from simulations.models import MatchupChunk, MatchupJob, StageOdds
from simulations.odds import entrant_models, event_seeding_simulated, game_matrix
from tests.tournaments.factories import EventFactory, StageFactory, entrants_create, organizer_of
from tests.tournaments.helpers import play_out, report
from tournaments.models import EntrantMember, PlayerRating, Stage
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def rate(entrant, mu: float, sigma: float = 1.0) -> None:
    for member in entrant.members.all():
        PlayerRating.objects.create(player=member.player, mu=mu, sigma=sigma,
                                    ordinal=mu - 3 * sigma)


@pytest.fixture
def bracket(django_capture_on_commit_callbacks):
    event = EventFactory()
    stage = StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    entrants = entrants_create(event, 8)
    for i, e in enumerate(entrants):
        rate(e, 40 - 2 * i)
    with django_capture_on_commit_callbacks(execute=True):
        stage_generate(stage=stage, actor=organizer_of(event))
    return event, stage, entrants


def test_a_generated_stage_gets_initial_odds(bracket) -> None:
    _event, stage, entrants = bracket
    current = StageOdds.objects.get(stage=stage, kind="current")
    initial = StageOdds.objects.get(stage=stage, kind="initial")
    assert current.data == initial.data and current.results_seen == 0
    rows = {r["entrant"]: r for r in current.data["rows"]}
    assert sum(r["win"] for r in rows.values()) == pytest.approx(1.0)
    assert rows[entrants[0].pk]["win"] > rows[entrants[7].pk]["win"]
    assert rows[entrants[0].pk]["top8"] == 1.0
    assert current.data["columns"][-1] == "Grand Final"


def test_every_result_recomputes_the_odds_and_keeps_the_initial(
    bracket, django_capture_on_commit_callbacks
) -> None:
    event, stage, entrants = bracket
    initial = StageOdds.objects.get(stage=stage, kind="initial").data
    # the bottom seed (8, side b of W1-1) beats the top seed
    with django_capture_on_commit_callbacks(execute=True):
        report(stage, "W1-1", "b", organizer_of(event))
    current = StageOdds.objects.get(stage=stage, kind="current")
    assert current.results_seen == 1
    rows = {r["entrant"]: r for r in current.data["rows"]}
    assert rows[entrants[7].pk]["reach"]["Winners Semifinals"] == 1.0
    assert rows[entrants[0].pk]["reach"]["Winners Semifinals"] == 0.0
    assert StageOdds.objects.get(stage=stage, kind="initial").data == initial


def test_the_event_page_shows_the_odds(bracket, client) -> None:
    event, stage, entrants = bracket
    html = client.get(reverse("tournaments:event-detail", args=[event.slug])).content.decode()
    assert 'id="event-odds-title"' in html
    assert f'id="plot-odds-{stage.pk}"' in html
    assert f'data-odds-stage="{stage.pk}"' in html and entrants[0].name in html


def test_the_chart_moves_the_odds_when_characters_are_declared(bracket) -> None:
    _event, _stage, entrants = bracket
    a, b = entrants[3], entrants[4]
    EntrantMember.objects.filter(entrant=a).update(character="grave")
    EntrantMember.objects.filter(entrant=b).update(character="troq")
    before = game_matrix(entrant_models([a, b]))[0][1]
    job = MatchupJob.objects.create(bot="random", games_per_pair=10, chunk_size=10,
                                    characters=["grave", "troq"], status="finished")
    for p1, p2, w1, w2 in [("grave", "troq", 9, 1), ("troq", "grave", 1, 9),
                           ("grave", "grave", 5, 5), ("troq", "troq", 5, 5)]:
        MatchupChunk.objects.create(job=job, p1=p1, p2=p2, index=0, games=10, p1_wins=w1,
                                    p2_wins=w2, draws=0, seconds=1)
    after = game_matrix(entrant_models([a, b]))[0][1]
    assert after > before + 0.2


def test_simulated_seeding_orders_by_expected_finish(django_capture_on_commit_callbacks) -> None:
    event = EventFactory()
    StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    entrants = entrants_create(event, 6)
    strengths = [20, 35, 25, 40, 30, 10]
    for e, mu in zip(entrants, strengths, strict=True):
        rate(e, mu)
    seeded = event_seeding_simulated(event=event, actor=organizer_of(event), runs=2000)
    by_strength = sorted(entrants, key=lambda e: -strengths[entrants.index(e)])
    assert [e.pk for e in seeded] == [e.pk for e in by_strength]
    for e in seeded:
        e.refresh_from_db()
    assert [e.seed for e in seeded] == [1, 2, 3, 4, 5, 6]


def test_calibration_of_a_finished_stage(bracket, client, django_capture_on_commit_callbacks):
    event, stage, _entrants = bracket
    with django_capture_on_commit_callbacks(execute=True):
        play_out(stage, organizer_of(event), side="a")
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    response = client.get(reverse("simulations:calibration"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="plot-reliability"' in html and 'id="calibration-stages"' in html
    from simulations.calibration_selectors import finished_stage_calibrations

    [found] = finished_stage_calibrations()
    assert found.win.count == 8 and 0 <= found.win.brier <= 1
    # side a always won: the top seed won the stage, and it was the favourite
    winner_rows = [p for p, hit in found.predictions[:8] if hit]
    assert len(winner_rows) == 1 and winner_rows[0] == max(p for p, _ in found.predictions[:8])
    assert found.reach.count == 8 * 3  # semifinals, final, grand final


def test_groups_then_playoff_odds(django_capture_on_commit_callbacks, client) -> None:
    event = EventFactory()
    groups = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN, group_count=2,
                          advance_count=2, name="Groups", order=1)
    StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION, name="Playoff", order=2)
    entrants = entrants_create(event, 8)
    for i, e in enumerate(entrants):
        rate(e, 40 - 2 * i)
    with django_capture_on_commit_callbacks(execute=True):
        stage_generate(stage=groups, actor=organizer_of(event))
    odds = StageOdds.objects.get(stage=groups, kind="current")
    assert odds.data["columns"][0] == "Playoff"
    rows = {r["entrant"]: r for r in odds.data["rows"]}
    assert sum(r["reach"]["Playoff"] for r in rows.values()) == pytest.approx(4.0)
    assert sum(r["win"] for r in rows.values()) == pytest.approx(1.0)
    assert rows[entrants[0].pk]["win"] > rows[entrants[7].pk]["win"]
    html = client.get(reverse("tournaments:event-detail", args=[event.slug])).content.decode()
    assert f'data-odds-stage="{groups.pk}"' in html


def test_organizers_seed_by_simulation_from_the_event(client) -> None:
    event = EventFactory()
    StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    entrants = entrants_create(event, 4)
    for e, mu in zip(entrants, [10, 40, 20, 30], strict=True):
        rate(e, mu)
    url = reverse("simulations:event-seed", args=[event.slug])
    assert client.get(url).status_code in (302, 403)  # organizers only
    client.force_login(organizer_of(event))
    preview = client.get(url)
    assert preview.status_code == 200
    # a preview: nothing is saved yet (issue 35: it applied at once)
    assert [e.seed for e in event.entrants.order_by("pk")] == [1, 2, 3, 4]
    fixed = {f"seed_{e.pk}": i for i, e in enumerate(preview.context["preview"], 1)}
    client.post(reverse("tournaments:event-seeding", args=[event.slug]),
                {"method": "manual", "confirm": "1", **fixed})
    seeds = {e.pk: e.seed for e in event.entrants.all()}
    assert [seeds[e.pk] for e in entrants] == [4, 1, 3, 2]


def test_the_seeding_page_offers_seeding_by_simulation(client) -> None:
    """The organizer's seeding page has the simulated method beside manual, random and rating:
    its form posts to the simulated seeding and comes back to the event."""
    import re

    event = EventFactory()
    StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    entrants = entrants_create(event, 4)
    for e, mu in zip(entrants, [10, 40, 20, 30], strict=True):
        rate(e, mu)
    client.force_login(organizer_of(event))
    page = client.get(f"/events/{event.slug}/seeding/").content.decode()
    form = re.search(r'<form method="get" action="([^"]+)"[^>]*id="seed-by-simulation"', page)
    assert form is not None and form.group(1) == reverse("simulations:event-seed",
                                                         args=[event.slug])
    preview = client.get(form.group(1)).content.decode()
    assert "Preview — nothing is saved" in preview
    assert [e.seed for e in event.entrants.order_by("pk")] == [1, 2, 3, 4]
    seeds = dict(re.findall(r'name="(seed_\d+)" value="(\d+)"', preview))
    response = client.post(reverse("tournaments:event-seeding", args=[event.slug]),
                           {"method": "manual", "confirm": "1", **seeds}, follow=True)
    assert "Seeding fixed." in response.content.decode()
    assert [e.seed for e in event.entrants.order_by("pk")] == [4, 1, 3, 2]


def _generated(kind: str, n: int, capture, **fields):
    event = EventFactory()
    stage = StageFactory(event=event, kind=kind, **fields)
    entrants = entrants_create(event, n)
    for i, e in enumerate(entrants):
        rate(e, 40 - 2 * i)
    with capture(execute=True):
        stage_generate(stage=stage, actor=organizer_of(event))
    return event, stage, entrants


def test_a_swiss_stage_gets_odds_that_follow_its_rounds(
    django_capture_on_commit_callbacks, client
) -> None:
    event, stage, entrants = _generated(Stage.Kind.SWISS, 8, django_capture_on_commit_callbacks,
                                        swiss_rounds=3)
    odds = StageOdds.objects.get(stage=stage, kind="current")
    assert StageOdds.objects.filter(stage=stage, kind="initial").exists()
    rows = {r["entrant"]: r for r in odds.data["rows"]}
    assert odds.data["columns"] == ["Top 4"]
    assert sum(r["win"] for r in rows.values()) == pytest.approx(1.0)
    assert sum(r["reach"]["Top 4"] for r in rows.values()) == pytest.approx(4.0)
    assert rows[entrants[0].pk]["win"] > rows[entrants[7].pk]["win"]
    for place in range(8):  # each place is someone's in every run
        assert sum(p[place] for p in odds.data["places"].values()) == pytest.approx(1.0, abs=1e-5)
    # round 1: side b wins every set; round 2 is paired, and the odds follow
    with django_capture_on_commit_callbacks(execute=True):
        for s in stage.sets.filter(round=1).order_by("position"):
            report(stage, s.key, "b", organizer_of(event))
    odds.refresh_from_db()
    assert odds.results_seen == 4
    losers = [s.entrant_a_id for s in stage.sets.filter(round=1)]
    rows = {r["entrant"]: r for r in odds.data["rows"]}
    # three rounds among eight: only a 3-0 entrant can be first, so a round-1 loser never is
    assert all(rows[pk]["win"] == 0.0 for pk in losers)
    assert sum(r["win"] for r in rows.values()) == pytest.approx(1.0)
    html = client.get(reverse("tournaments:event-detail", args=[event.slug])).content.decode()
    assert f'data-odds-stage="{stage.pk}"' in html


def test_a_league_and_a_lone_round_robin_get_odds(django_capture_on_commit_callbacks) -> None:
    from django.utils import timezone

    _event, league, entrants = _generated(Stage.Kind.LEAGUE, 6,
                                          django_capture_on_commit_callbacks,
                                          starts_at=timezone.now())
    data = StageOdds.objects.get(stage=league, kind="current").data
    rows = {r["entrant"]: r for r in data["rows"]}
    assert data["columns"] == ["Top 3"]
    assert sum(r["win"] for r in rows.values()) == pytest.approx(1.0)
    assert rows[entrants[0].pk]["expected_place"] < rows[entrants[5].pk]["expected_place"]
    _event, groups, entrants = _generated(Stage.Kind.ROUND_ROBIN, 8,
                                          django_capture_on_commit_callbacks, group_count=2)
    data = StageOdds.objects.get(stage=groups, kind="current").data
    # two groups of four, no playoff after them: places within each group
    assert sum(r["win"] for r in data["rows"]) == pytest.approx(2.0)
    assert all(r["top8"] == pytest.approx(1.0) for r in data["rows"])


def test_simulated_seeding_of_a_swiss_first_stage() -> None:
    event = EventFactory()
    StageFactory(event=event, kind=Stage.Kind.SWISS, swiss_rounds=3)
    entrants = entrants_create(event, 6)
    strengths = [20, 35, 25, 40, 30, 10]
    for e, mu in zip(entrants, strengths, strict=True):
        rate(e, mu)
    seeded = event_seeding_simulated(event=event, actor=organizer_of(event), runs=2000)
    by_strength = sorted(entrants, key=lambda e: -strengths[entrants.index(e)])
    assert [e.pk for e in seeded] == [e.pk for e in by_strength]


def test_the_odds_stand_on_the_best_bots_chart(bracket) -> None:
    from tests.simulations.test_jobs import finished_job

    _event, _stage, entrants = bracket
    a, b = entrants[3], entrants[4]
    EntrantMember.objects.filter(entrant=a).update(character="grave")
    EntrantMember.objects.filter(entrant=b).update(character="troq")
    before = game_matrix(entrant_models([a, b]))[0][1]
    finished_job("greedy", ["grave", "troq"], {("grave", "troq"): (9, 1),
                                               ("troq", "grave"): (1, 9)})
    favoured = game_matrix(entrant_models([a, b]))[0][1]
    assert favoured > before + 0.2
    # a newer chart of a weaker bot says the opposite: the odds keep the greedy bot's
    finished_job("random", ["grave", "troq"], {("grave", "troq"): (1, 9),
                                               ("troq", "grave"): (9, 1)})
    assert game_matrix(entrant_models([a, b]))[0][1] == pytest.approx(favoured)
