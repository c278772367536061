"""Issue 17, part 2: the worker's one replay gives exactly ``replay``'s verdict and
``timeline``'s turns; what one replay cannot give (an illegal event, an event after the end) is
left to ``timeline`` (None), never answered differently."""

from __future__ import annotations

import copy
import json

import pytest

from rules_engine.replay import replay
from rules_engine.selfplay import play_game, play_match
from rules_engine.team import Mode
from rules_engine.timeline import replay_with_timeline, timeline


def _variants(text: str) -> dict[str, str]:
    doc = json.loads(text)
    events = doc["events"]
    stopped = dict(doc, events=events[: len(events) // 2])
    extra = dict(doc, events=[*events, {"player": "P1", "action": "stop"}])
    mismatch = copy.deepcopy(doc)
    mismatch["result"]["winner"] = None
    swapped = copy.deepcopy(doc)
    swapped["events"][5], swapped["events"][6] = swapped["events"][6], swapped["events"][5]
    return {"legal": text, "stopped": json.dumps(stopped), "extra": json.dumps(extra),
            "mismatch": json.dumps(mismatch), "swapped": json.dumps(swapped)}


LOGS = [
    play_game("grave", "jaina", 3)[1].dumps(),
    play_game("lum", "setsuki", 8, bot="greedy")[1].dumps(),
    play_match(Mode.TAG_TEAM, ("rook", "midori"), ("geiger", "valerie"), 2)[1].dumps(),
]


@pytest.mark.parametrize("text", LOGS)
def test_one_replay_gives_the_verdict_and_the_timeline(text: str) -> None:
    one_pass = 0
    for kind, variant in _variants(text).items():
        verdict, turns = replay_with_timeline(variant)
        assert verdict.to_dict() == replay(variant).to_dict(), kind
        if turns is not None:
            one_pass += 1
            assert [t.to_dict() for t in turns] == [t.to_dict() for t in timeline(variant)], kind
    # a legal game, a mismatch and a log that stops early are judged in one replay
    assert one_pass >= 3


def test_what_one_replay_cannot_give_is_left_to_the_timeline() -> None:
    variants = _variants(LOGS[0])
    verdict, turns = replay_with_timeline(variants["extra"])
    assert verdict.status == "illegal" and turns is None
    verdict, turns = replay_with_timeline("not a log")
    assert verdict.status == "unreadable" and turns is None
    verdict, turns = replay_with_timeline(variants["stopped"])
    assert verdict.first_error is not None and verdict.first_error["rule_id"] == "END-1"
    assert turns is not None and turns[-1].stopped is not None
    assert turns[-1].stopped["rule_id"] == "END-1"
