"""Writes for rooms: opening a room, picking characters, applying a seat's choice.

The server is the authority: a choice is the sender's seat's (never what the message claims),
is applied by the engine (``Game.apply`` refuses anything illegal or out of turn) and is stored
as the room's next event in the same transaction that locks the room row, so concurrent choices
of one room are serialised. Each write returns the messages for every audience; the consumer
only forwards them.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction
from django.utils import timezone

from matches.errors import MatchError
from matches.models import Match
from matches.owners import owner_room_decision_seconds, owner_room_lineups, owner_room_picks
from matches.services import (
    match_log_record_from_room,
    match_log_submit,
    match_room_log_refused,
    solo_run_submit,
)
from matches.services.matches import match_user_is_manager, match_user_side
from rooms import games
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room, RoomEvent, RoomSeat
from rooms.selectors import (
    decision_token,
    partner_seat,
    room_game,
    room_is_device,
    room_picks,
    room_seats,
    room_seats_of,
    room_states,
)
from rules_engine.errors import IllegalActionError, LogSyntaxError
from rules_engine.game import Game
from rules_engine.log import MAX_SURVIVAL_BOTS

User = AbstractBaseUser | AnonymousUser
SEATS = ("P1", "P2")  # one per side: Versus, Triple Threat (TT-1: the side's seat), Training
# The match modes a room plays: all four.
MATCH_MODES = (Match.Mode.VERSUS, Match.Mode.TRIPLE_THREAT, Match.Mode.TAG_TEAM,
               Match.Mode.DRAMATIC_BATTLE)


@dataclass(frozen=True)
class RoomUpdate:
    room_id: int
    messages: dict[str, dict[str, Any]]  # audience ("P1", "P2", "public") -> its message


# The clock's default choice: the first legal choice of the first of these kinds that is
# offered (passing, stopping a combo, committing no card, keeping, accepting), else the first
# choice the engine lists. Documented in docs/rooms.md.
DEFAULT_KINDS = ("pass", "stop", "no_card", "keep", "accept")


def default_choice(legal: Sequence[Any]) -> Any:
    for kind in DEFAULT_KINDS:
        for action in legal:
            if action.kind == kind:
                return action
    return legal[0]


def _seed() -> int:
    # 63 bits of the OS's randomness: unguessable, and within the log schema's range.
    return secrets.randbits(63)


@transaction.atomic
def room_open_for_match(*, match: Match, user: User, tabletop: bool = False,
                        one_device: bool = False,
                        decision_seconds: int | None = None) -> Room:
    """The match's room (created on first use); its players, organizers or staff only.

    ``tabletop``: the players play with physical cards and enter what happens, each on their
    own phone: the draws are the cards they actually drew (the engine offers the cards left in
    the deck), and the log is submitted like any uploaded log (the other side confirms it).
    ``one_device``: a tabletop game recorded on one device, the opener's: it enters both
    sides' decisions in turn (the page hands hidden information over with a "pass the device"
    screen).
    """
    tabletop = tabletop or one_device
    if match_user_side(match, user) is None and not match_user_is_manager(match, user):
        raise RoomError(RoomErrorCode.NOT_ALLOWED,
                        "only the match's players or its organizers may open its room")
    if match.mode not in MATCH_MODES:
        raise RoomError(
            RoomErrorCode.BAD_REQUEST,
            f"rooms play Versus, Triple Threat and Tag Team matches for now; this match is "
            f"{match.get_mode_display()}",
        )
    match = Match.objects.select_for_update().get(pk=match.pk)
    existing = Room.objects.filter(match=match).first()
    if existing is not None:
        return existing
    if match.status not in (Match.Status.AWAITING_LOG,):
        raise RoomError(RoomErrorCode.FINISHED,
                        f"the match is {match.get_status_display().lower()}: nothing to play")
    # A set's character picks for this game: revealed, the seats start with them; still
    # pending, the room waits for them (nobody picks anything else here).
    picked = owner_room_picks(match)
    if picked is not None and picked.pending:
        raise RoomError(RoomErrorCode.PICKS_PENDING, picked.pending)
    owned = owner_room_decision_seconds(match)
    if owned is not None:
        # An event's match: the organizers set the clock on the event, the players do not.
        decision_seconds = owned or None
    elif decision_seconds is not None and decision_seconds < MIN_OPENER_DECISION_SECONDS:
        # An opener's clock must leave the other player time to answer (a 1-second clock let
        # the opener's bot-speed choices run the other seat's clock out).
        raise RoomError(RoomErrorCode.BAD_REQUEST,
                        f"a decision clock needs at least {MIN_OPENER_DECISION_SECONDS} "
                        "seconds")
    room = Room.objects.create(match=match, seed=None if tabletop else _seed(),
                               one_device=one_device,
                               decision_seconds=decision_seconds, mode=match.mode,
                               created_by=user if user.is_authenticated else None)
    sides: dict[int, list[Any]] = {}
    for side in match.sides.select_related("player").order_by("side", "order"):
        sides.setdefault(side.side, []).append(side)
    if match.mode in games.BENCH_MODES:
        # Every member seated from the start (TG-2, DB-1), where the engine's table seats it:
        # Tag Team side 1 at P1 and P3, side 2 at P2 and P4; Dramatic Battle the lone side's
        # one seat and the pair's two (the pair: the side with more players; side 2 if even).
        # Each player of a side plays one of its seats (the engine's controller of that
        # member); a side of one player plays all of them.
        sizes = (2, 2)
        if match.mode == Match.Mode.DRAMATIC_BATTLE:
            sizes = (2, 1) if len(sides[1]) > len(sides[2]) else (1, 2)
        declared = _declared_members(match, sizes)
        for seat, side_no, member in games.bench_seating(sizes):
            roster = sides[side_no]
            player = roster[min(member, len(roster) - 1)].player
            RoomSeat.objects.create(room=room, seat=seat, side=side_no, user=player.user,
                                    name=player.display_name,
                                    character=declared[side_no - 1][member] if declared else "")
        _start_if_picked(room)
        return room
    # a team side's lineup as registered with the event (Triple Threat), else picked here
    registered = owner_room_lineups(match) if match.mode == Match.Mode.TRIPLE_THREAT else None
    for seat, side_no in zip(SEATS, (1, 2), strict=True):
        first, *others = sides[side_no]
        # A Versus side's character may be known already (a set's revealed pick, else the
        # match's); a team side's lineup registered, else picked in the room.
        versus = (picked.characters[side_no - 1] if picked is not None and picked.characters
                  else first.character or "")
        RoomSeat.objects.create(
            room=room, seat=seat, user=first.player.user,
            name=" & ".join(s.player.display_name for s in sides[side_no]),
            character=versus if match.mode == Match.Mode.VERSUS
            else ",".join(registered[side_no - 1]) if registered else "",
            partners=[s.player.user_id for s in others],
        )
    _start_if_picked(room)
    return room


def _declared_members(match: Match, sizes: tuple[int, int]) -> tuple[list[str], ...] | None:
    """A bench mode's characters as the sides declared them with the event (each member's, in
    roster order), when both sides declared as many as they seat: the room offers nothing
    else. None: the players pick in the room."""
    declared = owner_room_lineups(match)
    if declared is None or tuple(len(side) for side in declared) != sizes:
        return None
    return declared


# The shortest clock the opener of a match outside any event may set.
MIN_OPENER_DECISION_SECONDS = 10

PRACTICE_MODES = ("versus", "training", "survival", "tag_team")


@transaction.atomic
def room_open_practice(*, user: AbstractBaseUser, name: str, bot: str = "greedy",
                       character: str = "", bot_character: str = "", mode: str = "versus",
                       run_length: int = 3) -> Room:
    """A practice game; no match.

    ``versus``: against a bot ``rules_engine.bots.make_bot`` names (``bot``), playing
    ``bot_character``. ``training``: against the rulebook's Training bot (RULES.md §12), whose
    choices the engine derives; ``survival``: a run of ``run_length`` of them (TR-14), the
    opponents ``bot_character`` names (comma-separated) or drawn from the seed. A finished
    Training or Survival game is stored as the player's solo run (``solo_run_submit``).
    ``tag_team``: the player's side of two characters (``character``: "id,id", both seats
    P1 and P3 theirs) against two ``bot`` seats (P2, P4) playing ``bot_character`` ("id,id",
    else drawn from the seed).
    """
    if mode not in PRACTICE_MODES:
        raise RoomError(RoomErrorCode.BAD_REQUEST,
                        f"there is no practice mode {mode!r} (expected one of "
                        f"{', '.join(PRACTICE_MODES)})")
    if mode == "tag_team":
        return _practice_tag_team(user=user, name=name, bot=bot, characters=character,
                                  bot_characters=bot_character)
    if mode == "versus" and not games.bot_known(bot):
        raise RoomError(RoomErrorCode.UNKNOWN_BOT, f"there is no bot called {bot!r}")
    known = games.playable_characters()
    opponents = games.lineup(bot_character)
    if mode != "survival" and len(opponents) > 1:
        raise RoomError(RoomErrorCode.BAD_REQUEST, "pick one character for the bot")
    for pick in (character, *opponents):
        if pick and pick not in known:
            raise RoomError(RoomErrorCode.BAD_REQUEST, f"there is no character {pick!r}")
    if mode == "survival" and not opponents and not 1 <= run_length <= MAX_SURVIVAL_BOTS:
        raise RoomError(RoomErrorCode.BAD_REQUEST,
                        f"a Survival run has 1 to {MAX_SURVIVAL_BOTS} opponents (TR-14)")
    if len(opponents) > MAX_SURVIVAL_BOTS:
        raise RoomError(RoomErrorCode.BAD_REQUEST,
                        f"a Survival run has 1 to {MAX_SURVIVAL_BOTS} opponents (TR-14)")
    seed = _seed()
    if not opponents:
        ids = sorted(known)
        if mode == "survival":
            rng = random.Random(seed)
            opponents = tuple(rng.sample(ids, min(run_length, len(ids))))
        else:
            opponents = (ids[seed % len(ids)],)
    room = Room.objects.create(seed=seed, created_by=user, mode=mode)
    RoomSeat.objects.create(room=room, seat="P1", user=user, name=name, character=character)
    if mode == "versus":
        RoomSeat.objects.create(room=room, seat="P2", bot=bot, name=f"{bot} bot",
                                character=opponents[0])
    else:
        RoomSeat.objects.create(room=room, seat="P2", bot=games.RULEBOOK_BOT,
                                name="Training bot" if mode == "training" else "Survival bots",
                                character=",".join(opponents))
    _start_if_picked(room)
    return room


def _practice_tag_team(*, user: AbstractBaseUser, name: str, bot: str, characters: str,
                       bot_characters: str) -> Room:
    if not games.bot_known(bot):
        raise RoomError(RoomErrorCode.UNKNOWN_BOT, f"there is no bot called {bot!r}")
    known = games.playable_characters()
    seed = _seed()
    sides: list[tuple[str, ...]] = []
    for whose, text in (("your team", characters), ("the bots' team", bot_characters)):
        picks = games.lineup(text)
        if not picks and whose == "the bots' team":
            picks = tuple(random.Random(seed).sample(sorted(known), 2))
        if len(picks) != 2:
            raise RoomError(RoomErrorCode.BAD_REQUEST,
                            f"{whose}: pick two characters (a Tag Team side has two)")
        for pick in picks:
            if pick not in known:
                raise RoomError(RoomErrorCode.BAD_REQUEST, f"there is no character {pick!r}")
        if picks[0] == picks[1]:
            raise RoomError(RoomErrorCode.BAD_REQUEST,
                            f"{whose}: a team's two characters must differ")
        sides.append(picks)
    room = Room.objects.create(seed=seed, created_by=user, mode=Match.Mode.TAG_TEAM)
    for seat, side_no, member in games.bench_seating((2, 2)):
        character = sides[side_no - 1][member]
        if side_no == 1:  # the player's side of one plays both its seats
            RoomSeat.objects.create(room=room, seat=seat, side=side_no, user=user, name=name,
                                    character=character)
        else:
            RoomSeat.objects.create(room=room, seat=seat, side=side_no, bot=bot,
                                    name=f"{bot} bot", character=character)
    _start_if_picked(room)
    return room


def _start_if_picked(room: Room) -> Game | None:
    seats = room_seats(room)
    if any(not s.character for s in seats):
        return None
    room.status = Room.Status.PLAYING
    room.decision_since = timezone.now()
    room.save(update_fields=["status", "decision_since", "updated_at"])
    game = games.game_for(room.pk, room.seed, room_picks(room, seats), [],
                          mode=room.mode)
    _bots_play(room, seats, game)
    if game.history:
        _store(room, game, 0)
    return game


def _locked(room_id: int, user: User,
            as_seat: str | None = None) -> tuple[Room, list[RoomSeat], str]:
    """The locked room, its seats and the seat the sender chooses for: their own, or on a
    one-device recorder whichever seat the device holder names (checked now: the holder must
    still be a player of the match or one of its organizers)."""
    room = Room.objects.select_for_update().filter(pk=room_id).first()
    if room is None:
        raise RoomError(RoomErrorCode.NOT_FOUND, "there is no such room")
    seats = room_seats(room)
    controlled = room_seats_of(seats, user)
    if as_seat is not None and as_seat in controlled:
        return room, seats, as_seat  # a player of two seats (a Tag Team side of one)
    if room.one_device and as_seat is not None and room_is_device(room, user):
        if as_seat not in {s.seat for s in seats}:
            raise RoomError(RoomErrorCode.BAD_REQUEST,
                            f"there is no seat {as_seat!r} (expected one of "
                            f"{', '.join(s.seat for s in seats)})")
        assert room.match is not None
        if match_user_side(room.match, user) is None and \
                not match_user_is_manager(room.match, user):
            raise RoomError(RoomErrorCode.NOT_ALLOWED,
                            "only the match's players or its organizers record its game")
        return room, seats, as_seat
    if not controlled:
        raise RoomError(RoomErrorCode.NOT_YOUR_SEAT, "spectators watch; only the players choose")
    # no seat named (or one the sender does not play): the sender's own seat, the one now
    # deciding if they play several
    game_acting = _acting_names(room, seats)
    return room, seats, next((s for s in controlled if s in game_acting), controlled[0])


def _acting_names(room: Room, seats: list[RoomSeat]) -> set[str]:
    if room.status == Room.Status.PICKING:
        return {s.seat for s in seats if not s.character}
    game = room_game(room, seats)
    return {p.name for p in game.acting_players} if game is not None else set()


def _lineup_checked(mode: str, character: Any) -> str:
    """A seat's pick as stored: one character, or a team mode's lineup (a list, in order)."""
    size = games.TEAM_SIZES[mode]
    picks = character if isinstance(character, list) else [character]
    if len(picks) != size or not all(isinstance(c, str) for c in picks):
        raise RoomError(RoomErrorCode.BAD_REQUEST,
                        f"pick {size} character{'s' if size > 1 else ''}"
                        + (" (a list, in the order you declare them)" if size > 1 else ""))
    known = games.playable_characters()
    for pick in picks:
        if pick not in known:
            raise RoomError(RoomErrorCode.BAD_REQUEST, f"there is no character {pick!r}")
    if len(set(picks)) != len(picks):
        raise RoomError(RoomErrorCode.BAD_REQUEST,
                        "a team's characters must all be different (TT-1)")
    return ",".join(picks)


def room_pick(*, room_id: int, user: User, character: Any,
              seat: str | None = None) -> RoomUpdate:
    """The seat's character (a team mode: its lineup); hidden from the others until every
    seat has picked. ``seat``: on a one-device recorder, the seat the holder picks for."""
    with games.room_lock(room_id), transaction.atomic():
        room, seats, seat = _locked(room_id, user, seat)
        mine = next(s for s in seats if s.seat == seat)
        if room.status != Room.Status.PICKING or mine.character:
            raise RoomError(RoomErrorCode.STALE, "the characters are already picked")
        character = _lineup_checked(room.mode, character)
        picked = owner_room_picks(room.match) if room.match is not None else None
        if picked is not None and picked.pending:
            raise RoomError(RoomErrorCode.PICKS_PENDING, picked.pending)
        if picked is not None and picked.characters:
            # the set's picks were revealed after the room opened: they are the characters
            fixed = dict(zip(SEATS, picked.characters, strict=True))
            if character != fixed.get(seat):
                raise RoomError(RoomErrorCode.BAD_REQUEST,
                                f"the set's character picks for this game are revealed: "
                                f"{seat} plays {fixed.get(seat)!r}, not {character!r}")
            for other in seats:
                if other.seat != seat and not other.character and other.seat in fixed:
                    other.character = fixed[other.seat]
                    other.save(update_fields=["character"])
        partner = partner_seat(room, seats, seat)
        if partner is not None and any(s.seat == partner and s.character == character
                                       for s in seats):
            raise RoomError(RoomErrorCode.BAD_REQUEST,
                            f"your partner ({partner}) already picked {character!r}: a team's "
                            "two characters must differ")
        mine.character = character
        mine.save(update_fields=["character"])
        game = _start_if_picked(room)
        seats = room_seats(room)
        messages = room_states(room, seats, game)
    return RoomUpdate(room.pk, messages)


def room_choose(*, room_id: int, user: User, action: Any, decision: str | None,
                seat: str | None = None) -> RoomUpdate:
    """Apply the sender's seat's choice (after the engine checks it), then any bot's.
    ``seat``: the seat the choice is for, when the sender may choose for another: one of
    their own seats, a seat card text gave their seat control of (Mistress's Command), or on
    a one-device recorder any seat (else ignored: a choice is the sender's own seat's)."""
    requested = seat
    with games.room_lock(room_id), transaction.atomic():
        room, seats, seat = _locked(room_id, user, seat)
        if room.status == Room.Status.FINISHED:
            raise RoomError(RoomErrorCode.FINISHED, "the game is over")
        if room.status == Room.Status.PICKING:
            raise RoomError(RoomErrorCode.NOT_YOUR_TURN, "pick your character first")
        game = room_game(room, seats)
        assert game is not None
        sender = player = games.seat_id(seat)
        if requested is not None and requested != seat and \
                requested in {s.seat for s in seats} and \
                game.controller(games.seat_id(requested)) is sender:
            player = games.seat_id(requested)  # the seat card text gave the sender control of
        if player not in game.acting_players:
            raise RoomError(RoomErrorCode.NOT_YOUR_TURN,
                            f"it is {' and '.join(p.name for p in game.acting_players)}'s "
                            f"decision at {game.step}, not {player.name}'s")
        controller = game.controller(player)
        if controller is not sender and not room_is_device(room, user):
            raise RoomError(RoomErrorCode.NOT_YOUR_TURN,
                            f"{player.name}'s decision is {controller.name}'s to make now (card "
                            f"text gave {controller.name} control of it)")
        if decision is not None and decision != decision_token(game, player.name):
            raise RoomError(RoomErrorCode.STALE,
                            "that choice answered an earlier decision; choose again")
        try:
            parsed = games.action_parse(player, action, game, room.mode)
        except (LogSyntaxError, ValueError) as exc:
            raise RoomError(RoomErrorCode.BAD_REQUEST, f"unreadable choice: {exc}") from None
        start = len(game.history)
        try:
            games.apply(game, player, parsed)
        except IllegalActionError as exc:
            raise RoomError(RoomErrorCode.ILLEGAL, exc.reason, rule=exc.rule_id) from None
        if seat not in room.chose:
            room.chose = [*room.chose, seat]  # this seat's player played (stored by _store)
        try:
            _bots_play(room, seats, game)
            _store(room, game, start)  # the choice and the bots' answers: one write
        except BaseException:
            games.game_forget(room.pk)  # the database did not take it: rebuild next time
            raise
        messages = room_states(room, seats, game)
    return RoomUpdate(room.pk, messages)


def room_clock_check(*, room_id: int) -> RoomUpdate | None:
    """If the room's decision clock has run out, make the default choice (DEFAULT_KINDS) for
    every seat still to decide, and log it like any choice. None when nothing was due.

    Anyone connected to the room may ask (the clients do when their countdown ends); the server
    decides by its own clock, so an early or repeated ask changes nothing.
    """
    with games.room_lock(room_id), transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        if (room is None or room.status != Room.Status.PLAYING or not room.decision_seconds
                or room.decision_since is None):
            return None
        elapsed = (timezone.now() - room.decision_since).total_seconds()
        if elapsed < room.decision_seconds:
            return None
        seats = room_seats(room)
        game = room_game(room, seats)
        assert game is not None
        start = len(game.history)
        try:
            for player in list(game.acting_players):
                if game.is_over or player not in game.acting_players:
                    continue
                games.apply(game, player, default_choice(game.legal_actions(player)))
            _bots_play(room, seats, game)
            _store(room, game, start)
        except BaseException:
            games.game_forget(room.pk)
            raise
        messages = room_states(room, seats, game)
    return RoomUpdate(room.pk, messages)


# One round trip for a choice's write on PostgreSQL: the new events and the room's version and
# clock, in one statement (a data-modifying CTE runs whether or not the UPDATE reads it).
_STORE_SQL = """
WITH stored AS (
    INSERT INTO "rooms_roomevent" ("room_id", "index", "player", "action", "character",
                                   "created_at")
    SELECT %s, e."index", e."player", e."action", e."character", %s
    FROM jsonb_to_recordset(%s::jsonb)
        AS e("index" integer, "player" varchar, "action" jsonb, "character" varchar)
    RETURNING 1
)
UPDATE "rooms_room" SET "version" = %s, "decision_since" = %s, "chose" = %s::jsonb
WHERE "id" = %s
"""


def _store(room: Room, game: Game, start: int) -> None:
    """Store the events from ``start`` on and the room's version (the cached game's check)
    and its clock (the next decision opens now)."""
    acting = games.acting_characters(game)
    now = timezone.now()
    events = [
        {"index": i, "player": p.name, "action": a.to_json(), "character": acting[i] or ""}
        for i, (p, a) in enumerate(game.history[start:], start=start)
    ]
    room.version = len(game.history)
    room.decision_since = now
    if not game.is_over and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_STORE_SQL, [room.pk, now, json.dumps(events), room.version, now,
                                        json.dumps(room.chose), room.pk])
        return
    RoomEvent.objects.bulk_create([RoomEvent(room=room, **e) for e in events])
    if game.is_over:
        _finish(room, game)  # saves the whole row
    else:
        Room.objects.filter(pk=room.pk).update(version=room.version,
                                               decision_since=room.decision_since,
                                               chose=room.chose)


def _bots_play(room: Room, seats: list[RoomSeat], game: Game) -> None:
    """Every bot whose decision it is chooses now. At a simultaneous commit the bot commits as
    soon as the decision opens, before the person's hidden choice is applied (bots are handed
    the whole game, so they must never choose after seeing it)."""
    # the rulebook's bot (Training, Survival) is the engine's own: it never acts here
    bots = {games.seat_id(s.seat): s.bot for s in seats
            if s.bot and s.bot != games.RULEBOOK_BOT}
    while bots and not game.is_over:
        # a bot decides for its seat, and for a seat card text gave it control of
        acting = [p for p in game.acting_players if game.controller(p) in bots]
        if not acting:
            return
        player = acting[0]
        bot = games.bot_for(bots[game.controller(player)], room.seed, len(game.history),
                            player)
        games.apply(game, player, bot.choose(game, player, game.legal_actions(player)))


def _vouching_sides(room: Room, seats: list[RoomSeat]) -> set[int] | None:
    """The sides the room's record speaks for. An event's match: every side (the organizers
    set the clock; a side that let it run out lost by the event's rule). A match outside any
    event: only the sides whose players made a choice themselves; a side that never played
    (every decision the clock's) confirms or disputes the result like an uploaded log."""
    assert room.match is not None
    if owner_room_decision_seconds(room.match) is not None:
        return None
    return {s.side_number for s in seats if s.seat in room.chose}


def _finish(room: Room, game: Game) -> None:
    """The game ended: write its log; a match's log goes to verification as the room's own."""
    assert game.outcome is not None
    seats = room_seats(room)
    names: list[str | None] = [None if s.bot == games.RULEBOOK_BOT else s.name for s in seats]
    controllers: list[tuple[str | None, ...] | None] = [None, None]
    if room.mode in games.BENCH_MODES:
        # TT-1: each character's player, when a side's seats have different players
        by_side = [tuple(s.name for s in seats if s.side_number == side) for side in (1, 2)]
        controllers = [c if len(set(c)) > 1 else None for c in by_side]
        names = [c[0] for c in by_side]
    log = games.match_log(game, room.seed, room_picks(room, seats), names, room.mode,
                          controllers)
    room.log_text = log.dumps()
    room.status = Room.Status.FINISHED
    room.outcome = {
        "winner": game.outcome.winner.name if game.outcome.winner is not None else None,
        "how": game.outcome.termination.value, "turns": game.turn,
        "life": {p.player.name: p.life for p in game.players},
    }
    if room.mode == "survival":
        room.outcome["survival"] = games.survival_result(game)
    if room.mode in games.RULEBOOK_BOT_MODES:
        # Training or Survival: stored as the player's solo run, as an uploaded one is (the
        # verifier recomputes every bot choice; the player's endorsement suffices).
        try:
            with transaction.atomic():
                solo = solo_run_submit(user=seats[0].user,
                                       log_bytes=room.log_text.encode("utf-8"))
            room.match = solo.log.match
            room.match_log = solo.log
        except MatchError as exc:
            room.result_problem = exc.message
    elif room.match_id is not None:
        try:
            with transaction.atomic():
                if room.is_tabletop:
                    # The players said what they drew: an ordinary submission by the room's
                    # opener (on one device, the holder who entered both sides), which the
                    # other side confirms or disputes with their own account. Never in the
                    # other side's name: the holder may have played both seats alone.
                    outcome = match_log_submit(
                        match=room.match, submitted_by=room.created_by or seats[0].user,
                        log_bytes=room.log_text.encode("utf-8"),
                    )
                else:
                    outcome = match_log_record_from_room(
                        match=room.match, log_bytes=room.log_text.encode("utf-8"),
                        room_ref=f"room {room.pk}", vouching_sides=_vouching_sides(room, seats),
                    )
            room.match_log = outcome.log
        except MatchError as exc:
            # The match closed meanwhile (an organizer's override, a cancelled set), or the
            # log was refused: the game and its log stay in the room, the page says why no
            # result followed, and the match's audit log tells those waiting on it.
            room.result_problem = exc.message
            match_room_log_refused(match=room.match, reason=exc.message,
                                   room_ref=f"room {room.pk}")
    room.save()
