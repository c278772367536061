"""Grave Stormborne (2014 deck): innate Knowing the Opponent, Martial Mastery, Mental Toughness,
Lightning Trap (docs/rules/characters/grave.md; the 2014 card text wins over the first-edition FAQ).

Glossary: *reveal* (Knowing the Opponent) = show a card from hand after blocking an attack; the
game remembers it for the next turn. *Counter* (CTR rules) = Mental Toughness negating an ability
as it is played, with its costs undone.

Responsibility: Grave's ability hooks; the game calls them at the steps named in each docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from itertools import product
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Discard, Pass, Search, UseAbility
from rules_engine.cards import Card, Character, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import Blocked
from rules_engine.ruleset import JokerMirror
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import Decision, PlayerState, Step
    from rules_engine.types import PlayerId

INNATE = "Knowing the Opponent"
MARTIAL_MASTERY = "Martial Mastery"
MENTAL_TOUGHNESS = "Mental Toughness"
LIGHTNING_TRAP = "Lightning Trap"


def _distinct(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


class GraveRules(CharacterRules):
    """Grave with every ability implemented."""

    abilities_implemented = True

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.revealed: Card | None = None  # Knowing the Opponent: the card shown
        self.revealed_turn = 0

    def position_key(self) -> str:
        """Knowing the Opponent: the card shown and the turn it was shown (it pays off next
        turn), so two games that showed different cards are different positions."""
        return "" if self.revealed is None else f"reveal:{self.revealed.code}@{self.revealed_turn}"

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        # The revealed card matters only on the turn after the block.
        if self.revealed is not None and self.revealed_turn < ctx.turn - 1:
            self.revealed = None

    # --- Martial Mastery (7, Draw Phase) ------------------------------------------------
    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return window == "draw_phase" and ps.holds(Rank.SEVEN)

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "draw_phase":
            return []
        return [UseAbility(MARTIAL_MASTERY, c) for c in _distinct(ps.hand)
                if c.rank is Rank.SEVEN]

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility) or action.ability != MARTIAL_MASTERY:
            raise self.not_here(ctx, ps, window, action)
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", "Martial Mastery is played after the draw phase")
        if action.card is None or action.card.rank is not Rank.SEVEN:
            raise RuleViolation("AB-2", "Martial Mastery is played with one of Grave's 7s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option:
            raise RuleViolation("AB-2", "Martial Mastery takes no other choice when played")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        """Draw two cards, then discard a card (any card in hand, FR-GRAVE-1), then the
        opponent reveals their hand (public information from then on; no other effect)."""
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: played, then discarded
        countered = yield from ctx.offer_counter(ps, MARTIAL_MASTERY, action.card)
        if countered:
            return  # CTR-3: no cost besides the card, which stays discarded
        yield from ctx.draw(ps, ctx.step, 2)
        if not ps.hand:
            return
        if len(set(ps.hand)) == 1:
            chosen = ps.hand[0]
        else:
            def check(player: PlayerId, a: Action) -> None:
                if not isinstance(a, Discard) or len(a.cards) != 1:
                    raise RuleViolation("FR-GRAVE-1", "Martial Mastery: discard exactly one card")
                if a.cards[0] not in ps.hand:
                    raise RuleViolation("FR-GRAVE-1", f"{a.cards[0]} is not in the hand")

            _, a = yield from ctx.ask(
                (ps.player,), "FR-GRAVE-1", check,
                lambda p: [Discard((c,)) for c in _distinct(ps.hand)])
            assert isinstance(a, Discard)
            chosen = a.cards[0]
        ctx.move(ps, chosen, Zone.HAND, Zone.DISCARD)

    # --- Mental Toughness (10, Reaction) ------------------------------------------------
    def can_counter(self, ctx: AbilityContext, ps: PlayerState, ability: str) -> bool:
        """CTR-1: a 10 and a face card in hand (Aces, Jokers and innates are never offered)."""
        return ps.holds(Rank.TEN) and any(
            c.rank is not None and c.rank.is_face for c in ps.hand)

    def counter_options(self, ctx: AbilityContext, ps: PlayerState, ability: str) -> list[Action]:
        tens = [c for c in _distinct(ps.hand) if c.rank is Rank.TEN]
        faces = [c for c in _distinct(ps.hand) if c.rank is not None and c.rank.is_face]
        return [UseAbility(MENTAL_TOUGHNESS, t, (f,)) for t, f in product(tens, faces)]

    def check_counter(self, ctx: AbilityContext,
                      ps: PlayerState, ability: str, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, UseAbility) or action.ability != MENTAL_TOUGHNESS:
            raise RuleViolation("CTR-2", "only a counter (Mental Toughness) or a pass may "
                                         "answer an ability being played")
        if action.card is None or action.card.rank is not Rank.TEN or action.card not in ps.hand:
            raise RuleViolation("CTR-1", "Mental Toughness is played with a 10 from hand")
        if len(action.cards) != 1:
            raise RuleViolation("CTR-1", "Mental Toughness costs exactly one face card")
        face = action.cards[0]
        if face.rank is None or not face.rank.is_face or face not in ps.hand:
            raise RuleViolation("CTR-1", f"{face} is not a face card in hand")

    def pay_counter(self, ctx: AbilityContext,
                    ps: PlayerState, action: Action) -> Callable[[], None]:
        assert isinstance(action, UseAbility) and action.card is not None
        face = action.cards[0]
        for c in (action.card, face):
            ctx.move(ps, c, Zone.HAND, Zone.DISCARD)

        def refund() -> None:
            # CTR-3: the paid face card comes back; the counter card itself stays discarded.
            ctx.move(ps, face, Zone.DISCARD, Zone.HAND)

        return refund

    def counter_name(self, action: Action) -> str:
        return MENTAL_TOUGHNESS

    # --- Lightning Trap (J, During Combat) ----------------------------------------------
    def block_draw_prevented(self, ctx: AbilityContext, attacker: PlayerState,
                             blocker: PlayerState) -> Generator[Decision, tuple[PlayerId, Action],
                                                                bool]:
        """When Lightning Cloud deals block damage, the J returns to hand (at C13c) and the
        blocker does not draw for blocking (C8b comes before the damage, so it is decided
        here from the block damage the blocker will take, after card text: a block that takes
        none, Gloria's Remedy or Stone Wall, is dealt none). The trigger can be countered as it
        happens (CTR-4)."""
        m = attacker.combat_move
        if attacker.kind != cb.ATTACK or m is None or m.name != "Lightning Cloud":
            return False
        if ctx.block_damage(blocker, attacker) <= 0:
            return False
        countered = yield from ctx.offer_counter(attacker, LIGHTNING_TRAP)
        if countered:
            return False
        attacker.keep_combat_card = True
        return True

    # --- Knowing the Opponent (innate) --------------------------------------------------
    reacts_to = frozenset({Blocked})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """When Grave's block beats an attack (after the block draw), he may reveal a card
        from hand (not the block card, which is in the combat area, FR-GRAVE-2). Offered to
        counters as it is revealed (the counter policy decides, CTR-8)."""
        if not isinstance(event, Blocked) or event.blocker is not ps.player or not ps.hand \
                or not event.innates:  # Time Stop: no innate from this block
            return

        def check(player: PlayerId, a: Action) -> None:
            if isinstance(a, Pass):
                return
            if not isinstance(a, UseAbility) or a.ability != INNATE or a.card is None:
                raise RuleViolation("AB-1", "Knowing the Opponent: reveal a card from hand "
                                            "or pass")
            if a.card not in ps.hand:
                raise RuleViolation("FR-GRAVE-2", f"{a.card} is not in {ps.player.name}'s hand "
                                                  "(the block card cannot be revealed)")

        _, a = yield from ctx.ask(
            (ps.player,), "AB-1", check,
            lambda p: [Pass(), *(UseAbility(INNATE, c) for c in _distinct(ps.hand))])
        if not isinstance(a, UseAbility):
            return
        # CTR-8 / FR-GRAVE-3: counterable only as the card is revealed, and only under
        # opt.innateCounters=FIRST_EDITION_FAQ (the 2014 counters exclude character cards)
        if (yield from ctx.offer_counter(ps, INNATE)):
            return  # never revealed: nothing pays off next turn
        self.revealed, self.revealed_turn = a.card, ctx.turn

    def after_winner(self, ctx: AbilityContext,
                     ps: PlayerState, winner: PlayerState | None) -> Step:
        """Next turn, once the winner is known: if Grave combat-revealed the card and won with
        it, he searches his deck or discard pile for a Queen (shuffling a searched deck);
        otherwise he draws a card (grave.md, 2014 text; supersedes FR-GRAVE-2's C3 timing)."""
        card = self.revealed
        if card is None or self.revealed_turn != ctx.turn - 1 or ps.revealed_card is not card:
            return
        self.revealed = None
        opp = ctx.opponent(ps)
        won = winner is ps or (
            winner is None and ps.kind == cb.JOKER and opp.kind == cb.JOKER
            and ctx.ruleset.jokerMirror is JokerMirror.BOTH_WIN)
        if not won:
            yield from ctx.draw(ps, ctx.step)
            return
        queens_d = [c for c in _distinct(ps.discard) if c.rank is Rank.QUEEN]
        queens_k = [c for c in _distinct(ps.deck) if c.rank is Rank.QUEEN]
        if not queens_d and not queens_k:
            return
        options: list[Action] = [Search((q,), ()) for q in queens_d]
        options += [Search((), (q,)) for q in queens_k]

        def check(player: PlayerId, a: Action) -> None:
            if not isinstance(a, Search) or len(a.from_discard) + len(a.from_deck) != 1:
                raise RuleViolation("AB-1", "Knowing the Opponent: take exactly one Queen")
            if a not in options:
                raise RuleViolation("AB-1", "that Queen is not in the named zone")

        if len(options) == 1:  # one Queen in reach: no choice, no event
            a: Action = options[0]
        else:
            _, a = yield from ctx.ask((ps.player,), "AB-1", check, lambda p: list(options))
        assert isinstance(a, Search)
        for q in a.from_discard:
            ctx.move(ps, q, Zone.DISCARD, Zone.HAND)
        for q in a.from_deck:
            ctx.move(ps, q, Zone.DECK, Zone.HAND)
            ctx.shuffle_deck(ps)
