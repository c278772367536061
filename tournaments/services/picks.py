"""Character picks before each game of a Versus set, by the event's pick rule.

- Game 1 is double-blind under every rule: each side locks a pick the site keeps hidden (no page
  or API shows it) until both are locked; then both are revealed together, after the site has
  checked each against its commitment (``digest``), so neither could change after seeing the
  other's.
- Then, by ``Event.character_rule``: *winner locked* (the default): the winner of the last game
  keeps their character, the loser picks again, openly; *locked*: both keep game 1's characters
  for the set; *free*: every game is double-blind again.
- A report or a match log whose characters contradict the revealed picks is refused, naming the
  game and the side (``check_picks``).

Picks apply to Versus, where a side plays one character; team modes declare characters with
their roster instead.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from matches.models import Match
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import CharacterPick, Event, Game, Set, SetMatch

BLIND, OPEN, KEPT = "blind", "open", "kept"


def picks_apply(event: Event) -> bool:
    return event.mode == Event.Mode.VERSUS


def commitment(*, set_id: int, game_number: int, side: str, character: str, nonce: str) -> str:
    text = f"{set_id}:{game_number}:{side}:{character}:{nonce}"
    return hashlib.sha256(text.encode()).hexdigest()


def _games(s: Set) -> list[Game]:
    return list(s.games.order_by("number"))


def pick_kind(event: Event, games: Sequence[Game], game_number: int, side: str) -> str:
    """How ``side`` chooses its character for game ``game_number`` (blind, open, or kept)."""
    if game_number == 1 or event.character_rule == Event.CharacterRule.FREE:
        return BLIND
    if event.character_rule == Event.CharacterRule.LOCKED:
        return KEPT
    previous = games[game_number - 2] if len(games) >= game_number - 1 else None
    if previous is not None and previous.winner_side == side:
        return KEPT
    return OPEN


def _kept_character(s: Set, games: Sequence[Game], game_number: int, side: str) -> str | None:
    """The character a side keeps: the one it played in the previous game."""
    event = s.stage.event
    source = 1 if event.character_rule == Event.CharacterRule.LOCKED else game_number - 1
    if len(games) < source:
        return None
    played = getattr(games[source - 1], f"characters_{side}")
    return played[0] if played else None


def member_side(s: Set, actor: Any) -> str | None:
    if not getattr(actor, "is_authenticated", False):
        return None
    for side, entrant_id in (("a", s.entrant_a_id), ("b", s.entrant_b_id)):
        if entrant_id and s.stage.event.entrants.filter(
            pk=entrant_id, members__player__user=actor
        ).exists():
            return side
    return None


@transaction.atomic
def character_pick_lock(*, set: Set, actor: Any, character: str) -> CharacterPick:
    """Lock the actor's side's character for the set's next game (revealing both when blind)."""
    from tournaments.services.advancement import canonical_character

    s = Set.objects.select_for_update(of=("self",)).select_related("stage__event").get(pk=set.pk)
    event = s.stage.event
    side = member_side(s, actor)
    if side is None:
        raise TournamentError(
            TournamentErrorCode.NOT_YOUR_ENTRANT, "only the set's players pick their characters"
        )
    if not picks_apply(event):
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"{event.get_mode_display()} declares characters with the roster: no picks",
        )
    if s.status != Set.Status.READY:
        raise TournamentError(
            TournamentErrorCode.SET_NOT_READY,
            f"{s.round_name or s.key} is {s.get_status_display().lower()}: nothing to pick for",
        )
    name = canonical_character(character)
    if name is None:
        raise TournamentError(
            TournamentErrorCode.INVALID, f"there is no character called {character!r}"
        )
    games = _games(s)
    number = len(games) + 1
    kind = pick_kind(event, games, number, side)
    if kind == KEPT:
        kept = _kept_character(s, games, number, side)
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"game {number}, side {side.upper()}: you keep {kept or 'your character'} "
            f"({event.get_character_rule_display().lower()})",
        )
    # A log already submitted for this game decided its characters: a pick locked now would
    # void the match once confirmed (its log no longer fits the picks), telling nobody.
    played = (SetMatch.objects.filter(set=s, is_recorded=False, match__logs__isnull=False)
              .exclude(match__status=Match.Status.CANCELLED)
              .values_list("match_id", flat=True).first())
    if played is not None:
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"game {number}: a log was already submitted for it (match #{played}); the "
            "characters it played are the game's (picks are locked before a game is played)",
        )
    if CharacterPick.objects.filter(set=s, game_number=number, side=side).exists():
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"game {number}, side {side.upper()}: your pick is already locked",
        )
    nonce = secrets.token_hex(16)
    now = timezone.now()
    pick = CharacterPick.objects.create(
        set=s, game_number=number, side=side, character=name, nonce=nonce,
        digest=commitment(set_id=s.pk, game_number=number, side=side, character=name,
                          nonce=nonce),
        is_blind=kind == BLIND, picked_by=actor, revealed_at=None if kind == BLIND else now,
    )
    if kind == BLIND:
        both = list(CharacterPick.objects.filter(set=s, game_number=number, is_blind=True))
        if len(both) == 2:
            for p in both:
                expected = commitment(set_id=s.pk, game_number=number, side=p.side,
                                      character=p.character, nonce=p.nonce)
                if expected != p.digest:  # a pick changed after it was locked
                    raise TournamentError(
                        TournamentErrorCode.INVALID,
                        f"game {number}, side {p.side.upper()}: the pick does not match its "
                        "commitment; ask an organizer",
                    )
            CharacterPick.objects.filter(pk__in=[p.pk for p in both]).update(revealed_at=now)
            pick.revealed_at = now
    return pick


