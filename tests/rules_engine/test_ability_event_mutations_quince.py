"""Issue 14: single-event mutations of Quince's ability events are rejected by the verifier or
change the game (its result or the positions along the way), in self-play logs against several
opponents: Positive Spin (the reveal, the rotation), Two Truths (played, the cards chosen, the
piles, the opponent's pick), Flagstone Tax, Patriot Mirror (taken at the end of the turn, the
card used). The second face-down card is an ordinary ``commit`` event."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine.selfplay import play_game

from .ability_mutations import assert_mutations_change_the_game

Doc = dict[str, Any]
OPPONENTS = ("grave", "jaina", "midori", "gwen", "valerie", "vendetta")
# (ability, option, whether the event names a card): one kind of Quince event each
EVENTS = (
    ("Positive Spin", None, True),
    ("Positive Spin", "rotate", True),
    ("Two Truths", None, True),
    ("Two Truths", "choose", False),
    ("Two Truths", "piles", False),
    ("Two Truths", "to_hand", False),
    ("Flagstone Tax", None, True),
    ("Patriot Mirror", "second_card", False),
    ("Patriot Mirror", None, True),
)


def _logs(ability: str, option: str | None, with_card: bool,
          want: int = 3) -> list[tuple[Doc, int]]:
    found: list[tuple[Doc, int]] = []
    for seed in range(300):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = ("quince", opp) if seed % 2 else (opp, "quince")
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        events = doc["events"]
        for i, e in enumerate(events):
            nxt = events[i + 1] if i + 1 < len(events) else {}
            # a countered ability's option changes nothing (the positions are the same)
            countered = nxt.get("action") == "ability" and nxt.get("player") != e["player"] \
                and nxt.get("ability") != ability
            if not countered and e.get("action") == "ability" and e.get("ability") == ability \
                    and (option is None or e.get("option") == option) \
                    and (option is not None or e.get("option") in (None, "attack", "block",
                                                                   "throw", "dodge")) \
                    and bool(e.get("card")) is with_card:
                found.append((doc, i))
                break
        if len(found) >= want:
            break
    return found


@pytest.mark.parametrize(("ability", "option", "with_card"), EVENTS)
def test_mutated_quince_events_are_rejected_or_change_the_game(
        ability: str, option: str | None, with_card: bool) -> None:
    assert_mutations_change_the_game(_logs(ability, option, with_card),
                                     f"{ability} {option}")
