"""The one place where the matches app talks to the rules engine.

Questions: can this log be read at all (at submission, synchronously), what is the verdict of
replaying it (in a worker), where do two logs of the same match first differ (disputes), what
happened turn by turn (the match page), and what does a rule ID say.
"""

from __future__ import annotations

import json
import logging
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
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.rules_text import rule_text
from rules_engine.timeline import timeline

ENGINE_VERSION: str = rules_engine.__version__
SCHEMA_FILE = "match-log-v1.json"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Unreadable(Exception):
    """The log cannot be read: where (a JSON path such as ``$.events[3].card``) and why."""

    json_path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.json_path}: {self.reason}"


@cache
def _schema_validator() -> Draft202012Validator:
    """The engine's own JSON Schema for logs (``rules_engine/schema/``), compiled once."""
    text = resources.files("rules_engine").joinpath("schema", SCHEMA_FILE).read_text("utf-8")
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


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
    error = best_match(_schema_validator().iter_errors(document))
    if error is None:
        return
    message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
    raise Unreadable(_json_path(error.absolute_path), f"does not match the log schema: {message}")


@dataclass(frozen=True)
class ReadableLog:
    mode: str  # the game mode the log says it records ("versus", ...)
    claimed: dict[str, Any]  # its claimed result (may be empty)


def log_check_readable(text: str) -> ReadableLog:
    """Parse the log and check it against the schema, or raise :class:`Unreadable`."""
    try:
        log = parse_log(text)
        document = json.loads(text)
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
    )


def log_verdict(text: str) -> dict[str, Any]:
    """Replay the log and return the engine's verdict as JSON-ready data.

    An illegal game or a result mismatch is a verdict, not an exception. An engine bug surfaces as
    a verdict with status ``engine_error`` so that it is stored and shown, never blamed on the
    player; infrastructure failures (the database, the broker) are not caught here. A log the
    schema refuses is ``unreadable`` before any replay (logs stored before the check existed).
    """
    try:
        log_schema_check(json.loads(text))
    except Unreadable as exc:
        return {
            "status": "unreadable",
            "first_error": {"json_path": exc.json_path, "reason": exc.reason},
            "final": None, "facts": None, "claimed": None, "events": 0,
            "engine_version": ENGINE_VERSION, "notes": [],
        }
    except (ValueError, RecursionError):
        pass  # not JSON at all: the replay says where, as it always did
    return replay(text).to_dict()


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
    try:
        return [turn.to_dict() for turn in timeline(text)]
    except LogSyntaxError:
        return []
    except Exception:  # an engine bug: shown through the verdict, logged here
        logger.exception("timeline failed on a log")
        return []


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
