"""BOT-PERSEPHONE (RULES.md §12.2) and TR-11 for her other abilities.

- Dominance (innate, BOT rule "recurs the highest rank(s) possible"): at each fetch she takes
  the highest-rank card of her discard pile (Aces highest), until nothing is left to fetch.
- The hit-back after dodging an attack or a Joker (TR-10 changed): the Mistress's Command Ace
  if she can play it, else a knockdown move (the most damaging one), else her most damaging
  move; then the generic procedure (pumps, TR-9).
- After hitting with Mistress's Command she makes the worst possible choices for the human
  next turn, up to the combat reveal (the game gives her their decisions, ``game.controller``;
  in Training they are derived, never logged): they pass every ability, counter and Do As
  Told's price, and commit their least damaging, then slowest, attack or throw that is
  neither a Joker nor an Ace (the reading docs/rules/characters/persephone.md gives the greedy
  bot); with no such card, their first legal choice (no-card included).
- TR-11 ("whenever possible, but only when they would have an effect"): Do As Told counters
  every ability it can (it negates it, or costs the human 10 life); Bare Your Soul whenever the
  human's deck holds a card (it turns cards face up); at each of the human's draws she names
  the face-up card worth least to them (a draw replaced is an effect; passing would only
  discard them); discarding down to 3 she discards the face-up cards worth most to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Combo, Pass, UseAbility
from rules_engine.characters.persephone import (
    BARE_YOUR_SOUL,
    DO_AS_TOLD,
    DOMINANCE,
    MISTRESS,
    card_worth,
    weakest_commit,
)
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.cards import Move
    from rules_engine.game.core import GameCore


class PersephoneBot(BotRules):
    """BOT-PERSEPHONE: Dominance recurs the highest ranks; a dodge's hit-back is Mistress's
    Command, else a knockdown move, else her most damaging move; controlling the human she
    makes their worst choices. TR-11 for Do As Told and Bare Your Soul."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        if decision.step == "C10" and game.combat.run.hit_back and ps.kind == cb.DODGE \
                and game.opponent(ps).kind in (cb.ATTACK, cb.JOKER):
            return self._hit_back(game, ps, legal)
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if not uses:
            return None
        first = uses[0]
        if first.ability == DOMINANCE:
            return max(uses, key=lambda a: (card_worth(a.cards[0]), a.cards[0].code))
        if first.ability == DO_AS_TOLD and first.option is None:
            return first  # TR-11: counter whatever it can
        if first.ability != BARE_YOUR_SOUL:
            return None
        human = game.opponent(ps)
        if first.card is not None:  # the draw-phase window
            return first if human.deck else Pass()
        if Pass() in legal:  # one of the human's draws: the face-up card worth least
            return min(uses, key=lambda a: (card_worth(a.cards[0]), a.cards[0].code))
        # discarding down to 3: the face-up cards worth most to the human go
        return max(uses, key=lambda a: (sum(card_worth(c) for c in a.cards),
                                        tuple(c.code for c in a.cards)))

    @staticmethod
    def _hit_back(game: GameCore, ps: PlayerState, legal: list[Action]) -> Action | None:
        """BOT-PERSEPHONE's hit-back: Mistress's Command, else a knockdown move, else the most
        damaging move; None once a move was played (the generic procedure pumps)."""
        if any(e.played_in_c10 for e in game.combo):
            return None
        moves = [a for a in legal if isinstance(a, Combo)]
        if not moves:
            return None

        def played(a: Combo) -> Move:
            return game.as_played(ps, game.resolve_move(ps, a.card, a.move, a.name, "C10"))
        command = [a for a in moves if played(a).name == MISTRESS]
        if command:
            return command[0]
        knockdowns = [a for a in moves if played(a).knockdown]
        pool = knockdowns or moves
        return max(pool, key=lambda a: (played(a).damage, -int(a.card.rank or 0)))

    def control(self, game: GameCore, ps: PlayerState, seat: PlayerState, decision: Decision,
                legal: list[Action]) -> Action | None:
        """Mistress's Command: the worst possible choices for the human."""
        if Pass() in legal:
            return Pass()
        return weakest_commit(seat, legal)
