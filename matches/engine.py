"""The one place where the matches app talks to the rules engine.

Questions: can this log be read at all (at submission, synchronously), what is the verdict of
replaying it (in a worker), where do two logs of the same match first differ (disputes), what
happened turn by turn (the match page), and what does a rule ID say.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

import rules_engine
from rules_engine.diagnosis import board_before
from rules_engine.errors import LogSyntaxError
from rules_engine.judge import judge
from rules_engine.log import MatchLog, parse_log
from rules_engine.replay import replay
from rules_engine.rules_text import rule_text

# The engine's release (what its verdicts say) and the version a worker reports for each log it
# judges: the release plus which build judged it, "0.3.0" interpreted, "0.3.0+mypyc.1a2b3c4d"
# compiled (rules_engine.build). Both builds give the same verdicts: a log judged by either
# build of this release is not judged again (services.reverification).
ENGINE_RELEASE: str = rules_engine.__version__
ENGINE_VERSION: str = ENGINE_RELEASE + rules_engine.BUILD.label
SCHEMA_FILES = {1: "match-log-v1.json", 2: "match-log-v2.json"}  # by the log's "version"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Unreadable(Exception):
    """The log cannot be read: where (a JSON path such as ``$.events[3].card``) and why."""

    json_path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.json_path}: {self.reason}"


@cache
def _schema_validator(version: int = 1) -> Draft202012Validator:
    """The engine's own JSON Schema for logs of a format version (``rules_engine/schema/``),
    compiled once."""
    text = resources.files("rules_engine").joinpath(
        "schema", SCHEMA_FILES[version]).read_text("utf-8")
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every ``#/$defs/...`` reference replaced by the definition itself (the log
    schemas' definitions are not recursive). Same answers, without the reference look-ups that
    took two thirds of jsonschema's time per event; a ``$ref`` beside other keywords becomes
    the first branch of an ``allOf``, as 2020-12 reads it."""
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _inline_refs(value, defs) for key, value in node.items() if key != "$ref"}
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return out if ref is None else {**out, "$ref": ref}
    target = _inline_refs(defs[ref.removeprefix("#/$defs/")], defs)
    if not out:
        return target
    return {**out, "allOf": [target, *out.get("allOf", [])]}


@cache
def _event_validators(version: int = 1) -> dict[str, Draft202012Validator]:
    """One compiled schema per kind of event: the event schema (``$defs/event``, the ``items``
    of ``events``) is a ``oneOf`` whose branches each take their own ``action`` values, so an
    event matches it exactly when it matches the common part and the one branch for its action.
    Checking that branch alone is what makes the check fast (jsonschema otherwise tries every
    branch of every event). An action several branches name (version 2's ``tag``: a plain tag,
    a dodge or continue, a super, an ace) gets a ``oneOf`` of those branches alone: every branch
    fixes its ``action``, so no other branch can match such an event, and exactly one of these
    must, as in the full schema (leaving them to the full check made every Tag Team and Dramatic
    Battle log take the full check, 0.4 s a log). References are inlined (``_inline_refs``)."""
    text = resources.files("rules_engine").joinpath(
        "schema", SCHEMA_FILES[version]).read_text("utf-8")
    defs = json.loads(text)["$defs"]
    event = defs["event"]
    common = {key: value for key, value in event.items() if key != "oneOf"}
    branches: dict[str, list[dict[str, Any]]] = {}
    for branch in event.get("oneOf", []):
        action = branch.get("properties", {}).get("action", {})
        for value in [action["const"]] if "const" in action else action.get("enum", []):
            branches.setdefault(value, []).append(branch)
    return {
        action: Draft202012Validator(_inline_refs(
            {"allOf": [common, found[0] if len(found) == 1 else {"oneOf": found}]}, defs))
        for action, found in branches.items()
    }


# Events found valid, by format version and ``repr`` of the decoded event: logs repeat the same
# few thousand events (about 90% of a log's distinct events were in the 300 logs before it), and
# an event's validity depends on its JSON alone. Only valid events are kept; bounded (emptied
# when full).
_VALID_EVENTS: dict[int, set[str]] = {}
VALID_EVENTS_MAX = 50_000


