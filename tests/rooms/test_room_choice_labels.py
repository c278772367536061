"""Every kind of choice the engine lists has a button label in the game's words (issue 22):
cards with their suits and the move they play, the character a pick or a tag brings in."""

from __future__ import annotations

import random
import re

import pytest

from matches.models import Match
from matches.services.matches import match_create
from rooms import services
from rooms.models import Room
from rules_engine.actions import Action, BotTie, Pick, Snapback, Stop, Swap, Tag
from rules_engine.cards import card
from rules_engine.choices import describe
from tests.matches.factories import PlayerFactory
from tests.rooms.helpers import deciding, pick_choice

pytestmark = pytest.mark.django_db

TAG = {"P1": "grave", "P2": "rook", "P3": "jaina", "P4": "lum"}
NAMES = "Grave|Rook|Jaina|Lum"
RAW_CODE = re.compile(r"\b(?:[2-9TJQKA][CDHS]|X[12])\b")  # "4C": a log's code, not a label
CARD = r"(?:[2-9]|10|Jack|Queen|King|Ace)[♣♦♥♠]|Joker(?: \(second\))?"


def test_every_choice_of_a_tag_team_game_has_a_label_in_the_games_words() -> None:
    match = match_create(mode=Match.Mode.TAG_TEAM, side_1=[PlayerFactory(), PlayerFactory()],
                         side_2=[PlayerFactory(), PlayerFactory()])
    room = services.room_open_for_match(match=match, user=match.sides.first().player.user)
    users = {s.seat: s.user for s in room.seats.select_related("user")}
    for seat, character in TAG.items():
        services.room_pick(room_id=room.pk, user=users[seat], character=character)
    rng = random.Random(11)
    seen: dict[str, set[str]] = {}
    for _ in range(5000):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            break
        seat, now = deciding(room)
        for choice in now["legal"]:
            label = choice["label"]
            assert label and label[0].isupper(), choice
            assert not RAW_CODE.search(label), choice
            seen.setdefault(choice["action"]["action"], set()).add(label)
        services.room_choose(room_id=room.pk, user=users[seat],
                             action=pick_choice(now["legal"], rng)["action"],
                             decision=now["decision"], seat=now.get("deciding_for"))
    assert room.status == Room.Status.FINISHED
    assert seen["assist"] and seen["tag"] and seen["commit"]
    for label in seen["assist"]:  # the benched character's move on the card, and the cost
        assert re.fullmatch(rf"Assist with (?:Jack|Queen|King)[♣♦♥♠] \((?:[^,()]+, )?"
                            rf"(?:attack|throw)\), discard (?:{CARD})", label), label
    for label in seen["tag"]:  # the partner who comes in, and how
        assert re.match(rf"(?:Tag in (?:{NAMES}) \((?:dodge|continue|super|Ace) tag\)|"
                        rf"Hard tag: (?:{NAMES}) comes in)", label), label
    for label in seen["commit"]:
        assert re.fullmatch(rf"Commit (?:{CARD})(?: \([^()]+\))?", label), label
    assert seen.get("swap", {"Swap the assist in"}) == {"Swap the assist in"}


def _label(action: Action) -> str:
    return describe(None, None, action).label


def test_the_rarer_kinds_are_labelled_too() -> None:
    assert _label(Snapback(card("4C"))) == \
        "Snapback (discard 4♣): the opponent switches out"
    assert _label(Pick("jaina")) == "Send in Jaina"
    assert _label(Swap()) == "Swap the assist in"
    assert _label(BotTie(Stop())) == "The bot's tied combos: it goes on with Stop"
    assert _label(Tag("dodge", card("4C"), card("KH"))) == \
        "Tag in your partner (dodge tag), discard 4♣ and your partner's King♥"
    assert _label(Tag("ace", sets=(card("2C"), card("2D")),
                                  from_discard=(card("AS"),))) == \
        ("Tag in your partner (Ace tag): discard 2♣, 2♦; your partner takes Aces from "
         "discard: Ace♠, deck: none")
