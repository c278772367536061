"""Setsuki Hiruki (2014 deck): innate Speed of the Fox, Bag of Tricks (7), Smoke Bomb (10)
(docs/rules/characters/setsuki.md; FR-SETSUKI-1/2, FR-ROOK-5).

Glossary: *full combo after a dodge* = the hit-back after a winning dodge may be a whole combo
(CB-13) instead of CB-7's single Ender; *counter* (CTR rules) = Smoke Bomb negating an ability as
it is played, its costs undone (CTR-3).

Responsibility: Setsuki's ability hooks. Decisions of this module's making
(docs/rules/characters/setsuki.md, "Engine rulings"):
- Speed of the Fox counts her hand as the draw phase starts (T2, before any draw-phase card):
  with 1 or 0 cards she draws 5 instead of 1 (a ``DRAW_COUNT`` modifier: 4 more), and for the
  rest of that turn a dodge of hers that wins against an attack or a Joker gets a full-combo
  hit-back (``ctx.grant_full_combo``). No draw phase (turn 1; after Acrobatics): no Speed of
  the Fox. An innate: never countered.
- Bag of Tricks is played in the End of Turn window (K1) when the 7 is the only card in her
  hand. The 7 goes to the discard pile as it is played (AB-2), so the counter can act on it, and
  it is never one of the cards put back ("then discard this card"). She then names the cards one
  at a time, each put on top of her deck, up to three, or stops: the last one named is the top
  card. Jokers can't be chosen. Counterable (countered: nothing is put back).
- Smoke Bomb counters what the counter policy allows (CTR-8, ``rules_engine.counters``): never
  Aces; innates only under ``opt.innateCounters=FIRST_EDITION_FAQ`` (Rock Armor, FR-ROOK-5),
  and never Valerie's or Midori's (FR-SETSUKI-1). Cost: the 10 and two other cards from hand;
  a countered Smoke Bomb gives the two cards back, the 10 stays discarded (CTR-3,
  FR-SETSUKI-2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Character, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.modifiers import DRAW_COUNT, Modifier
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

SPEED_OF_THE_FOX = "Speed of the Fox"
BAG_OF_TRICKS = "Bag of Tricks"
SMOKE_BOMB = "Smoke Bomb"
FOX_HAND = 1  # "with 1 or 0 cards in hand"
FOX_EXTRA = 4  # draw 5 instead of 1
BAG_MAX = 3
TOP = "top"


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _value(c: Card) -> int:
    return 100 if c.rank is None else int(c.rank)


class SetsukiRules(CharacterRules):
    """Setsuki with every ability implemented.

    Greedy bot heuristic (:meth:`bot_choice`): Bag of Tricks whenever it is playable, putting
    back the three most valuable cards of the discard pile (Aces first; with her hand empty,
    Speed of the Fox draws all of them next turn, so their order does not matter); Smoke Bomb
    against every ability when she holds at least 5 cards, paying with the two least valuable
    other cards. Speed of the Fox needs no decision.
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        SPEED_OF_THE_FOX: "Draw phase (T2): with 1 or 0 cards in hand as it starts, Setsuki draws "
                          "5 cards instead of 1, and for the rest of that turn a dodge of hers "
                          "that beats an attack or a Joker hits back with a full combo (follow "
                          "rules and the 6-point limit apply). Innate: can't be countered.",
        BAG_OF_TRICKS: "End of Turn window (K1), when the 7 is the only card in her hand: the 7 "
                       "is discarded, then she puts up to three non-Joker cards of her discard "
                       "pile on top of her deck one at a time (the last one named is on top; "
                       "never the 7 itself). Counterable.",
        SMOKE_BOMB: "Reaction, right after the opponent pays for an ability: discard the 10 and "
                    "two other cards to counter it (undone; a card played from hand is "
                    "discarded). Never Aces; innates only under the first-edition reading "
                    "(not Valerie's or Midori's). Countered in "
                    "turn, the two cards come back.",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.fox = False  # Speed of the Fox is in force this turn
        self.fox_modifier = False

    def position_key(self) -> str:
        """Speed of the Fox in force this turn."""
        return "fox" if self.fox else ""

    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        """Speed of the Fox: 5 cards instead of 1 in the draw phase with 1 or 0 in hand."""
        def fox(ps: PlayerState, step: str, n: int) -> int:
            if step == "T2" and len(ps.hand) <= FOX_HAND:
                self.fox = True
                return n + FOX_EXTRA
            return n

        return [Modifier(DRAW_COUNT, seat, fox, SPEED_OF_THE_FOX)]

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.fox = False

    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        """C6: Speed of the Fox's turn, a winning dodge against an attack or a Joker."""
        if self.fox and winner is ps and ps.kind == cb.DODGE \
                and ctx.opponent(ps).kind in (cb.ATTACK, cb.JOKER):
            ctx.grant_full_combo(ps)
        return
        yield  # pragma: no cover

    # --- Bag of Tricks (7, End of Turn) ----------------------------------------------------
    @staticmethod
    def _bag_playable(ps: PlayerState) -> bool:
        return len(ps.hand) == 1 and ps.hand[0].rank is Rank.SEVEN

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return window == "end_of_turn" and self._bag_playable(ps)

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window == "end_of_turn" and self._bag_playable(ps):
            return [UseAbility(BAG_OF_TRICKS, ps.hand[0])]
        return []

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if action in self.window_options(ctx, ps, window):
            return
        if not isinstance(action, UseAbility) or action.ability != BAG_OF_TRICKS:
            raise self.not_here(ctx, ps, window, action)
        if window != "end_of_turn":
            raise RuleViolation("WIN-ENDTURN", "Bag of Tricks is played in the End of Turn "
                                               "window (K1)")
        if action.card is None or action.card.rank is not Rank.SEVEN \
                or action.card not in ps.hand:
            raise RuleViolation("AB-2", "Bag of Tricks is played with one of Setsuki's 7s from "
                                        "hand")
        if len(ps.hand) != 1:
            raise RuleViolation("AB-2", "Bag of Tricks: the 7 must be the only card in her hand")
        raise RuleViolation("AB-2", "Bag of Tricks takes no other choice when played (the cards "
                                    "are named as it resolves)")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        seven = action.card
        ctx.move(ps, seven, Zone.HAND, Zone.DISCARD)  # AB-2: played, then discarded
        if (yield from ctx.offer_counter(ps, BAG_OF_TRICKS, seven)):
            return
        put: list[Card] = []

        def choices() -> list[Card]:
            return [c for c in _distinct(ps.discard)
                    if not c.is_joker and c != seven and c not in put]

        for _ in range(BAG_MAX):
            options = choices()
            if not options:
                return

            def check(player: PlayerId, a: Action, options: list[Card] = options) -> None:
                if isinstance(a, Pass):
                    return
                if not isinstance(a, UseAbility) or a.ability != BAG_OF_TRICKS \
                        or a.option != TOP or len(a.cards) != 1 or a.card is not None:
                    raise RuleViolation("AB-2", "Bag of Tricks: put one card of the discard "
                                                "pile on top of the deck (option 'top'), or "
                                                "stop (pass)")
                c = a.cards[0]
                if c.is_joker:
                    raise RuleViolation("AB-2", "Bag of Tricks: Jokers can't be put back")
                if c not in options:
                    raise RuleViolation("AB-2", f"Bag of Tricks: {c} is not in the discard pile "
                                                "(the 7 itself is not put back)")

            listed: list[Action] = [Pass(), *(UseAbility(BAG_OF_TRICKS, cards=(c,), option=TOP)
                                              for c in options)]

            def listing(p: PlayerId, listed: list[Action] = listed) -> list[Action]:
                return list(listed)

            _, a = yield from ctx.ask((ps.player,), "AB-2", check, listing)
            if not isinstance(a, UseAbility):
                return
            c = a.cards[0]
            put.append(c)
            ctx.move(ps, c, Zone.DISCARD, Zone.DECK)

    # --- Smoke Bomb (10, Reaction) ---------------------------------------------------------
    def can_counter(self, ctx: AbilityContext, ps: PlayerState, ability: str) -> bool:
        """CTR-1: a 10 and two other cards in hand."""
        return len(ps.hand) >= 3 and ps.holds(Rank.TEN)

    def counter_options(self, ctx: AbilityContext, ps: PlayerState, ability: str) -> list[Action]:
        out: list[Action] = []
        for ten in _distinct(ps.hand):
            if ten.rank is not Rank.TEN:
                continue
            rest = list(ps.hand)
            rest.remove(ten)
            pairs: list[tuple[Card, ...]] = list(dict.fromkeys(
                tuple(sorted(p, key=lambda c: c.code)) for p in combinations(rest, 2)))
            out += [UseAbility(SMOKE_BOMB, ten, pair) for pair in pairs]
        return out

    def check_counter(self, ctx: AbilityContext, ps: PlayerState, ability: str,
                      action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, UseAbility) or action.ability != SMOKE_BOMB:
            raise RuleViolation("CTR-2", "only a counter (Smoke Bomb) or a pass may answer an "
                                         "ability being played")
        if action.card is None or action.card.rank is not Rank.TEN or action.card not in ps.hand:
            raise RuleViolation("CTR-1", "Smoke Bomb is played with a 10 from hand")
        if len(action.cards) != 2 or action.option:
            raise RuleViolation("CTR-1", "Smoke Bomb costs exactly two other cards from hand")
        rest = list(ps.hand)
        rest.remove(action.card)
        for c in action.cards:
            if c not in rest:
                raise RuleViolation("CTR-1", f"Smoke Bomb: {c} is not another card in "
                                             f"{ps.player.name}'s hand")
            rest.remove(c)

    def pay_counter(self, ctx: AbilityContext, ps: PlayerState,
                    action: Action) -> Callable[[], None]:
        assert isinstance(action, UseAbility) and action.card is not None
        paid = action.cards
        for c in (action.card, *paid):
            ctx.move(ps, c, Zone.HAND, Zone.DISCARD)

        def refund() -> None:
            # CTR-3 / FR-SETSUKI-2: the two cards come back; the 10 itself stays discarded.
            for c in paid:
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)

        return refund

    def counter_name(self, action: Action) -> str:
        return SMOKE_BOMB

    # --- bots ---------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if not uses:
            return None
        bombs = [a for a in uses if a.ability == SMOKE_BOMB]
        if bombs:
            if len(ps.hand) < 5:
                return Pass()
            return min(bombs, key=lambda a: sum(_value(c) for c in a.cards))
        tops = [a for a in uses if a.ability == BAG_OF_TRICKS and a.option == TOP]
        if tops:
            return max(tops, key=lambda a: _value(a.cards[0]))
        bags = [a for a in uses if a.ability == BAG_OF_TRICKS]
        if bags:
            return bags[0]
        return None
