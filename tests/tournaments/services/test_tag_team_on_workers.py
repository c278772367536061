"""Tag Team and Dramatic Battle end to end: a set's game is a version-2 log of the two teams
(each member's character in the entrant's lineup), verified on a real worker, confirmed by the
other side, and it advances the bracket as Versus does; the match page shows the four seats."""

from __future__ import annotations

import pytest

from matches.models import Match, VerificationRun
from matches.services import match_log_confirm, match_log_submit
from rules_engine.team import Mode
from tests.matches.factories import team_log_won_by
from tests.support.waiting import wait_for
from tests.tournaments.factories import (
    EventFactory,
    PlayerFactory,
    StageFactory,
    UserFactory,
    entrant_create,
)
from tournaments.models import Event, Game, PlayerRating, Set, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]




def side_user(match: Match, side: int, order: int = 0):
    """A member of ``side`` (a team of two has two: either may submit or confirm)."""
    return match.sides.filter(side=side).order_by("order")[order].player.user



@pytest.mark.parametrize(("mode", "lineups"), [
    (Event.Mode.TAG_TEAM, {1: ("Grave", "Jaina"), 2: ("Midori", "Rook"),
                           3: ("Geiger", "Gloria"), 4: ("Argagarg", "Valerie")}),
    # Dramatic Battle stages pair a lone player against a pair: a round robin (a bracket is
    # refused), here a lone boss and one pair
    (Event.Mode.DRAMATIC_BATTLE, {1: ("Troq",), 2: ("Lum", "Grave")}),
])
def test_a_team_game_is_verified_confirmed_and_advances_the_bracket(
        celery_worker, client, mode, lineups) -> None:
    organizer = UserFactory(username=f"{mode}-org")
    event = EventFactory(organizers=[organizer], best_of=1, mode=mode)
    for i in lineups:  # a team of two is an entrant of two players, one a character
        size = len(lineups[i])
        entrant_create(event, [PlayerFactory() for _ in range(size)], seed=i,
                       lineup=list(lineups[i]))
    bracket = mode == Event.Mode.TAG_TEAM
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION if bracket
                         else Stage.Kind.ROUND_ROBIN)
    stage_generate(stage=stage, actor=organizer)
    semifinal = (Set.objects.get(stage=stage, key="W1-1") if bracket
                 else Set.objects.get(stage=stage))
    a, b = semifinal.entrant_a, semifinal.entrant_b
    assert a is not None and b is not None
    match = set_match_open(set=semifinal, actor=organizer)
    assert match.mode == mode
    assert match.sides.filter(side=1).count() == len(a.lineup)
    assert match.sides.filter(side=2).count() == len(b.lineup)
    engine_mode = Mode(str(mode))
    text = team_log_won_by(engine_mode, tuple(a.lineup), tuple(b.lineup), "P1")
    outcome = match_log_submit(match=match, submitted_by=side_user(match, 1),
                               log_bytes=text.encode())
    wait_for(lambda: VerificationRun.objects.get(pk=outcome.run.pk).status == "legal", 60,
             "the verdict")
    verdict = VerificationRun.objects.get(pk=outcome.run.pk).verdict
    assert verdict["abilities_complete"] is True
    assert verdict["facts"]["mode"] == str(mode)
    match_log_confirm(match=match, user=side_user(match, 2, order=len(b.lineup) - 1))
    wait_for(lambda: Game.objects.filter(match=match).exists(), 60, "the game to be recorded")
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    semifinal.refresh_from_db()
    assert semifinal.status == Set.Status.FINISHED and semifinal.winner_id == a.pk
    game = Game.objects.get(match=match)
    assert game.characters_a == list(a.lineup) and game.characters_b == list(b.lineup)
    if bracket:  # the winner moves on to the final
        final = Set.objects.get(stage=stage, key="W2-1")
        assert final.entrant_a_id == a.pk
    # ratings count the team result: every member of the winning team gains on the losers
    # (OpenSkill teams; a lone player is a team of one)
    # (the worker recomputes the ratings once the set is finished)
    winners = [m.player_id for m in a.members.all()]
    losers = [m.player_id for m in b.members.all()]
    wait_for(lambda: PlayerRating.objects.filter(player_id__in=winners + losers).count()
             == len(winners + losers), 60, "the ratings")
    rated = {r.player_id: r for r in PlayerRating.objects.filter(
        player_id__in=winners + losers)}
    assert set(rated) == set(winners + losers)
    assert all(rated[p].games == 1 for p in rated)
    assert min(rated[p].mu for p in winners) > max(rated[p].mu for p in losers)
    # the match page shows every seat: P1..P4 (Dramatic Battle: P1..P3), player, character
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Seats at the table" in html
    seats = 2 + len(a.lineup) + len(b.lineup) - 2
    for seat in ("P1", "P2", "P3", "P4")[:seats]:
        assert f"<td>{seat}</td>" in html
    for name in (*a.lineup, *b.lineup):
        assert f"<td>{name}</td>" in html
    for side in (1, 2):
        for s in match.sides.filter(side=side):
            assert s.player.display_name in html
