"""Single-event mutations of the ability decisions Midori, Gloria and Geiger bring (their
``ability`` and ``search`` events, the Time Stop ``combo``): each mutated log is rejected, or
gives another result, or is another legal game whose positions differ (as in
test_selfplay_properties.py: a verifier must accept a different legal game)."""

from __future__ import annotations

import json

import pytest

from rules_engine.replay import replay
from rules_engine.selfplay import play_game

from .test_selfplay_properties import _positions

MINE = {"Dragon Form", "Glimpse of the Dragon", "Aspect of the Dragon", "Healing Touch",
        "Healing Sphere", "Bathed in Moonlight", "Overdose", "Temporal Distortion",
        "Research and Development"}


def _ability_logs(character: str) -> list[dict]:  # type: ignore[type-arg]
    out = []
    for n, opp in enumerate(("grave", "jaina", "midori", "gloria", "geiger", "zane")):
        _, log = play_game(character, opp, 300 + n, bot="greedy" if n % 2 else "random")
        out.append(log.to_json())
    return out


def _mutants(doc: dict) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    out = []
    for i, e in enumerate(doc["events"]):
        if e["action"] != "ability" or e["ability"] not in MINE:
            continue
        dropped = json.loads(json.dumps(doc))
        del dropped["events"][i]
        out.append((f"drop {i} {e['ability']}", dropped))
        for key in ("card", "cards"):
            if key in e:
                altered = json.loads(json.dumps(doc))
                value = altered["events"][i][key]
                if key == "card":
                    altered["events"][i][key] = "3H" if value != "3H" else "4H"
                else:
                    value[0] = "3H" if value[0] != "3H" else "4H"
                out.append((f"{key} {i} {e['ability']}", altered))
        renamed = json.loads(json.dumps(doc))
        renamed["events"][i]["ability"] = "Overdose" if e["ability"] != "Overdose" \
            else "Dragon Form"
        out.append((f"rename {i} {e['ability']}", renamed))
        if len(out) > 12:
            break
    return out


@pytest.mark.parametrize("character", ["midori", "gloria", "geiger"])
def test_mutated_ability_events_are_rejected_or_change_the_game(character: str) -> None:
    checked = 0
    for doc in _ability_logs(character):
        original = replay(doc)
        assert original.status == "legal"
        for label, mutated in _mutants(doc):
            verdict = replay(mutated)
            checked += 1
            if verdict.status == "legal" and verdict.final == original.final:
                assert _positions(mutated) != _positions(doc), label
    assert checked >= 20
