"""Modes as strategies beside Versus: what a mode adds to the one game (RULES.md §11).

Glossary: a *bout* (Triple Threat) is the play between two characters, under Versus rules
(TT-3), until one of them (or both) is defeated; the *match* is the sequence of bouts until a
side is out of characters (TT-6).

Responsibility: the mode's own steps and decisions, and nothing of Versus. The game
(:mod:`rules_engine.game`) calls a mode at three points:

- :meth:`ModeRules.before_setup` before S-5 (Triple Threat's secret first pick, TT-2);
- :meth:`ModeRules.knockout` when a character is defeated (END-2): Versus ends the game, Triple
  Threat ends the bout unless a side is out of characters;
- :meth:`ModeRules.between_bouts` after a bout (TT-4, TT-5, OQ-17, OQ-18);

and asks :meth:`ModeRules.side_score` for a time-out's score (END-7; OQ-18 in Triple Threat).
Tag Team and Dramatic Battle (:class:`TagTeam`, :class:`DramaticBattle`) seat the bench from the
start (:meth:`ModeRules.seating`) and change the draw phase, the hand limit and what a knockout
does through the hooks below; see docs/rules-engine.md.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Commit, Pass, Pick, Snapback, Tag
from rules_engine.assists import Assists
from rules_engine.cards import Card, Character, character
from rules_engine.errors import RuleViolation
from rules_engine.journal import Tagged
from rules_engine.table import Table
from rules_engine.tags import CombatTags
from rules_engine.team import Mode, Team
from rules_engine.types import PlayerId, Termination

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore
    from rules_engine.state import Decision, PlayerState, Step


class BoutOver(Exception):
    """Internal: unwinds the turn when a bout ends but the match goes on (TT-4)."""

    def __init__(self, defeated_sides: tuple[int, ...]) -> None:
        super().__init__(defeated_sides)
        self.defeated_sides = defeated_sides


@dataclass(frozen=True, slots=True)
class Bout:
    """One bout of a team match, for the timeline, facts and verdicts."""

    number: int
    characters: tuple[str, str]  # side A's, side B's
    first_turn: int
    last_turn: int | None = None
    defeated: tuple[str, ...] = ()  # the characters knocked out at its end (two: double KO)
    # the sides (0: A, 1: B) whose character was knocked out at its end, as the game decided
    # (a mirror bout's two characters share an id: the side says who fell)
    defeated_sides: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"bout": self.number, "characters": list(self.characters),
                "turns": [self.first_turn, self.last_turn], "defeated": list(self.defeated),
                "defeated_sides": [_SIDE_NAMES[s] for s in self.defeated_sides]}


_SIDE_NAMES = ("P1", "P2")  # a side by its seat at the table (the sides' names in verdicts)


class ModeRules:
    """Versus (the one-character case): no picks, a knockout ends the game."""

    mode = Mode.VERSUS
    # Tag Team's combat tags and Ace tag (rules_engine.tags); None: the mode has no tags
    tags: CombatTags | None = None
    # Tag Team's assists (rules_engine.assists); None: the game's assist hooks never run
    assists: Assists | None = None

    def before_setup(self, game: GameCore) -> Step:
        """Decisions before S-5 (none in Versus)."""
        return
        yield

    def knockout(self, game: GameCore, out: tuple[bool, bool]) -> None:
        """END-2 / END-3 (CF-23): ``out`` says which side's active character is at 0 or
        less; ends the game."""
        game.versus_knockout(out)

    def between_bouts(self, game: GameCore, defeated_sides: tuple[int, ...]) -> Step:
        """After a bout of a team mode (never in Versus)."""
        return
        yield

    def side_score(self, game: GameCore, side: int) -> int:
        """END-7: a side's score at a time-out: its life."""
        return game.side_life(side)

    def is_defeated(self, game: GameCore, ps: PlayerState) -> bool:
        """OQ-02: ``ps``'s character was already defeated (no damage is applied to it). Never
        in Versus, where the first knockout ends the game."""
        return False

    # ---- seats the engine plays itself (Training, §12); none in Versus

    def derived_seats(self, game: GameCore) -> frozenset[PlayerId]:
        """The seats whose decisions the mode takes (never logged, recomputed on replay)."""
        return frozenset()

    def derive(self, game: GameCore, decision: Decision, seat: PlayerId) -> Action:
        """The choice of a derived seat at ``decision``."""
        raise NotImplementedError

    def ask_for(self, game: GameCore, decision: Decision, seat: PlayerId) -> Decision | None:
        """A decision a player makes for the derived ``seat`` at ``decision`` (TR-8 under
        ``opt.botTieChoice=HUMAN``: the human breaks the bot's combo ties), or None: the mode
        derives it (:meth:`derive`)."""
        return None

    def answered(self, game: GameCore, decision: Decision, seat: PlayerId,
                 action: Action) -> Action:
        """The derived ``seat``'s choice at ``decision`` from the player's answer ``action``
        to the decision :meth:`ask_for` made."""
        raise NotImplementedError

    def derived_rule(self, step: str) -> str:
        """The rule a logged event for a derived seat breaks at ``step``."""
        return "TR-3"

    def commits_from_deck(self, game: GameCore, ps: PlayerState) -> bool:
        """C1: ``ps`` commits even with an empty hand (its card comes from its deck, TR-5)."""
        return False

    def facts(self, game: GameCore) -> dict[str, object]:
        """The mode's own per-game facts (none in Versus)."""
        return {}

    def end_of_turn(self, game: GameCore) -> Step:
        """K1, after the characters' end-of-turn text: the mode's own (TR-13)."""
        return
        yield

    # the steps a mode with a bench changes (TG-2..TG-5, TG-KO, DB-2..DB-4); Versus and
    # Triple Threat keep one seat a side and the Versus counts

    def seating(self, teams: tuple[Team, Team]) -> tuple[Table, tuple[Character, ...]] | None:
        """The table and the characters by seat when every member is in play from the start
        (TG-2); None: one seat a side, the characters the game was given."""
        return None

    def seat_character(self, side: int, ch: Character) -> Character:
        """A seated character as this mode plays it (DB-2: the lone character's life)."""
        return ch

    def draw_count(self, game: GameCore, ps: PlayerState) -> int:
        """T2: how many cards ``ps`` draws in the draw phase."""
        return 1

    def after_draw(self, game: GameCore, ps: PlayerState) -> None:
        """T2: the mode's step after ``ps`` drew (TG-4's bench heal)."""

    def hand_limit(self, game: GameCore, ps: PlayerState, limit: int) -> int:
        """K2: ``ps``'s hand limit (HL-2's ``limit`` unless the mode changes it, DB-4)."""
        return limit

    def settle(self, game: GameCore) -> None:
        """C13e and the start of combat: characters defeated earlier leave (TG-KO)."""

    def snapback(self, game: GameCore, target: PlayerState) -> Generator[
            Decision, tuple[PlayerId, Action], Card | None]:
        """C13a: ``target`` would be knocked down; the card discarded for a snapback that
        switched it out instead (SB-1, SB-2), or None. Never in Versus or Triple Threat."""
        return None
        yield

    def rule_broken(self, game: GameCore, player: PlayerId,
                    action: Action) -> RuleViolation | None:
        """Asked by a diagnosis when a logged event fits no decision of the game: whether
        ``player``'s ``action`` breaks one of this mode's rules here (a snapback against a
        lone character, SB-5; a tag the Power Up does not allow, SB-3 / SB-4; a card committed
        by a character a hard tag brought in, TAG-PU-2), or None."""
        return None

    def power_up_tags(self, game: GameCore) -> Step:
        """T5, after every Power Up: the mode's tags (TAG-PU-2). None in Versus."""
        return
        yield

    def no_card_forced(self, game: GameCore, ps: PlayerState) -> bool:
        """C1: must ``ps`` play no-card this combat (TAG-PU-2)? Never in Versus."""
        return False

    def after_combat_winner(self, game: GameCore, winner: PlayerState | None,
                            loser: PlayerState | None) -> None:
        """C6, once the winner is known (TAG-PU-2's full combo). Nothing in Versus."""


