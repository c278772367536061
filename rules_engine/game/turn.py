"""The Versus game: setup (S-5, S-6) and the turn skeleton (T1..T7) over the steps below.

Glossary (RULES.md §1, §3):
- *turn* (GL-TURN): T1..T7 — draw phase (T2), draw-phase window (T3), combat (C1..C13),
  Power Up (P1..P6), cleanup (K1..K4).
- *combat card* (GL-COMBAT-CARD): the card committed at C1; its *kind* after lock-in is attack,
  throw, block, dodge, joker (Gold Burst) or none (no-card or void).
- *combo* (GL-COMBO): the winner's hitting combat card (or hit-back) plus follow-up moves;
  *combo points* are spent per turn against the character's limit (CB-3).
- *face-down card*: the loser's Rewind Time Joker or bluff (C9, §6).
- *power up* (§7): discard sets and take owed Aces (ACE-SEARCH).
- *initiative* (INI-1..3): who acts first in windows and simultaneous mechanical steps (GEN-4).

Responsibility: the order of steps and every check of a player's choice. The game runs as a
generator that stops at each decision point; :attr:`Game.actor` says who must act,
:meth:`Game.legal_actions` lists the choices and :meth:`Game.apply` validates one and advances,
or raises :class:`IllegalActionError` with the rule ID. A decision with exactly one legal choice
(no-card with an empty hand, nothing to power up, no legal combo move) is taken by the engine
without an event; this rule is part of the log format (docs/log-format.md).

Draws: in a *seeded* game the decks are shuffled by the portable PRNG (:mod:`rules_engine.rng`)
and draws take the top card; in a *recorded* (tabletop) game every draw is a decision of the
drawing player that names the card, checked against the deck's contents.

Character abilities are hooks on :class:`rules_engine.characters.CharacterRules`; characters
without an implementation play with their card stats only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from rules_engine.actions import (
    Action,
    Draw,
    PowerUp,
    Search,
    UseAbility,
    WinInitiative,
)
from rules_engine.cards import characters, deck_for
from rules_engine.errors import (
    RuleViolation,
)
from rules_engine.game.core import OPENING_HAND, GameOver
from rules_engine.game.views import Views
from rules_engine.journal import TurnEnded
from rules_engine.modes import BoutOver, mode_rules
from rules_engine.modifiers import DRAW_COUNT, Expiry

if TYPE_CHECKING:
    from rules_engine.log import MatchLog
from rules_engine.ruleset import (
    DEFAULT_RULESET,
    InitiativeTie,
    Jokers,
    Ruleset,
    Timeout,
)
from rules_engine.state import (
    Step,
)
from rules_engine.team import Mode, Team
from rules_engine.types import PlayerId, Termination

#: One side as :meth:`Game.new` takes it: a character id, the side's ids, or a roster.
Side = str | tuple[str, ...] | Team

# Members every turn's cleanup (K3, K4) compares, read from their enums once: in CPython 3.11 a
# read of an enum member from its class goes through ``EnumType.__getattr__``'s hook, about as
# costly as a function call.
_END_OF_TURN, _RULEBOOK = Expiry.END_OF_TURN, Timeout.RULEBOOK


class Game(Views):
    """A Versus game between two characters (mirrors included).

    Start one with :meth:`new` (any mode) and write its log with :meth:`to_log`.
    """

    @classmethod
    def new(cls, mode: Mode, teams: tuple[Side, Side], *, seed: int | None,
            ruleset: Ruleset = DEFAULT_RULESET) -> Self:
        """The front door: a game of any mode before its first choice. Each side is a
        character id, the side's character ids in declared order (Triple Threat: three; Tag
        Team: two, the first active; Dramatic Battle: the lone character or the pair; Survival:
        the human, then the bots in order) or a :class:`Team` (members with their players).
        ``seed`` None: a tabletop game whose draws are recorded (a Training bot's game is
        always seeded, TR-5). ValueError names a side of the wrong size or an unknown
        character.

        >>> g = Game.new(Mode.VERSUS, ("grave", "jaina"), seed=7)
        >>> g.turn, g.step, g.actor
        (1, 'C1', <Actor.SIMULTANEOUS: 'simultaneous'>)
        >>> g = Game.new(Mode.TRIPLE_THREAT, (("grave", "jaina", "midori"),
        ...                                   ("rook", "lum", "setsuki")), seed=1)
        >>> g.step, g.legal_actions(g.acting_players[0])[0]
        ('TT-2', Pick(incoming='grave'))
        """
        from rules_engine.log import MAX_SURVIVAL_BOTS, side_sizes

        sides = tuple(t if isinstance(t, Team) else Team.of((t,) if isinstance(t, str) else t)
                      for t in teams)
        if len(sides) != 2:
            raise ValueError(f"a game has two sides, not {len(sides)}")
        known = characters()
        sizes = side_sizes(mode)
        if mode is Mode.DRAMATIC_BATTLE and len(sides[0].members) == 2:
            sizes = (2, 1)  # the lone character may be either side's (DB-1)
        if mode is Mode.SURVIVAL and 1 <= len(sides[1].members) <= MAX_SURVIVAL_BOTS:
            sizes = (1, len(sides[1].members))  # TR-14: the bots, in the order they come
        for n, (team, size) in enumerate(zip(sides, sizes, strict=True)):
            unknown = [c for c in team.characters if c not in known]
            if unknown:
                raise ValueError(f"side {n + 1}: unknown character {unknown[0]!r}")
            if len(set(team.characters)) != len(team.characters) or len(team.characters) != size:
                raise ValueError(f"side {n + 1}: a {mode.label} side is {size} different "
                                 f"character{'s' if size > 1 else ''}, not "
                                 f"{', '.join(team.characters) or 'none'}")
        if mode in (Mode.TRAINING, Mode.SURVIVAL) and seed is None:
            raise ValueError(f"a {mode.label} game is seeded: the bot's cards come from the "
                             "seed (TR-5)")
        a, b = sides[0], sides[1]
        firsts = (known[a.characters[0]], known[b.characters[0]])
        if mode is Mode.VERSUS:
            return cls(*firsts, ruleset=ruleset, seed=seed, teams=(a, b))
        # the first characters are picked in the game (TT-2), so none is in play before
        return cls(*firsts, ruleset=ruleset, seed=seed, teams=(a, b), mode=mode_rules(mode))

    @classmethod
    def for_log(cls, log: MatchLog) -> Self:
        """The game a log describes, before its first event."""
        return cls.new(log.mode, log.teams, seed=log.seed, ruleset=log.ruleset)

    def to_log(self, *, names: tuple[str | None, str | None] = (None, None),
               controllers: tuple[tuple[str | None, ...] | None,
                                  tuple[str | None, ...] | None] = (None, None)) -> MatchLog:
        """This game's log: its choices so far with the seed (or the recorded draws), the
        ruleset and, once it is over, the claimed result; version 1 for Versus, version 2
        (each event naming the character that acted, each side its members) for the other
        modes. ``names``: each side's player; ``controllers``: each member's player where a
        side has one per character (TT-1), else the teams' own. Replayed, the log gives this
        game (the property tests check it for every mode)."""
        from rules_engine.log import ClaimedResult, LogEvent, MatchLog

        out = self.outcome
        result = None if out is None else ClaimedResult(out.winner, out.termination, self.turn,
                                                        self.life)
        teams = self.teams
        firsts = (teams[0].characters[0], teams[1].characters[0])
        if self.mode.mode is Mode.VERSUS:
            return MatchLog(characters=firsts, seed=self.seed, ruleset=self.declared_ruleset,
                            result=result, names=names,
                            events=tuple(LogEvent(p, a) for p, a in self.history))
        sides = tuple(t.members if c is None else Team.of(t.characters, c).members
                      for t, c in zip(teams, controllers, strict=True))
        return MatchLog(characters=firsts, seed=self.seed, ruleset=self.declared_ruleset,
                        result=result, names=names, mode=self.mode.mode,
                        sides=(sides[0], sides[1]), version=2,
                        events=tuple(LogEvent(p, a, c) for (p, a), c
                                     in zip(self.history, self.acting, strict=True)))

    def _play(self) -> Step:
        try:
            yield from self.mode.before_setup(self)
            yield from self._setup()
            while True:
                try:
                    yield from self._turn()
                except BoutOver as bout:
                    if self.turn >= self.ruleset.maxTurns:  # END-10: a knockout on the last
                        self._score_by_life(Termination.MAX_TURNS)  # turn ends the match too
                    yield from self.mode.between_bouts(self, bout.defeated_sides)
        except GameOver:
            self.step = "END"
            return

    def _setup(self) -> Step:
        """S-5: life, shuffled decks, opening hands of 7; S-6: turn-1 initiative."""
        self.step = "S-5"
        deck = deck_for(self.ruleset.jokers is Jokers.INCLUDED)
        for ps in self.players:
            ps.deck = list(deck)
            if self.rng is not None:
                self.rng.shuffle(ps.deck)
        for ps in self.players:
            for _ in range(OPENING_HAND):
                yield from self._draw(ps, "S-5")
        lower = self._lower_life_side()
        if lower is not None:
            self.initiative = lower
        elif self.rng is not None:
            self.initiative = self.table.active(self.rng.below(2))  # INI-3: seeded coin flip
        else:
            player, _ = yield from self._ask(
                "S-6", self.table.actives, "INI-3", self._check_initiative,
                lambda p: [WinInitiative()])
            self.initiative = player
        self.first_initiative = self.initiative

    def _lower_life_side(self) -> PlayerId | None:
        """INI-1: the active seat of the side with less life, or None when they are equal
        (OQ-16: the active characters' life in team modes)."""
        a, b = self.actives[0].life, self.actives[1].life
        return None if a == b else self.table.active(0 if a < b else 1)

    def _skipped_phase(self, step: str, kinds: tuple[type[Action], ...]) -> None:
        """For a diagnosis: card text skipped this step (Acrobatics, AB-2)."""
        self.skipped(step, tuple(ps.player for ps in self.seated), kinds,
                     self._skipped_by_card_text)

    @staticmethod
    def _skipped_by_card_text(player: PlayerId, action: Action) -> None:
        raise RuleViolation("AB-2", "Acrobatics cancelled the last combat: the players skip "
                                    "forward to the next turn's combat (no Power Up, no "
                                    "end-of-turn window, no draw phase in between)")

    def _check_initiative(self, player: PlayerId, action: Action) -> None:
        if not isinstance(action, WinInitiative):
            raise RuleViolation("INI-3", "the initiative decision (coin flip or RPS) comes first")

    def _turn(self) -> Step:
        # T1: turn counter, initiative from turn-start life (INI-1, INI-2).
        self.turn += 1
        self.step = "T1"
        lower = self._lower_life_side() if self.turn > 1 else None
        if lower is not None:
            self.initiative = lower
        elif self.turn > 1 and self.ruleset.initiativeTie is InitiativeTie.RPS_EACH_TIE:
            # CF-02 alternative: every tied turn is decided afresh (seeded draw or logged RPS).
            if self.rng is not None:
                self.initiative = self.table.active(self.rng.below(2))
            else:
                player, _ = yield from self._ask(
                    "T1", self.table.actives, "CF-02", self._check_initiative,
                    lambda p: [WinInitiative()])
                self.initiative = player
        for ps in self.seated:
            ps.knocked_down = ps.knockdown_next  # KD-3
            ps.knockdown_next = False
            ps.combo_points_spent = 0
            ps.chains = []
        self.frozen.clear()  # Chillbane's freeze lasts the rest of the turn it hit
        hooked = self._hooked["start_of_turn"]
        for ps in self.seated:
            if ps.player in hooked:
                self.rules[ps.player].start_of_turn(self, ps)
        # T2: draw phase, skipped on turn 1 and after card text skipped forward to this turn's
        # combat (Acrobatics).
        skipped = self.skip_to_combat
        self.skip_to_combat = False
        fresh, self.fresh_bout = self.fresh_bout, False  # OQ-17 opt.ttFreshBoutTurn1
        if skipped and self.diagnosing is not None:
            self._skipped_phase("T2", (Draw,))
            self._skipped_phase("T3", (UseAbility,))
        if self.turn > 1 and not skipped and not fresh:
            for ps in self.order():
                # T2: one card (the mode's count: TG-4, DB-3), unless card text changes the
                # count (DRAW_COUNT); then the mode's draw-phase step (TG-4's bench heal)
                yield from self._draw(ps, "T2", self.modifiers.fold(
                    DRAW_COUNT, ps, "T2", self.mode.draw_count(self, ps)))
                self.mode.after_draw(self, ps)
            yield from self.react()  # card text that acts during the draw phase (Shadow Plague)
            if self.timeout_triggered:
                self._score_by_life(Termination.TIMEOUT)  # END-6: after every player drew
            # T3: draw-phase window (WIN-DRAW), not on turn 1.
            yield from self.window("T3", "draw_phase")
            if self.timeout_triggered:
                self._score_by_life(Termination.TIMEOUT)
        # T4: combat.
        yield from self._combat()
        if self.skip_to_combat:  # card text: skip forward to next turn's combat (Acrobatics)
            if self.diagnosing is not None:
                self._skipped_phase("P1", (UseAbility,))
                self._skipped_phase("P2", (PowerUp, Search))
                self._skipped_phase("K1", (UseAbility,))
            self.journal.record(TurnEnded(self.turn, self.step, self.life, self.initiative))
        else:
            # T5: Power Up (P1 opens it: Power Up text, WIN-POWERUP).
            yield from self.window("P1", "power_up")
            for ps in self.order():
                yield from self._power_up(ps)
            yield from self.mode.power_up_tags(self)  # TAG-PU-2 (nothing in Versus)
            # T6: cleanup. K1 end-of-turn window, K2 hand limit, K3 expiry, K4 end check.
            yield from self.window("K1", "end_of_turn")
            self.step = "K1"
            players = self.players  # the life property, inlined (Versus: no comprehension)
            self.journal.record(TurnEnded(
                self.turn, "K1", (players[0].life, players[1].life) if len(players) == 2
                else tuple([ps.life for ps in players]), self.initiative))
            hooked = self._hooked["at_end_of_turn"]
            if hooked:  # mandatory "at the end of the turn" text, INI-6
                for ps in self.order():
                    if ps.player in hooked:
                        yield from self.rules[ps.player].at_end_of_turn(self, ps)
            yield from self.mode.end_of_turn(self)  # the mode's own (Training: TR-13)
            if self.timeout_triggered:
                self._score_by_life(Termination.TIMEOUT)
        for ps in self.order():
            yield from self._hand_limit(ps)
        for ps in self.seated:
            ps.knocked_down = False  # K3 / KD-6
        self.expire_modifiers(_END_OF_TURN)  # K3: "this turn" effects end
        self.step = "K4"
        if self.ruleset.timeout is not _RULEBOOK and all(
            not ps.deck and not ps.hand for ps in self.seated
        ):
            self._score_by_life(Termination.EXHAUSTED)  # CF-04 PLAY_ON
        self.step = "T7"
        if self.turn >= self.ruleset.maxTurns:
            self._score_by_life(Termination.MAX_TURNS)  # END-10
