"""Triple Threat end to end: a set's game is a version-2 log of the two lineups, verified on a
real worker, confirmed by the other side, and it advances the bracket as Versus does; the match
page shows the bouts."""

from __future__ import annotations

import pytest

from matches.models import Match, VerificationRun
from matches.services import match_log_confirm, match_log_submit
from rules_engine.team import Mode
from tests.matches.factories import side_user, team_log_won_by
from tests.support.waiting import wait_for
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrant_create
from tournaments.models import Event, Game, Set
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

LINEUPS = {1: ("Grave", "Jaina", "Midori"), 2: ("Rook", "Troq", "Gwen"),
           3: ("Geiger", "Gloria", "DeGrey"), 4: ("Argagarg", "Valerie", "Vendetta")}





def test_a_triple_threat_game_is_verified_confirmed_and_advances_the_bracket(
        celery_worker, client) -> None:
    organizer = UserFactory(username="tt-org")
    event = EventFactory(organizers=[organizer], best_of=1, mode=Event.Mode.TRIPLE_THREAT)
    for i in range(1, 5):
        entrant_create(event, seed=i, lineup=list(LINEUPS[i]))
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    semifinal = Set.objects.get(stage=stage, key="W1-1")
    a, b = semifinal.entrant_a, semifinal.entrant_b
    assert a is not None and b is not None
    match = set_match_open(set=semifinal, actor=organizer)
    assert match.mode == "triple_threat"
    # side 1 submits a version-2 log of the two lineups; the worker verifies it as legal
    text = team_log_won_by(Mode.TRIPLE_THREAT, tuple(a.lineup), tuple(b.lineup), "P1")
    outcome = match_log_submit(match=match, submitted_by=side_user(match, 1),
                               log_bytes=text.encode())
    wait_for(lambda: VerificationRun.objects.get(pk=outcome.run.pk).status == "legal", 60,
             "the verdict")
    verdict = VerificationRun.objects.get(pk=outcome.run.pk).verdict
    assert verdict["abilities_complete"] is True
    assert len(verdict["final"]["bouts"]) >= 3  # a side is out only after three knockouts
    # the other side confirms; the game is recorded and the winner advances
    match_log_confirm(match=match, user=side_user(match, 2))
    wait_for(lambda: Game.objects.filter(match=match).exists(), 60, "the game to be recorded")
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    semifinal.refresh_from_db()
    assert semifinal.status == Set.Status.FINISHED and semifinal.winner_id == a.pk
    game = Game.objects.get(match=match)
    assert game.characters_a == list(a.lineup) and game.characters_b == list(b.lineup)
    final = Set.objects.get(stage=stage, key="W2-1")
    assert final.entrant_a_id == a.pk
    # the match page shows the bouts, each with its two characters (the timeline is paged,
    # 50 turns a page: each bout's header is on the page of its first turn)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    first = verdict["final"]["bouts"][0]["characters"]
    assert f"Bout 1: {first[0].title()} (P1) vs {first[1].title()} (P2)" in html
    last = verdict["final"]["bouts"][-1]
    page = (last["turns"][0] - 1) // 50 + 1
    log_id = Match.objects.get(pk=match.pk).result_log_id
    html = client.get(f"/matches/{match.pk}/", {f"turns-{log_id}": page}).content.decode()
    assert f"Bout {last['bout']}: {last['characters'][0].title()} (P1)" in html
