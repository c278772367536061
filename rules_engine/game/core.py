"""The game's core: state, the public API (who acts, legal choices, apply), the driver, and the
operations every step uses (draws, damage, heals, the KO check, ability windows, counters).

Responsibility: the generator driver and the shared operations. The steps themselves live in
the modules layered on top of this one, each a class that extends the one below it:
``core`` <- ``power_up`` (P1..P6, K2, Ace searches) <- ``combo`` (C9..C13) <- ``combat``
(C1..C8) <- ``views`` (what may be seen) <- ``turn`` (setup and T1..T7; the :class:`Game`
itself).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import replace
from itertools import combinations, compress, repeat
from operator import is_
from typing import TYPE_CHECKING, Any

from rules_engine import combat as cb
from rules_engine import counters
from rules_engine.actions import (
    Action,
    Combo,
    Commit,
    Draw,
    Pass,
    PowerUp,
    Reveal,
    Search,
    Stop,
    UseAbility,
)
from rules_engine.cards import Card, Character, Move, MoveType, character, deck_for
from rules_engine.errors import (
    EngineInvariantError,
    IllegalActionError,
    LogPosition,
    RuleViolation,
)
from rules_engine.journal import (
    CombatArea,
    ComboEnded,
    DamageDealt,
    Drew,
    Entered,
    Event,
    Fighter,
    Healed,
    JokerUsed,
    Journal,
    Knockdown,
    PlayedMove,
    TurnEnded,
    Voided,
)
from rules_engine.modes import Bout, ModeRules
from rules_engine.modifiers import (
    BLOCK_DAMAGE,
    COMBO_MOVE,
    MOVE,
    MOVE_ALLOWED,
    POWER_UP_FOR,
    POWER_UP_WITH,
    SPEED,
    Expiry,
    Modifier,
    Modifiers,
)
from rules_engine.rng import SplitMix64
from rules_engine.ruleset import (
    DEFAULT_RULESET,
    AceSource,
    DoubleKO,
    GoldBurstSearch,
    Jokers,
    Ruleset,
    ShuffleTrigger,
    Timeout,
)
from rules_engine.state import (
    Combat,
    ComboEntry,
    ComboRecord,
    Decision,
    Outcome,
    PlayerState,
    Probe,
    Step,
    Zone,
)
from rules_engine.table import Table
from rules_engine.team import Mode, Team
from rules_engine.types import Actor, PlayerId, Termination

if TYPE_CHECKING:
    from rules_engine.characters import CharacterRules

P1, P2 = PlayerId.P1, PlayerId.P2
OPENING_HAND = 7  # S-5
HAND_LIMIT = 12  # HL-2
TT_HEAL = 20  # TT-5 (d)

# Ruleset choices every Ace search compares, read from their enums once: in CPython 3.11 a read
# of an enum member from its class goes through ``EnumType.__getattr__``'s hook, about as costly
# as a function call.
_DISCARD_FIRST, _SEARCHED_DECK = AceSource.DISCARD_FIRST, ShuffleTrigger.SEARCHED_DECK
# The zones ``move`` takes cards from and puts them in, as the seat's lists (PlayerState's
# attributes), and the zones it compares, read once for the same reason.
_PILES = {Zone.HAND: "hand", Zone.DECK: "deck", Zone.DISCARD: "discard", Zone.FACE_UP: "face_up"}
_COMBAT, _COMBO, _DECK, _DISCARD, _BANISHED = (Zone.COMBAT, Zone.COMBO, Zone.DECK, Zone.DISCARD,
                                               Zone.BANISHED)


# the team modes' steps whose choice is a pick: nobody of the side is in play (TT-2, TT-4)
_PICK_STEPS = ("TT-2", "TT-4")
_COMBO_ENDED = frozenset({ComboEnded})
# a named tuple (Fighter, PlayedMove) made from its fields in order without its Python __new__
_new = tuple.__new__


def _text_names(ps: PlayerState) -> list[str]:
    """The names of a character's innates and card abilities (a modifier's ``source``)."""
    return [i.name for i in ps.character.innates] + [a.name for a in ps.character.abilities]


def _refuse(refused: RuleViolation | None, action: Action, check: Callable[[], None]) -> None:
    """A counter played against an ability the counter policy does not let it counter (CTR-8):
    the policy's reason; otherwise the seat's own counter ``check``."""
    if refused is not None and isinstance(action, UseAbility):
        raise refused
    check()


def _code(c: Card) -> str:
    return c.code


class GameOver(Exception):
    """Internal: unwinds the generator when an end condition holds (END-2: at once)."""


class GameCore:
    """The state and shared operations of a game (see the module docstring)."""

    # Every attribute the core sets is a slot. CPython 3.11 keeps an instance's attributes in
    # a table shared by the class only up to 30 names; past that (a game has 45) each game gets
    # a dict of its own, and no ``self.method(...)`` call of the steps is specialised: each one
    # looks the name up in the class and in that dict. Slots keep those calls fast (about 5% of
    # a replay's instructions). Subclasses (the steps, ``Game``) add no slots and keep a
    # ``__dict__`` for attributes of their own (the timeline's observing game, tests).
    __slots__ = (
        "_acting", "_contesters", "_decision", "_delivered", "_derived", "_draw_replacers", "_gen",
        "_held", "_hooked", "_known_bottom", "_known_top", "_listeners",
        "_opponent_of", "_orders", "_overriders", "_reactors", "active_seats", "actives", "bouts",
        "combat", "controllers", "declared_ruleset", "derived", "diagnosing", "events_applied",
        "first_initiative", "fresh_bout", "frozen", "history", "initiative", "journal", "mode",
        "modifiers", "outcome", "players", "recorded", "rng", "rules", "ruleset", "seated", "seed",
        "shares_damage", "skip_to_combat", "step", "table", "teams", "timeout_triggered", "turn",
    )

    def __init__(
        self,
        p1: Character,
        p2: Character,
        *,
        ruleset: Ruleset = DEFAULT_RULESET,
        seed: int | None = None,
        teams: tuple[Team, Team] | None = None,
        mode: ModeRules | None = None,
    ) -> None:
        from rules_engine.characters import rules_for

        self.ruleset = ruleset
        # the ruleset as declared (what a log of this game names); a mode may play under a
        # changed one (Training removes the Jokers whatever it says, TR-1)
        self.declared_ruleset = ruleset
        # the mode's strategy (Versus unless told) and each side's roster; in Versus the two
        # characters are in play from the start, in a team mode they enter when picked (TT-2)
        self.mode = mode if mode is not None else ModeRules()
        self.teams: tuple[Team, Team] = teams if teams is not None else (
            Team.of((p1.id,)), Team.of((p2.id,)))
        # a mode with a bench seats every member from the start (TG-2, DB-1): the table and the
        # characters by seat; None: one seat a side (Versus, Triple Threat)
        seating = self.mode.seating(self.teams)
        if self.mode.mode is Mode.VERSUS:
            for team, ch in zip(self.teams, (p1, p2), strict=True):
                team.enter(ch.id)
        elif seating is not None:
            for team in self.teams:
                for cid in team.characters:
                    team.enter(cid)
        self.bouts: list[Bout] = []  # team modes: one per bout, the current one last
        self.fresh_bout = False  # opt.ttFreshBoutTurn1: the next turn is played as a turn 1
        self.table = Table.versus() if seating is None else seating[0]
        seated = (p1, p2) if seating is None else seating[1]
        # a starting life the ruleset changes (a source conflict's other reading, S-5), then
        # the mode's (DB-2: the lone character's doubled life, also its heal cap, OQ-25)
        seated = tuple(ch if ruleset.starting_life(ch.id, ch.life) == ch.life
                       else replace(ch, life=ruleset.starting_life(ch.id, ch.life))
                       for ch in seated)
        if seating is not None:
            seated = tuple(self.mode.seat_character(self.table.side_of(PlayerId(i)), ch)
                           for i, ch in enumerate(seated))
        self.seed = seed
        self.recorded = seed is None
        self.rng = SplitMix64(seed) if seed is not None else None
        # seat states and rules, indexed by seat (PlayerId is an index into both)
        self.players: tuple[PlayerState, ...] = tuple(
            PlayerState(PlayerId(i), ch, ch.life) for i, ch in enumerate(seated))
        self.rules: tuple[CharacterRules, ...] = tuple(rules_for(ps.character)
                                                       for ps in self.players)
        self.seat_table(self.table)
        self.modifiers = Modifiers()
        for ps in self.players:
            for modifier in self.rules[ps.player].modifiers(ps.player):
                self.modifiers.add(modifier)
        self._index_rules()
        self.frozen: set[PlayerId] = set()  # seats whose decisions are skipped this turn
        # seat -> the seat making its decisions until this turn's combat reveal (C2)
        self.controllers: dict[PlayerId, PlayerId] = {}
        self.skip_to_combat = False  # card text: the phases up to next turn's combat are skipped
        self.journal = Journal()
        for ps in self.players:  # who plays each seat (the acting character of its events)
            self.journal.record(Entered(0, "S-5", ps.player, ps.character.id))
        self._delivered = 0
        # per seat: the cards at the top of its deck whose order card text made known to that
        # player (Research and Development), top first; emptied by every shuffle
        self._known_top: tuple[list[Card], ...] = tuple([] for _ in self.players)
        # per seat: the bottom card of its deck card text showed that player (Lum's roll)
        self._known_bottom: dict[PlayerId, Card] = {}
        self.turn = 0
        self.step = "S-5"
        self.initiative: PlayerId = P1
        self.first_initiative: PlayerId = P1
        self.outcome: Outcome | None = None
        self.events_applied = 0
        self.history: list[tuple[PlayerId, Action]] = []
        # the character that made each choice of ``history`` (None for a team mode's pick:
        # nobody of the side is in play); a version-2 log names it (Game.to_log). Versus keeps
        # none: its characters never change, so :attr:`acting` reads them off the seats (an
        # append per event is 3% of a replay)
        self._acting: list[str | None] | None = (None if self.mode.mode is Mode.VERSUS
                                                 else [])
        self.timeout_triggered = False
        self.combat = Combat()
        # AS-9 / AS-16 (rules_engine.assists): active seat -> its benched partner, who takes the
        # combat damage it takes this combat too (its team assisted and lost or tied)
        self.shares_damage: dict[PlayerId, PlayerState] = {}
        # Set by rules_engine.diagnosis only: the illegal event being explained, offered to
        # every decision the engine settles by itself (None: not diagnosing).
        self.diagnosing: Probe | None = None
        self._decision: Decision | None = None
        # seats whose decisions the mode derives (a Training bot, TR-3): never logged; the
        # choices made for them, as (events applied before it, seat, action), in order
        self._derived: frozenset[PlayerId] = self.mode.derived_seats(self)
        self.derived: list[tuple[int, PlayerId, Action]] = []
        # a derived seat's decision that a player answers for it now (ModeRules.ask_for: the
        # human breaks the Training bot's combo ties, TR-8), with that seat
        self._held: tuple[Decision, PlayerId] | None = None
        self._gen = self._play()
        self._advance(None)

    @property
    def actor(self) -> PlayerId | Actor:
        """Who must act: one player, SIMULTANEOUS (both, hidden C1 commits), or TERMINAL."""
        d = self._decision
        if d is None:
            return Actor.TERMINAL
        if len(d.players) == 1:
            return d.players[0]
        return Actor.SIMULTANEOUS

    @property
    def acting_players(self) -> tuple[PlayerId, ...]:
        """The players who may act now (both during a simultaneous commit)."""
        return () if self._decision is None else self._decision.players

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_actions(self, player: PlayerId) -> Sequence[Action]:
        """The legal choices of ``player`` now (empty if it is not their decision): a list,
        or a sequence made on demand where the choices run to thousands (Quince's Two Truths,
        ``TruthChoices``)."""
        d = self._decision
        if d is None or player not in d.players:
            return []
        options = d.options(player)
        # a list is kept (a copy: the caller may change it) so apply can tell a listed choice;
        # a sequence made on demand makes new values each time, so apply checks its choices
        d.listed = (player, tuple(options)) if isinstance(options, list) else None
        return options

    def position(self) -> LogPosition:
        return LogPosition(self.events_applied, self.turn, self.step)

    def check(self, player: PlayerId, action: Action) -> None:
        """Raise IllegalActionError if ``action`` by ``player`` is not legal now."""
        d = self._decision
        if d is None:
            raise IllegalActionError(
                self.position(), player, action, "END-2",
                "the game is over; no further event may follow")
        if self._derived and self._derives(player):
            raise IllegalActionError(
                self.position(), player, action, self.mode.derived_rule(d.step),
                f"{player.name} is played by the engine ({self.mode.mode.label} bot): its "
                "choices are derived, never logged, and this is not the choice the bot makes")
        if player not in d.players:
            who = " or ".join(p.name for p in d.players)
            raise IllegalActionError(
                self.position(), player, action, d.rule,
                f"it is {who}'s decision at {d.step}, not {player.name}'s")
        try:
            d.check(player, action)
        except RuleViolation as v:
            raise IllegalActionError(self.position(), player, action, v.rule_id, v.reason) from None

    def apply(self, player: PlayerId, action: Action) -> None:
        """Validate and apply one choice; raises IllegalActionError (state unchanged) if illegal.

        An action that is (identity, not equality) one of the options this decision listed for
        ``player`` is legal without the check: every listed option passes it (GEN-2; tested),
        and nothing changes the state between the listing and this call but a new decision,
        which lists afresh. Bots choose from the list, so most self-play choices skip it."""
        d = self._decision
        listed = None if d is None else d.listed
        if listed is None or listed[0] is not player or self._derived \
                or not any(map(is_, repeat(action), listed[1])):
            self.check(player, action)
        self.events_applied += 1
        self.history.append((player, action))
        if self._acting is not None:
            self._acting.append(None if self.step in _PICK_STEPS
                                else self.players[player].character.id)
        self._advance((player, action))

    @property
    def acting(self) -> list[str | None]:
        """The character that made each choice of ``history``, in order (None for a team
        mode's pick)."""
        if self._acting is None:  # Versus: each seat's one character
            players = self.players
            return [players[p].character.id for p, _ in self.history]
        return self._acting

    def state(self, player: PlayerId) -> PlayerState:
        return self.players[player]

    @property
    def life(self) -> tuple[int, ...]:
        """Every seat's life, in seat order (P1, P2 in Versus)."""
        return tuple([ps.life for ps in self.players])  # (a list: no generator to run)

    @property
    def combo(self) -> list[ComboEntry]:
        """The winner's combo this combat, in order."""
        return self.combat.run.entries

    @property
    def combo_seat(self) -> PlayerId | None:
        """Whose combo :attr:`combo` is: the winner's, or a combo card text started (Time
        Stop); None when there is none."""
        segments = self.combat.run.segments
        return segments[0].seat if segments else None

    def combo_of(self, ps: PlayerState) -> list[ComboEntry]:
        """The moves of this combat's combo that ``ps`` played itself, in order: its own
        segments. A tag (TAG-CONT, TAG-SUPER) or an assist (AS-11) puts another seat's moves
        in the same combo, and their cards come from that seat's deck, not ``ps``'s."""
        own: list[ComboEntry] = []  # (a loop: no comprehension made per question)
        seat = ps.player
        for seg in self.combat.run.segments:
            if seg.seat is seat:
                own.extend(seg.entries)
        return own

    @property
    def combos(self) -> list[ComboRecord]:
        """Every finished combo of the game (from the journal)."""
        journal = self.journal  # (picked without a Python step per other event)
        return [e.record for e in compress(journal, map(  # type: ignore[attr-defined]
            _COMBO_ENDED.__contains__, map(type, journal)))]

    # ------------------------------------------------------------------ the table

    def seat_table(self, table: Table) -> None:
        """Seat the game at ``table`` (a mode changes it when a character comes in): the seat
        states by initiative order, the active pair and each seat's opponent are looked up
        here once, not worked out at every step."""
        self.table = table
        # the seats in play, in seat order (every seat in Versus; a defeated Tag Team
        # character's seat has left the table, TG-KO)
        self.seated: tuple[PlayerState, ...] = tuple(
            self.players[s] for s in sorted(table.seats))
        self._orders = {s: tuple(self.players[x] for x in table.in_initiative_order(s))
                        for s in table.seats}
        self.actives: tuple[PlayerState, PlayerState] = (
            self.players[table.actives[0]], self.players[table.actives[1]])
        # their seats, one tuple shared by every combat's records (CombatResolved, CombatArea)
        self.active_seats: tuple[PlayerId, PlayerId] = table.actives
        self._opponent_of = {s: self.players[table.opponent(s)] for s in table.seats}

    def _index_rules(self) -> None:
        """Which seats' rules react to events (the others are skipped when delivering), may
        override C6 (in seat order), or may change it by a choice (CharacterRules.contest);
        worked out again when a character comes in."""
        from rules_engine.characters import STEP_HOOKS, overrides

        # per step hook (CharacterRules.start_of_turn, after_commits, ...), the seats whose
        # rules override it, seated or not: the steps ask only those (the default does nothing)
        self._hooked: dict[str, frozenset[PlayerId]] = {
            hook: frozenset(ps.player for ps in self.players
                            if overrides(self.rules[ps.player], hook))
            for hook in STEP_HOOKS}
        # the listening seats, each with the event types its rules read (None: every type)
        self._listeners = [(ps.player, self.rules[ps.player].event_types) for ps in self.seated
                           if self.rules[ps.player].listens_to_events]
        # per journal event type, the listening seats whose rules react to it
        # (CharacterRules.event_types), filled as types are met
        self._reactors: dict[type[Event], frozenset[PlayerId]] = {}
        self._overriders = [ps.player for ps in self.seated
                            if self.rules[ps.player].overrides_combat]
        self._contesters = [ps.player for ps in self.seated
                            if self.rules[ps.player].contests_combat]
        # the seats whose rules may replace a draw (CharacterRules.replace_draw)
        self._draw_replacers = [ps.player for ps in self.seated
                                if self.rules[ps.player].replaces_draws]

    # ------------------------------------------------------------------ teams (modes)

    def active_characters(self) -> tuple[str, str]:
        """The characters in combat, side A's first."""
        return self.actives[0].character.id, self.actives[1].character.id

    def starting_life(self, character_id: str) -> int:
        """S-5 under this ruleset (GEN-8's cap)."""
        ch = character(character_id)
        return self.ruleset.starting_life(ch.id, ch.life)

    def replace_rules(self, seat: PlayerId, rules: CharacterRules) -> None:
        """A mode plays ``seat``'s character with other rules (Training: a BOT rule that
        changes what an ability does for the bot, RULES.md §12.2). Called as the character
        comes in (setup, ``bring_in``), when the only modifiers on that seat are its old rules'
        always-on ones: every modifier on the seat leaves, the new rules' come in, and the
        seats that react are worked out again. Never called in Versus."""
        self.modifiers.remove(lambda m: m.seat is seat)
        self.rules = tuple(rules if s == seat else r for s, r in enumerate(self.rules))
        for modifier in rules.modifiers(seat):
            self.modifiers.add(modifier)
        self._index_rules()

    def bring_in(self, side: int, character_id: str, *, fresh_deal: bool) -> Step:
        """A team mode sends ``character_id`` into ``side``'s seat (TT-2, TT-4): a new seat
        state at full life with its own rules and innates; the outgoing character's state,
        rules and modifiers on that seat leave with it. ``fresh_deal`` (OQ-17): the new
        character shuffles its fresh deck and draws an opening 7 now; otherwise S-5 deals."""
        from rules_engine.characters import rules_for

        seat = self.table.active(side)
        ch = character(character_id)
        if self.ruleset.starting_life(ch.id, ch.life) != ch.life:
            ch = replace(ch, life=self.ruleset.starting_life(ch.id, ch.life))
        ps = PlayerState(seat, ch, ch.life)
        self.modifiers.remove(lambda m: m.seat is seat)
        self.players = tuple(ps if s == seat else old for s, old in enumerate(self.players))
        self.rules = tuple(rules_for(ch) if s == seat else r for s, r in enumerate(self.rules))
        for modifier in self.rules[seat].modifiers(seat):
            self.modifiers.add(modifier)
        self._known_top[seat].clear()
        self._known_bottom.pop(seat, None)
        # card text's control of a seat (Mistress's Command) ends with the character
        self.controllers = {s: by for s, by in self.controllers.items()
                            if s != seat and by != seat}
        self.seat_table(self.table)
        self._index_rules()
        self.teams[side].enter(ch.id)
        self.journal.record(Entered(self.turn, self.step, seat, ch.id))
        if fresh_deal:
            ps.deck = list(deck_for(self.ruleset.jokers is Jokers.INCLUDED))
            if self.rng is not None:
                self.rng.shuffle(ps.deck)
            yield from self._draw(ps, "OQ-17", OPENING_HAND)

    def end_bout(self) -> None:
        """The bout ended at a knockout (END-2: at once): the combat areas are cleared into
        the discard piles, "this combat" and "this turn" effects end with the turn, both
        characters' knockdowns are cleared (OQ-17), and card text of a defeated character
        stops applying to the other side (modifiers it put on the winner)."""
        combat = self.combat
        if combat.began and not combat.shown:
            # the knockout ended the combat before C13: its combat area is shown as it stands
            self.show_combat_area()
        self.journal.record(TurnEnded(self.turn, self.step, self.life, self.initiative))
        for ps in self.players:
            for c in [ps.combat_card, ps.face_down, *(e.card for e in self.combo_of(ps)
                                                    if e.played_in_c10 and not e.returned)]:
                if c is not None and c not in ps.discard:
                    self.discard(ps, c)
            ps.combat_card, ps.face_down, ps.combat_move = None, None, None
            ps.knocked_down = ps.knockdown_next = False
            ps.combo_points_spent, ps.chains = 0, []
        self.combat = Combat()
        self.expire_modifiers(Expiry.END_OF_COMBAT)
        self.expire_modifiers(Expiry.END_OF_TURN)
        self.frozen.clear()
        winners = {ps.character.id for ps in self.players if ps.life > 0}
        gone = {name for ps in self.players if ps.life <= 0 for name in _text_names(ps)}
        kept = {name for ps in self.players if ps.life > 0 for name in _text_names(ps)}
        if winners:
            self.modifiers.remove(lambda m: m.source in gone and m.source not in kept)
        self.fresh_bout = self.ruleset.ttFreshBoutTurn1

    def winner_carries_on(self, ps: PlayerState) -> None:
        """TT-5: the winning character shuffles its discard pile into its deck, keeps its hand
        and every effect in play, and heals 20 up to its maximum. This heal is no "heal" card
        text reacts to (Gloria's Healing Sphere), so it is not journalled as one."""
        ps.deck.extend(ps.discard)
        ps.discard.clear()
        self.shuffle_deck(ps)
        ps.life = min(ps.life + TT_HEAL, ps.character.life)

    def retire(self, seat: PlayerId) -> None:
        """TG-KO: a defeated character leaves play; its partner, if any, becomes its side's
        active character (not knocked down, hand, deck and life kept: OQ-14). Its modifiers
        and card-text control of or by its seat leave with it."""
        self.modifiers.remove(lambda m: m.seat is seat)
        self.controllers = {s: by for s, by in self.controllers.items()
                            if s != seat and by != seat}
        self.frozen.discard(seat)
        side = self.table.side_of(seat)
        self.seat_table(self.table.without(seat))
        self._index_rules()
        if self.initiative is seat:
            self.initiative = self.table.active(side)

    def swap_active(self, side: int) -> None:
        """A snapback (SB-2; a tag later): ``side``'s benched seat becomes active and the active
        one goes to the bench; initiative stays with the side."""
        seats = self.table.sides[side]
        self.seat_table(self.table.swapped(side))
        self._index_rules()
        if self.initiative is seats[0]:
            self.initiative = seats[1]

    def opponent(self, ps: PlayerState) -> PlayerState:
        """The opposing active seat (Table.opponent)."""
        return self._opponent_of[ps.player]

    def opponents(self, ps: PlayerState) -> list[PlayerState]:
        """The seats of the other side still in play (a defeated one has left, TG-KO)."""
        return [self.players[s] for s in self.table.sides[1 - self.table.side_of(ps.player)]]

    def partner(self, ps: PlayerState) -> PlayerState | None:
        """``ps``'s teammate while it is in play (None once it has left, TG-KO)."""
        seat = self.table.partner(ps.player)
        return None if seat is None or seat not in self.table.seats else self.players[seat]

    def in_combat(self, ps: PlayerState) -> bool:
        return ps is self.actives[0] or ps is self.actives[1]

    def side_life(self, side: int) -> int:
        """A side's life: the sum of its seats' (one seat in Versus)."""
        return sum(self.players[s].life for s in self.table.sides[side])

    def _advance(self, sent: tuple[PlayerId, Action] | None) -> None:
        try:
            if sent is None:
                self._decision = next(self._gen)
            elif self._held is not None:  # a player answered for a derived seat
                self._decision = self._gen.send(self._answer(sent[1]))
            else:
                self._decision = self._gen.send(sent)
            if self._derived:
                self._derive()
        except StopIteration:
            self._decision = None
            if self.outcome is None:
                raise EngineInvariantError("the game stopped without an outcome") from None
        except (RuleViolation, IllegalActionError) as exc:
            raise EngineInvariantError(f"rule check escaped the decision checks: {exc}") from exc
        except EngineInvariantError:
            raise
        except Exception as bug:  # an engine bug, never blamed on the player
            raise EngineInvariantError(
                f"engine failure at turn {self.turn}, step {self.step}: {bug!r}") from bug

    def _derive(self) -> None:
        """Take every decision of a derived seat (the mode's bot) with the mode's choice; a
        simultaneous decision shared with a player is offered to that player alone first (the
        C1 commit: the bot turns over its card after the human committed, TR-5)."""
        d = self._decision
        while d is not None:
            bots = [p for p in d.players if self._derives(p)]
            if not bots:
                return
            humans = tuple(p for p in d.players if not self._derives(p))
            if humans:
                self._decision = Decision(d.step, humans, d.rule, d.check, d.options)
                return
            seat = bots[0]
            asked = self.mode.ask_for(self, d, seat)
            if asked is not None:  # a player answers for the derived seat (TR-8)
                self._held = (d, seat)
                self._decision = asked
                return
            action = self.mode.derive(self, d, seat)
            try:
                d.check(seat, action)
            except RuleViolation as v:
                raise EngineInvariantError(
                    f"the {self.mode.mode.label} bot chose an illegal {action}: {v}") from v
            self.derived.append((self.events_applied, seat, action))
            d = self._decision = self._gen.send((seat, action))

    def _answer(self, answer: Action) -> tuple[PlayerId, Action]:
        """The held derived decision's choice from a player's answer (checked already by the
        decision :meth:`ModeRules.ask_for` made), checked again as the derived seat's."""
        assert self._held is not None
        d, seat = self._held
        self._held = None
        action = self.mode.answered(self, d, seat, answer)
        try:
            d.check(seat, action)
        except RuleViolation as v:
            raise EngineInvariantError(
                f"the {self.mode.mode.label} bot's answered choice {action} is illegal: {v}"
            ) from v
        self.derived.append((self.events_applied, seat, action))
        return seat, action

    def _derives(self, seat: PlayerId) -> bool:
        """Whether the mode derives ``seat``'s decisions now: its bot's seat, or a seat card
        text gave that bot control of (Mistress's Command played by a Training bot,
        BOT-PERSEPHONE: the bot makes them, so they are derived, never logged)."""
        return seat in self._derived or (
            bool(self._derived) and self.controllers.get(seat, seat) in self._derived)

    def _ask(
        self, step: str, players: tuple[PlayerId, ...], rule: str,
        check: Callable[[PlayerId, Action], None], options: Callable[[PlayerId], Sequence[Action]],
    ) -> Generator[Decision, tuple[PlayerId, Action], tuple[PlayerId, Action]]:
        self.step = step
        if self.frozen and all(p in self.frozen for p in players):
            return players[0], self._frozen_choice(players[0], check, options)
        return (yield Decision(step, players, rule, check, options))

    def _frozen_choice(self, player: PlayerId, check: Callable[[PlayerId, Action], None],
                       options: Callable[[PlayerId], Sequence[Action]]) -> Action:
        """A frozen seat skips its decisions (Chillbane): it passes, stops or takes nothing
        where it may; where it must choose, the engine takes the first legal choice. No event
        is logged (the replay makes the same choice)."""
        legal = options(player)
        for skip in (Pass(), Stop(), PowerUp()):
            if skip in legal:
                return skip
        choice = legal[0]
        check(player, choice)
        return choice

    def as_played(self, ps: PlayerState, m: Move) -> Move:
        """``m`` as card text makes it play in a combo (COMBO_MOVE: its type, its pump)."""
        return self.modifiers.fold(COMBO_MOVE, ps, m, m)

    def freeze(self, ps: PlayerState) -> None:
        """``ps`` skips every decision it would make for the rest of this turn."""
        self.frozen.add(ps.player)

    def control(self, ps: PlayerState, by: PlayerState) -> None:
        """``by`` makes ``ps``'s decisions from now until this turn's combat reveal (C2)."""
        self.controllers[ps.player] = by.player

    def controller(self, seat: PlayerId) -> PlayerId:
        """The seat that makes ``seat``'s decisions now: ``seat`` itself, or the seat card text
        gave control of it (Mistress's Command) until the combat reveal (C2). The decisions
        and their events stay ``seat``'s; only who chooses changes (bots, the public view)."""
        return self.controllers.get(seat, seat)

    def skip_to_next_combat(self) -> None:
        """Card text (Acrobatics): after this combat, the players skip forward to next turn's
        combat: this turn's Power Up (T5) and end-of-turn window and text (K1), and next
        turn's draw phase and its window (T2, T3) do not happen; the cleanup's bookkeeping
        (K2..K4) and next turn's T1 do."""
        self.skip_to_combat = True

    def order(self) -> tuple[PlayerState, ...]:
        """Every seat, initiative first (GEN-4, INI-6)."""
        return self._orders[self.initiative]

    def skipped(self, step: str, players: tuple[PlayerId, ...],
                kinds: tuple[type[Action], ...], check: Callable[[PlayerId, Action], None],
                ) -> None:
        """A decision settled without an event (nothing to choose, or not due here). Nothing
        happens in play; a diagnosis offers its event to ``check`` now, in this state (callers
        test ``self.diagnosing`` first, so play builds no closure)."""
        if self.diagnosing is not None:
            self.diagnosing.consider(self.turn, step, players, kinds, check)

    # ------------------------------------------------------------------ the journal

    def react(self) -> Step:
        """Deliver the events recorded since the last delivery to every seat's rules
        (``on_event``), seats in initiative order per event: card text that reacts to a hit,
        a block, a knockdown or damage acts here, and may ask decisions."""
        events = self.journal
        if not self._listeners:  # nobody reacts: nothing to deliver
            self._delivered = len(events)
            return
        reactors = self._reactors
        while (start := self._delivered) < len(events):
            # the undelivered events, by a for loop over a copy (the events card text records
            # meanwhile are delivered by the next round); ``_delivered`` is written only before
            # a delivery: most events concern nobody. (Not picked by itertools: most calls
            # find one or two events, fewer than the iterators cost to make.)
            for event in events[start:]:
                start += 1
                # only to the seats whose rules react to this type of event (most events,
                # draws and damage, concern nobody): no generator made and run per seat and
                # event
                kind = type(event)
                seats = reactors.get(kind)
                if seats is None:
                    seats = reactors[kind] = frozenset(
                        p for p, types in self._listeners if types is None or kind in types)
                if not seats:
                    continue
                self._delivered = start
                for ps in self._orders[self.initiative]:
                    if ps.player in seats:
                        yield from self.rules[ps.player].on_event(self, ps, event)
                if self._delivered != start:
                    break  # a delivery inside that one went further: go on from there
            else:
                self._delivered = start


    def _draw(self, ps: PlayerState, step: str, n: int = 1) -> Step:
        """Draw ``n`` cards (one at a time); END-4 / END-8 time-out bookkeeping."""
        for _ in range(n):
            if self._draw_replacers:  # card text may replace this draw (Bare Your Soul)
                self.step = step
                replaced = False
                for seat in self._draw_replacers:
                    replaced = yield from self.rules[seat].replace_draw(
                        self, self.players[seat], ps)
                    if replaced:
                        break
                if replaced:
                    self.journal.record(Drew(self.turn, step, ps.player))
                    continue
            if not ps.deck:
                if self.ruleset.timeout is Timeout.RULEBOOK:
                    self.timeout_triggered = True  # END-8: must draw from an empty deck
                return  # CF-04 PLAY_ON: draws from an empty deck are skipped
            known = self._known_top[ps.player]
            if self.recorded:
                self.step = step
                _, action = yield Decision(
                    step, (ps.player,), step, self._check_draw,
                    lambda p: [Draw(c) for c in (self._known_top[p][:1] or sorted(
                        set(self.players[p].deck), key=lambda c: c.code))])
                assert isinstance(action, Draw)
                ps.deck.remove(action.card)
                c = action.card
            else:
                c = ps.deck.pop(0)
            if known:
                known.remove(c)
            ps.hand.append(c)
            self.journal.record(Drew(self.turn, step, ps.player))
            if not ps.deck and self.ruleset.timeout is Timeout.RULEBOOK:
                self.timeout_triggered = True  # END-4: the last card was drawn

    def reveal_top(self, ps: PlayerState, n: int, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], list[Card]]:
        """The top ``n`` cards of ``ps``'s deck (fewer when it is shorter), top first, revealed
        to both players and left in the deck (the caller moves them). Seeded: the deck's order;
        recorded: each is a ``draw`` event of ``ps`` naming the card (the known top first)."""
        if not self.recorded:
            return ps.deck[:n]
        out: list[Card] = []
        known = self._known_top[ps.player]

        def options(p: PlayerId) -> list[Action]:
            if len(out) < len(known):
                return [Draw(known[len(out)])]
            return [Draw(c) for c in sorted(set(ps.deck) - set(out), key=lambda c: c.code)]

        def check(p: PlayerId, action: Action) -> None:
            if not isinstance(action, Draw):
                raise RuleViolation("GEN-4", f"a card of {p.name}'s deck is revealed here; "
                                             "record it (draw)")
            if action.card not in ps.deck or action.card in out:
                raise RuleViolation("GEN-6", f"{action.card} is not in {p.name}'s deck")
            if len(out) < len(known) and action.card is not known[len(out)]:
                raise RuleViolation("GEN-6", f"{known[len(out)]} is the next card of "
                                             f"{p.name}'s deck (put there by card text)")

        for _ in range(min(n, len(ps.deck))):
            self.step = step
            _, action = yield Decision(step, (ps.player,), step, check, options)
            assert isinstance(action, Draw)
            out.append(action.card)
        return out

    def combo_choices(self, ps: PlayerState) -> list[Combo]:
        """The combo moves ``ps`` may play now from hand (C10; ``game/combo.py``)."""
        raise NotImplementedError

    def play_combo(self, ps: PlayerState, action: Combo) -> Step:
        """Card text plays ``action`` as ``ps``'s next combo move (``game/combo.py``)."""
        raise NotImplementedError

    def hand_to_deck_bottom(self, ps: PlayerState) -> int:
        """``ps``'s whole hand, shuffled (seeded games), goes to the bottom of its deck (a hand
        remake: Creator and Destroyer); returns how many cards went."""
        cards = list(ps.hand)
        ps.hand.clear()
        if self.rng is not None:
            self.rng.shuffle(cards)
        ps.deck.extend(cards)
        return len(cards)

    def _check_draw(self, player: PlayerId, action: Action) -> None:
        if not isinstance(action, Draw):
            raise RuleViolation("GEN-4", f"a draw is due here; record the card {player.name} drew")
        if action.card not in self.players[player].deck:
            raise RuleViolation(
                "GEN-6", f"{action.card} cannot be drawn: it is not in {player.name}'s deck")
        known = self._known_top[player]
        if known and action.card is not known[0]:
            raise RuleViolation(
                "GEN-6", f"{known[0]} is the top card of {player.name}'s deck (put there by card "
                         f"text): the draw takes it, not {action.card}")

    def _end(self, termination: Termination, winner: PlayerId | None) -> None:
        self.outcome = Outcome(termination, winner)
        raise GameOver

    def end(self, termination: Termination, winner: PlayerId | None) -> None:
        """The game ends now (END-2) with ``winner`` (None: a draw)."""
        self._end(termination, winner)

    def _score_by_life(self, termination: Termination) -> None:
        """END-7: the side with higher life wins, equal life is a draw (the mode says what a
        side's score is: OQ-18 in Triple Threat, TG-10 in Tag Team). The winner is named by
        the side's first seat (P1 for side A, P2 for side B: the seat the side's log
        entry has)."""
        a, b = self.mode.side_score(self, 0), self.mode.side_score(self, 1)
        self._end(termination, None if a == b else PlayerId(0 if a > b else 1))

    def _ko_check(self) -> None:
        """END-2 / END-3: a character at 0 or less is defeated; what follows is the mode's
        (Versus: the game ends; Triple Threat: the bout does, TT-4)."""
        a, b = self.actives[0].life <= 0, self.actives[1].life <= 0
        if a or b:
            self.mode.knockout(self, (a, b))

    def versus_knockout(self, out: tuple[bool, bool]) -> None:
        """END-2 / END-3: the defeated side loses; both at once = double KO (CF-23)."""
        a, b = out
        if a and b:
            double_ko = self.ruleset.doubleKO
            if self.ruleset.timeout is Timeout.NO_DRAWS:
                double_ko = DoubleKO.HIGHER_LIFE
            if double_ko is DoubleKO.HIGHER_LIFE:
                self._score_by_life(Termination.DOUBLE_KO)
            self._end(Termination.DOUBLE_KO, None)
        if a or b:
            self._end(Termination.KO, self.table.active(0 if b else 1))

    def _damage(self, target: PlayerState, amount: int, source: PlayerState, kind: str) -> None:
        """Deal damage (GL-DAMAGE); ``kind`` is combat, block or ability (for facts). OQ-02:
        damage is not applied to a character already defeated (a team mode plays on after a
        knockout; the mode says who is defeated, so Versus only compares life here), but the
        combat carries on against the survivors still being hit: combat damage its team shares
        (AS-9, AS-16) still hits its benched partner."""
        if amount <= 0:
            return
        if not (target.life <= 0 and self.mode.is_defeated(self, target)):
            target.life -= amount
            self.journal.record(DamageDealt(self.turn, self.step, target.player,
                                            source.player, amount, kind))
        if self.shares_damage and kind == "combat" and self.mode.assists is not None:
            self.mode.assists.share(self, target, amount, source)  # assists hook: AS-9, AS-16

    def combat_area(self) -> CombatArea | None:
        """This turn's combat area as it stands, for showing it (see :class:`CombatArea`):
        the record :meth:`show_combat_area` journals, and what a view of a game stopped
        mid-combat shows. None when no combat is in its area (none reached the combat-reveal
        window, C4, or it was already journalled)."""
        combat = self.combat
        if not combat.began or combat.shown:
            return None
        return self._combat_area()

    def _combat_area(self) -> CombatArea:
        # made at every combat of every game: the seats and the combo read once, each value
        # built by a list (no generator), the cached active seats
        combat = self.combat
        run = combat.run
        segments = run.segments
        winner = combat.winner
        if not segments:  # no combo (most combats): nothing to copy, no points
            comboer = winner
            combo: tuple[PlayedMove, ...] = ()
            points = 0
        else:
            comboer = segments[0].seat
            if len(segments) > 1:
                # a combat tag or an assist: each move with the seat that played it
                combo = tuple([_new(PlayedMove, (e.card, e.move, tuple(e.pumps),
                                                 e.played_in_c10, s.seat))
                               for s in segments for e in s.entries])
                points = sum([s.points for s in segments])
            else:  # (a loop: no comprehension made per combo)
                moves: list[PlayedMove] = []
                for e in run.entries:
                    moves.append(_new(PlayedMove, (e.card, e.move, tuple(e.pumps),
                                                   e.played_in_c10, None)))
                combo = tuple(moves)
                points = segments[0].points
        assists = self.mode.assists
        players = self.players
        if len(players) == 2:  # Versus (most games): the two seats without a comprehension
            p, q = players
            fighters: tuple[Fighter, ...] = (
                _new(Fighter, (p.revealed_card, p.combat_card, p.combat_move, p.kind,
                               p.knocked_down)),
                _new(Fighter, (q.revealed_card, q.combat_card, q.combat_move, q.kind,
                               q.knocked_down)))
        else:
            fighters = tuple([_new(Fighter, (ps.revealed_card, ps.combat_card, ps.combat_move,
                                             ps.kind, ps.knocked_down)) for ps in players])
        return CombatArea(
            self.turn, self.step, fighters, self.active_seats, combat.cell, winner,
            None if winner is None else self._opponent_of[winner].player, combo, points,
            run.hit_back, comboer, () if assists is None else assists.describe())

    def show_combat_area(self) -> None:
        """Journal this combat's area (C13b, or a knockout that ended the bout before it)."""
        self.combat.shown = True
        self.journal.record(self._combat_area())

    def discard(self, ps: PlayerState, c: Card) -> None:
        """GEN-6: a card goes to its owner's discard pile."""
        ps.discard.append(c)

    def window(self, step: str, window: str) -> Step:
        """INI-4 / INI-5: the initiative seat acts first and keeps priority until passing; the
        window closes after every seat passed in a row (two passes in Versus). A seat with
        nothing playable passes without an event (a decision with one choice)."""
        rules = self.rules
        for ps in self.seated:
            if rules[ps.player].can_act(self, ps, window):
                break
        else:
            # (the probe's kind first: a diagnosing replay offers every event to this check)
            if self.diagnosing is not None and type(self.diagnosing.action) is UseAbility:
                self.skipped(step, tuple(ps.player for ps in self.seated), (UseAbility,),
                             lambda p, a: self._probe_window(p, a, window))
            return  # nobody can act: the window closes without a decision
        first = current = self.initiative
        passes = 0
        while passes < len(self.seated):
            ps = self.players[current]
            if not rules[current].can_act(self, ps, window):
                if self.diagnosing is not None and type(self.diagnosing.action) is UseAbility:
                    self.skipped(step, (current,), (UseAbility,),
                                 lambda p, a: self._probe_window(p, a, window))
                passes += 1
                current = self.table.next_in_priority(current, first)
                continue
            player, action = yield from self._ask(
                step, (current,), "INI-4",
                lambda p, a: self._check_window(p, a, window),
                lambda p: [Pass(), *self.rules[p].window_options(self, self.players[p], window)])
            if isinstance(action, Pass):
                passes += 1
                current = self.table.next_in_priority(current, first)
            else:
                passes = 0
                yield from rules[player].play(self, self.players[player], window, action)
                if self.timeout_triggered and window in ("draw_phase", "end_of_turn"):
                    self._score_by_life(Termination.TIMEOUT)  # END-6: after the effect

    def rule_broken(self, player: PlayerId, action: Action) -> RuleViolation | None:
        """A diagnosis's last question about an event no decision took: the first seat's card
        text (initiative order), then the mode, that says ``player``'s ``action`` breaks one of
        its rules here (``CharacterRules.rule_broken``, ``ModeRules.rule_broken``)."""
        for ps in self.order():
            why = self.rules[ps.player].rule_broken(self, ps, player, action)
            if why is not None:
                return why
        return self.mode.rule_broken(self, player, action)

    def _probe_window(self, player: PlayerId, action: Action, window: str) -> None:
        """A diagnosis offers an event to a window no one could act in: a counter (a Reaction)
        was never meant for a window, but for an ability being played (CTR-2): its refusal is
        the counter decision's, not this window's."""
        if isinstance(action, UseAbility) \
                and action.ability == counters.counter_of(self.players[player].character):
            return
        self._check_window(player, action, window)

    def _check_window(self, player: PlayerId, action: Action, window: str) -> None:
        if isinstance(action, Pass):
            return
        self.rules[player].check(self, self.players[player], window, action)

    def damage(self, target: PlayerState, amount: int, source: PlayerState) -> None:
        """Ability damage or life loss (GL-DAMAGE), with its KO check (END-2)."""
        self._damage(target, amount, source, "ability")
        self._ko_check()

    def heal(self, ps: PlayerState, amount: int) -> None:
        """GEN-8: no heal raises life above the character's starting life."""
        healed = min(ps.life + amount, ps.character.life) - ps.life
        if healed > 0:
            ps.life += healed
            self.journal.record(Healed(self.turn, self.step, ps.player, healed))

    def draw(self, ps: PlayerState, step: str, n: int = 1) -> Step:
        """Card draws caused by abilities (END-6 time-out is checked by the caller's step)."""
        yield from self._draw(ps, step, n)

    def shuffle_deck(self, ps: PlayerState) -> None:
        self._known_top[ps.player].clear()
        self._face_up_back(ps)
        self._known_bottom.pop(ps.player, None)
        if self.rng is not None:
            self.rng.shuffle(ps.deck)

    def ask_at(
        self, step: str, players: tuple[PlayerId, ...], rule: str,
        check: Callable[[PlayerId, Action], None], options: Callable[[PlayerId], Sequence[Action]],
    ) -> Generator[Decision, tuple[PlayerId, Action], tuple[PlayerId, Action]]:
        """A decision at ``step`` (a mode's own steps: TT-2, TT-4)."""
        return (yield from self._ask(step, players, rule, check, options))

    def ask(
        self, players: tuple[PlayerId, ...], rule: str,
        check: Callable[[PlayerId, Action], None], options: Callable[[PlayerId], Sequence[Action]],
    ) -> Generator[Decision, tuple[PlayerId, Action], tuple[PlayerId, Action]]:
        """A decision at the current step, for ability code."""
        return (yield from self._ask(self.step, players, rule, check, options))

    def offer_counter(self, owner: PlayerState, ability: str,
                      card: Card | None = None) -> Generator[
            Decision, tuple[PlayerId, Action], bool]:
        """WIN-REACTION / CTR-2: after ``owner`` paid an ability's costs and before it resolves,
        the opponent may counter it. Counters can be countered in turn (OQ-13): the last one
        played resolves first, and undoing a counter undoes what it did. Returns True if the
        ability is countered (the caller then undoes it, CTR-3).

        ``card`` is the card the ability was played from hand with (already paid: in the
        discard pile or the ongoing area), or None. Countered, the counter's own text runs
        (``CharacterRules.after_counter``) and the card goes where the counter says
        (``counter_sends_card``: the discard pile by CTR-3, the deck's bottom for Crash and
        Flow)."""
        # the opposing seats in play, in initiative order: the opponent in Versus; in Tag Team
        # its benched partner too (TG-8 c: Grave's Mental Toughness from the bench counters an
        # ability of either opposing player); the first that counters does
        theirs = self.table.opponents(owner.player)
        for opp in self.order():  # (no generator made per ability)
            if opp.player not in theirs:
                continue
            rules = self.rules[opp.player]
            # CTR-8: the one counter policy (no Aces; innates by opt.innateCounters)
            refused = counters.refusal(self.ruleset, owner.character, ability, opp.character)
            if refused is not None or not rules.can_counter(self, opp, ability):
                if self.diagnosing is not None:
                    self.skipped(self.step, (opp.player,), (UseAbility,),
                                 lambda p, a, r=rules, o=opp, no=refused: _refuse(  # type: ignore[misc]
                                     no, a, lambda: r.check_counter(self, o, ability, a)))
                continue
            _, action = yield from self._ask(
                self.step, (opp.player,), "CTR-2",
                lambda p, a, r=rules, o=opp: r.check_counter(  # type: ignore[misc]
                    self, o, ability, a),
                lambda p, r=rules, o=opp: [Pass(), *r.counter_options(  # type: ignore[misc]
                    self, o, ability)])
            if isinstance(action, Pass):
                continue
            return (yield from self._countered(owner, opp, rules, action, card))
        return False

    def _countered(self, owner: PlayerState, opp: PlayerState, rules: CharacterRules,
                   action: Action, card: Card | None) -> Generator[
            Decision, tuple[PlayerId, Action], bool]:
        """``opp`` played the counter ``action`` against ``owner``'s ability (CTR-2, OQ-13)."""
        refund = rules.pay_counter(self, opp, action)
        own = action.card if isinstance(action, UseAbility) else None
        countered_back = yield from self.offer_counter(opp, rules.counter_name(action), own)
        if countered_back:
            refund()  # CTR-3: the counter is undone, costs back to hand
            return False
        # a counter with a price the countered player may pay instead (Do As Told)
        if (yield from rules.counter_resisted(self, opp, owner, action)):
            return False
        yield from rules.after_counter(self, opp, owner, action)
        if card is not None and rules.counter_sends_card(action) is Zone.DECK:
            self._to_deck_bottom(owner, card)
        return True

    def _face_up_back(self, ps: PlayerState) -> None:
        """A shuffle of ``ps``'s deck shuffles its face-up cards back into it (Bare Your
        Soul); the caller shuffles."""
        if ps.face_up:
            ps.deck.extend(ps.face_up)
            ps.face_up.clear()

    def _to_deck_bottom(self, ps: PlayerState, card: Card) -> None:
        """A countered card played from hand goes to the bottom of its owner's deck (GEN-6:
        out of the discard pile, or out of the ongoing area with its effect)."""
        if card in ps.discard:
            ps.discard.remove(card)
        else:
            effect = next((e for e in ps.ongoing if e.card is card), None)
            if effect is None:
                raise EngineInvariantError(f"{card} is neither discarded nor in play")
            ps.ongoing.remove(effect)
            for c in effect.attached:
                self.discard(ps, c)
        ps.deck.append(card)

    def end_combat(self, after_damage: bool = False) -> None:
        """Card text ends this combat now (Bubble Shield): the steps left before C13 (draws,
        damage, the combo) do not happen; C13 follows without knockdowns. ``after_damage``
        (Relentless Strikes, at C6): C7 and C8 happen first, then no Rewind window and no
        combo."""
        if after_damage:
            self.combat.no_combo = True
        else:
            self.combat.ended = True

    def move(self, ps: PlayerState, card: Card, frm: Zone, to: Zone) -> None:
        """GEN-6: take ``card`` out of zone ``frm`` and put it into ``to`` (the deck's top)."""
        if frm is _COMBAT:
            if ps.combat_card is not card:
                raise EngineInvariantError(f"{card} is not {ps.player.name}'s combat card")
            ps.combat_card = None
        elif frm is _COMBO:
            # only ``ps``'s own moves: a partner's move of the same combo (a tag, an assist)
            # may be a card of the same code from the partner's deck
            entry = next((e for e in self.combo_of(ps) if e.card is card and not e.returned),
                         None)
            if entry is None:
                raise EngineInvariantError(f"{card} is not {ps.player.name}'s combo move this "
                                           "combat")
            entry.returned = True  # it leaves the combo area now, not at C13c
        else:
            zone: list[Card] = getattr(ps, _PILES[frm])
            if card not in zone:
                raise EngineInvariantError(f"{card} is not in {ps.player.name}'s {frm.value}")
            zone.remove(card)
            if frm is _DECK and card in self._known_top[ps.player]:
                self._known_top[ps.player].remove(card)
        if to is _DECK:
            self._known_top[ps.player].insert(0, card)  # its owner put it there: known
            ps.deck.insert(0, card)
        elif to is _DISCARD:
            self.discard(ps, card)
        elif to is _BANISHED:
            ps.banished.append(card)  # removed from the game (Into Oblivion)
        elif to in _PILES:  # the hand, or face up on the table
            pile: list[Card] = getattr(ps, _PILES[to])
            if card in pile:  # GEN-6: one deck holds one card of a code; a second is another
                # seat's card (a partner's combo move), which no card text takes
                raise EngineInvariantError(f"{ps.player.name}'s {to.value} already holds {card}")
            pile.append(card)
        else:
            raise EngineInvariantError(f"cards are not moved into the {to.value} area this way")

    def rotate(self, ps: PlayerState) -> None:
        """Turn the combat card 180 degrees: the other end is the combat action now (no Ace
        cost is charged or refunded, AB-9)."""
        if ps.combat_card is None or ps.combat_move is None:
            raise EngineInvariantError(f"{ps.player.name} has no combat card to rotate")
        now = (ps.combat_move.type, ps.combat_move.name)  # as printed (MOVE may change stats)
        other = next(m for m in ps.character.moves_of(ps.combat_card)
                     if (m.type, m.name) != now)
        other = self.played_move(ps, ps.combat_card, other)
        ps.combat_move, ps.kind = other, cb.KIND_OF_MOVE[other.type]

    def deck_top_known(self, ps: PlayerState) -> list[Card]:
        """The top cards of ``ps``'s deck, top first, that card text showed ``ps`` and that
        are still there in that order (no shuffle since)."""
        return list(self._known_top[ps.player])

    def grant_full_combo(self, ps: PlayerState) -> None:
        """CB-13: card text lets ``ps``'s hit-back after this combat's winning dodge be a full
        combo (the normal follow rules and combo points; CB-7's single Ender no longer binds)."""
        if self.combat.winner is not ps.player or ps.kind != cb.DODGE:
            raise EngineInvariantError(f"{ps.player.name} did not win this combat with a dodge")
        self.combat.run.full_combo = True

    def block_damage(self, blocker: PlayerState, attacker: PlayerState) -> int:
        """AR-BLK-3: the block damage ``blocker``'s block takes from ``attacker``'s combat
        attack, after card text (Gloria's Remedy, Stone Wall: none)."""
        m, c = attacker.combat_move, attacker.combat_card
        if attacker.kind != cb.ATTACK or m is None or c is None:
            return 0
        return self.modifiers.fold(BLOCK_DAMAGE, blocker, m, m.block_damage_for(c))

    def speed(self, ps: PlayerState) -> int | None:
        """AR-SPD-1: ``ps``'s locked-in speed in tenths, after ability modifiers, never below
        0.0 (None: no card with a speed)."""
        if ps.combat_move is None or ps.combat_move.speed is None:
            return None
        return max(self.modifiers.fold(SPEED, ps, ps.combat_move, ps.combat_move.speed), 0)

    def stand_up(self, ps: PlayerState) -> None:
        ps.knocked_down = False

    def knock_down(self, ps: PlayerState, by: PlayerState, next_turn: bool = False) -> None:
        """Card text knocks ``ps`` down now (War Stomp): knocked down for the rest of this turn
        (KD-4, KD-5 apply to this turn's combat; K3 stands it up), or with ``next_turn`` as a
        combat's knockdown (KD-6: for the next turn; Entangling Vines); journalled."""
        if next_turn:
            ps.knockdown_next = True
        else:
            ps.knocked_down = True
        self.journal.record(Knockdown(self.turn, self.step, ps.player, by.player))

    def void(self, ps: PlayerState, rule: str = "M-VOID", reason: str = "void") -> None:
        """M-VOID: discard ``ps``'s combat card at once; ``ps`` is no-card for this combat.
        Journalled (``Voided``) with the ``rule`` and ``reason`` that voided it."""
        if ps.combat_card is not None:
            self.journal.record(Voided(self.turn, self.step, ps.player, ps.combat_card,
                                       ps.revealed_kind, rule, reason))
            self.discard(ps, ps.combat_card)
        ps.combat_card, ps.combat_move, ps.kind = None, None, cb.NONE

    def add_modifier(self, modifier: Modifier[Any]) -> None:
        self.modifiers.add(modifier)

    def expire_modifiers(self, until: Expiry) -> None:
        self.modifiers.expire(until)

    # --- chance outcomes card text asks for (a deck's top or bottom card, a random hand card) --
    def _chance_card(self, ps: PlayerState, step: str, check: Callable[[PlayerId, Action], None],
                     options: Callable[[PlayerId], Sequence[Action]]) -> Generator[
            Decision, tuple[PlayerId, Action], Card]:
        """A tabletop log's recorded chance outcome (``Draw`` or ``Reveal``) by ``ps``."""
        self.step = step
        _, action = yield Decision(step, (ps.player,), step, check, options)
        assert isinstance(action, Draw | Reveal)
        return action.card

    def take_top(self, ps: PlayerState, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], Card | None]:
        """Card text takes the top card of ``ps``'s deck (to discard or reveal it; the caller
        puts it somewhere): the seeded deck's top, or in a tabletop log a ``draw`` event that
        names it (GEN-6: it is in the deck; a top card card text made known comes first).
        None when the deck is empty. Not a draw (no ``Drew``, no END-4)."""
        if not ps.deck:
            return None
        if self.recorded:
            c = yield from self._chance_card(
                ps, step, self._check_draw,
                lambda p: [Draw(c) for c in (self._known_top[p][:1] or sorted(
                    set(self.players[p].deck), key=lambda c: c.code))])
            ps.deck.remove(c)
        else:
            c = ps.deck.pop(0)
        if c in self._known_top[ps.player]:
            self._known_top[ps.player].remove(c)
        return c

    def draw_bottom(self, ps: PlayerState, step: str) -> Step:
        """Card text draws the bottom card of ``ps``'s deck (END-4 bookkeeping as a draw): the
        seeded deck's last card, or in a tabletop log a ``draw`` event naming a deck card that
        is not one of the top cards card text made known (unless the deck is only those)."""
        if not ps.deck:
            return
        known = self._known_top[ps.player]

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, Draw):
                raise RuleViolation("GEN-4", f"a draw is due here; record the card "
                                             f"{player.name} drew from the bottom of the deck")
            if action.card not in ps.deck:
                raise RuleViolation("GEN-6", f"{action.card} cannot be drawn: it is not in "
                                             f"{player.name}'s deck")
            if action.card in known and len(known) < len(ps.deck):
                raise RuleViolation("GEN-6", f"{action.card} is near the top of "
                                             f"{player.name}'s deck, not at the bottom")

        if self.recorded:
            c = yield from self._chance_card(
                ps, step, check,
                lambda p: [Draw(c) for c in sorted(
                    set(ps.deck) - (set(known) if len(known) < len(ps.deck) else set()),
                    key=lambda c: c.code)])
            ps.deck.remove(c)
        else:
            c = ps.deck.pop()
        if c in known:
            known.remove(c)
        ps.hand.append(c)
        self.journal.record(Drew(self.turn, step, ps.player))
        if not ps.deck and self.ruleset.timeout is Timeout.RULEBOOK:
            self.timeout_triggered = True  # END-4: the last card was drawn

    def random_hand_card(self, ps: PlayerState, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], Card | None]:
        """A card of ``ps``'s hand chosen at random (it stays in the hand; revealing it is the
        caller's business): from the seeded stream, or in a tabletop log a ``reveal`` event by
        ``ps`` naming a card of its hand. None with an empty hand."""
        if not ps.hand:
            return None
        if not self.recorded:
            assert self.rng is not None
            return ps.hand[self.rng.below(len(ps.hand))]

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, Reveal):
                raise RuleViolation("GEN-4", f"a random reveal is due here; record the card "
                                             f"{player.name} revealed from their hand")
            if action.card not in ps.hand:
                raise RuleViolation("GEN-6", f"{action.card} is not in {player.name}'s hand")

        return (yield from self._chance_card(
            ps, step, check,
            lambda p: [Reveal(c) for c in sorted(set(ps.hand), key=lambda c: c.code)]))

    def peek_bottom(self, ps: PlayerState) -> None:
        """Card text shows ``ps`` the bottom card of its deck: its owner sees it in
        ``public_view`` (``deck_bottom``) while it stays the bottom card (seeded games; a
        tabletop log does not record it)."""
        if ps.deck and not self.recorded:
            self._known_bottom[ps.player] = ps.deck[-1]

    # ------------------------------------------------------------------ Ace searches

    def search(self, ps: PlayerState, owed: int, step: str) -> Step:
        """ACE-SEARCH(owed) caused by card text (PU-5)."""
        yield from self._ace_search(ps, owed, step, gold_burst=False)

    def _ace_search(self, ps: PlayerState, owed: int, step: str, *, gold_burst: bool) -> Step:
        """ACE-SEARCH(N) (PU-5) then the shuffle (PU-6, CF-19)."""
        d_aces = [c for c in ps.discard if c.is_ace]
        k_aces = [c for c in ps.deck if c.is_ace]
        if not d_aces and not k_aces:
            return
        free = gold_burst and self.ruleset.goldBurstSearch is GoldBurstSearch.FREE_UP_TO_2

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, Search):
                raise RuleViolation("PU-5", "Aces are owed: choose the Aces to take (search)")
            self._check_search(ps, action.from_discard, action.from_deck, owed, free)

        choices = self._search_choices(ps, owed, free)
        if len(choices) == 1:  # one legal choice: no event (docs/log-format.md §2)
            self._take_aces(ps, choices[0][0], choices[0][1], owed)
            return
        _, action = yield from self._ask(
            step, (ps.player,), "PU-5", check, lambda p: [Search(d, k) for d, k in choices])
        assert isinstance(action, Search)
        self._take_aces(ps, action.from_discard, action.from_deck, owed)

    def check_power_up_sets(self, ps: PlayerState, sets: Sequence[Card]) -> None:
        """PU-2: the cards named for sets in a Power Up (or an Ace tag, TAG-PU-1) are distinct
        cards of ``ps``'s hand that card text lets ``ps`` power up with (``POWER_UP_WITH``);
        raises RuleViolation (PU-2) naming the first that is not."""
        if len(set(sets)) != len(sets):
            raise RuleViolation("PU-2", "the same card is named twice")
        for c in sets:
            if c not in ps.hand:
                raise RuleViolation("PU-2", f"{c} is not in {ps.player.name}'s hand")
            if not self.modifiers.fold(POWER_UP_WITH, ps, c, True):
                raise RuleViolation("PU-2", f"{c} cannot be used to power up (card text)")

    def discard_power_up_sets(self, ps: PlayerState, sets: Sequence[Card]) -> None:
        """PU-2 (P2): ``ps`` discards the cards named for sets, in a Power Up or an Ace tag
        (TAG-PU-1); a Joker among them is journaled as used for a set."""
        for c in sets:
            ps.hand.remove(c)
            self.discard(ps, c)
            if c.is_joker:
                self.journal.record(JokerUsed(self.turn, "P2", ps.player, "power_up_set"))

    def search_target(self, ps: PlayerState, c: Card, power_up: bool = False) -> bool:
        """Whether an ACE-SEARCH may take ``c``: an Ace, or in a Power Up search (P5) a card
        card text lets ``ps`` power up for (``POWER_UP_FOR``: Menelker's black face cards)."""
        if c.is_ace:
            return True
        return power_up and self.modifiers.fold(POWER_UP_FOR, ps, c, False)

    def search_targets(self, ps: PlayerState, cards: list[Card], power_up: bool = False,
                       ) -> list[Card]:
        """The ``cards`` an ACE-SEARCH may take (:meth:`search_target` of each). Without a
        ``POWER_UP_FOR`` modifier on the seat (every game without Menelker) that is the Aces:
        one attribute read per card instead of a modifier fold."""
        if power_up and self.modifiers.any_for(POWER_UP_FOR, ps.player):
            return [c for c in cards if self.search_target(ps, c, True)]
        return [c for c in cards if c.is_ace]

    def _search_choices(self, ps: PlayerState, owed: int, free: bool,
                        discard: list[Card] | None = None, power_up: bool = False,
                        ) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        """Every legal ACE-SEARCH(owed) choice; ``discard`` is the pile as the search sees it
        (Power Up adds its sets, PU-7); ``power_up``: a Power Up search (P5)."""
        discard = ps.discard if discard is None else discard
        d_aces = sorted(set(self.search_targets(ps, discard, power_up)), key=_code)
        k_aces = sorted(set(self.search_targets(ps, ps.deck, power_up)), key=_code)
        return self._search_combinations(owed, free, d_aces, k_aces)

    def _search_combinations(self, owed: int, free: bool, d_aces: list[Card],
                             k_aces: list[Card],
                             ) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        """Every legal ACE-SEARCH(owed) choice among the targets ``d_aces`` in the discard pile
        and ``k_aces`` in the deck (each sorted by code, no repeats): the Aces named, by zone."""
        out = []
        for nd in range(min(owed, len(d_aces)) + 1):
            for nk in range(min(owed - nd, len(k_aces)) + 1):
                # the predicate, not search_violation: a rejected count builds no message
                if not cb.search_allowed(owed, nd, nk, len(d_aces), self.ruleset, free):
                    continue
                for dd in combinations(d_aces, nd):
                    for kk in combinations(k_aces, nk):
                        out.append((dd, kk))
        return out

    def _check_search(self, ps: PlayerState, from_discard: tuple[Card, ...],
                      from_deck: tuple[Card, ...], owed: int, free: bool = False,
                      discard: list[Card] | None = None, power_up: bool = False) -> None:
        """PU-5: the named Aces are in their zones, and the owed count is respected.

        ``discard`` is the discard pile as the search sees it (Power Up adds its sets, PU-7).
        """
        discard = ps.discard if discard is None else discard
        for zone, cards, name in ((discard, from_discard, "discard pile"),
                                  (ps.deck, from_deck, "deck")):
            if len(set(cards)) != len(cards):
                raise RuleViolation("PU-5", "the same Ace is named twice")
            for c in cards:
                if not c.is_ace and not self.search_target(ps, c, power_up):
                    raise RuleViolation("PU-5", f"{c} is not an Ace")
                if c not in zone:
                    raise RuleViolation("PU-5", f"{c} is not in {ps.player.name}'s {name}")
        if len(from_discard) + len(from_deck) == owed \
                and self.ruleset.aceSource is not _DISCARD_FIRST:
            return  # all owed taken: the targets left in the pile matter only when fewer are
            # (PU-5) or under CF-18 (search_violation), so they are not counted
        d_aces = len(self.search_targets(ps, discard, power_up))
        v = cb.search_violation(owed, len(from_discard), len(from_deck), d_aces, self.ruleset,
                                free)
        if v is not None:
            raise v

    def _take_aces(self, ps: PlayerState, from_discard: tuple[Card, ...],
                   from_deck: tuple[Card, ...], owed: int) -> None:
        for c in from_discard:
            ps.discard.remove(c)
            ps.hand.append(c)
        for c in from_deck:
            ps.deck.remove(c)
            ps.hand.append(c)
        looked = bool(from_deck)
        if self.ruleset.shuffleTrigger is _SEARCHED_DECK:
            looked = looked or len(from_discard) < owed
        for c in from_deck:
            if c in self._known_top[ps.player]:
                self._known_top[ps.player].remove(c)
        if looked:
            self._known_top[ps.player].clear()  # the deck is shuffled (on the table too)
            self._face_up_back(ps)
        if looked and self.rng is not None:
            self.rng.shuffle(ps.deck)  # PU-6

    def move_violation(self, ps: PlayerState, move: Move, step: str) -> RuleViolation | None:
        """Why ``move`` may not be played now (C1 or C10), or None: a move that needs a state
        (Dragon Form, Long Range, attached blocks) needs that state (GEN-1), then card text
        that forbids moves (modifiers of kind MOVE_ALLOWED)."""
        if move.requires is not None and not self.rules[ps.player].has_state(
                self, ps, move.requires):
            return RuleViolation(
                "GEN-1", f"{move.label} can only be played with {move.requires} "
                         f"(card text), which {ps.character.name} does not have")
        return self.modifiers.fold(MOVE_ALLOWED, ps, (move, step), None)

    def played_move(self, ps: PlayerState, c: Card, m: Move) -> Move:
        """``m`` as ``ps`` plays it now: card text may change its printed stats (MOVE)."""
        return self.modifiers.fold(MOVE, ps, c, m)

    def resolve_move(
        self, ps: PlayerState, c: Card, move_type: MoveType | None, name: str | None, rule: str,
    ) -> Move:
        """The move a log names on card ``c`` (type, plus name where two ends share a type)."""
        if move_type is None:
            raise RuleViolation(rule, f"{c} needs a move: name the end that faces the opponent")
        same_type = ps.character.moves_of_type(c, move_type)
        if name is not None:
            for m in same_type:
                if m.name == name:
                    return self.played_move(ps, c, m)
            raise RuleViolation(
                "GL-MOVE", f"{ps.character.name}'s {c} has no {move_type.value} named {name!r}")
        if len(same_type) == 1:
            return self.played_move(ps, c, same_type[0])
        if len(same_type) > 1:
            raise RuleViolation("GL-MOVE", f"{c} has two {move_type.value} moves: name one")
        printed = " / ".join(m.label for m in ps.character.moves_of(c))
        raise RuleViolation("GL-ORIENT", f"{c} shows {printed}; it has no {move_type.value} end")

    def _check_aces(self, ps: PlayerState, cards: tuple[Card, ...], m: Move,
                    played: Card | None) -> None:
        rule = "C3" if played is None else "CB-9"
        if len(cards) != m.extra_aces:
            raise RuleViolation(rule, f"{m.label} costs {m.extra_aces} more Ace(s), "
                                      f"not {len(cards)} (GL-MANDATORY)")
        if len(set(cards)) != len(cards):
            raise RuleViolation(rule, "the same Ace is named twice")
        for c in cards:
            if not c.is_ace:
                raise RuleViolation(rule, f"{c} is not an Ace")
            if c not in ps.hand or c is played:
                raise RuleViolation(rule, f"{c} is not in {ps.player.name}'s hand")

    def _play(self) -> Step:
        """The whole game as one generator (:class:`rules_engine.game.Game` defines it)."""
        raise NotImplementedError

    def commit_second(self, ps: PlayerState) -> Generator[Decision, tuple[PlayerId, Action],
                                                          Commit | None]:
        """Card text: a second face-down combat card (:class:`rules_engine.game.combat.
        CombatSteps` defines it)."""
        raise NotImplementedError

    def use_second(self, ps: PlayerState, keep_second: bool) -> None:
        """Card text: which of two revealed combat cards is used (``CombatSteps`` defines it)."""
        raise NotImplementedError
