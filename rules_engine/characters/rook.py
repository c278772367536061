"""Garus Rook (2014 deck): innates Rock Armor and Defense Mastery, Entangling Vines (3's block),
Stone Wall (5's block), Windmill Crusher (K) (docs/rules/characters/rook.md; FR-ROOK-1..5,
RW-13, OQ-12, AB-11).

Glossary: *special block* = a block on a card whose rank prints a During Combat ability (his 3
and 5); a *normal attack* is a move on a 2..10 card; a *special attack* is an attack on a J, Q
or K (Aces are super moves); *same suit* = the suit of the card Rook attacked with.

Responsibility: Rook's ability hooks. Decisions of this module's making
(docs/rules/characters/rook.md, "Engine rulings"):
- Rock Armor is decided once the opponent's combo is over (rook.md, engine notes: it resolves
  after the opponent's full combo; the knockdown it depends on is known only then). Rook's
  normal attack must have lost C6 to a faster normal attack or to a special attack; the last
  move of the opponent's combo must not knock him down. He may discard two cards of his
  attack card's suit (``ability`` with ``cards``, or ``pass``). An innate: the counter policy
  (CTR-8) lets no counter counter it by default; under ``opt.innateCounters=FIRST_EDITION_FAQ``
  Smoke Bomb may (FR-ROOK-5): countered, the two cards return to his hand. Then his attack
  hits (its base damage), the opponent may place a Rewind card, and he makes his combo from
  that attack (RW-13, OQ-12: his own Rewind card for the opponent's combo is his C9 one). A
  Rewind card prevents only damage of the combo it was placed against.
- Stone Wall (his 5's block beats an attack, C6): counterable (AB-11: countered, an ordinary
  block); resolved, he takes no block damage and does not draw for blocking, the attacker
  takes the attack's printed damage as ability damage (FR-ROOK-2: no Rewind prevents it), and
  the 5 is discarded (no return).
- Entangling Vines (his 3's block beats an attack, C6): counterable likewise; resolved, no
  block damage and no block draw, the attacker takes 5 (ability damage) and is knocked down
  (for the next turn, KD-6; not a throw, FR-ROOK-4), the 3 is discarded; next turn his attacks
  and throws are 3.0 faster (``opt.entanglingVines``: 5.0), never below 1.0 by it.
- A special block beating a Joker or no-card is an ordinary block (there is no attack to
  reflect or entangle).
- Windmill Crusher is Lockhorn Skewer's text: his King throw beats a normal attack of speed
  5.0 or faster and he takes that attack's damage.
- Defense Mastery stops the C7 draw of an opponent whose normal attack his block beat.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Move, Rank
from rules_engine.characters import CharacterRules
from rules_engine.characters.midori import defense_mastery, defense_mastery_broken
from rules_engine.characters.troq import throw_beats_fast_normals
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.modifiers import BLOCK_DAMAGE, BLOCK_DRAW, SPEED, Expiry, Modifier
from rules_engine.ruleset import EntanglingVines, OnOff
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.state import Decision, PlayerState, Step
    from rules_engine.types import PlayerId

ROCK_ARMOR = "Rock Armor"
DEFENSE_MASTERY = "Defense Mastery"
ENTANGLING_VINES = "Entangling Vines"
STONE_WALL = "Stone Wall"
WINDMILL_CRUSHER = "Windmill Crusher"
VINES_DAMAGE = 5
VINES_FLOOR = 10  # "to a minimum of speed 1.0" (tenths)


def _none(ps: PlayerState, subject: object, n: int) -> int:
    return 0


def _is_special_attack(m: Move | None) -> bool:
    return m is not None and m.rank in (Rank.JACK, Rank.QUEEN, Rank.KING)


def armor_pairs(ps: PlayerState) -> list[tuple[Card, Card]]:
    """Rock Armor's possible costs: two cards in hand of the suit of Rook's attack card."""
    c = ps.combat_card
    if c is None or c.suit is None:
        return []
    same = [x for x in dict.fromkeys(ps.hand) if not x.is_joker and x.suit is c.suit]
    return list(combinations(same, 2))


class RookRules(CharacterRules):
    """Rook with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`, BOT-ROOK: "always uses Rock Armor when possible"):
    Rock Armor whenever it is offered, paying with the two lowest-ranked cards of the suit.
    Stone Wall, Entangling Vines, Windmill Crusher and Defense Mastery need no decision.
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        ROCK_ARMOR: "When his normal attack lost combat to a faster normal attack or a special "
                    "(J, Q, K) attack: once the opponent's combo is over and did not knock him "
                    "down, he may discard two cards of his attack card's suit. Then his attack "
                    "hits, the opponent may place a Rewind card, and he makes his combo. "
                    "Innate: can't be countered (the first-edition reading lets Smoke Bomb "
                    "counter it: the two cards return to his hand).",
        DEFENSE_MASTERY: "The opponent does not make the normal draw when his block beats "
                         "their normal attack.",
        ENTANGLING_VINES: "When his 3's block beats an attack: no block damage, no block draw, "
                          "the attacker takes 5 and is knocked down, the 3 is discarded; next "
                          "turn his attacks and throws are 3.0 faster (never below 1.0). "
                          "Counterable: countered, it is an ordinary block.",
        STONE_WALL: "When his 5's block beats an attack: no block damage, no block draw, the "
                    "attacker takes the attack's printed damage (Rewind Time cannot prevent "
                    "it), the 5 is discarded. Counterable: countered, it is an ordinary block.",
        WINDMILL_CRUSHER: "His King throw beats a normal attack of speed 5.0 or faster (after "
                          "speed changes); the normal attack still hits him for its damage.",
    }

    def __init__(self, character: Any) -> None:
        super().__init__(character)
        self.vines_next = False  # Entangling Vines resolved: faster next turn

    def position_key(self) -> str:
        return "vines" if self.vines_next else ""

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        """T1: Entangling Vines' speed bonus for this turn."""
        if not self.vines_next:
            return
        self.vines_next = False
        n = 50 if ctx.ruleset.entanglingVines is EntanglingVines.FASTER_5 else 30

        def faster(seat: PlayerState, move: Move, speed: int) -> int:
            if not move.is_attack_or_throw:
                return speed
            return max(speed - n, min(speed, VINES_FLOOR))

        ctx.add_modifier(Modifier(SPEED, ps.player, faster, ENTANGLING_VINES,
                                  Expiry.END_OF_TURN))

    # --- Windmill Crusher (C6) -------------------------------------------------------------
    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        return throw_beats_fast_normals(ctx, ps, a, result)

    # --- Defense Mastery (C7) ----------------------------------------------------------------
    def rule_broken(self, ctx: AbilityContext, ps: PlayerState, player: PlayerId,
                    action: Action) -> RuleViolation | None:
        """Defense Mastery took the attacker's draw away (a diagnosis' question)."""
        return defense_mastery_broken(ctx, ps, player, action) \
            or super().rule_broken(ctx, ps, player, action)

    def normal_draw_prevented(self, ctx: AbilityContext, blocker: PlayerState,
                              attacker: PlayerState) -> bool:
        """Opponents don't draw when Rook blocks their normal attacks."""
        return defense_mastery(attacker)

    # --- Stone Wall and Entangling Vines (C6) ------------------------------------------------
    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        c = ps.combat_card
        opp = ctx.opponent(ps)
        if winner is not ps or ps.kind != cb.BLOCK or c is None or opp.kind != cb.ATTACK:
            return
        if c.rank is Rank.FIVE:
            name = STONE_WALL
        elif c.rank is Rank.THREE:
            name = ENTANGLING_VINES
        else:
            return
        if (yield from ctx.offer_counter(ps, name)):
            return  # AB-11 / FR-ROOK-3: an ordinary block (draws, takes block damage, returns)
        ctx.add_modifier(Modifier(BLOCK_DRAW, ps.player, _none, name, Expiry.END_OF_COMBAT))
        ctx.add_modifier(Modifier(BLOCK_DAMAGE, ps.player, _none, name, Expiry.END_OF_COMBAT))
        ctx.move(ps, c, Zone.COMBAT, Zone.DISCARD)
        if name == STONE_WALL:
            assert opp.combat_move is not None
            ctx.damage(opp, opp.combat_move.damage, ps)  # FR-ROOK-2: ability damage
            return
        ctx.damage(opp, VINES_DAMAGE, ps)
        if ctx.ruleset.knockdowns is OnOff.ON:
            ctx.knock_down(opp, ps, next_turn=True)
        self.vines_next = True

    # --- Rock Armor (after the opponent's combo) ----------------------------------------------
    def _armor_possible(self, ctx: AbilityContext, ps: PlayerState,
                        winner: PlayerState) -> bool:
        m, w = ps.combat_move, winner.combat_move
        if ps.kind != cb.ATTACK or m is None or not m.is_normal_attack:
            return False
        if winner.kind != cb.ATTACK or w is None:
            return False
        if not (w.is_normal_attack or _is_special_attack(w)):
            return False  # a super attack (an Ace)
        combo = ctx.combo  # not knocked down by the opponent's combo (its last move, KD-1)
        return not (ctx.ruleset.knockdowns is OnOff.ON and combo and combo[-1].move.knockdown)

    def armor_combo(self, ctx: AbilityContext, ps: PlayerState,
                    winner: PlayerState) -> Generator[Decision, tuple[PlayerId, Action], bool]:
        """RW-13 / OQ-12: Rook may discard two cards of his attack's suit; then his attack is
        not interrupted and he makes his combo (the game's ``_armoured_combo``)."""
        if not self._armor_possible(ctx, ps, winner):
            return False
        pairs = armor_pairs(ps)
        if not pairs:
            return False
        attack = ps.combat_card
        assert attack is not None

        def check(player: PlayerId, a: Action) -> None:
            if isinstance(a, Pass):
                return
            if not isinstance(a, UseAbility) or a.ability != ROCK_ARMOR or a.card is not None \
                    or a.option or len(a.cards) != 2:
                raise RuleViolation("AB-1", "Rock Armor: name two cards to discard, or pass")
            x, y = a.cards
            if x is y:
                raise RuleViolation("AB-1", "Rock Armor: two different cards")
            for c in (x, y):
                if c not in ps.hand:
                    raise RuleViolation("AB-1", f"{c} is not in {player.name}'s hand")
                if c.is_joker or c.suit is not attack.suit:
                    raise RuleViolation("AB-1", f"Rock Armor costs two cards of the suit of "
                                                f"Rook's attack ({attack}); {c} is not")

        _, a = yield from ctx.ask(
            (ps.player,), "AB-1", check,
            lambda p: [Pass(), *(UseAbility(ROCK_ARMOR, cards=pair) for pair in pairs)])
        if not isinstance(a, UseAbility):
            return False
        for c in a.cards:
            ctx.move(ps, c, Zone.HAND, Zone.DISCARD)
        if (yield from ctx.offer_counter(ps, ROCK_ARMOR)):
            for c in a.cards:  # FR-ROOK-5: the two cards return to hand
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)
            return False
        return True

    # --- the greedy bot -----------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        armor = [a for a in legal if isinstance(a, UseAbility) and a.ability == ROCK_ARMOR]
        if not armor:
            return None
        return min(armor, key=lambda a: sum(int(c.rank or 0) for c in a.cards))