def _valid_quickly(document: Any, version: int = 1) -> bool:
    """True when the log certainly matches the schema, checked the fast way: the header once,
    then each *distinct* event against the schema of its kind only, skipping events already
    found valid (``_VALID_EVENTS``). The schema checks each event on its own (``items``,
    nothing across events), so this is the same answer as the full check at a fraction of the
    cost (the full check took 7 times the replay). False means "look closer": the full check
    then finds and names the error."""
    if not isinstance(document, dict) or not isinstance(document.get("events"), list):
        return False
    if not _schema_validator(version).is_valid({**document, "events": []}):
        return False
    validators = _event_validators(version)
    known = _VALID_EVENTS.setdefault(version, set())
    fresh: set[str] = set()
    for event in document["events"]:
        # repr tells true from 1, 1 from 1.0 and "1" from 1, as the schema's types do, so
        # two events with one repr are the same value; keys in another order only miss the
        # cache. It is 4x as fast as json.dumps(sort_keys=True), its key until issue 17's
        # fifth round (0.23 ms of a log's 0.37 ms schema check).
        key = repr(event)
        if key in known or key in fresh:
            continue
        action = event.get("action") if isinstance(event, dict) else None
        validator = validators.get(action) if isinstance(action, str) else None
        if validator is None or not validator.is_valid(event):
            return False
        fresh.add(key)
    if len(known) + len(fresh) > VALID_EVENTS_MAX:
        known.clear()
    known |= fresh
    return True


def _json_path(parts: Iterable[str | int]) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def log_schema_check(document: Any) -> None:
    """Raise :class:`Unreadable` at the most relevant place where the schema refuses the log.

    The engine's parser is lenient in places its schema is not (extra keys, wrong types inside
    events); checking the schema before any replay keeps "legal" to logs of the published shape.
    """
    version = document.get("version") if isinstance(document, dict) else None
    version = version if version in SCHEMA_FILES and not isinstance(version, bool) else 1
    if _valid_quickly(document, version):
        return
    error = best_match(_schema_validator(version).iter_errors(document))
    if error is None:
        return
    message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
    raise Unreadable(_json_path(error.absolute_path), f"does not match the log schema: {message}")


@dataclass(frozen=True)
class ReadableLog:
    mode: str  # the game mode the log says it records ("versus", ...)
    claimed: dict[str, Any]  # its claimed result (may be empty)
    # each side's declared characters (engine ids), side 1's first
    characters: tuple[list[str], list[str]] = ([], [])


def log_characters(text: str) -> tuple[list[str], list[str]]:
    """Each side's declared characters (engine ids), side 1's first, of a readable log."""
    return _characters(parse_log(text))


def _characters(log: MatchLog) -> tuple[list[str], list[str]]:
    teams = log.teams
    return list(teams[0].characters), list(teams[1].characters)


class _KeyRefused(ValueError):
    """A key no log may hold: twice in one object, or not text (a lone surrogate)."""


