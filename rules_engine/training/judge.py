"""What the BOT rules (RULES.md §12.2) judge from the position: "would win combat", the card a
cost takes.

Glossary: the *judge* answers the questions the BOT table asks ("only if it wins combat",
"only to turn a lost combat into a win") from public information, with the human's locked-in
card revealed (§12.2's closing note). It resolves C6 as the game will: the voids of C5 (KD-4,
KD-5, M-VOID), the matrix (:func:`rules_engine.combat.resolve`, speeds after the ``SPEED``
modifiers, AR-SPD-1) and the characters' ``combat_override`` in initiative order, the same
steps :meth:`rules_engine.game.combat.CombatSteps._combat` takes. A *supposition* (another end
of the bot's combat card, a faster speed) is judged by trying it on the bot's seat and putting
the seat back: nothing is left changed, nothing is drawn from the seeded stream.

Not judged: ``contest`` decisions (card text the opponent may still choose after C6) and
abilities still to be played in the Combat Reveal window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.cards import Card, Move
from rules_engine.modifiers import COMBAT_DAMAGE
from rules_engine.state import PlayerState

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


def _kind_after_voids(game: GameCore, ps: PlayerState, opp: PlayerState) -> str:
    """C5's voids (KD-4, KD-5): a knocked-down player's dodge, a mixed-up block, play as
    no-card."""
    if not ps.knocked_down or ps.combat_card is None:
        return ps.kind
    if cb.knockdown_voids(ps.kind, ps.combat_card.rank, opp.kind, opp.combat_move,
                          game.ruleset):
        return cb.NONE
    return ps.kind


def combat_result(game: GameCore, ps: PlayerState, *, card: Card | None = None,
                  move: Move | None = None,
                  faster: Callable[[int], int] | None = None) -> cb.CombatResult:
    """C6 as the game would resolve it now, supposing ``ps`` played ``move`` (on ``card``)
    and its speed went through ``faster`` after the modifiers in force."""
    saved = (ps.combat_card, ps.combat_move, ps.kind)
    voided: list[tuple[PlayerState, str]] = []
    try:
        if move is not None:
            ps.combat_card = card if card is not None else ps.combat_card
            ps.combat_move, ps.kind = move, cb.KIND_OF_MOVE[move.type]
        a, b = game.actives
        kinds = (_kind_after_voids(game, a, b), _kind_after_voids(game, b, a))
        for seat, kind in zip((a, b), kinds, strict=True):
            if kind != seat.kind:
                voided.append((seat, seat.kind))
                seat.kind = kind
        speeds = []
        for seat in (a, b):
            speed = game.speed(seat) if seat.kind != cb.NONE else None
            if seat is ps and faster is not None and speed is not None:
                speed = faster(speed)
            speeds.append(speed)
        result = cb.resolve(a.kind, speeds[0], b.kind, speeds[1], game.ruleset)
        for seat in game.order():
            if seat is a or seat is b:
                result = game.rules[seat.player].combat_override(game, seat, a, b,
                                                                 result) or result
        return result
    finally:
        for seat, kind in voided:
            seat.kind = kind
        ps.combat_card, ps.combat_move, ps.kind = saved


def wins_combat(game: GameCore, ps: PlayerState, *, card: Card | None = None,
                move: Move | None = None, faster: Callable[[int], int] | None = None) -> bool:
    """Whether ``ps`` wins C6 (a speed tie, where both hit, is no win), under the same
    supposition as :func:`combat_result`."""
    mine = 0 if game.actives[0] is ps else 1
    return combat_result(game, ps, card=card, move=move, faster=faster).winner == mine


def how_well(game: GameCore, ps: PlayerState, move: Move,
             card: Card | None = None) -> tuple[bool, bool, int]:
    """How well ``move`` (on ``card``, else the combat card) suits ``ps`` as its combat action,
    best first when compared: it wins combat, it does not lose it, its damage (after the
    ``COMBAT_DAMAGE`` modifiers in force). The reading of "the end that suits her better"
    (BOT-JAINA) and "the better one" (BOT-QUINCE)."""
    result = combat_result(game, ps, card=card, move=move)
    mine = 0 if game.actives[0] is ps else 1
    damage = game.modifiers.fold(COMBAT_DAMAGE, ps, move, move.damage)
    return result.winner == mine, result.winner in (None, mine), damage


def cheapest(ps: PlayerState, cards: list[Card]) -> Card:
    """The card a cost takes: the lowest rank, Aces and Jokers last, ties by hand order."""
    def key(c: Card) -> tuple[int, int]:
        rank = 99 if c.is_joker else 98 if c.is_ace else int(c.rank or 0)
        return rank, ps.hand.index(c)
    return min(cards, key=key)
