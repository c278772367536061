"""Issue 30, part 2: ``judge`` gives the verdict, the timeline and the board of a log from ONE
replay. Its in-place diagnosis of an illegal event is exactly the one a second replay gives
(``replay``'s, ``board_before``'s), and it applies each event of the log once (a counter on
``Game.apply``: an illegal log's verification applied 412 events for 125 before)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator

import pytest

from rules_engine.diagnosis import board_before
from rules_engine.game import Game
from rules_engine.judge import judge
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.selfplay import play_game, play_match
from rules_engine.team import Mode
from rules_engine.timeline import timeline


def _variants(text: str) -> dict[str, str]:
    doc = json.loads(text)
    events = doc["events"]
    stopped = dict(doc, events=events[: len(events) // 2])
    last = next(e for e in reversed(events) if e["player"] == "P1")
    named = {"character": last["character"]} if "character" in last else {}  # version 2
    extra = dict(doc, events=[*events, {"player": "P1", "action": "stop", **named}])
    mismatch = copy.deepcopy(doc)
    mismatch["result"]["winner"] = None
    out = {"legal": text, "stopped": json.dumps(stopped), "extra": json.dumps(extra),
           "mismatch": json.dumps(mismatch)}
    # swaps of neighbouring events and a dropped event all through the log: illegal events of
    # many kinds at many steps, each diagnosed
    for i in range(3, len(events) - 1, max(1, len(events) // 6)):
        swapped = copy.deepcopy(doc)
        swapped["events"][i], swapped["events"][i + 1] = events[i + 1], events[i]
        out[f"swap {i}"] = json.dumps(swapped)
        dropped = copy.deepcopy(doc)
        del dropped["events"][i]
        out[f"drop {i}"] = json.dumps(dropped)
    return out


LOGS = [
    play_game("grave", "jaina", 3)[1].dumps(),
    play_game("lum", "setsuki", 8, bot="greedy")[1].dumps(),
    play_match(Mode.TAG_TEAM, ("rook", "midori"), ("geiger", "valerie"), 2)[1].dumps(),
    play_match(Mode.TRIPLE_THREAT, ("grave", "jaina", "lum"), ("rook", "zane", "troq"),
               5)[1].dumps(),
]


@pytest.fixture
def applications(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times ``Game.apply`` ran (every game, the timeline's observing one too)."""
    count = [0]
    apply = Game.apply

    def counted(self: Game, *args: object) -> None:
        count[0] += 1
        apply(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "apply", counted)
    yield count


@pytest.mark.parametrize("text", LOGS)
def test_one_replay_gives_the_verdict_timeline_and_board_a_second_replay_gives(
        text: str) -> None:
    illegal = 0
    for kind, variant in _variants(text).items():
        judged = judge(variant)
        # the in-place diagnosis is the one that replays the log again up to the event
        assert judged.verdict.to_dict() == replay(variant).to_dict(), kind
        assert [t.to_dict() for t in judged.turns] == [t.to_dict() for t in timeline(variant)]
        error = judged.verdict.first_error
        if judged.verdict.status == "illegal":
            illegal += 1
            assert error is not None
            assert judged.board == board_before(parse_log(variant), error["index"]), kind
            assert judged.turns and judged.turns[-1].stopped is not None
            assert judged.turns[-1].stopped["index"] == error["index"]
            assert judged.turns[-1].stopped["reason"].startswith(error["reason"][:20])
        else:
            assert judged.board is None, kind
    assert illegal >= 6


@pytest.mark.parametrize("text", LOGS[:1] + LOGS[3:4])
def test_an_illegal_logs_judgement_applies_each_event_once(
        text: str, applications: list[int]) -> None:
    for kind, variant in _variants(text).items():
        events = len(json.loads(variant)["events"])
        applications[0] = 0
        judged = judge(variant)
        verdict = judged.verdict
        if verdict.status == "illegal":
            assert verdict.first_error is not None
            index = verdict.first_error["index"]
            # the events before the illegal one, and the illegal one tried (END-1, END-2:
            # nothing to try)
            tried = 0 if verdict.first_error["rule_id"] in ("END-1", "END-2") else 1
            assert applications[0] == min(index, events) + tried, kind
            assert judged.board is not None
        else:
            assert applications[0] == events, kind


def test_a_second_replay_is_what_judge_saves(applications: list[int]) -> None:
    """The count can fail: ``replay`` diagnoses an illegal event by replaying the log again."""
    swapped = _variants(LOGS[0])["swap 3"]
    applications[0] = 0
    assert replay(swapped).status == "illegal"
    twice = applications[0]
    applications[0] = 0
    judge(swapped)
    assert applications[0] < twice


def test_unreadable_input_is_judged_without_turns_or_board() -> None:
    judged = judge("not a log")
    assert judged.verdict.status == "unreadable" and judged.turns == [] and judged.board is None
    stopped = _variants(LOGS[0])["stopped"]
    judged = judge(stopped)
    assert judged.verdict.first_error is not None
    assert judged.verdict.first_error["rule_id"] == "END-1"
    assert judged.turns[-1].stopped is not None and judged.turns[-1].stopped["rule_id"] == "END-1"
