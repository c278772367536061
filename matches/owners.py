"""Apps that own matches (tournaments, for an event's sets) answer for them, at the moment of use.

Matches never import their owners (DESIGN.md: one-way dependencies). An owner registers here once
(in its ``AppConfig.ready``) and is asked, on every action, two things only it knows:

- who manages the match *now* (an event's current organizers, not a copy taken when the match was
  created, so an organizer removed from the event loses the power at once and one added gains it);
- which of its rows to lock first when an override starts (the same order as its own flows);
- whether an organizer's override can be applied where the result goes (the event's set); the
  owner applies it inside the override's transaction or refuses it with a ``MatchError``, so an
  override either takes effect or answers a clear 4xx, never a silent 200 that changes nothing;
- whether a submitted log's characters may be played in this match (a set's recorded character
  picks): refused with a ``MatchError`` before anything is stored;
- the per-decision clock of the match's room (an event's setting), the sides' registered
  lineups (Triple Threat) and the characters a set's pick flow fixed for the game being played
  (or why they are still pending), when its room opens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from matches.models import Match


class MatchOwner(Protocol):
    def user_is_manager(self, match: Match, user: Any) -> bool | None:
        """True/False for a match this owner holds; None for a match it does not own."""

    def result_override_lock(self, match: Match) -> None:
        """Lock what the override will write to, before the match row is locked.

        The owner's own flows lock their rows first and the match second (a set's report cancels
        its open match); taking the same order here keeps an override racing them from
        deadlocking.
        """

    def result_override_apply(self, match: Match, actor: Any) -> None:
        """Apply the overridden (saved, locked) result now, or raise ``MatchError`` to refuse."""

    def log_characters_check(self, match: Match, characters: tuple[list[str], list[str]]) -> None:
        """Refuse (``MatchError``) a log whose characters (side 1's, side 2's, engine ids) the
        owner's rules forbid in this match; return for a match it does not own."""

    def room_decision_seconds(self, match: Match) -> int | None:
        """The clock (seconds per decision) the owner sets for the match's room: 0 for a
        match it owns without a clock, None for a match it does not own."""

    def room_lineups(self, match: Match) -> tuple[list[str], list[str]] | None:
        """Each side's registered lineup (engine character ids, in declared order) for a
        team-mode match's room (a bench mode's: one per member), when the owner knows both;
        None otherwise."""


    def room_links(self, match: Match) -> list[tuple[str, str]] | None:
        """Where the match belongs, for its room's page: (label, URL) pairs (an event's set
        and the event); None for a match it does not own."""

    def room_picks(self, match: Match) -> RoomPicks | None:
        """The characters the owner's pick flow fixed for the game the match plays (side 1's
        and side 2's engine ids), or why they are still pending; None for a match it does not
        own or one without picks (then the players pick in the room)."""


@dataclass(frozen=True)
class RoomPicks:
    """A match's characters as its owner's picks fix them: both known, or a sentence saying
    what is still hidden or missing (the room waits; nobody picks anything else)."""

    characters: tuple[str, str] | None = None
    pending: str = ""


_owners: list[MatchOwner] = []


def match_owner_register(owner: MatchOwner) -> None:
    if owner not in _owners:
        _owners.append(owner)


def owners() -> tuple[MatchOwner, ...]:
    return tuple(_owners)


def owner_room_decision_seconds(match: Match) -> int | None:
    """The match's room clock as its owner sets it (0: the owner sets no clock); None when no
    owner holds the match (then whoever opens the room may choose one)."""
    for owner in _owners:
        answer = owner.room_decision_seconds(match)
        if answer is not None:
            return answer
    return None


def owner_room_lineups(match: Match) -> tuple[list[str], list[str]] | None:
    """The sides' registered lineups as the match's owner knows them (None: the players pick
    them in the room)."""
    for owner in _owners:
        answer = owner.room_lineups(match)
        if answer is not None:
            return answer
    return None


def owner_room_picks(match: Match) -> RoomPicks | None:
    """The match's characters as its owner's pick flow fixes them (None: no picks; the
    players pick in the room)."""
    for owner in _owners:
        answer = owner.room_picks(match)
        if answer is not None:
            return answer
    return None


def owner_room_links(match: Match) -> list[tuple[str, str]]:
    """Where the match belongs as its owner says (its set and event): (label, URL) pairs."""
    for owner in _owners:
        answer = getattr(owner, "room_links", lambda m: None)(match)
        if answer is not None:
            return answer
    return []
