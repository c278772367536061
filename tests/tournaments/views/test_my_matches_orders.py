"""My matches shows the right next step in every order of picks and reports (issue 35: after
a player reported a score without picking, the opponent still saw "Pick your character")."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.models import Event, Set, Stage
from tournaments.services.advancement import GameInput, SetResult
from tournaments.services.picks import character_pick_lock
from tournaments.services.self_reports import set_report_submit

pytestmark = pytest.mark.django_db

PICK = "Pick your character for game 1"
REPORT = "Play the set and report its score"
CONFIRM = "Your opponent reported 1-0: confirm or dispute it"
WAIT = "Waiting for your opponent to confirm your reported score"


@pytest.fixture
def ready_set(event, organizer) -> Set:
    event.result_policy = Event.ResultPolicy.SELF_REPORT
    event.character_rule = Event.CharacterRule.FREE
    event.best_of = 1
    event.save()
    entrants_create(event, 2)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    from tournaments.services.generation import stage_generate

    stage_generate(stage=stage, actor=organizer)
    return Set.objects.get(stage=stage)


def _user(entrant):
    return entrant.members.get().player.user


def _step(client, user) -> str:
    client.force_login(user)
    return client.get("/my-matches/").content.decode()


def _report(s: Set, user) -> None:
    set_report_submit(set=s, actor=user, result=SetResult(
        games=[GameInput("a", ["Grave"], ["Jaina"])]))


@pytest.mark.parametrize(("actions", "a_sees", "b_sees"), [
    ([], PICK, PICK),
    (["a picks"], REPORT, PICK),
    (["a picks", "b picks"], REPORT, REPORT),
    (["a reports"], WAIT, CONFIRM),  # nobody picked: the report is what waits
    (["a picks", "a reports"], WAIT, CONFIRM),
    (["b picks", "a reports"], WAIT, CONFIRM),
    (["a picks", "b picks", "a reports"], WAIT, CONFIRM),
], ids=lambda v: "+".join(v) if isinstance(v, list) else None)
def test_the_next_step_in_every_order(client, ready_set, actions, a_sees, b_sees) -> None:
    users = {"a": _user(ready_set.entrant_a), "b": _user(ready_set.entrant_b)}
    for action in actions:
        who, what = action.split()
        if what == "picks":
            character_pick_lock(set=ready_set, actor=users[who],
                                character="Grave" if who == "a" else "Jaina")
        else:
            _report(ready_set, users[who])
    assert a_sees in _step(client, users["a"])
    page_b = _step(client, users["b"])
    assert b_sees in page_b
    if b_sees == CONFIRM:
        assert PICK not in page_b
