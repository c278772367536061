"""BOT-LUM (RULES.md §12.2) and TR-11 for Lum's other abilities.

BOT-LUM: "Pumps a throw once at most, unless more pumps would win the game. Blackjack: keeps
revealing until the total is ≥ 12, then must stop. Poker Flourish becomes: at the end of the
turn, discard this card, an Ace and the lowest-rank card in hand to get the Blackjack effect.
Played only when the bot holds those cards." Poker Flourish's new effect is played by
:class:`LumBotAbilities` (installed by the Training mode on the bot's seat only).

Engine readings (docs/rules/characters/lum.md, "Engine rulings"):
- "once" is one pump card (+3, +4 for Extra Juice); "would win the game": the combo's damage
  still to come at C12 with every pump card the throw can still take (TR-9's cards) is at least
  the human's life; then the throw is pumped as TR-8 says (as many as it may).
- Blackjack's total is the one it would deal (an Ace 11 when that stays ≤ 21).
- Poker Flourish (End of Turn, K1): the 10, the first Ace in hand and the lowest-rank other card
  (ties: hand order; a second Ace or 10 when nothing lower is left) are discarded as it is
  played; it can still be countered (the Ace and the other card come back, the 10 stays
  discarded, CTR-3); then the Blackjack effect (the deal, as Four of a Kind's). No poker hand
  is made.

TR-11 for the rest: Roll the Dice whenever it may be rolled; 2-3: the 4 life when he is below
his starting life (it would have no effect at full life), else the bottom card; 4-10: his face
cards back when he played any this combat, else the knockdown. Jackpot whenever he holds a 7
and has a card to draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, Pass, Pump, Stop, UseAbility
from rules_engine.cards import Card, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.characters.lum import (
    BLACKJACK,
    DEAL,
    JACKPOT,
    POKER,
    ROLL,
    ROLL_BOTTOM,
    ROLL_KNOCKDOWN,
    ROLL_LIFE,
    ROLL_RETURN,
    STOP,
    LumRules,
    blackjack_totals,
)
from rules_engine.errors import RuleViolation
from rules_engine.state import Decision, PlayerState, Zone
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.game.core import GameCore
    from rules_engine.state import Step

#: Blackjack: "keeps revealing until the total is ≥ 12, then must stop"
BLACKJACK_STOP = 12


def _rank(c: Card) -> int:
    return 0 if c.rank is None else int(c.rank)


def poker_cost(ps: PlayerState) -> tuple[Card, Card, Card] | None:
    """Poker Flourish as the bot plays it: (the 10, an Ace, the lowest-rank other card of the
    hand), or None when the bot does not hold them."""
    ten = next((c for c in ps.hand if c.rank is Rank.TEN), None)
    ace = next((c for c in ps.hand if c.rank is Rank.ACE and not c.is_joker), None)
    if ten is None or ace is None:
        return None
    rest = [c for c in ps.hand if c is not ten and c is not ace]
    if not rest:
        return None
    return ten, ace, min(rest, key=lambda c: (_rank(c), ps.hand.index(c)))


class LumBotAbilities(LumRules):
    """Lum's abilities as BOT-LUM makes them for the bot (Training only): Poker Flourish is
    the one changed; Roll the Dice and Jackpot are as printed."""

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "end_of_turn":
            return super().window_options(ctx, ps, window)
        cost = poker_cost(ps)
        return [] if cost is None else [UseAbility(POKER, cost[0], cost[1:])]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        if window != "end_of_turn":
            return super().can_act(ctx, ps, window)
        return poker_cost(ps) is not None

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if isinstance(action, UseAbility) and action.ability == POKER:
            if action not in self.window_options(ctx, ps, window):
                raise RuleViolation("BOT-LUM", "Poker Flourish (the bot's): at the end of the "
                                               "turn, the 10, an Ace and the lowest-rank card "
                                               "in hand")
            return
        super().check(ctx, ps, window, action)

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        """Poker Flourish becomes: discard this card, an Ace and the lowest-rank card in hand
        to get the Blackjack effect."""
        assert isinstance(action, UseAbility)
        if action.ability != POKER:
            yield from super().play(ctx, ps, window, action)
            return
        assert action.card is not None
        paid = action.cards
        for c in (action.card, *paid):
            ctx.move(ps, c, Zone.HAND, Zone.DISCARD)
        if (yield from ctx.offer_counter(ps, POKER, action.card)):
            for c in paid:  # CTR-3: the costs come back, the 10 stays discarded
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)
            return
        yield from self._deal(ctx, ps)


class LumBot(BotRules):
    """BOT-LUM, and TR-11 for Roll the Dice and Jackpot."""

    def seat_rules(self, rules: CharacterRules) -> CharacterRules:
        return LumBotAbilities(rules.character)

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        rules = game.rules[ps.player]
        assert isinstance(rules, LumRules)
        if any(isinstance(a, Pump) for a in legal):
            return self._pump(game, ps, legal)
        uses = [a for a in legal if isinstance(a, UseAbility)]
        names = {a.ability for a in uses}
        if BLACKJACK in names:
            total = blackjack_totals(rules.dealt)[1]
            return UseAbility(BLACKJACK, option=DEAL if total < BLACKJACK_STOP else STOP)
        if ROLL in names:
            options = {a.option for a in uses}
            if ROLL_LIFE in options:
                hurt = ps.life < ps.character.life
                return UseAbility(ROLL, option=ROLL_LIFE if hurt else ROLL_BOTTOM)
            if ROLL_RETURN in options:
                faces = rules._played_face(game, ps)
                return UseAbility(ROLL, option=ROLL_RETURN if faces else ROLL_KNOCKDOWN)
            return UseAbility(ROLL)
        jackpot = [a for a in uses if a.ability == JACKPOT]
        if jackpot:
            return jackpot[0] if ps.deck else Pass()
        poker = [a for a in uses if a.ability == POKER]
        return poker[0] if poker else None

    @staticmethod
    def _pump(game: GameCore, ps: PlayerState, legal: list[Action]) -> Action | None:
        """A throw is pumped once at most, unless more pumps would win the game."""
        from rules_engine.training.bot import _combo  # bot.py imports this package

        choice = _combo(game, ps, legal)
        if not isinstance(choice, Pump):
            return choice
        entry = game.combo[choice.target]
        pump = entry.move.pump
        if entry.move.type is not MoveType.THROW or pump is None:
            return choice
        room = pump.max_cards - len(entry.pumps)
        more = min(room, sum(1 for c in ps.hand if pump.kind.accepts(c)))
        still = sum(e.damage_at_c12() for e in game.combo)
        if game.opponent(ps).life <= still + more * pump.damage:
            return choice  # more pumps win the game: as many as TR-8 plays
        if entry.pumps:  # pumped once already
            return Stop() if Stop() in legal else choice
        once = Pump(choice.target, choice.cards[:1])
        return once if once in legal else (Stop() if Stop() in legal else choice)
