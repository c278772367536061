"""Tag Team assists (RULES.md §11.2 "Assists", AS-1..AS-17, AS-TBL-1..4; DB-1, DB-7; OQ-15's
assist half, OQ-16's swap order, OQ-23, OQ-28; DP-3, DP-5; ``opt.assists``).

Glossary: an *assist* is the attack or throw end of a benched player's Jack, Queen or King put
face down at C1 (AS-1, AS-2); a team that placed one *assisted* this combat. A *swap* makes the
assist the team's main combat card (AS-6).

Responsibility: every assist rule, in one place. The game calls it at marked hook points (each
behind ``game.mode.assists is not None``, so Versus, Triple Threat and Training never reach
here): C1 (:meth:`Assists.seats`, :meth:`check`, :meth:`options`, :meth:`place`,
:meth:`lock`), after C3 (:meth:`swaps`), C6 (:meth:`after_winner`), the end of C8
(:meth:`hit_at_once`), the start of C10 (:meth:`into_combo`), every piece of combat damage
(:meth:`share`, through ``GameCore.shares_damage``) and C13 after the knockdowns, before the
end-of-combat window (:meth:`clear`); the public view (:meth:`placed_by`) and the timeline
(:meth:`describe`) read it. The Tag Team mode owns one :class:`Assists` (``TagTeam.assists``);
Dramatic Battle inherits it, and its lone side has no bench, so it never assists (DB-7).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Assist, Pass, Swap
from rules_engine.cards import Card, ComboType, Move, MoveType, Rank
from rules_engine.effects import fire
from rules_engine.errors import RuleViolation
from rules_engine.journal import Hit, Thrown
from rules_engine.modifiers import COMBAT_DAMAGE
from rules_engine.ruleset import OnOff
from rules_engine.state import ComboEntry, PlayerState, Step, Trigger
from rules_engine.types import PlayerId, Termination

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore

ASSIST_RANKS = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})  # AS-1: special moves only
_ENDS_COMBO = (ComboType.ENDER, ComboType.CANT_COMBO)


@dataclass(frozen=True, slots=True)
class Placed:
    """One team's assist this combat (AS-2): the benched ``seat``, its ``card`` and ``move``
    (as that character plays it), the card it discarded for it (AS-4), and what became of it:
    ``swapped`` in as the main card (AS-6) and ``hit`` at once (AS-11, AS-14)."""

    seat: PlayerId
    card: Card
    move: Move
    cost: Card
    swapped: bool = False
    hit: bool = False

    def describe(self) -> str:
        """The assist in words, for the timeline."""
        name = f" '{self.move.name}'" if self.move.name else ""
        return f"{self.card.code} {self.move.type.value}{name}"


class Assists:
    """This game's assists: per combat, each side's :class:`Placed` assist (by side, 0 or 1),
    the main card a swap set aside (AS-6, AS-13), and the outcome words for the timeline."""

    def __init__(self, down: list[PlayerId]) -> None:
        self.down = down  # the mode's defeated seats (TG-KO), shared with it
        self.placed: dict[int, Placed] = {}
        # side -> the active seat that swapped and its unused main card (AS-6, AS-13)
        self.set_aside: dict[int, tuple[PlayerId, Card | None]] = {}
        self.outcome: dict[int, str] = {}  # side -> what its assist did, in words

    # ------------------------------------------------------------------ C1 (AS-1..AS-4)

    def seats(self, game: GameCore) -> list[PlayerId]:
        """AS-2 / DP-3 / DB-7 / ``opt.assists``: the benched seats that may place an assist
        now: each side's benched character still standing beside a standing active one, with a
        Jack, Queen or King it may play and another card to pay with (AS-4). None with
        ``opt.assists=OFF``, and none for Dramatic Battle's lone side (no bench)."""
        self.placed.clear()
        self.set_aside.clear()
        self.outcome.clear()
        out: list[PlayerId] = []
        for side in (0, 1):
            seats = game.table.sides[side]
            if len(seats) < 2 or seats[0] in self.down or seats[1] in self.down:
                continue
            if game.ruleset.assists is OnOff.ON and len(self.options(game, seats[1])) > 1:
                out.append(seats[1])
            elif game.diagnosing is not None:  # not asked: why an assist is not due (verdicts)
                game.skipped("C1", (seats[1],), (Assist,), self._not_asked(game))
        return out

    def _not_asked(self, game: GameCore) -> Callable[[PlayerId, Action], None]:
        """Why a benched seat that was not asked at C1 may not assist (for a diagnosis)."""
        def check(player: PlayerId, action: Action) -> None:
            if game.ruleset.assists is OnOff.OFF:
                raise RuleViolation("AS-2", "this match is played without assists "
                                            "(opt.assists=OFF)")
            self.check(game, player, action)
            raise RuleViolation("AS-1", f"{player.name} has no Jack, Queen or King to assist "
                                        "with and another card to pay for it")
        return check

    def options(self, game: GameCore, player: PlayerId) -> list[Action]:
        """DP-3: pass, or each legal assist (a J/Q/K's attack or throw end the character may
        play now, GEN-1) with each other card of the hand as its cost (AS-4)."""
        ps = game.players[player]
        out: list[Action] = [Pass()]
        hand = list(dict.fromkeys(ps.hand))
        for c in hand:
            if c.rank not in ASSIST_RANKS:
                continue
            for m in ps.character.moves_of(c):
                if not m.is_attack_or_throw:
                    continue
                if game.move_violation(ps, game.played_move(ps, c, m), "C1") is not None:
                    continue
                name = m.name if len(ps.character.moves_of_type(c, m.type)) > 1 else None
                out.extend(Assist(c, m.type, name, cost) for cost in hand if cost is not c)
        return out

    def check(self, game: GameCore, player: PlayerId, action: Action) -> None:
        """AS-1 / AS-2 / AS-4: an assist is the attack or throw end of a Jack, Queen or King
        from the benched player's hand, with another card of that hand as its cost."""
        if isinstance(action, Pass):
            return
        ps = game.players[player]
        who = f"{player.name} ({ps.character.name}) is on the bench"
        if not isinstance(action, Assist):
            raise RuleViolation("AS-2", f"{who}: at C1 it may place an assist face down or "
                                        "pass")
        if action.card not in ps.hand:
            raise RuleViolation("AS-2", f"{action.card} is not in {player.name}'s hand")
        if action.card.rank not in ASSIST_RANKS:
            raise RuleViolation("AS-1", f"{action.card} cannot assist: an assist is the attack "
                                        "or throw end of a Jack, Queen or King (no Aces, "
                                        "normals or Jokers)")
        if action.move not in (MoveType.ATTACK, MoveType.THROW):
            raise RuleViolation("AS-1", f"an assist is an attack or throw, not a "
                                        f"{action.move.value}")
        m = game.resolve_move(ps, action.card, action.move, action.name, "AS-1")
        violation = game.move_violation(ps, m, "C1")
        if violation is not None:
            raise violation
        if action.cost is action.card or action.cost not in ps.hand:
            raise RuleViolation("AS-4", f"the assist costs 1 more card from {player.name}'s "
                                        f"hand; {action.cost} is not another card of it")

    def place(self, game: GameCore, player: PlayerId, action: Action) -> None:
        """AS-2: the assist goes face down (out of the hand; nothing shows until C2)."""
        if not isinstance(action, Assist):
            return
        ps = game.players[player]
        ps.hand.remove(action.card)
        m = game.resolve_move(ps, action.card, action.move, action.name, "AS-1")
        self.placed[game.table.side_of(player)] = Placed(player, action.card, m, action.cost)

    def lock(self, game: GameCore) -> None:
        """AS-3 / AS-4: once every assist is down (collected at once, GEN-5), each benched
        player who assisted discards its extra card."""
        for side in sorted(self.placed):
            p = self.placed[side]
            ps = game.players[p.seat]
            ps.hand.remove(p.cost)
            game.discard(ps, p.cost)

    # ------------------------------------------------------------------ C3 (AS-6, AS-7)

    def swap_order(self, game: GameCore) -> list[int]:
        """AS-7 / OQ-16: both teams assisted: the faster assist (lower speed) decides first;
        equal speeds: the team whose active character has more life; equal lives too: the team
        **without** initiative (OQ-16)."""
        sides = sorted(self.placed)
        if len(sides) < 2:
            return sides
        initiative = game.table.side_of(game.initiative)

        def key(side: int) -> tuple[int, int, int]:
            speed = self.placed[side].move.speed
            return (speed if speed is not None else 10**6, -game.actives[side].life,
                    0 if side != initiative else 1)
        return sorted(sides, key=key)

    def swaps(self, game: GameCore) -> Step:
        """AS-6 / DP-5: after C3, each team that assisted, in AS-7's order, may swap: its
        assist becomes the team's main combat card, played as an Ender (AS-12), and the main
        card is not used this combat (discarded at C13, AS-13). The benched player decides."""
        for side in self.swap_order(game):
            p = self.placed[side]

            def check(player: PlayerId, action: Action) -> None:
                if not isinstance(action, Swap | Pass):
                    raise RuleViolation("AS-6", f"{player.name}'s team assisted: swap the "
                                                "assist in as the main combat card, or pass")

            _, action = yield from game.ask_at("C3", (p.seat,), "AS-6", check,
                                               lambda player: [Pass(), Swap()])
            if isinstance(action, Swap):
                self._swap(game, side)

    def _swap(self, game: GameCore, side: int) -> None:
        p = self.placed[side]
        active = game.actives[side]
        self.set_aside[side] = (active.player, active.combat_card)
        active.combat_card = p.card
        active.combat_move = replace(p.move, combo_type=ComboType.ENDER)  # AS-12
        active.kind = cb.KIND_OF_MOVE[p.move.type]
        active.revealed_kind, active.revealed_card = active.kind, p.card
        self.placed[side] = replace(p, swapped=True)
        self.outcome[side] = (f"{p.seat.name} assisted with {p.describe()} and swapped it in "
                              "as the main combat card, an Ender (AS-6, AS-12)")

    # ------------------------------------------------------------------ C6..C10

    def after_winner(self, game: GameCore, winner: PlayerState | None) -> None:
        """AS-9 / AS-16: a team that assisted and lost or tied takes every piece of combat
        damage on both its characters (from now to the end of combat). AS-10 / AS-15 / AS-TBL:
        the winner's assist that will not hit."""
        win_side = None if winner is None else game.table.side_of(winner.player)
        for side, p in self.placed.items():
            if side == win_side:
                if winner is not None and not p.swapped and winner.kind == cb.BLOCK:
                    self.outcome[side] = (f"{p.seat.name}'s assist {p.describe()} does "
                                          "nothing: no combo follows a block (AS-15, AS-TBL-2)")
                elif winner is not None and not p.swapped and winner.kind == cb.JOKER:
                    self.outcome[side] = (f"{p.seat.name}'s assist {p.describe()} misses: the "
                                          "team won with a Gold Burst (AS-10, AS-TBL-2)")
                continue
            game.shares_damage[game.actives[side].player] = game.players[p.seat]
            lost = "tied" if winner is None else "lost"
            self.outcome[side] = (f"{p.seat.name} assisted with {p.describe()} and its team "
                                  f"{lost}: combat damage hits both its characters (AS-9)")

    def hit_at_once(self, game: GameCore, winner: PlayerState, loser: PlayerState) -> Step:
        """End of C8, before the Rewind window: the winning team's assist (not swapped).
        AS-14 / OQ-23: after a dodge it hits as the hit-back. AS-11: after a normal attack,
        Starter or Linker it hits at once. AS-10: after an Ender or Can't Combo move it misses.
        A hit deals the assist's base damage now, so Rewind cannot prevent it (AS-11)."""
        side = game.table.side_of(winner.player)
        p = self.placed.get(side)
        if p is None or p.swapped:
            return
        played = None if winner.combat_move is None else game.as_played(winner,
                                                                         winner.combat_move)
        if winner.kind != cb.DODGE and (played is None or played.follow_type in _ENDS_COMBO):
            self.outcome[side] = (f"{p.seat.name}'s assist {p.describe()} misses: the team won "
                                  "with an Ender or Can't Combo move (AS-10, AS-TBL-1)")
            return
        self.placed[side] = replace(p, hit=True)
        bench = game.players[p.seat]
        bench.hit_this_combat = True
        game.journal.record(Hit(game.turn, "C8", loser.player, p.seat, combo=True))
        if p.move.type is MoveType.THROW:
            game.journal.record(Thrown(game.turn, "C8", loser.player, p.seat))
            game.combat.thrown.append(loser.player)
        if loser.ongoing:
            fire(game, loser, Trigger.HIT)
            if p.move.type is MoveType.THROW:
                fire(game, loser, Trigger.THROWN)
        dmg = game.modifiers.fold(COMBAT_DAMAGE, bench, p.move, p.move.damage)
        game._damage(loser, dmg, bench, "combat")
        game._ko_check()
        yield from game.react()
        if winner.kind == cb.DODGE:
            self.outcome[side] = (f"{p.seat.name}'s assist {p.describe()} hits as the hit-back "
                                  "and is an Ender (AS-14, AS-TBL-3)")
        elif p.move.follow_type in _ENDS_COMBO:
            self.outcome[side] = (f"{p.seat.name}'s assist {p.describe()} hits at once and "
                                  "ends the combo (AS-11, AS-TBL-4)")
        else:
            self.outcome[side] = (f"{p.seat.name}'s assist {p.describe()} hits at once; "
                                  "combo points reset and the combo goes on (AS-11, AS-TBL-4)")

    def into_combo(self, game: GameCore, winner: PlayerState) -> None:
        """Start of C10 (after the Rewind window): an assist that hit is the combo's next move,
        at 0 combo points, its base damage already dealt (so, like the combat card, only its
        pumps wait for C12). AS-14: after a dodge it is the hit-back, an Ender. AS-11 (4): a
        Starter or Linker resets the active player's spent points to 0 and the combo goes on
        by the follow rules; an Ender or Can't Combo ends it (pumps only). OQ-15: it is a move
        by another character, so it ends any chain run (and it is never a normal attack)."""
        p = self.placed.get(game.table.side_of(winner.player))
        if p is None or not p.hit:
            return
        run = game.combat.run
        run.add(p.seat, ComboEntry(p.card, p.move, played_in_c10=False), 0)
        if run.hit_back or p.move.follow_type in _ENDS_COMBO:
            run.closed = True
        else:
            winner.combo_points_spent = 0

    # ------------------------------------------------------------------ damage (AS-9, AS-16)

    def share(self, game: GameCore, target: PlayerState, amount: int,
              source: PlayerState) -> None:
        """AS-9 / AS-16 / OQ-28: combat damage to the active character of a team that assisted
        and lost or tied hits its benched partner too (damage a Rewind Joker prevents is never
        dealt, so it spares both: OQ-28). OQ-02: a character already defeated takes none; a
        benched character brought to 0 is defeated (it leaves at C13e, TG-KO), and a side
        with no character left loses."""
        partner = game.shares_damage.get(target.player)
        if partner is None or partner.player in self.down:
            return
        game._damage(partner, amount, source, "combat")
        if partner.life > 0:
            return
        side = game.table.side_of(partner.player)
        self.down.append(partner.player)
        game.teams[side].defeat(partner.character.id)
        if game.teams[side].is_out:
            other = 1 - side
            if game.teams[other].is_out:
                game.end(Termination.DOUBLE_KO, None)
            game.end(Termination.KO, PlayerId(other))

    # ------------------------------------------------------------------ C13 (AS-13)

    def clear(self, game: GameCore) -> None:
        """C13, after the knockdowns (a) and before the end-of-combat window (b): each assist
        goes to its owner's discard pile (GEN-6). AS-13: a team that swapped discards both its
        cards now, so no end-of-combat text returns them to hand (a block does not return,
        Burning Vigor does not work); a swapped-in card that card text already moved out of
        the combat area (a void, Acrobatics' discard) is taken back from the active player's
        zones to its owner's pile."""
        for side in sorted(self.placed):
            p = self.placed[side]
            if p.swapped:  # the seat that swapped (a snapback at C13a may have moved it)
                seat, main = self.set_aside[side]
                active = game.players[seat]
                if main is not None:
                    game.discard(active, main)
                if active.combat_card is p.card:
                    active.combat_card = None
                else:
                    _take_back(active, p.card)
            game.discard(game.players[p.seat], p.card)
        self.placed.clear()  # the outcome words stay for the timeline until the next C1
        self.set_aside.clear()
        game.shares_damage.clear()

    def assisted(self, side: int) -> bool:
        """Did ``side`` assist this combat (from C1 to C13)? TAG-DODGE and TAG-LIMIT-2 ask it."""
        return side in self.placed

    def placed_by(self, seat: PlayerId) -> Card | None:
        """The assist card ``seat`` placed this combat (shown once revealed, AS-5), or None."""
        return next((p.card for p in self.placed.values() if p.seat is seat), None)

    def describe(self) -> tuple[str, ...]:
        """This combat's assists in words (the timeline's combat explanation)."""
        return tuple(self.outcome[s] for s in sorted(self.outcome))


def _take_back(ps: PlayerState, c: Card) -> None:
    """A partner's card that card text put into ``ps``'s hand or discard pile: ``ps`` holds
    its own copy of every card once (cards are values, GL-CARD), so a second copy of ``c``
    among its zones is the partner's, and leaves (from the hand first)."""
    for zone in (ps.hand, ps.discard):
        if ps.hand.count(c) + ps.discard.count(c) + ps.deck.count(c) > 1 and c in zone:
            zone.remove(c)
            return