class TripleThreat(ModeRules):
    """Triple Threat (TT-1..TT-6, OQ-17, OQ-18): three characters a side, one bout at a time.

    The side's seat (P1 for side A, P2 for side B) is its place at the table; the character in
    it changes when the side sends in its next one. Everything a bout plays is Versus.
    """

    mode = Mode.TRIPLE_THREAT

    def before_setup(self, game: GameCore) -> Step:
        """TT-2: both sides choose their first character secretly and simultaneously (GEN-5);
        the picks are revealed when both are in. A side with one choice is not asked."""
        yield from self._picks(game, (0, 1), "TT-2", fresh_deal=False)
        game.bouts.append(Bout(1, game.active_characters(), 1))

    def knockout(self, game: GameCore, out: tuple[bool, bool]) -> None:
        """TT-4 / TT-6 / OQ-18: the defeated characters leave their teams; a side with none
        left loses (both out: a draw); otherwise the bout ends and the match goes on."""
        defeated = tuple(side for side in (0, 1) if out[side])
        for side in defeated:
            game.teams[side].defeat(game.actives[side].character.id)
        self._close_bout(game, defeated)
        out_a, out_b = game.teams[0].is_out, game.teams[1].is_out
        if out_a and out_b:
            game.end(Termination.DOUBLE_KO, None)
        if out_a or out_b:
            game.end(Termination.KO if len(defeated) == 1 else Termination.DOUBLE_KO,
                     game.table.active(1 if out_a else 0))
        raise BoutOver(defeated)

    def between_bouts(self, game: GameCore, defeated_sides: tuple[int, ...]) -> Step:
        """TT-5 for the winner of a single KO (reshuffle, keep hand and effects, heal 20
        without triggering Healing Sphere); TT-4 / OQ-18 the incoming characters (the losing
        side picks; after a double KO both pick secretly); OQ-17 their setup."""
        game.end_bout()
        if len(defeated_sides) == 1:
            winner = game.actives[1 - defeated_sides[0]]
            game.winner_carries_on(winner)
        yield from self._picks(game, defeated_sides, "TT-4", fresh_deal=True)
        game.bouts.append(Bout(len(game.bouts) + 1, game.active_characters(), game.turn + 1))

    def side_score(self, game: GameCore, side: int) -> int:
        """OQ-18: a time-out ends the match; a side scores the life of its remaining
        characters, unplayed ones at full life."""
        team = game.teams[side]
        return game.side_life(side) + sum(game.starting_life(c) for c in team.in_reserve)

    # ------------------------------------------------------------------ helpers

    def _picks(self, game: GameCore, sides: tuple[int, ...], rule: str, *, fresh_deal: bool,
               ) -> Step:
        seats = tuple(game.table.active(side) for side in sides)
        chosen: dict[PlayerId, str] = {}
        asked = []
        for seat in seats:
            reserve = game.teams[game.table.side_of(seat)].in_reserve
            if len(reserve) == 1:
                chosen[seat] = reserve[0]  # one legal choice: taken without an event
            else:
                asked.append(seat)

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, Pick):
                raise RuleViolation(rule, f"{player.name}'s side must choose its next "
                                          "character here")
            reserve = game.teams[game.table.side_of(player)].in_reserve
            if action.incoming not in reserve:
                raise RuleViolation(rule, f"{action.incoming!r} cannot come in: "
                                          f"{player.name}'s side has "
                                          f"{', '.join(reserve)} left")

        def options(player: PlayerId) -> list[Action]:
            return [Pick(c) for c in game.teams[game.table.side_of(player)].in_reserve]

        while asked:  # hidden and simultaneous when both sides pick (GEN-5, TT-2, OQ-18)
            player, action = yield from game.ask_at(rule, tuple(asked), rule, check, options)
            asked.remove(player)
            assert isinstance(action, Pick)
            chosen[player] = action.incoming
        for seat in seats:  # revealed together, then set up (OQ-17)
            yield from game.bring_in(game.table.side_of(seat), chosen[seat],
                                     fresh_deal=fresh_deal)

    @staticmethod
    def _close_bout(game: GameCore, defeated: tuple[int, ...]) -> None:
        last = game.bouts[-1]
        game.bouts[-1] = Bout(last.number, last.characters, last.first_turn, game.turn,
                              tuple(game.actives[side].character.id for side in defeated),
                              defeated)


