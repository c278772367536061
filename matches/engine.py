"""The one place where the matches app talks to the rules engine.

Questions: can this log be read at all (at submission, synchronously), what is the verdict of
replaying it (in a worker), where do two logs of the same match first differ (disputes), what
happened turn by turn (the match page), and what does a rule ID say.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import rules_engine
from rules_engine.errors import LogSyntaxError
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.rules_text import rule_text
from rules_engine.timeline import timeline

ENGINE_VERSION: str = rules_engine.__version__
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Unreadable(Exception):
    """The log cannot be read: where (a JSON path such as ``$.events[3].card``) and why."""

    json_path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.json_path}: {self.reason}"


def log_check_readable(text: str) -> dict[str, Any]:
    """Parse the log; return its claimed result (may be empty) or raise :class:`Unreadable`."""
    try:
        log = parse_log(text)
    except LogSyntaxError as exc:
        raise Unreadable(exc.json_path, exc.reason) from None
    except RecursionError:
        raise Unreadable("$", "the document is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer literal of thousands of digits
        raise Unreadable("$", f"not valid JSON: {exc}") from None
    return {} if log.result is None else log.result.to_json()


def log_verdict(text: str) -> dict[str, Any]:
    """Replay the log and return the engine's verdict as JSON-ready data.

    An illegal game or a result mismatch is a verdict, not an exception. An engine bug surfaces as
    a verdict with status ``engine_error`` so that it is stored and shown, never blamed on the
    player; infrastructure failures (the database, the broker) are not caught here.
    """
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
