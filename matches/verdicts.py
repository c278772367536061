"""Turn a stored verdict (the engine's ``Verdict.to_dict()``) into what a match page shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matches import engine

STATUS_LABELS = {
    "legal": "Legal",
    "illegal": "Illegal",
    "result_mismatch": "Result does not match the claim",
    "unverifiable": "Not verifiable yet",
    "unreadable": "Unreadable",
    "engine_error": "Engine error (not the players' fault)",
}


@dataclass(frozen=True)
class VerdictView:
    status: str
    label: str
    headline: str
    error: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    claimed: dict[str, Any] | None = None
    facts: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    abilities_complete: bool = True
    # "not verifiable yet": {"characters", "mode", "reason"}
    unverifiable: dict[str, Any] | None = None

    @property
    def problem(self) -> str | None:
        """The first problem the engine found, in one line (illegal or not verifiable yet)."""
        e = self.error
        if not e or (e.get("rule_id") is None and not e.get("reason")):
            return None
        if e.get("index") is None:
            return str(e.get("reason"))
        return (f"Turn {e.get('turn')}, step {e.get('step')}, {e.get('player') or '—'}: "
                f"{e.get('reason')}" + (f" [{e['rule_id']}]" if e.get("rule_id") else ""))


def _result_text(result: dict[str, Any] | None) -> str:
    if not result:
        return "no result"
    winner = result.get("winner")
    text = "a draw" if winner is None else f"{winner} wins"
    how = result.get("how")
    if how:
        text += f" by {str(how).replace('_', ' ')}"
    if result.get("turns") is not None:
        text += f" on turn {result['turns']}"
    return text


def verdict_view(verdict: dict[str, Any]) -> VerdictView:
    status = str(verdict.get("status", "engine_error"))
    error = verdict.get("first_error") or None
    if error and error.get("rule_id"):
        error = {**error, "rule_text": engine.rule_words(error["rule_id"])}
    final = verdict.get("final") or None
    claimed = verdict.get("claimed") or None
    unverifiable = verdict.get("unverifiable") or None
    if status == "illegal" and error:
        headline = (
            f"Turn {error.get('turn')}, step {error.get('step')}, {error.get('player') or '—'}: "
            f"{error.get('reason')} [{error.get('rule_id')}]"
        )
    elif status == "unverifiable":
        reason = (unverifiable or {}).get("reason") or "the engine cannot judge this log yet"
        headline = (f"Not verifiable yet: {reason}. Both sides may still confirm the claimed "
                    "result, or an organizer may settle it.")
    elif status == "unreadable" and error:
        headline = f"{error.get('json_path')}: {error.get('reason')}"
    elif status == "result_mismatch":
        headline = (
            f"The log claims {_result_text(claimed)}, but replaying it gives {_result_text(final)}."
        )
    elif status == "legal":
        headline = f"Every step is legal: {_result_text(final)}."
    else:
        reason = (error or {}).get("reason") or (verdict.get("error") or {}).get("message", "")
        headline = f"The rules engine failed on this log; it will be verified again. {reason}"
    return VerdictView(
        status=status,
        label=STATUS_LABELS.get(status, status),
        headline=headline,
        error=error,
        final=final,
        claimed=claimed,
        facts=verdict.get("facts") or None,
        notes=list(verdict.get("notes") or []),
        abilities_complete=bool(verdict.get("abilities_complete", True)),
        unverifiable=unverifiable,
    )
