"""Issue 14: single-event mutations of Menelker's ability events are rejected by the verifier or
change the game (its result or the positions along the way), in self-play logs against several
opponents: Into Oblivion as played (its 10 and its target, `card` and `cards`), the opponent's
choice of the card they banish (an `ability` event with `cards` only), Bonecracker's named card;
each altered or dropped. Bleeding Wounds makes `discard` and `power_up` events of the usual
kinds (covered by test_selfplay_properties.py)."""

from __future__ import annotations

import pytest

from rules_engine.selfplay import play_game

from .ability_mutations import Doc, assert_mutations_change_the_game, logs_with

OPPONENTS = ("grave", "jaina", "midori", "gwen", "valerie", "vendetta")


@pytest.mark.parametrize("ability", ["Into Oblivion", "Bonecracker"])
def test_mutated_ability_events_are_rejected_or_change_the_game(ability: str) -> None:
    assert_mutations_change_the_game(logs_with("menelker", ability, OPPONENTS), ability)


def _banish_choices(want: int = 3) -> list[tuple[Doc, int]]:
    """Logs with the opponent's Into Oblivion choice (no `card`: the card they banish)."""
    found: list[tuple[Doc, int]] = []
    for seed in range(300):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = ("menelker", opp) if seed % 2 else (opp, "menelker")
        _, log = play_game(p1, p2, seed, bot="random")
        doc = log.to_json()
        for i, e in enumerate(doc["events"]):
            if e.get("ability") == "Into Oblivion" and "card" not in e:
                found.append((doc, i))
                break
        if len(found) >= want:
            break
    return found


def test_mutated_banish_choice_is_rejected_or_changes_the_game() -> None:
    assert_mutations_change_the_game(_banish_choices(), "Into Oblivion (the opponent's banish)")
