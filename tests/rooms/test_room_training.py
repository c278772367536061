"""Training and Survival in the room (issue 22): practice against the rulebook's Training bot,
whose choices the engine derives (never logged), and a Survival run; the finished game is stored
as the player's solo run and verified. The strong bot is a practice opponent too."""

from __future__ import annotations

import random

import pytest

from matches.models import Match
from rooms import services
from rooms.errors import RoomError
from rooms.models import Room, RoomEvent
from rooms.selectors import PUBLIC
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.team import Mode
from tests.matches.factories import PlayerFactory
from tests.rooms.helpers import pick_choice
from tests.rooms.helpers import state as _state

pytestmark = pytest.mark.django_db


def _play_alone(room: Room, user, seed: int) -> Room:
    rng = random.Random(seed)
    for _ in range(5000):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            return room
        now = _state(room, "P1")
        assert now["acting"] == ["P1"]  # the bot's seat never has a decision of its own
        services.room_choose(room_id=room.pk, user=user,
                             action=pick_choice(now, rng)["action"],
                             decision=now["decision"])
    raise AssertionError("the game did not end")


def test_training_from_the_practice_page_is_played_and_stored_as_a_verified_solo_run(
    client, django_capture_on_commit_callbacks,
) -> None:
    player = PlayerFactory()
    client.force_login(player.user)
    page = client.get("/rooms/practice/").content.decode()
    assert 'id="play-training"' in page and 'id="play-survival"' in page
    created = client.post("/rooms/practice/", {"mode": "training", "character": "grave",
                                               "bot_character": "jaina"})
    assert created.status_code == 302
    room = Room.objects.get(created_by=player.user)
    assert room.mode == "training" and room.status == Room.Status.PLAYING
    first = _state(room, "P1")
    # TR-2: the bot's hand is open on the table, to everyone; the player's is the player's
    for message in (first, _state(room, PUBLIC)):
        assert message["view"]["players"]["P2"]["bot"] is True
        assert "hand" in message["view"]["players"]["P2"]
    assert "hand" not in _state(room, PUBLIC)["view"]["players"]["P1"]
    with django_capture_on_commit_callbacks(execute=True):
        room = _play_alone(room, player.user, seed=3)
    log = parse_log(room.log_text)
    assert (log.version, log.mode) == (2, Mode.TRAINING)
    assert {e.player.name for e in log.events} == {"P1"}  # the bot's choices are derived
    assert len(log.events) == RoomEvent.objects.filter(room=room).count()
    assert replay(log).status == "legal"
    # stored as a solo run, like an uploaded one, and verified: the player's result
    assert room.match is not None and room.match.mode == Match.Mode.TRAINING
    assert room.match_log is not None and room.match_log.text == room.log_text
    assert list(room.match.sides.values_list("side", "player_id")) == [(1, player.pk)]
    assert room.match.status == Match.Status.CONFIRMED and room.match.result_log_id == \
        room.match_log_id


def test_a_survival_run_is_played_to_its_end_and_scored(
    django_capture_on_commit_callbacks,
) -> None:
    player = PlayerFactory()
    room = services.room_open_practice(user=player.user, name="me", mode="survival",
                                       character="grave", run_length=2)
    opponents = room.seats.get(seat="P2").character.split(",")
    assert len(opponents) == 2 and len(set(opponents)) == 2
    with django_capture_on_commit_callbacks(execute=True):
        room = _play_alone(room, player.user, seed=8)
    log = parse_log(room.log_text)
    assert log.mode == Mode.SURVIVAL
    assert [m.character for m in log.sides[1]] == opponents
    assert replay(log).status == "legal"
    survival = room.outcome["survival"]
    assert 0 <= survival["score"] <= 2 and set(survival["beaten"]) <= set(opponents)
    assert _state(room, "P1")["outcome"]["survival"] == survival
    assert room.match.mode == Match.Mode.SURVIVAL and room.match.status == Match.Status.CONFIRMED


@pytest.mark.parametrize(("post", "says"), [
    ({"mode": "chess"}, "there is no practice mode &#x27;chess&#x27;"),
    ({"mode": "survival", "run_length": "lots"},
     "opponents in the run: &#x27;lots&#x27; is not a whole number"),
    ({"mode": "survival", "run_length": "50"}, "a Survival run has 1 to 20 opponents"),
    ({"mode": "training", "bot_character": "nobody"}, "there is no character &#x27;nobody&#x27;"),
    ({"mode": "versus", "bot": "deep-blue"}, "there is no bot called &#x27;deep-blue&#x27;"),
])
def test_bad_practice_requests_are_400s_that_say_what_is_wrong(client, post, says) -> None:
    player = PlayerFactory()
    client.force_login(player.user)
    response = client.post("/rooms/practice/", {"character": "grave", **post})
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not Room.objects.exists()


def test_the_strong_bot_is_a_practice_opponent() -> None:
    user = PlayerFactory().user
    room = services.room_open_practice(user=user, name="me", bot="strong",
                                       character="grave", bot_character="rook")
    assert room.seats.get(seat="P2").bot == "strong"
    rng = random.Random(1)
    for _ in range(6):
        now = _state(room, "P1")
        services.room_choose(room_id=room.pk, user=user,
                             action=pick_choice(now, rng)["action"],
                             decision=now["decision"])
    # the strong bot answered every one of its decisions (C1 commits at least)
    assert RoomEvent.objects.filter(room=room, player="P2").exists()
    assert _state(room, "P1")["acting"] in (["P1"], [])


def test_a_survival_opponent_list_is_checked() -> None:
    with pytest.raises(RoomError) as refused:
        services.room_open_practice(user=PlayerFactory().user, name="me", mode="training",
                                    bot_character="jaina,rook")
    assert refused.value.message == "pick one character for the bot"


def test_without_a_player_profile_the_run_is_played_but_not_stored() -> None:
    from tests.tournaments.factories import UserFactory

    user = UserFactory()
    assert not Match.objects.filter(sides__player__user=user).exists()
    room = services.room_open_practice(user=user, name="guest", mode="training",
                                       character="grave", bot_character="rook")
    room = _play_alone(room, user, seed=2)
    assert room.match is None
    assert room.result_problem == "only a player can submit a solo run"
    assert _state(room, "P1")["result_problem"] == room.result_problem
