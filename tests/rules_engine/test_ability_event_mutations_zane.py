"""Issue 14: single-event mutations of Zane's events are rejected by the verifier or change the
game (its result or the positions along the way), in self-play logs against several opponents:
Shenanigans (dropped), the revealed card he plays in his combo (the `combo` event right after
it: its card changed, or dropped), and Creator and Destroyer (its 4 changed, or dropped).
Meaty Attacks and Crash Bomb make no event."""

from __future__ import annotations

import pytest

from rules_engine.selfplay import play_game

from .ability_mutations import Doc, assert_mutations_change_the_game, logs_with

OPPONENTS = ("grave", "jaina", "midori", "gwen", "valerie", "vendetta")


@pytest.mark.parametrize("ability", ["Shenanigans", "Creator and Destroyer"])
def test_mutated_ability_events_are_rejected_or_change_the_game(ability: str) -> None:
    assert_mutations_change_the_game(logs_with("zane", ability, OPPONENTS), ability)


def _revealed_card_played(want: int = 3) -> list[tuple[Doc, int]]:
    """Logs where Zane plays a revealed card: the `combo` event right after Shenanigans."""
    found: list[tuple[Doc, int]] = []
    for seed in range(300):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = ("zane", opp) if seed % 2 else (opp, "zane")
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        events = doc["events"]
        for i, e in enumerate(events[:-1]):
            if e.get("ability") == "Shenanigans" and events[i + 1].get("action") == "combo":
                found.append((doc, i + 1))
                break
        if len(found) >= want:
            break
    return found


def test_mutated_revealed_card_choice_is_rejected_or_changes_the_game() -> None:
    assert_mutations_change_the_game(_revealed_card_played(), "Shenanigans (the card played)")
