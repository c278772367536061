"""The log schema check's fast path (issue 17, part 2: the full jsonschema check took seven times
the replay) gives the full check's answer: it never passes a log the full check refuses, and a
refused log still gets the full check's JSON path."""

from __future__ import annotations

import json
import random

import pytest

from matches import engine
from tests.matches.factories import self_play_log_text


def _mutations() -> list:  # type: ignore[type-arg]
    return [
        lambda e: e.__setitem__("extra", 1),
        lambda e: e.__setitem__("player", True),
        lambda e: e.__setitem__("player", "P3"),
        lambda e: e.pop("card", None),
        lambda e: e.__setitem__("card", 7),
        lambda e: e.__setitem__("action", "teleport"),
        lambda e: e.__setitem__("action", 3),
        lambda e: e.__setitem__("cards", ["XX"]),
        lambda e: e.__setitem__("move", "block"),
        lambda e: e.__setitem__("target", -1),
        lambda e: e.__setitem__("action", "pass"),
        lambda e: e.__setitem__("action", "draw"),
        lambda e: e.__setitem__("name", 3),
    ]


def _by_action(events: list) -> list[list[int]]:  # type: ignore[type-arg]
    """The indexes of the log's events, grouped by action (in order of first appearance)."""
    groups: dict[str, list[int]] = {}
    for i, e in enumerate(events):
        groups.setdefault(e["action"], []).append(i)
    return list(groups.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_fast_check_agrees_with_the_full_schema(seed: int) -> None:
    """Every kind of mutation once a seed, each on an event of another action (so, over the
    three seeds, each mutation meets three kinds of events): the full check (0.1-0.4 s a log)
    is run once a mutated log, and the refused log's JSON path once."""
    text = self_play_log_text("grave", "jaina", seed)
    full = engine._schema_validator()
    assert engine._valid_quickly(json.loads(text)) and full.is_valid(json.loads(text))
    rng = random.Random(seed)
    groups = _by_action(json.loads(text)["events"])
    refused = 0
    for k, mutate in enumerate(_mutations()):
        doc = json.loads(text)
        group = groups[(k + seed) % len(groups)]
        event = doc["events"][rng.choice(group)]
        mutate(event)
        valid = full.is_valid(doc)
        if engine._valid_quickly(doc):
            assert valid, event
        if not valid:
            refused += 1
            with pytest.raises(engine.Unreadable) as unread:
                engine.log_schema_check(doc)
            assert unread.value.json_path.startswith("$.events["), event
    assert refused >= len(_mutations()) - 3  # the check met refused logs, not only valid ones


def test_a_header_the_schema_refuses_is_refused() -> None:
    doc = json.loads(self_play_log_text())
    doc["surprise"] = True
    assert not engine._valid_quickly(doc)
    with pytest.raises(engine.Unreadable):
        engine.log_schema_check(doc)


@pytest.mark.parametrize("mode", ["tag_team", "dramatic_battle"])
def test_the_fast_check_of_tag_events_agrees_with_the_full_schema(mode: str) -> None:
    """Version 2's ``tag`` is named by four branches of the event schema: the fast check takes
    the log (it used to hand every Tag Team and Dramatic Battle log to the full check, 0.4 s
    each) and still refuses a tag event no branch, or two branches, would take."""
    from rules_engine.selfplay import play_match
    from rules_engine.team import Mode

    lineups = (("grave", "jaina"), ("rook", "setsuki")) if mode == "tag_team" \
        else (("lum", "grave"), ("troq",))
    _, log = play_match(Mode(mode), *lineups, 5, bot="greedy")
    text = log.dumps()
    full = engine._schema_validator(2)
    assert engine._valid_quickly(json.loads(text), 2) and full.is_valid(json.loads(text))
    tags = [i for i, e in enumerate(json.loads(text)["events"]) if e.get("action") == "tag"]
    assert tags
    mutations = [*_mutations(), lambda e: e.__setitem__("tag", "ace"),
                 lambda e: e.__setitem__("tag", "super"), lambda e: e.pop("tag", None),
                 lambda e: e.__setitem__("tag", "dodge"), lambda e: e.__setitem__("sets", [])]
    # every mutation once, on the log's kinds of tag (super, ace, ...) in turn: the full check
    # costs 0.1-0.4 s a log, and 60 random picks of 18 mutations checked no more kinds of
    # mutation
    events = json.loads(text)["events"]
    kinds: dict[object, list[int]] = {}
    for i in tags:
        kinds.setdefault(events[i].get("tag"), []).append(i)
    rng = random.Random(mode)
    for k, mutate in enumerate(mutations):
        doc = json.loads(text)
        i = rng.choice(list(kinds.values())[k % len(kinds)])
        mutate(doc["events"][i])
        assert engine._valid_quickly(doc, 2) == full.is_valid(doc), (i, doc["events"][i])
