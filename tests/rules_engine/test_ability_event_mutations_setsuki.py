"""Issue 14: single-event mutations of Setsuki's ability events (Smoke Bomb's counter, Bag of
Tricks played and each card put back: card, cards or option changed, or the event dropped) are
rejected by the verifier or change the game (its result or the positions along the way).
Speed of the Fox makes no ability event (its draws are ordinary ``draw`` events)."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine.cards import characters
from rules_engine.selfplay import play_game

from .ability_mutations import assert_mutations_change_the_game, logs_with

Doc = dict[str, Any]
OPPONENTS = ("grave", "jaina", "midori", "gwen", "valerie", "vendetta", "argagarg", "degrey")
# Bag of Tricks needs a lone 7 in hand at the end of a turn: rare in self-play; these seeds
# (opponent ``sorted(characters())[seed % 20]``, as ``logs_with`` picks them) play it.
BAG_SEEDS = (223,)


def _bag_logs(option: str | None) -> list[tuple[Doc, int]]:
    ids = sorted(characters())
    found: list[tuple[Doc, int]] = []
    for seed in BAG_SEEDS:
        opp = ids[seed % len(ids)]
        p1, p2 = ("setsuki", opp) if seed % 2 else (opp, "setsuki")
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        for i, e in enumerate(doc["events"]):
            if e.get("action") == "ability" and e.get("ability") == "Bag of Tricks" \
                    and e.get("option") == option:
                found.append((doc, i))
                break
    return found


def test_mutated_smoke_bomb_events_are_rejected_or_change_the_game() -> None:
    assert_mutations_change_the_game(logs_with("setsuki", "Smoke Bomb", OPPONENTS), "Smoke Bomb")


@pytest.mark.parametrize("option", [None, "top"])
def test_mutated_bag_of_tricks_events_are_rejected_or_change_the_game(option: str | None) -> None:
    assert_mutations_change_the_game(_bag_logs(option), f"Bag of Tricks {option}")
