"""Issue 12: single-event mutations of the ability events of DeGrey, Argagarg and Gwen (their
card, cards and option fields, or the event dropped) are rejected by the verifier or change the
game (its result or the positions along the way), in self-play logs against several opponents."""

from __future__ import annotations

import json

import pytest

from rules_engine.replay import replay
from rules_engine.selfplay import play_game

from .test_selfplay_properties import OTHER_OPTION, _positions

ABILITIES = {
    "degrey": ("Troublesome Rhetoric", "Point, Counterpoint"),
    "argagarg": ("Protective Ward", "Crash and Flow"),
    "gwen": ("Relentless Strikes",),
}
OPPONENTS = ("grave", "jaina", "degrey", "argagarg", "gwen")


def _logs_with(cid: str, ability: str, want: int = 3) -> list[tuple[dict, int]]:
    """(log, index of an event of ``ability``) from seeded self-play of ``cid``."""
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


def _variants(doc: dict, i: int) -> list[tuple[str, dict]]:
    e = doc["events"][i]
    out = []
    dropped = json.loads(json.dumps(doc))
    del dropped["events"][i]
    out.append(("drop", dropped))
    if e.get("card"):
        for other in ("2S", "KH", "X2"):
            if other != e["card"]:
                altered = json.loads(json.dumps(doc))
                altered["events"][i]["card"] = other
                out.append((f"card {other}", altered))
    if e.get("cards"):
        altered = json.loads(json.dumps(doc))
        altered["events"][i]["cards"][0] = "QS" if e["cards"][0] != "QS" else "QH"
        out.append(("cards", altered))
    if e.get("option"):
        altered = json.loads(json.dumps(doc))
        altered["events"][i]["option"] = OTHER_OPTION.get(e["option"], "other")
        out.append(("option", altered))
    return out


@pytest.mark.parametrize(("cid", "ability"),
                         [(c, a) for c, names in ABILITIES.items() for a in names])
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