class TagTeam(ModeRules):
    """Tag Team (TG-1..TG-11, TG-KO, OQ-14, OQ-16): two characters a side, both in play from
    the start: the first declared is the active character, the other on the bench (TG-2),
    each at its own seat (:meth:`Table.for_sizes`). Combat is Versus between the active seats
    (TG-7); the bench draws 2 and heals 2 (TG-4); every seat keeps to the hand limit (TG-5); a
    defeated character leaves at C13e and its partner becomes active (TG-KO); a side wins
    when both opposing characters are defeated (TG-1); a time-out compares the life of each
    side's remaining characters (TG-10).

    Tags: the hard tag (:meth:`power_up_tags`), the combat tags and the Ace tag
    (:attr:`tags`, rules_engine.tags); snapbacks (:meth:`snapback`). Assists (AS-*) are
    :mod:`rules_engine.assists` (:attr:`assists`); ``opt.assists=OFF`` is the rulebook's "play
    without assists" variant.
    """

    mode = Mode.TAG_TEAM
    BENCH_DRAW = 2  # TG-4
    BENCH_HEAL = 2  # TG-4

    def __init__(self) -> None:
        self.down: list[PlayerId] = []  # defeated seats, in order (leave at C13e: TG-KO)
        # side -> the turn its active character was snapped back or knocked down (SB-3, SB-4)
        self.no_tag: dict[int, int] = {}
        # seat -> the turn it must play no-card (TAG-PU-2: it came in by a hard tag)
        self.hard_tagged: dict[PlayerId, int] = {}
        # side -> the turn it made an Ace tag (TAG-PU-1: one tag a Power Up, no hard tag too)
        self.ace_tagged: dict[int, int] = {}
        self.tags = CombatTags(self.down, self._tag_banned, self.ace_tagged)
        self.assists = Assists(self.down)  # AS-*: the bench's assists (DB-1)

    def _tag_banned(self, game: GameCore, ps: PlayerState) -> bool:
        """TAG-PU-3 / SB-3 / SB-4: ``ps``'s side may not tag in this turn's Power Up (its
        active character was snapped back, or knocked down, this turn)."""
        return self.no_tag.get(game.table.side_of(ps.player)) == game.turn \
            or ps.knockdown_next

    def seating(self, teams: tuple[Team, Team]) -> tuple[Table, tuple[Character, ...]] | None:
        """TG-2: the side's first declared character is active, the second benched."""
        table = Table.for_sizes(len(teams[0].members), len(teams[1].members))
        by_seat: dict[PlayerId, str] = {}
        for side, team in enumerate(teams):
            for seat, member in zip(table.sides[side], team.members, strict=True):
                by_seat[seat] = member.character
        return table, tuple(character(by_seat[s]) for s in sorted(by_seat))

    def draw_count(self, game: GameCore, ps: PlayerState) -> int:
        """TG-4: the active seat draws 1, a benched seat 2."""
        return 1 if ps is game.actives[game.table.side_of(ps.player)] else self.BENCH_DRAW

    def after_draw(self, game: GameCore, ps: PlayerState) -> None:
        """TG-4: a benched seat heals 2 after its draws, up to its maximum (GEN-8: a heal card
        text sees, as any other)."""
        if ps is not game.actives[game.table.side_of(ps.player)]:
            game.heal(ps, self.BENCH_HEAL)

    def knockout(self, game: GameCore, out: tuple[bool, bool]) -> None:
        """TG-KO / TG-1 / OQ-01: an active character at 0 or less is defeated; a side with no
        character left loses (both at once: a draw); otherwise the defeated character leaves
        at C13e (:meth:`settle`) and play goes on. A character already defeated is not
        defeated again by later damage (OQ-02)."""
        newly = [side for side in (0, 1)
                 if out[side] and game.actives[side].player not in self.down]
        if not newly:
            return
        for side in newly:
            ps = game.actives[side]
            self.down.append(ps.player)
            game.teams[side].defeat(ps.character.id)
        out_a, out_b = game.teams[0].is_out, game.teams[1].is_out
        if out_a and out_b:
            game.end(Termination.DOUBLE_KO, None)
        if out_a or out_b:
            game.end(Termination.KO, PlayerId(1 if out_a else 0))  # the side (P1 / P2)

    def is_defeated(self, game: GameCore, ps: PlayerState) -> bool:
        """OQ-02: a defeated character stays at its seat until C13e while combat carries on;
        later damage is not applied to it."""
        return ps.player in self.down

    def settle(self, game: GameCore) -> None:
        """TG-KO / OQ-14: each defeated character still at the table leaves; its partner
        becomes active, not knocked down, with its hand, deck and life."""
        for seat in self.down:
            if seat in game.table.seats:
                game.retire(seat)

    def snapback(self, game: GameCore, target: PlayerState) -> Generator[
            Decision, tuple[PlayerId, Action], Card | None]:
        """SB-1 / SB-2 / SB-5 / SB-6 / OQ-25 / OQ-32: when the opposing active character would
        be knocked down (C13a), the knocking side's active player may discard 1 card: the
        target switches out and its partner comes in as active, not knocked down (the knockdown
        is never applied to the outgoing character either: OQ-32). Not possible against a side
        with one character left (SB-5: Dramatic Battle's lone player can never be snapped back,
        though it may snapback the pair, OQ-25); a benched character is never knocked down
        (SB-6, KD-8: only the active one is a target)."""
        side = game.table.side_of(target.player)
        if target is not game.actives[side]:
            return None
        self.no_tag[side] = game.turn  # SB-3 / SB-4: snapped back or knocked down this turn
        partner = game.table.partner(target.player)
        if partner is None or partner in self.down or target.player in self.down:
            return None  # SB-5
        by = game.actives[1 - side]
        if not by.hand:
            return None

        def options(player: PlayerId) -> list[Action]:
            return [Pass(), *(Snapback(c) for c in dict.fromkeys(by.hand))]

        def check(player: PlayerId, action: Action) -> None:
            if isinstance(action, Pass):
                return
            if not isinstance(action, Snapback):
                raise RuleViolation("SB-1", f"{target.character.name} would be knocked down: "
                                            f"{player.name} may snapback (discard 1 card) or "
                                            "pass")
            if action.card not in by.hand:
                raise RuleViolation("SB-1", f"{action.card} is not in {player.name}'s hand")

        _, action = yield from game.ask_at("C13", (by.player,), "SB-1", check, options)
        if not isinstance(action, Snapback):
            return None
        by.hand.remove(action.card)
        game.discard(by, action.card)
        game.swap_active(side)  # SB-2
        return action.card

    def rule_broken(self, game: GameCore, player: PlayerId,
                    action: Action) -> RuleViolation | None:
        """SB-5, SB-1, SB-3, SB-4, TAG-PU-1, TAG-PU-2 for an event no decision took (see
        :meth:`ModeRules.rule_broken`)."""
        if player not in game.table.seats:
            return None
        side = game.table.side_of(player)
        ps = game.players[player]
        if isinstance(action, Snapback):
            target = game.actives[1 - side]
            partner = game.table.partner(target.player)
            if partner is None or partner in self.down or target.player in self.down:
                return RuleViolation("SB-5", f"no snapback against {target.character.name}: "
                                             "that team has only one character left")
            return RuleViolation("SB-1", f"a snapback is made only when the opposing active "
                                         f"character would be knocked down (C13), and "
                                         f"{target.character.name} is not being knocked down "
                                         "here")
        if isinstance(action, Tag) and game.step.startswith("P"):
            active = game.actives[side]
            if self.ace_tagged.get(side) == game.turn:
                return RuleViolation("TAG-PU-1", "this team already tagged with its Aces this "
                                                 "Power Up: one tag a Power Up")
            if active.knockdown_next:
                return RuleViolation("SB-4", f"{active.character.name} was knocked down "
                                             "without a snapback this turn: the team cannot "
                                             "tag in this Power Up")
            if self.no_tag.get(side) == game.turn:
                return RuleViolation("SB-3", "this team's active character was snapped back "
                                             "this turn: the team cannot tag in this Power Up")
            if self.hard_tagged.get(active.player) == game.turn + 1:
                return RuleViolation("TAG-PU-2", "this team already declared a hard tag this "
                                                 "Power Up: one tag a Power Up")
        if isinstance(action, Commit) and self.no_card_forced(game, ps):
            return RuleViolation("TAG-PU-2", f"{ps.character.name} came in by a hard tag: it "
                                             "must play no-card in this combat")
        return None

    def power_up_tags(self, game: GameCore) -> Step:
        """TAG-PU-2 / TAG-PU-3 / TAG-PU-4: after every seat's normal Power Up (TAG-PU-4), each
        side's active player, in initiative order, may declare a hard tag: the benched
        character comes in, must play no-card next combat, and the opponent may then make a
        full combo. Not this turn for a side whose active character was snapped back (SB-3) or
        knocked down without a snapback (SB-4); not for a side with one character left."""
        # the active seats as the Power Up ends, in initiative order, fixed before any tag: the
        # character a hard tag brings in is not asked again (one tag a team, TAG-PU-2)
        actives = [ps for ps in game.order() if ps is game.actives[game.table.side_of(ps.player)]]
        for ps in actives:
            side = game.table.side_of(ps.player)
            if self._tag_banned(game, ps) \
                    or self.ace_tagged.get(side) == game.turn:  # SB-3 / SB-4; TAG-PU-1 made
                continue
            partner = game.table.partner(ps.player)
            if partner is None or partner in self.down or ps.player in self.down:
                continue

            def options(player: PlayerId) -> list[Action]:
                return [Pass(), Tag()]

            def check(player: PlayerId, action: Action) -> None:
                if not isinstance(action, Pass | Tag):
                    raise RuleViolation("TAG-PU-2", f"{player.name} may declare a hard tag "
                                                    "or pass here")

            _, action = yield from game.ask_at("P2", (ps.player,), "TAG-PU-2", check, options)
            if isinstance(action, Tag):
                game.journal.record(Tagged(game.turn, game.step, ps.player, partner, "hard"))
                game.swap_active(side)
                self.hard_tagged[partner] = game.turn + 1

    def no_card_forced(self, game: GameCore, ps: PlayerState) -> bool:
        """TAG-PU-2: the character that came in by a hard tag plays no-card next combat."""
        return self.hard_tagged.get(ps.player) == game.turn

    def after_combat_winner(self, game: GameCore, winner: PlayerState | None,
                            loser: PlayerState | None) -> None:
        """TAG-PU-2: against a character forced to no-card by its hard tag the opponent may make
        a full combo: a dodge's hit-back is not limited to one Ender (OQ-06's single attack)."""
        if winner is not None and loser is not None and winner.kind == cb.DODGE \
                and self.no_card_forced(game, loser):
            game.grant_full_combo(winner)
        if self.assists is not None:  # assists hook: AS-9 / AS-16, who takes damage on both
            self.assists.after_winner(game, winner)

    def side_score(self, game: GameCore, side: int) -> int:
        """TG-10: the life of the side's remaining characters."""
        return sum(game.players[s].life for s in game.table.sides[side]
                   if s not in self.down)