def _object_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # an object whose keys are all different (the last of two would silently win); a dict of
    # the pairs is built in C, so only an object with a repeated key is looked at key by key
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyRefused(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return found


def _object_text_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    for key, _ in pairs:
        if not key.isascii():
            try:
                key.encode("utf-8")
            except UnicodeEncodeError:
                raise _KeyRefused(f"a key holds a lone surrogate "
                                  f"({key.encode('utf-8', 'backslashreplace').decode()}): "
                                  "not text") from None
    return _object_once(pairs)


# A lone surrogate can only come from a \u escape (UTF-8 text cannot hold one).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def log_check_readable(text: str) -> ReadableLog:
    """Parse the log and check it against the schema, or raise :class:`Unreadable`. The text is
    decoded once; a text that is not JSON is refused with the parser's words, an object with a
    repeated key or a key that is not text (issue 31) with the key."""
    hook = _object_text_keys if _SURROGATE_ESCAPE.search(text) else _object_once
    try:
        try:
            document = json.loads(text, object_pairs_hook=hook)
        except _KeyRefused as exc:
            raise Unreadable("$", str(exc)) from None
        except (ValueError, RecursionError):
            parse_log(text)  # raises the LogSyntaxError that names the problem
            raise
        log = parse_log(document)
    except LogSyntaxError as exc:
        raise Unreadable(exc.json_path, exc.reason) from None
    except RecursionError:
        raise Unreadable("$", "the document is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer literal of thousands of digits
        raise Unreadable("$", f"not valid JSON: {exc}") from None
    log_schema_check(document)
    return ReadableLog(
        mode=str(document.get("mode", "")),
        claimed={} if log.result is None else log.result.to_json(),
        characters=_characters(log),
    )


def _unreadable_verdict(exc: Unreadable) -> dict[str, Any]:
    return {
        "status": "unreadable",
        "first_error": {"json_path": exc.json_path, "reason": exc.reason},
        "final": None, "facts": None, "claimed": None, "events": 0,
        "engine_version": ENGINE_VERSION, "notes": [],
    }


def _schema_checked(text: str) -> tuple[Any, dict[str, Any] | None]:
    """The decoded log (the text itself when it is not JSON at all: the replay says where, as
    it always did) and, when the schema refuses it, its ``unreadable`` verdict."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return text, None
    try:
        log_schema_check(document)
    except Unreadable as exc:
        return document, _unreadable_verdict(exc)
    return document, None


def log_verdict(text: str) -> dict[str, Any]:
    """Replay the log and return the engine's verdict as JSON-ready data.

    An illegal game or a result mismatch is a verdict, not an exception. An engine bug surfaces as
    a verdict with status ``engine_error`` so that it is stored and shown, never blamed on the
    player; infrastructure failures (the database, the broker) are not caught here. A log the
    schema refuses is ``unreadable`` before any replay (logs stored before the check existed).
    """
    document, refused = _schema_checked(text)
    return refused if refused is not None else replay(document).to_dict()


@dataclass(frozen=True)
class Judgement:
    """What a worker stores for a log: the verdict and the analyses pages show."""

    verdict: dict[str, Any]
    turns: list[dict[str, Any]]  # the timeline (``log_timeline``)
    board: dict[str, Any] | None  # the board before the first error (``log_analysis``)


def log_judge(text: str) -> Judgement:
    """``log_verdict`` and ``log_analysis`` in one go, the same answers: the log is decoded
    once and replayed once (:func:`rules_engine.judge.judge`: an illegal event is diagnosed and
    its board shown from that same replay). A log the schema refuses keeps its ``unreadable``
    verdict, with the timeline the lenient parser still gives. Exceptions are the engine's."""
    document, refused = _schema_checked(text)
    judged = judge(document)
    if refused is not None:
        return Judgement(refused, [turn.to_dict() for turn in judged.turns], None)
    return Judgement(judged.verdict.to_dict(), [turn.to_dict() for turn in judged.turns],
                     judged.board)


def logs_first_divergence(text_a: str, text_b: str) -> tuple[int | None, dict[str, Any]]:
    """The index of the first event where two logs differ, with both events side by side.

    ``None`` when they already differ before the events (players, characters, seed, ruleset).
    """
    a, b = json.loads(text_a), json.loads(text_b)
    header_a = {k: v for k, v in a.items() if k not in {"events", "result"}}
    header_b = {k: v for k, v in b.items() if k not in {"events", "result"}}
    if header_a != header_b:
        keys = header_a.keys() | header_b.keys()
        return None, {"header_keys": sorted(k for k in keys if header_a.get(k) != header_b.get(k))}
    events_a, events_b = a.get("events", []), b.get("events", [])
    for index, (event_a, event_b) in enumerate(zip(events_a, events_b, strict=False)):
        if event_a != event_b:
            return index, {"a": event_a, "b": event_b}
    shorter = min(len(events_a), len(events_b))
    if len(events_a) != len(events_b):
        return shorter, {
            "a": events_a[shorter] if shorter < len(events_a) else None,
            "b": events_b[shorter] if shorter < len(events_b) else None,
        }
    return None, {"result": {"a": a.get("result"), "b": b.get("result")}}


def rule_words(rule_id: str | None) -> str | None:
    """The text of a RULES.md rule, for showing beside a verdict."""
    return rule_text(rule_id) if rule_id else None


def log_timeline(text: str) -> list[dict[str, Any]]:
    """The game turn by turn; empty when the log cannot be read or the engine fails on it.

    Display only: a page must render even for a log that made the engine fail (its verdict,
    stored as an engine error, already says so).
    """
    return log_analysis(text, {})[0]


def log_analysis(text: str, verdict: dict[str, Any]) -> tuple[list[dict[str, Any]],
                                                               dict[str, Any] | None]:
    """What the match page shows beside a verdict, computed once in the worker and stored: the
    timeline, and for an illegal (or not verifiable yet) log the board before its first error
    (both from one replay, :func:`rules_engine.judge.judge`). ``verdict``, the stored one,
    decides whether a board is shown (an engine error stored by the worker shows none)."""
    try:
        judged = judge(text)
    except Exception:  # an engine bug: shown through the verdict, logged here
        logger.exception("analysis failed on a log")
        return [], None
    board = judged.board if verdict.get("status") in ("illegal", "unverifiable") else None
    return [turn.to_dict() for turn in judged.turns], board


def log_board_before(text: str, index: int) -> dict[str, Any] | None:
    """The position just before event ``index`` (a verdict's first illegal event): both sides'
    public state, the erring player's hand, the last events (``rules_engine.diagnosis``).

    Display only, like the timeline: None when the log cannot be read or replayed that far.
    """
    try:
        return board_before(parse_log(text), index)
    except LogSyntaxError:
        return None
    except Exception:  # an engine bug: shown through the verdict, logged here
        logger.exception("board before event %s failed on a log", index)
        return None
