"""Issue 14: single-event mutations of Persephone's ability events (Dominance's fetched card,
Do As Told's counter and the opponent's "take 10 damage" answer, Bare Your Soul's card, the
face-up card drawn instead, a pass turned into a fetch) are rejected by the verifier or change
the game (its result or the positions along the way), in self-play logs against several
opponents. Mistress's Command makes no event (its control changes who chooses, not what)."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine.selfplay import play_game

from .ability_mutations import assert_mutations_change_the_game, logs_with

ABILITIES = (("persephone", "Dominance"), ("persephone", "Do As Told"),
             ("persephone", "Bare Your Soul"))
OPPONENTS = ("grave", "jaina", "midori", "gwen", "argagarg", "geiger")


@pytest.mark.parametrize(("cid", "ability"), ABILITIES)
def test_mutated_ability_events_are_rejected_or_change_the_game(cid: str, ability: str) -> None:
    assert_mutations_change_the_game(logs_with(cid, ability, OPPONENTS), ability)


def _events_where(pred: Any, want: int = 3) -> list[tuple[dict[str, Any], int]]:
    found = []
    for seed in range(300):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = ("persephone", opp) if seed % 2 else (opp, "persephone")
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        for i, e in enumerate(doc["events"]):
            if pred(e):
                found.append((doc, i))
                break
        if len(found) >= want:
            break
    return found


def test_mutated_do_as_told_answers_are_rejected_or_change_the_game() -> None:
    """The opponent's answer (option "take 10 damage") altered or dropped."""
    logs = _events_where(lambda e: e.get("option") == "take 10 damage")
    assert_mutations_change_the_game(logs, "Do As Told (take 10 damage)")


def test_mutated_face_up_draws_are_rejected_or_change_the_game() -> None:
    """Bare Your Soul at an opponent's draw: the face-up card named, altered or dropped."""
    logs = _events_where(lambda e: e.get("ability") == "Bare Your Soul" and "card" not in e
                         and len(e.get("cards", [])) == 1)
    assert_mutations_change_the_game(logs, "Bare Your Soul (a face-up card drawn)")
