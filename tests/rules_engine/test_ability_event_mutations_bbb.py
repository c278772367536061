"""Issue 13: single-event mutations of BBB's ability events (Overdrive: its card field changed,
or the event dropped) are rejected by the verifier or change the game (its result or the
positions along the way), in self-play logs against several opponents. Robo Headbutt and Long
Range make no ability event (the extra combo is ordinary combo events)."""

from __future__ import annotations

import pytest

from rules_engine.replay import replay

from .test_ability_event_mutations_degrey_argagarg_gwen import _variants
from .test_selfplay_properties import _positions

ABILITIES = (("bbb", "Overdrive"),)
OPPONENTS = ("grave", "jaina", "midori", "gwen", "valerie", "vendetta")


def _logs_with(cid: str, ability: str, want: int = 3) -> list[tuple[dict, int]]:
    """(log, index of an event of ``ability``) from seeded self-play of ``cid``."""
    from rules_engine.selfplay import play_game

    found: list[tuple[dict, int]] = []
    for seed in range(200):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = (cid, opp) if seed % 2 else (opp, cid)
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        for i, e in enumerate(doc["events"]):
            if e.get("action") == "ability" and e.get("ability") == ability:
                found.append((doc, i))
                break
        if len(found) >= want:
            break
    return found


@pytest.mark.parametrize(("cid", "ability"), ABILITIES)
def test_mutated_ability_events_are_rejected_or_change_the_game(cid: str, ability: str) -> None:
    logs = _logs_with(cid, ability)
    assert logs, f"no self-play log plays {ability}"
    for doc, i in logs:
        original = replay(doc)
        assert original.status == "legal"
        for label, mutated in _variants(doc, i):
            verdict = replay(mutated)
            if verdict.status == "legal" and verdict.final == original.final:
                assert _positions(mutated) != _positions(doc), (ability, label)