class DramaticBattle(TagTeam):
    """Dramatic Battle (DB-1..DB-7, OQ-25): a lone character against a pair that plays by every
    Tag Team rule (DB-1). The lone character starts at double life, which is also its heal cap
    (DB-2, OQ-25), draws 3 a draw phase (DB-3) and keeps to a hand limit of 20 (DB-4); results
    and time-outs are Tag Team's (DB-5, DB-6)."""

    mode = Mode.DRAMATIC_BATTLE
    LONE_DRAW = 3  # DB-3
    LONE_HAND_LIMIT = 20  # DB-4

    def __init__(self, lone_side: int = 0) -> None:
        super().__init__()
        self.lone_side = lone_side

    def seating(self, teams: tuple[Team, Team]) -> tuple[Table, tuple[Character, ...]] | None:
        self.lone_side = 0 if len(teams[0].members) == 1 else 1
        return super().seating(teams)

    def seat_character(self, side: int, ch: Character) -> Character:
        """DB-2 / OQ-25: the lone character's starting life (and so its heal cap) doubles."""
        return replace(ch, life=2 * ch.life) if side == self.lone_side else ch

    def draw_count(self, game: GameCore, ps: PlayerState) -> int:
        if game.table.side_of(ps.player) == self.lone_side:
            return self.LONE_DRAW
        return super().draw_count(game, ps)

    def hand_limit(self, game: GameCore, ps: PlayerState, limit: int) -> int:
        return self.LONE_HAND_LIMIT if game.table.side_of(ps.player) == self.lone_side else limit


def mode_rules(mode: Mode) -> ModeRules:
    """The strategy for ``mode``; ValueError for a mode the engine does not play yet."""
    if mode is Mode.VERSUS:
        return ModeRules()
    if mode is Mode.TRIPLE_THREAT:
        return TripleThreat()
    if mode in (Mode.TRAINING, Mode.SURVIVAL):
        from rules_engine.training.modes import Survival, Training

        return Survival() if mode is Mode.SURVIVAL else Training()
    if mode is Mode.TAG_TEAM:
        return TagTeam()
    if mode is Mode.DRAMATIC_BATTLE:
        return DramaticBattle()
    raise ValueError(f"{mode.label} games are not played by the engine yet")
