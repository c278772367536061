"""Issue 17, part 2: what a worker computes per log (``engine.log_judge``: verdict, timeline,
board, from one decoding and, for most logs, one replay) is what the separate questions answer;
the schema check's memory of valid events never lets an invalid event through."""

from __future__ import annotations

import json

import pytest

from matches import engine
from tests.matches.factories import self_play_log_text, with_claimed_winner, with_extra_event


def _cases() -> dict[str, str]:
    legal = self_play_log_text("grave", "jaina", 4)
    doc = json.loads(legal)
    doc["events"] = doc["events"][:30]
    bad_schema = json.loads(legal)
    bad_schema["events"][3]["player"] = "P9"
    return {"legal": legal, "mismatch": with_claimed_winner(legal, None),
            "illegal": with_extra_event(legal), "stopped": json.dumps(doc),
            "unreadable": json.dumps(bad_schema), "not json": "{"}


@pytest.mark.parametrize("kind", list(_cases()))
def test_log_judge_is_the_verdict_and_the_analysis(kind: str) -> None:
    text = _cases()[kind]
    judged = engine.log_judge(text)
    verdict = engine.log_verdict(text)
    assert judged.verdict == verdict
    assert (judged.turns, judged.board) == engine.log_analysis(text, verdict)
    if kind in ("illegal", "stopped"):
        assert judged.board is not None  # the board before the first error
    if kind == "legal":
        assert verdict["status"] == "legal" and judged.turns


@pytest.mark.parametrize("field, twin_value", [
    ("player", True),  # a bool, not a seat
    ("card", ["AC"]),  # a list of the card, not the card
])
def test_a_remembered_valid_event_does_not_pass_its_invalid_twin(field: str,
                                                                   twin_value: object) -> None:
    doc = json.loads(self_play_log_text("grave", "jaina", 5))
    engine.log_schema_check(doc)  # every event is now known valid
    assert engine._VALID_EVENTS[1]
    event = next(e for e in doc["events"] if isinstance(e.get(field), str))
    twin = json.loads(json.dumps(doc))
    twin["events"][doc["events"].index(event)][field] = twin_value
    with pytest.raises(engine.Unreadable) as refused:
        engine.log_schema_check(twin)
    assert refused.value.json_path.startswith("$.events[")
    assert not engine._valid_quickly(twin)


def test_the_memory_of_valid_events_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full: emptied, then it holds the newest log's new events only."""
    monkeypatch.setattr(engine, "VALID_EVENTS_MAX", 10)
    monkeypatch.setitem(engine._VALID_EVENTS, 1, set())
    docs = [json.loads(self_play_log_text("grave", "jaina", seed)) for seed in (6, 7)]
    keys = [{repr(e) for e in doc["events"]} for doc in docs]
    engine.log_schema_check(docs[0])
    assert engine._VALID_EVENTS[1] == keys[0]
    engine.log_schema_check(docs[1])
    known = engine._VALID_EVENTS[1]
    assert known and known.isdisjoint(keys[0]) and known <= keys[1]
