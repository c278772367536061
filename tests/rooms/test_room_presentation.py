"""The room's state message speaks Yomi (issue 34): card faces from the engine's card data,
choices that name their cards, one picker for a big group, the turn-by-turn log in players'
words (public: the same for every audience, no drawn card named), names instead of seats."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.urls import reverse

from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import RoomEvent
from rooms.presentation import PICKER_OVER, log_turns, partial_log, turn_lines
from rooms.selectors import room_game, room_seats
from rules_engine.cards import characters
from rules_engine.timeline import timeline
from tests.matches.factories import UserFactory, self_play_log_text, side_user
from tests.rooms.helpers import match_room, pick_choice, play_out, quince_at_two_truths, state

pytestmark = pytest.mark.django_db
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def test_a_characters_card_is_served_from_the_engines_card_data(client) -> None:
    grave = characters()["grave"]
    response = client.get(reverse("rooms:character-card", args=["grave"]))
    assert response.status_code == 200
    card = response.json()
    assert (card["name"], card["life"], card["combo_limit"]) == (
        grave.name, grave.life, grave.combo_limit)
    assert [i["name"] for i in card["innates"]] == [i.name for i in grave.innates]
    for rank, moves in grave.moves.items():
        faces = card["ranks"][rank.code]
        assert [(f["type"], f["name"]) for f in faces] == [(m.type.value, m.name) for m in moves]
        assert [f.get("speed") for f in faces] == [
            None if m.speed is None else m.speed / 10 for m in moves]
        assert [f.get("damage", 0) for f in faces] == [m.damage for m in moves]
        assert [f.get("combo_points") for f in faces] == [m.combo_points for m in moves]
    assert {a.name for a in grave.abilities} == {
        a["name"] for listed in card["abilities"].values() for a in listed}
    missing = client.get("/rooms/characters/nobody.json")
    assert missing.status_code == 404


def test_each_choice_names_the_cards_it_is_made_on_and_the_seats_by_name() -> None:
    _match, room = match_room(("grave", "jaina"))
    mine = state(room, "P1")
    hand = mine["view"]["players"]["P1"]["hand"]
    commits = [c for c in mine["legal"] if c["action"]["action"] == "commit"]
    assert commits and all(c["keys"] == [f"hand:{c['action']['card']}"] for c in commits)
    # every card in hand is playable at C1, and no_card is a button of its own
    assert {c["action"]["card"] for c in commits} == set(hand)
    assert [c["keys"] for c in mine["legal"] if c["action"]["action"] == "no_card"] == [[]]
    names = {s.seat: s.name for s in room.seats.all()}
    assert mine["names"] == {"P1": f"{names['P1']} (Grave)", "P2": f"{names['P2']} (Jaina)"}
    assert mine["pickers"] == [] and mine["since"] > 0


def test_the_log_is_public_the_same_for_every_audience_and_in_players_words() -> None:
    match, room = match_room(("grave", "jaina"))
    users = {"P1": side_user(match, 1), "P2": side_user(match, 2)}
    rng = random.Random(4)
    while state(room, "public")["view"]["turn"] < 4 and room.status != "finished":
        for seat in ("P1", "P2"):
            now = state(room, seat)
            if now["legal"] or now["pickers"]:
                services.room_choose(room_id=room.pk, user=users[seat], decision=now["decision"],
                                     action=pick_choice(now, rng)["action"])
    logs = [state(room, audience)["log"] for audience in ("P1", "P2", "public")]
    assert logs[0] == logs[1] == logs[2]
    assert [t["turn"] for t in logs[0]] == [1, 2, 3]
    text = json.dumps(logs[0], ensure_ascii=False)
    names = state(room, "public")["names"]
    assert names["P1"] in text and names["P2"] in text
    assert not re.search(r"\bP[12]\b", text)
    kinds = {line["kind"] for turn in logs[0] for line in turn["lines"]}
    assert {"reveal", "damage"} <= kinds
    # the log says what the engine's timeline says: each turn's combat cell and damage
    seats = room_seats(room)
    game = room_game(room, seats)
    turns = timeline(partial_log(game, room.seed, ["grave", "jaina"], "versus", []))
    for shown, told in zip(logs[0], turns, strict=False):
        combat = [line["text"] for line in shown["lines"] if line["kind"] == "combat"]
        assert (combat[0].endswith(f"({told.combat.cell})") if told.combat else not combat)
        damage = next(line["text"] for line in shown["lines"] if line["kind"] == "damage")
        for seat, taken in zip(("P1", "P2"), told.damage, strict=True):
            assert (f"{names[seat]} takes {taken}" in damage) == (taken > 0)


def test_a_turns_lines_count_the_draws_but_never_name_the_drawn_cards() -> None:
    # a recorded (tabletop) log's timeline lists the drawn cards; the room shows how many
    turn = timeline(self_play_log_text("grave", "jaina", 3))[1].to_dict()
    turn["players"]["P1"]["draws"] = {"count": 2, "cards": ["4C", "JD"]}
    lines = turn_lines(turn, {"P1": "Ann (Grave)", "P2": "Bob (Jaina)"})
    text = " ".join(line["text"] for line in lines["lines"])
    assert "Ann (Grave) 2" in text
    assert "4\u2663" not in text and "J\u2666" not in text and "4C" not in text


def test_quinces_two_truths_is_one_picker_whose_filled_template_the_engine_checks() -> None:
    user = UserFactory(username="quince-picker-services")
    room = quince_at_two_truths(user)
    now = state(room, "P1")
    picker = next(p for p in now["pickers"] if p["template"].get("ability") == "Two Truths")
    assert picker["count"] > PICKER_OVER
    # the message does not list the combinations: a few kilobytes, not a button each
    assert len(json.dumps(now)) < 60_000
    assert not any(c["action"].get("option") == "choose" for c in now["legal"])
    pool = picker["fields"]["cards"]["pool"]
    discard = now["view"]["players"]["P1"]["discard"]
    assert all(k.startswith("discard:") and k.split(":")[1] in discard for k in pool)
    assert (picker["fields"]["cards"]["min"], picker["fields"]["cards"]["max"]) == (0, 3)
    # a filled template the rule refuses: a card that is not in the discard pile
    stranger = next(c for c in now["view"]["players"]["P1"]["hand"] if c not in discard)
    with pytest.raises(RoomError) as refused:
        services.room_choose(room_id=room.pk, user=user, decision=now["decision"],
                             action={**picker["template"], "cards": [stranger]})
    assert refused.value.code == RoomErrorCode.ILLEGAL
    assert f"{stranger} is not in P1's discard pile" in refused.value.message
    ranks: dict[str, str] = {}
    for key in pool:
        ranks.setdefault(key.split(":")[1][0], key.split(":")[1])
    chosen = list(ranks.values())[:2]
    services.room_choose(room_id=room.pk, user=user, decision=now["decision"],
                         action={**picker["template"], "cards": chosen})
    assert RoomEvent.objects.filter(room=room, action={**picker["template"],
                                                       "cards": chosen}).exists()


def test_the_replay_page_shows_the_rooms_log_in_the_same_words(client) -> None:
    match, room = match_room(("grave", "jaina"))
    play_out(match, room, seed=11)
    room.refresh_from_db()
    shown = state(room, "public")["log"]
    assert shown and shown == log_turns(room.log_text)
    assert len(shown) == room.outcome["turns"]
    page = client.get(reverse("rooms:room-replay", args=[room.pk])).content.decode()
    for turn in shown:
        assert f'id="log-turn-{turn["turn"]}"' in page
    combat = next(line["text"] for t in shown for line in t["lines"] if line["kind"] == "combat")
    assert html.escape(combat) in page


@pytest.mark.parametrize("mode", ["training", "survival"])
def test_a_solo_runs_log_replays_the_rulebook_bots_turns(mode: str) -> None:
    user = UserFactory(username=f"solo-log-{mode}")
    room = services.room_open_practice(user=user, name="Ann", mode=mode, character="grave",
                                       bot_character="jaina")
    rng = random.Random(2)
    while state(room, "public")["view"]["turn"] < 4 and room.status != "finished":
        now = state(room, "P1")
        services.room_choose(room_id=room.pk, user=user, decision=now["decision"],
                             action=pick_choice(now, rng)["action"])
        room.refresh_from_db()
    shown = state(room, "public")["log"]
    assert [t["turn"] for t in shown] == list(range(1, len(shown) + 1)) and len(shown) >= 3
    assert all(any(line["kind"] == "damage" for line in t["lines"]) for t in shown)
    assert "Ann (Grave)" in json.dumps(shown, ensure_ascii=False)
