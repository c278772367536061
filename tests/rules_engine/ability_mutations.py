"""Shared pieces of the ability-event mutation tests (test_ability_event_mutations_*.py): find
self-play logs that play an ability, alter or drop that event, and check the verifier rejects
the result or it is a different game (as in test_selfplay_properties.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from rules_engine.replay import replay
from rules_engine.selfplay import play_game

from .test_selfplay_properties import OTHER_OPTION, _positions

Doc = dict[str, Any]


def logs_with(cid: str, ability: str, opponents: Sequence[str],
              want: int = 3) -> list[tuple[Doc, int]]:
    """(log, index of an event of ``ability``) from seeded self-play of ``cid``."""
    found: list[tuple[Doc, int]] = []
    for seed in range(200):
        opp = opponents[seed % len(opponents)]
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


def variants(doc: Doc, i: int) -> list[tuple[str, Doc]]:
    """Event ``i`` dropped, or its card, first of its cards, or option changed."""
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


def assert_mutations_change_the_game(
    logs: list[tuple[Doc, int]], label: str,
    mutate: Callable[[Doc, int], list[tuple[str, Doc]]] = variants,
) -> None:
    """Every mutant of every log is rejected, or gives another result, or is another legal
    game whose positions differ."""
    assert logs, f"no self-play log plays {label}"
    for doc, i in logs:
        original = replay(doc)
        assert original.status == "legal"
        for name, mutated in mutate(doc, i):
            verdict = replay(mutated)
            if verdict.status == "legal" and verdict.final == original.final:
                assert _positions(mutated) != _positions(doc), (label, name)
