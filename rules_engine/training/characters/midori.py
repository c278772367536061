"""BOT-MIDORI (RULES.md §12.2) and TR-11 for Midori's other abilities.

BOT-MIDORI: "In Dragon Form: use a Dragon-move or dodge end of the combat card if there is
one. Otherwise reveal cards from the deck until one shows a Dragon move or dodge and use it;
unused cards go to the bottom of the deck. Glimpse of the Dragon only if it makes him win
combat (even if he would win anyway)."

Engine readings (docs/rules/characters/midori.md, "Engine rulings"): in Dragon Form the card turned
over (TR-5) is the first one revealed: with a Dragon-move or dodge end that can be played it is used
on that end (no 50/50), else it goes to the bottom with the other unused cards; an end that
can't be played (Final Dragon Buster without its two Aces, TR-6) does not count. With no such
card in the whole deck the generic procedure turns over the top card. Glimpse: played when the
rotated card (its Dragon move) beats the human's revealed card by the C6 matrix at the speeds
in force, a Dragon attack beating a normal dodge (Aspect of the Dragon); a tie is not a win.

TR-11 for the rest: Dragon Form is played whenever he is not in Dragon Form (a second one adds
nothing: Dragon moves are already allowed); Aspect of the Dragon's return instead of the block
draw always has an effect, so it is taken, returning the highest-rank card (ties: the first
listed); Defense Mastery needs no decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, Commit, NoCard, Pass, UseAbility
from rules_engine.cards import Card, Move, MoveType
from rules_engine.characters.midori import (
    ASPECT,
    DRAGON_FORM,
    GLIMPSE,
    is_dragon_move,
    is_normal_dodge,
)
from rules_engine.modifiers import SPEED
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules
from rules_engine.training.characters.reveal import reveal_until

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


def glimpse_wins(game: GameCore, ps: PlayerState) -> bool:
    """Whether Midori's combat card, rotated to its Dragon move, wins combat against the
    human's revealed card (public information, OQ-26)."""
    c, now = ps.combat_card, ps.combat_move
    if c is None or now is None:
        return False
    dragon = next((m for m in ps.character.moves_of(c) if is_dragon_move(m)), None)
    if dragon is None:
        return False
    m = game.played_move(ps, c, dragon)
    human = game.opponent(ps)
    if m.type is MoveType.ATTACK and is_normal_dodge(human):
        return True  # Aspect of the Dragon: Dragon attacks can't be dodged by normal dodges
    speed = None if m.speed is None else max(game.modifiers.fold(SPEED, ps, m, m.speed), 0)
    mine = 0 if game.actives[0] is ps else 1
    kinds = [cb.KIND_OF_MOVE[m.type], human.kind]
    speeds = [speed, game.speed(human)]
    if mine == 1:
        kinds.reverse()
        speeds.reverse()
    return cb.resolve(kinds[0], speeds[0], kinds[1], speeds[1], game.ruleset).winner == mine


def _dragon_or_dodge(ps: PlayerState) -> Callable[[Card], list[Move]]:
    def ends(c: Card) -> list[Move]:
        return [m for m in ps.character.moves_of(c)
                if is_dragon_move(m) or m.type is MoveType.DODGE]
    return ends


class MidoriBot(BotRules):
    """BOT-MIDORI, and TR-11 for Dragon Form and Aspect of the Dragon."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        in_form = effects.is_active(ps, DRAGON_FORM)
        if decision.step == "C1" and in_form and any(isinstance(a, Commit | NoCard)
                                                     for a in legal):
            return reveal_until(game, ps, decision, _dragon_or_dodge(ps))
        uses = [a for a in legal if isinstance(a, UseAbility)]
        glimpse = [a for a in uses if a.ability == GLIMPSE]
        if glimpse:
            return glimpse[0] if glimpse_wins(game, ps) else Pass()
        form = [a for a in uses if a.ability == DRAGON_FORM]
        if form:
            return Pass() if in_form else form[0]
        aspect = [a for a in uses if a.ability == ASPECT]
        if aspect:
            return max(aspect, key=lambda a: (int(a.cards[0].rank or 0), -aspect.index(a)))
        return None
