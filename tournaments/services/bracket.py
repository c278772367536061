"""Moving entrants through a stage's sets: placing winners and losers, byes, forfeits, resets.

Works on ``Set`` instances through a ``SetBook`` (a key → set map that loads sets lazily, locked,
and remembers which ones changed), so the same rules serve generation (unsaved sets) and
advancement (rows locked inside the caller's transaction).

Rules
- A side is *filled* by an entrant or by a bye. When both sides are filled the set is READY, or it
  finishes at once: a bye against an entrant advances the entrant (outcome ``bye``); two byes
  advance a bye; a disqualified entrant forfeits (outcome ``dq``).
- A finished set sends its winner to ``winner_to`` and its loser to ``loser_to``; when nobody won
  (double forfeit, two byes) a bye travels on instead, so the next set is decided by the other side.
- A conditional set (the grand-final reset) is needed only when the entrant who came from the
  winners bracket lost the first grand final; otherwise it is SKIPPED and never shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.utils import timezone

from tournaments.models import Entrant, Set

BYE = "bye"


def _target_of(s: Set, role: str) -> tuple[str, str] | None:
    key = s.winner_to_key if role == "winner" else s.loser_to_key
    side = s.winner_to_side if role == "winner" else s.loser_to_side
    return (key, side) if key else None


@dataclass
class SetBook:
    """Sets of one stage by key, loaded on demand; ``dirty`` holds the keys that changed."""

    sets: dict[str, Set]
    loader: Callable[[str], Set] | None = None
    disqualified: set[int] = field(default_factory=set)
    dirty: set[str] = field(default_factory=set)

    def get(self, key: str) -> Set:
        if key not in self.sets:
            assert self.loader is not None, f"set {key} is not loaded"
            self.sets[key] = self.loader(key)
        return self.sets[key]

    def touch(self, s: Set) -> None:
        self.dirty.add(s.key)

    def changed(self) -> list[Set]:
        return [self.sets[k] for k in sorted(self.dirty)]


def side_filled(s: Set, side: str) -> bool:
    if side == "a":
        return s.entrant_a_id is not None or s.is_bye_a
    return s.entrant_b_id is not None or s.is_bye_b


def place(book: SetBook, key: str, side: str, entrant: Entrant | None) -> None:
    """Put an entrant (or a bye, when ``entrant`` is None) on one side of a set."""
    s = book.get(key)
    if side == "a":
        s.entrant_a, s.is_bye_a = entrant, entrant is None
    else:
        s.entrant_b, s.is_bye_b = entrant, entrant is None
    book.touch(s)
    resolve(book, s)


def _wb_side(book: SetBook, s: Set) -> str | None:
    """The side of a grand final that comes from the winners bracket."""
    for side, source in (("a", s.source_a), ("b", s.source_b)):
        if source.get("kind") == "winner" and source.get("set_key"):
            origin = book.get(source["set_key"])
            if origin.bracket == Set.Bracket.WINNERS:
                return side
    return None


def finish(
    book: SetBook,
    s: Set,
    *,
    winner_side: str | None,
    outcome: str,
    score_a: int = 0,
    score_b: int = 0,
) -> None:
    """Record a set's result and send its winner and loser on."""
    s.status = Set.Status.FINISHED
    s.outcome = outcome
    s.score_a, s.score_b = score_a, score_b
    s.finished_at = timezone.now()
    if winner_side is None:
        s.winner, s.loser = None, None
    else:
        s.winner = s.entrant_a if winner_side == "a" else s.entrant_b
        s.loser = s.entrant_b if winner_side == "a" else s.entrant_a
    book.touch(s)
    _advance(book, s, winner_side)


def _advance(book: SetBook, s: Set, winner_side: str | None) -> None:
    targets = [(role, t) for role in ("winner", "loser") if (t := _target_of(s, role))]
    conditional = [t for _, t in targets if book.get(t[0]).is_conditional]
    if conditional:
        wb_side = _wb_side(book, s)
        needed = wb_side is not None and winner_side is not None and winner_side != wb_side
        if not needed:
            for key, _ in conditional:
                c = book.get(key)
                c.status = Set.Status.SKIPPED
                book.touch(c)
            targets = [(r, t) for r, t in targets if not book.get(t[0]).is_conditional]
    for role, (key, side) in targets:
        entrant = s.winner if role == "winner" else s.loser
        place(book, key, side, entrant)


def resolve(book: SetBook, s: Set) -> None:
    """Once both sides are filled: finish byes and disqualifications, else mark READY."""
    if s.status in (Set.Status.FINISHED, Set.Status.SKIPPED):
        return
    if not (side_filled(s, "a") and side_filled(s, "b")):
        return
    dq_a = s.entrant_a_id is not None and s.entrant_a_id in book.disqualified
    dq_b = s.entrant_b_id is not None and s.entrant_b_id in book.disqualified
    out_a, out_b = s.is_bye_a or dq_a, s.is_bye_b or dq_b
    if out_a and out_b:
        outcome = Set.Outcome.BYE if (s.is_bye_a or s.is_bye_b) else Set.Outcome.DOUBLE_FORFEIT
        finish(book, s, winner_side=None, outcome=outcome)
    elif out_a or out_b:
        outcome = Set.Outcome.DISQUALIFICATION if (dq_a or dq_b) else Set.Outcome.BYE
        finish(book, s, winner_side="b" if out_a else "a", outcome=outcome)
    else:
        s.status = Set.Status.READY
        book.touch(s)


def downstream_keys(book: SetBook, start: Set) -> list[str]:
    """Every set that (transitively) takes a winner or loser from ``start``, in visiting order."""
    seen: list[str] = []
    stack = [t[0] for role in ("winner", "loser") if (t := _target_of(start, role))]
    while stack:
        key = stack.pop(0)
        if key in seen:
            continue
        seen.append(key)
        s = book.get(key)
        stack.extend(t[0] for role in ("winner", "loser") if (t := _target_of(s, role)))
    return seen


def reset(book: SetBook, keys: Iterable[str], cleared_sources: set[str]) -> None:
    """Clear results of ``keys`` and every slot filled from a set in ``cleared_sources``."""
    for key in keys:
        s = book.get(key)
        for side, source in (("a", s.source_a), ("b", s.source_b)):
            if source.get("set_key") in cleared_sources:
                if side == "a":
                    s.entrant_a, s.is_bye_a = None, False
                else:
                    s.entrant_b, s.is_bye_b = None, False
        s.status = Set.Status.WAITING
        s.outcome = ""
        s.score_a = s.score_b = 0
        s.winner = s.loser = None
        s.finished_at = None
        book.touch(s)