@dataclass
class SidePick:
    side: str
    kind: str  # blind, open or kept
    locked: bool
    character: str  # empty while hidden from this viewer


def picks_for_viewer(s: Set, viewer: Any) -> tuple[int, list[SidePick]]:
    """The next game's picks as ``viewer`` may see them: a hidden pick shows only as locked.

    The viewer sees their own side's locked pick; the other side's only once revealed.
    """
    event = s.stage.event
    games = _games(s)
    number = len(games) + 1
    own = member_side(s, viewer)
    picks = {p.side: p for p in CharacterPick.objects.filter(set=s, game_number=number)}
    shown = []
    for side in ("a", "b"):
        kind = pick_kind(event, games, number, side)
        if kind == KEPT:
            kept = _kept_character(s, games, number, side) or ""
            shown.append(SidePick(side, kind, True, kept))
            continue
        pick = picks.get(side)
        visible = pick is not None and (pick.is_revealed or side == own)
        shown.append(SidePick(side, kind, pick is not None, pick.character if visible else ""))
    return number, shown


def pick_needed_by(s: Set, user: Any) -> bool:
    """Does the user's side still have to lock a pick for the set's next game?"""
    if s.status != Set.Status.READY or not picks_apply(s.stage.event):
        return False
    side = member_side(s, user)
    if side is None:
        return False
    games = _games(s)
    number = len(games) + 1
    if pick_kind(s.stage.event, games, number, side) == KEPT:
        return False
    return not CharacterPick.objects.filter(set=s, game_number=number, side=side).exists()


def check_picks(s: Set, games: Sequence[Any], *, first_number: int = 1) -> None:
    """Refuse characters that contradict the revealed picks (``games`` are GameInput-like)."""
    from tournaments.services.advancement import canonical_character

    if not picks_apply(s.stage.event):
        return
    revealed = {
        (p.game_number, p.side): p.character
        for p in CharacterPick.objects.filter(set=s, revealed_at__isnull=False)
    }
    for offset, game in enumerate(games):
        number = first_number + offset
        for side in ("a", "b"):
            picked = revealed.get((number, side))
            played = [canonical_character(c) or c for c in getattr(game, f"characters_{side}")]
            if picked and played and played != [picked]:
                raise TournamentError(
                    TournamentErrorCode.RESULT_INVALID,
                    f"game {number}, side {side.upper()}: played {', '.join(played)} but "
                    f"picked {picked}",
                    game=number, side=side,
                )


def picks_for_room(s: Set) -> tuple[dict[str, str], str] | None:
    """The next game's characters as the pick flow fixes them, for the game's match room.

    None when no side has locked a pick for that game (the players pick in the room); else
    each side's character name where it is known (revealed, or kept by the rule) and, when a
    side's is not, a sentence saying what is still hidden or missing (else "").
    """
    event = s.stage.event
    if not picks_apply(event):
        return None
    games = _games(s)
    number = len(games) + 1
    picks = {p.side: p for p in CharacterPick.objects.filter(set=s, game_number=number)}
    if not picks:
        return None
    known: dict[str, str] = {}
    missing: list[str] = []
    for side in ("a", "b"):
        kind = pick_kind(event, games, number, side)
        pick = picks.get(side)
        if kind == KEPT:
            kept = _kept_character(s, games, number, side)
            if kept:
                known[side] = kept
                continue
        if pick is not None and pick.is_revealed:
            known[side] = pick.character
        elif pick is not None:
            missing.append(f"side {side.upper()}'s pick is locked and hidden")
        else:
            missing.append(f"side {side.upper()} has not locked a pick")
    if not missing:
        return known, ""
    return known, (f"game {number}'s character picks are not revealed yet: "
                   f"{' and '.join(missing)}; the room opens with the picked characters once "
                   "both are revealed (pick on the set's page)")
