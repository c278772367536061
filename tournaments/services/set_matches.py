"""Sets played with match logs: open a match for a set's next game, record its verified result.

The match lives in the matches app; the set points to it (``SetMatch``), never the reverse. When
a match's result becomes final (both sides vouched for a legal log, or an organizer overrode
it), matches calls the Celery task this module names, and ``set_match_result_record`` turns the
result into one of the set's games, advancing the bracket exactly once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from matches.errors import MatchError, MatchErrorCode
from matches.models import AuditEntry, Match
from matches.owners import RoomPicks
from matches.services import match_cancel, match_create
from rules_engine.cards import characters as engine_characters
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import EntrantMember, Event, Game, Set, SetMatch, SetResultChange
from tournaments.services.advancement import GameInput, set_game_record, set_game_winner_change
from tournaments.services.common import lock_stage

logger = logging.getLogger(__name__)

RESULT_CALLBACK_TASK = "tournaments.tasks.set_match_result_record_task"


def _is_member(set: Set, actor: Any) -> bool:
    if not getattr(actor, "is_authenticated", False):
        return False
    return set.stage.event.entrants.filter(
        pk__in=[set.entrant_a_id, set.entrant_b_id], members__player__user=actor
    ).exists()


@transaction.atomic
def set_match_open(*, set: Set, actor: Any) -> Match:
    """The match for the set's next game (created if none is open); players or organizers only."""
    s = Set.objects.select_for_update(of=("self",)).select_related("stage__event").get(pk=set.pk)
    event = s.stage.event
    if not (event.is_organizer(actor) or _is_member(s, actor)):
        raise TournamentError(
            TournamentErrorCode.NOT_YOUR_ENTRANT,
            "only the set's players or the event's organizers may start a match for it",
        )
    if s.status != Set.Status.READY:
        raise TournamentError(
            TournamentErrorCode.SET_NOT_READY,
            f"{s.round_name or s.key} is {s.get_status_display().lower()}: no game to play",
        )
    require_window(s, is_organizer=event.is_organizer(actor))
    open_link = s.set_matches.filter(is_recorded=False).select_related("match").first()
    if open_link is not None:
        return open_link.match
    rosters = [
        [m.player for m in entrant.members.select_related("player").order_by("order")]
        for entrant in (s.entrant_a, s.entrant_b)
    ]
    # No managers copied: who organizes the event is asked at each action (SetMatchOwner).
    match = match_create(
        mode=event.mode, side_1=rosters[0], side_2=rosters[1],
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    match.result_callback_task = RESULT_CALLBACK_TASK
    match.save(update_fields=["result_callback_task"])
    SetMatch.objects.create(set=s, match=match, opened_by=match.created_by)
    return match


def require_window(s: Set, *, is_organizer: bool) -> None:
    """A league set is played inside its round's match window.

    Before the window nobody starts a game (the pairing may still change). After it closes the
    players no longer may: the organizers decide the set (a forfeit, or a late game they allow
    by starting its match themselves).
    """
    now = timezone.now()
    label = s.round_name or s.key
    if s.window_opens_at and now < s.window_opens_at:
        raise TournamentError(
            TournamentErrorCode.OUTSIDE_WINDOW,
            f"{label}'s match window opens {s.window_opens_at:%d %b %Y %H:%M} UTC",
        )
    if s.window_closes_at and now >= s.window_closes_at and not is_organizer:
        raise TournamentError(
            TournamentErrorCode.OUTSIDE_WINDOW,
            f"{label}'s match window closed {s.window_closes_at:%d %b %Y %H:%M} UTC; "
            "an organizer decides the set",
        )


def _characters(match: Match) -> tuple[list[str], list[str]]:
    if match.result_log is None:
        return [], []
    run = match.result_log.runs.order_by("-created_at", "-id").first()
    facts = (run.verdict if run else {}).get("facts") or {}
    characters = facts.get("characters") or {}
    teams = facts.get("teams") or {}  # team modes: each side's whole team, in declared order

    def name(seat: str) -> list[str]:
        # Games store character names as organizers report them ("Grave"), not engine ids.
        ids = teams.get(seat) or ([characters[seat]] if characters.get(seat) else [])
        known = engine_characters()
        return [known[c].name if c in known else c for c in ids]

    return name("P1"), name("P2")


def _rosters_fit(match: Match, s: Set) -> bool:
    """Are side 1 and side 2 of the match exactly the rosters of entrant a and entrant b now?"""
    sides: dict[int, set[int]] = {1: set(), 2: set()}
    for side, player_id in match.sides.values_list("side", "player_id"):
        sides[side].add(player_id)
    expected = {
        side: set(
            EntrantMember.objects.filter(entrant_id=entrant_id).values_list("player_id", flat=True)
        ) if entrant_id else {-1}
        for side, entrant_id in ((1, s.entrant_a_id), (2, s.entrant_b_id))
    }
    return sides == expected


def set_match_result_record(*, match_id: int, strict: bool = False) -> Set | None:
    """Write a final match result into its set; safe to call again (exactly once).

    A result the set cannot take (its entrants changed since the match opened, or it was finished
    another way) is never credited: it is kept visible to the organizers as a
    ``match_not_applied`` change, or raised when ``strict`` (an override, which must then fail).
    """
    with transaction.atomic():
        link = (
            SetMatch.objects.select_for_update(of=("self",))
            .select_related("set__stage__event", "match__result_log")
            .filter(match_id=match_id).first()
        )
        if link is None:
            return None
        match = link.match
        if match.status != Match.Status.CONFIRMED:
            return link.set
        winner_side = {1: "a", 2: "b"}.get(match.winner_side or 0)
        game = Game.objects.filter(match=match).first()
        try:
            if game is not None:
                if winner_side is None:
                    raise TournamentError(
                        TournamentErrorCode.RESULT_INVALID,
                        f"match {match.pk} is game {game.number} of "
                        f"{link.set.round_name or link.set.key}: a recorded game cannot become a "
                        "draw; correct the set's result instead",
                    )
                if winner_side != game.winner_side:
                    override = match.audit_entries.filter(
                        action=AuditEntry.Action.RESULT_OVERRIDDEN
                    ).first()
                    return set_game_winner_change(
                        game=game, winner_side=winner_side,
                        actor=override.actor if override else None,
                        reason=f"match {match.pk} overridden: "
                        + (override.reason if override else ""),
                    )
                return link.set
            # An override (strict) of a match handled before (a draw, or not applied) tries again.
            if link.is_recorded and not strict:
                return link.set
            link.is_recorded = True
            link.save(update_fields=["is_recorded"])
            if winner_side is None:
                return link.set  # a drawn game is replayed: the next match opens a new game
            if not _rosters_fit(match, link.set):
                raise TournamentError(
                    TournamentErrorCode.SET_NOT_READY,
                    f"the players of match {match.pk} are no longer the entrants of "
                    f"{link.set.round_name or link.set.key}; its result is not credited",
                )
            characters_a, characters_b = _characters(match)
            return set_game_record(
                set=link.set, game=GameInput(winner_side, characters_a, characters_b),
                match=match, actor=match.created_by,
            )
        except TournamentError as error:
            if strict:
                raise
            # The set cannot take this result (for example a later stage already started):
            # keep it visible to the organizers instead of retrying forever.
            logger.warning("match %s not recorded in set %s: %s", match_id, link.set_id, error)
            SetResultChange.objects.create(
                set=link.set, action="match_not_applied", reason=error.message,
                after={"match": match.pk, "code": str(error.code)},
            )
            return link.set


def set_matches_cancel_stale(*, sets: Iterable[Set], actor: Any = None) -> list[int]:
    """Cancel the open matches of sets that changed: they no longer fit the set's entrants.

    Called by every flow that saves sets (reports, corrections, overrides, disqualifications): a
    match opened between the old entrants must not be confirmed and credited to the new ones.
    The set's next match is opened afresh between its current entrants.
    """
    cancelled = []
    by_pk = {s.pk: s for s in sets if s.pk}
    links = SetMatch.objects.filter(set_id__in=by_pk, is_recorded=False).select_related("match")
    for link in links:
        s = by_pk[link.set_id]
        if link.match.status == Match.Status.CONFIRMED:
            continue  # its callback decides (and refuses a result that no longer fits)
        if s.status == Set.Status.READY and _rosters_fit(link.match, s):
            continue
        reason = (
            f"{s.round_name or s.key} is now {s.get_status_display().lower()}"
            if s.status != Set.Status.READY
            else f"{s.round_name or s.key} now has other entrants"
        )
        if match_cancel(match=link.match, reason=reason, actor=actor):
            cancelled.append(link.match_id)
        # Handled: the set opens a new match next; the link stays so the event still owns it.
        link.is_recorded = True
        link.save(update_fields=["is_recorded"])
    return cancelled


class SetMatchOwner:
    """Answers for matches played for sets (registered with matches in ``TournamentsConfig``)."""

    def user_is_manager(self, match: Match, user: Any) -> bool | None:
        event = Event.objects.filter(stages__sets__set_matches__match=match).first()
        if event is None:
            return None
        return event.is_organizer(user)  # the event's organizers now, not when it opened

    def result_override_lock(self, match: Match) -> None:
        link = SetMatch.objects.select_related("set__stage").filter(match=match).first()
        if link is not None:
            lock_stage(link.set.stage)  # stage, then match: the order reports and corrections use

    def log_characters_check(self, match: Match, characters: tuple[list[str], list[str]]) -> None:
        """A set's log must play the characters its sides picked for that game (the pick
        rules): refused before it is stored, naming the game and side."""
        from tournaments.services.advancement import GameInput
        from tournaments.services.picks import check_picks

        link = (SetMatch.objects.select_related("set__stage__event").filter(match=match)
                .order_by().first())  # one link per match: no ordering (five joined tables')
        if link is None:
            return
        known = engine_characters()
        names = [[known[c].name if c in known else c for c in side] for side in characters]
        number = Game.objects.filter(set=link.set).count() + 1
        try:
            check_picks(link.set, [GameInput("a", names[0], names[1])], first_number=number)
        except TournamentError as error:
            raise MatchError(
                MatchErrorCode.LOG_PICKS_MISMATCH,
                f"{error.message}: this log is not the game the sides picked for",
                **error.extra,
            ) from None

    def room_decision_seconds(self, match: Match) -> int | None:
        """The event's room clock (``Event.room_decision_seconds``; 0: none)."""
        event = Event.objects.filter(stages__sets__set_matches__match=match).first()
        if event is None:
            return None
        return event.room_decision_seconds or 0

    def room_lineups(self, match: Match) -> tuple[list[str], list[str]] | None:
        """Each side's declared characters as engine ids (entrant A's for side 1): a Triple
        Threat lineup (``Entrant.lineup``, in declared order), or a Tag Team or Dramatic Battle
        team's characters (each member's, in roster order, else the entrant's lineup). None
        unless both sides declared a full set (then the players pick in the room)."""
        if match.mode == Match.Mode.VERSUS:
            return None
        link = SetMatch.objects.select_related("set__entrant_a", "set__entrant_b") \
            .filter(match=match).first()
        if link is None:
            return None
        ids = {c.name.lower(): cid for cid, c in engine_characters().items()}
        lineups = []
        for entrant in (link.set.entrant_a, link.set.entrant_b):
            if entrant is None:
                return None
            names = list(entrant.lineup or [])
            if match.mode != Match.Mode.TRIPLE_THREAT:
                members = list(entrant.members.order_by("order").values_list("character",
                                                                           flat=True))
                if members and all(members):
                    names = members
            lineup = [ids.get(str(name).lower()) for name in names]
            if not lineup or None in lineup or len(set(lineup)) != len(lineup) or (
                    match.mode == Match.Mode.TRIPLE_THREAT and len(lineup) != 3):
                return None
            lineups.append([c for c in lineup if c is not None])
        return lineups[0], lineups[1]

    def room_links(self, match: Match) -> list[tuple[str, str]] | None:
        """The set the match plays a game of, and its event."""
        from django.urls import reverse

        link = SetMatch.objects.select_related("set__stage__event").filter(match=match).first()
        if link is None:
            return None
        event = link.set.stage.event
        return [(f"Set {link.set}", reverse("tournaments:set-detail",
                                            args=[event.slug, link.set.pk])),
                (event.name, reverse("tournaments:event-detail", args=[event.slug]))]

    def room_picks(self, match: Match) -> RoomPicks | None:
        """A Versus set's character picks for the game the match plays (entrant A's for side
        1), as engine ids, or why they are pending; None without picks for that game."""
        from tournaments.services.picks import picks_for_room

        if match.mode != Match.Mode.VERSUS:
            return None
        link = SetMatch.objects.select_related("set__stage__event").filter(match=match).first()
        if link is None or link.is_recorded:
            return None
        answer = picks_for_room(link.set)
        if answer is None:
            return None
        known, pending = answer
        if pending:
            return RoomPicks(pending=pending)
        ids = {c.name.lower(): cid for cid, c in engine_characters().items()}
        side_1, side_2 = (ids.get(known[side].lower()) for side in ("a", "b"))
        if side_1 is None or side_2 is None:
            return None  # a character the engine does not play: picked in the room
        return RoomPicks(characters=(side_1, side_2))

    def result_override_apply(self, match: Match, actor: Any) -> None:
        if not SetMatch.objects.filter(match=match).exists():
            return
        try:
            set_match_result_record(match_id=match.pk, strict=True)
        except TournamentError as error:
            raise MatchError(
                MatchErrorCode.RESULT_NOT_APPLICABLE, error.message, set_code=str(error.code)
            ) from None
