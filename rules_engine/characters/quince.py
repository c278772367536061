"""Sirus Quince (2014 deck): innate Positive Spin, Two Truths (2), Flagstone Tax (10), Patriot
Mirror (A) (docs/rules/characters/quince.md; Quince has no first-edition deck and no FAQ).

Glossary: *face card* = J, Q, K (GL-FACE); *combat-reveals* = the combat action shown at C2;
*rotate* = turn the combat card 180 degrees so its other end is the combat action; *piles* (Two
Truths) = two face-up piles Quince makes of the chosen and revealed cards, the opponent picking
the one that goes to his hand.

Responsibility: Quince's ability hooks. Decisions of this module's making
(docs/rules/characters/quince.md, "Engine rulings"):
- Positive Spin is asked at the end of the turn (K1, after the end-of-turn window, before the
  hand limit) when Quince dealt damage of any kind (combat, combo, block or ability damage) to
  the opponent this turn. The revealed card is public (``public_view``'s ``shown``) until it
  leaves his hand or the next turn ends. Next turn, if it is his combat-revealed card, he may at
  Combat Reveal (C4) draw a card to rotate it, once; with an empty deck the draw can't be made
  and the rotation is not offered. An innate: offered to counters as the card is revealed,
  where the counter policy (CTR-8) lets none counter it unless ``opt.innateCounters`` is the
  first-edition reading; the rotation next turn is not an activation (CTR-4).
- Patriot Mirror: when the Ace's Patriot Mirror dealt damage or block damage this turn, the
  end-of-turn decision also offers Patriot Mirror instead of Positive Spin. Next combat, after
  both players committed, Quince commits a second face-down card (any legal C1 commit; no-card
  declines); he must have committed a card first. Once both are revealed (C2, before voids and
  Ace costs) he names the card he uses; the other is discarded. The used card is his
  combat-revealed card. An Ace ability: never countered.
- Two Truths reveals the top 2 cards of the deck by drawing them (recorded ``draw`` events in a
  tabletop log; they count as drawn in the facts); revealed cards wait in his hand, discard
  cards in the discard pile, until the opponent picks. A pile may be empty. Pile one is the
  pile holding the first card (the chosen discard cards in the order named, then the revealed
  cards): the opponent's pick makes the labels irrelevant. With one card in all there is no
  division decision (it forms pile one). Counterable when played (the 2 stays discarded).
- Flagstone Tax pays off at lock-in (C5), reading the action the opponent combat-revealed at C2;
  each resolved copy draws 2 on its own. Counterable.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise, product
from math import prod
from typing import TYPE_CHECKING, ClassVar, overload

from rules_engine import combat as cb
from rules_engine.actions import Action, Commit, Pass, UseAbility
from rules_engine.cards import Card, Character, Move, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import DamageDealt
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

POSITIVE_SPIN = "Positive Spin"
TWO_TRUTHS = "Two Truths"
FLAGSTONE_TAX = "Flagstone Tax"
PATRIOT_MIRROR = "Patriot Mirror"
TAX_OPTIONS = (cb.ATTACK, cb.BLOCK, cb.THROW, cb.DODGE)
TAX_DRAW = 2
TRUTHS_MAX = 3  # cards chosen from the discard pile
TRUTHS_REVEAL = 2  # cards revealed from the deck
ROTATE = "rotate"
CHOOSE = "choose"
PILES = "piles"
TO_HAND = "to_hand"
SECOND_CARD = "second_card"


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _truth_rank(c: Card) -> bool:
    """Two Truths: cards of rank 3 through King."""
    return c.rank is not None and Rank.THREE <= c.rank <= Rank.KING


def _value(c: Card) -> int:
    return 100 if c.rank is None else int(c.rank)


class TruthChoices(Sequence[Action]):
    """Two Truths' choices: every choice of up to 3 discard cards of different ranks from 3
    through King (``UseAbility(TWO_TRUTHS, cards, option=CHOOSE)``, the cards in rank order),
    listed by how many cards (0 to 3), then by ranks (combinations of the ranks in order), then
    by cards (each rank's cards in discard-pile order, the last rank's varying fastest).

    Made on demand instead of as a list: a late-game discard pile holds 10 ranks of 4 cards, so
    8,441 choices (7,680 of three cards), and a list of them took most of a Quince game's time
    when a bot was asked (issue 17). Its length, an item, membership and the greedy bot's pick
    (:meth:`best`) are worked out from the ranks; iterating it still makes every choice, in the
    same order as a list would hold them."""

    __slots__ = ("_blocks", "_by_rank", "_len")

    def __init__(self, by_rank: list[tuple[Card, ...]]) -> None:
        self._by_rank = by_rank  # each rank's cards (ranks ascending), in discard-pile order
        # (the ranks' indices, how many choices they give), in list order
        self._blocks = [(rs, prod(len(by_rank[r]) for r in rs))
                        for k in range(min(TRUTHS_MAX, len(by_rank)) + 1)
                        for rs in combinations(range(len(by_rank)), k)]
        self._len = sum(n for _, n in self._blocks)

    def __len__(self) -> int:
        return self._len

    @staticmethod
    def _choice(cards: tuple[Card, ...]) -> UseAbility:
        return UseAbility(TWO_TRUTHS, cards=cards, option=CHOOSE)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("Two Truths choice index out of range")
        for rs, n in self._blocks:
            if index >= n:
                index -= n
                continue
            picked: list[Card] = []
            for r in reversed(rs):  # the last rank varies fastest (itertools.product)
                cards = self._by_rank[r]
                index, i = divmod(index, len(cards))
                picked.append(cards[i])
            return self._choice(tuple(reversed(picked)))
        raise AssertionError("unreachable: the index is within the blocks")

    def __iter__(self) -> Iterator[Action]:
        for rs, _ in self._blocks:
            for cards in product(*(self._by_rank[r] for r in rs)):
                yield self._choice(cards)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, UseAbility):
            return False
        rank_of = {c: r for r, cards in enumerate(self._by_rank) for c in cards}
        ranks = [rank_of[c] for c in action.cards if c in rank_of]
        # listed: its cards, each of a listed rank, ranks in order, and nothing else set
        return (len(ranks) == len(action.cards) <= TRUTHS_MAX
                and all(a < b for a, b in pairwise(ranks))
                and action == self._choice(action.cards))

    def best(self) -> Action:
        """The greedy bot's pick (BOT-QUINCE): the first choice in list order with the most
        cards and, among those, the highest total value (``_value``): ``max`` over the list by
        ``(len(cards), total value)``, without the list. The total is the sum of each rank's
        best card, so the first best choice of a set of ranks takes each rank's first best
        card; the first best set of ranks wins."""
        k = min(TRUTHS_MAX, len(self._by_rank))
        tops = [max(cards, key=_value) for cards in self._by_rank]  # max keeps the first best
        best_ranks = max(combinations(range(len(self._by_rank)), k),
                         key=lambda rs: sum(_value(tops[r]) for r in rs))
        return self._choice(tuple(tops[r] for r in best_ranks))


class QuinceRules(CharacterRules):
    """Quince with every ability implemented.

    Greedy bot heuristic (:meth:`bot_choice`, BOT-QUINCE): Positive Spin reveals his highest face
    card, and Patriot Mirror is taken over it whenever it is offered; the spun card is rotated at
    Combat Reveal whenever its other end beats the opponent's revealed action and its current end
    does not; of Patriot Mirror's two cards he uses the one that beats the opponent's revealed
    action (the first when both or neither do). Two Truths is played with every 2 held: he
    chooses the highest discard cards of different ranks, and divides them as pile one (the
    discard cards) and pile two (the revealed deck cards). Flagstone Tax is played once a turn,
    naming the action the opponent combat-revealed last turn (attack at first).
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        POSITIVE_SPIN: "End of turn (K1), if Quince dealt damage or block damage to the opponent "
                       "this turn: he may reveal a face card (J, Q, K) from hand; it stays "
                       "public. Next turn, if that card is his combat-revealed card, at Combat "
                       "Reveal (C4) he may draw a card to rotate it 180 degrees (once; not with "
                       "an empty deck). Innate: can't be countered (the first-edition reading "
                       "lets Smoke Bomb counter the reveal).",
        TWO_TRUTHS: "Draw Phase (T3): play a 2, choose up to 3 discard-pile cards of different "
                    "ranks from 3 through King, reveal the top 2 cards of the deck, and divide "
                    "them all into two face-up piles (one may be empty). The opponent picks the "
                    "pile that goes to Quince's hand; the other is discarded. Counterable.",
        FLAGSTONE_TAX: "Draw Phase (T3): play a 10 and name attack, block, throw or dodge; at "
                       "lock-in (C5) each one naming the action the opponent combat-revealed "
                       "draws 2 cards. Counterable.",
        PATRIOT_MIRROR: "If the Ace's Patriot Mirror deals damage or block damage, at the end "
                        "of the turn Quince may choose it instead of Positive Spin: next combat, "
                        "after both players commit, he commits a second face-down card; once "
                        "both are revealed (C2, before Ace costs) he uses one and discards the "
                        "other. Can't be countered.",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.damaged_turn = 0  # the last turn he dealt damage to the opponent
        self.mirror_hit_turn = 0  # the last turn Patriot Mirror dealt damage or block damage
        self.spun: Card | None = None  # Positive Spin: the card revealed
        self.spun_turn = 0
        self.rotated = False  # Positive Spin's rotation made this turn
        self.mirror_turn = 0  # the turn he chose Patriot Mirror (pays off next combat)
        self.second: Commit | None = None  # Patriot Mirror: the second face-down card
        self.taxes: list[str] = []  # options named by resolved Flagstone Taxes this turn
        self.piles: tuple[tuple[Card, ...], ...] = ()  # Two Truths, while being decided
        self._pending_second: Commit | None = None  # the second card while choosing (bots)
        self.last_revealed = cb.ATTACK  # the opponent's last combat-revealed action (bots)

    def position_key(self) -> str:
        """Pending triggers and named options: the spun card, a chosen Patriot Mirror, this
        turn's Taxes, a rotation made, the damage that allows Positive Spin this turn."""
        parts = []
        if self.spun is not None:
            parts.append(f"spin:{self.spun.code}@{self.spun_turn}")
        if self.mirror_turn:
            parts.append(f"mirror@{self.mirror_turn}")
        if self.taxes:
            parts.append("tax:" + ",".join(self.taxes))
        if self.rotated:
            parts.append("rotated")
        return ";".join(parts)

    def ability_piles(self, action: UseAbility) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """Two Truths' piles, while they are divided (``piles``: pile one is the action's, pile
        two the rest of the cards) or picked by the opponent (``to_hand``: the pile it puts
        into Quince's hand, and the other, discarded)."""
        if action.ability != TWO_TRUTHS or action.option not in (PILES, TO_HAND) \
                or not self.piles:
            return None
        rest = tuple(c for pile in self.piles for c in pile if c not in action.cards)
        return action.cards, rest

    def public_info(self, ctx: AbilityContext, ps: PlayerState) -> dict[str, list[str]]:
        """The Positive Spin card while it is in hand and pending; Two Truths' piles while they
        are being divided and picked (GEN-9: face up)."""
        out: dict[str, list[str]] = {}
        if self.spun is not None and self.spun in ps.hand and self.spun_turn >= ctx.turn - 1:
            out[POSITIVE_SPIN] = [self.spun.code]
        for i, pile in enumerate(self.piles):
            out[f"{TWO_TRUTHS} pile {i + 1}"] = [c.code for c in pile]
        return out

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.taxes = []
        self.rotated = False
        if self.spun is not None and self.spun_turn < ctx.turn - 1:
            self.spun = None  # Positive Spin pays off only the turn after it

    # --- damage dealt (Positive Spin, Patriot Mirror) --------------------------------------
    reacts_to = frozenset({DamageDealt})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        if isinstance(event, DamageDealt) and event.source is ps.player \
                and event.target is not ps.player and event.amount > 0:
            self.damaged_turn = ctx.turn
            m = ps.combat_move
            if event.kind in ("combat", "block") and not ctx.combo and m is not None \
                    and m.name == PATRIOT_MIRROR:
                self.mirror_hit_turn = ctx.turn
        return
        yield  # pragma: no cover

    # --- Positive Spin / Patriot Mirror at the end of the turn ----------------------------
    def _end_options(self, ctx: AbilityContext, ps: PlayerState) -> list[Action]:
        out: list[Action] = []
        if self.damaged_turn == ctx.turn:
            out += [UseAbility(POSITIVE_SPIN, c) for c in _distinct(ps.hand)
                    if c.rank is not None and c.rank.is_face]
        if self.mirror_hit_turn == ctx.turn:
            out.append(UseAbility(PATRIOT_MIRROR, option=SECOND_CARD))
        return out

    def at_end_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """K1: Positive Spin (reveal a face card) or, after Patriot Mirror dealt damage, a
        second face-down card next combat instead."""
        options = self._end_options(ctx, ps)
        if not options:
            return

        def check(player: PlayerId, a: Action) -> None:
            if isinstance(a, Pass) or a in options:
                return
            if isinstance(a, UseAbility) and a.ability == PATRIOT_MIRROR:
                raise RuleViolation("AB-3", "Patriot Mirror: only after the Ace's Patriot "
                                            "Mirror dealt damage or block damage this turn")
            if not isinstance(a, UseAbility) or a.ability != POSITIVE_SPIN:
                raise RuleViolation("AB-1", "Positive Spin: reveal a face card from hand, or "
                                            "pass")
            if self.damaged_turn != ctx.turn:
                raise RuleViolation("AB-1", "Positive Spin: only after Quince dealt damage or "
                                            "block damage to the opponent this turn")
            if a.card is None or a.card.rank is None or not a.card.rank.is_face:
                raise RuleViolation("GL-FACE", "Positive Spin reveals a face card (J, Q or K)")
            raise RuleViolation("AB-1", f"{a.card} is not in {ps.player.name}'s hand")

        _, a = yield from ctx.ask((ps.player,), "AB-1", check, lambda p: [Pass(), *options])
        if not isinstance(a, UseAbility):
            return
        if a.ability == PATRIOT_MIRROR:
            self.mirror_turn = ctx.turn
        elif not (yield from ctx.offer_counter(ps, POSITIVE_SPIN)):  # CTR-8, as revealed
            self.spun, self.spun_turn = a.card, ctx.turn

    # --- Patriot Mirror: two face-down cards ----------------------------------------------
    def after_commits(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C1: the second face-down card, the combat after Patriot Mirror was chosen."""
        if not self.mirror_turn or self.mirror_turn >= ctx.turn:
            return
        self.mirror_turn = 0
        self.second = yield from ctx.commit_second(ps)

    def after_reveal(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C2: both cards revealed, Quince uses one and discards the other."""
        commit, first = self.second, ps.combat_card
        if commit is None:
            return
        self.second = None
        second = commit.card
        if first is None:  # pragma: no cover - commit_second needs a first card
            return
        options: list[Action] = [UseAbility(PATRIOT_MIRROR, first),
                                 UseAbility(PATRIOT_MIRROR, second)]

        def check(player: PlayerId, a: Action) -> None:
            if a in options:
                return
            raise RuleViolation("AB-3", f"Patriot Mirror: use one of the two revealed cards "
                                        f"({first} or {second}); the other is discarded")

        if first == second:  # the same card twice (two Jokers): nothing to choose
            keep_second = False
        else:
            self._pending_second = commit
            _, a = yield from ctx.ask((ps.player,), "AB-3", check, lambda p: list(options))
            self._pending_second = None
            assert isinstance(a, UseAbility)
            keep_second = a.card == second
        ctx.use_second(ps, keep_second)

    # --- windows ----------------------------------------------------------------------
    def _can_rotate(self, ctx: AbilityContext, ps: PlayerState) -> bool:
        c = self.spun
        return (c is not None and not self.rotated and self.spun_turn == ctx.turn - 1
                and ps.combat_card == c and ps.revealed_card == c and ps.combat_move is not None
                and bool(ps.deck) and len(ps.character.moves_of(c)) == 2)

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        if window == "draw_phase":
            return ps.holds(Rank.TWO, Rank.TEN)
        if window == "combat_reveal":
            return self._can_rotate(ctx, ps)
        return False

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window == "draw_phase":
            out: list[Action] = [UseAbility(TWO_TRUTHS, c) for c in _distinct(ps.hand)
                                 if c.rank is Rank.TWO]
            return out + [UseAbility(FLAGSTONE_TAX, c, option=o) for c in _distinct(ps.hand)
                          if c.rank is Rank.TEN for o in TAX_OPTIONS]
        if window == "combat_reveal" and self._can_rotate(ctx, ps):
            assert self.spun is not None
            return [UseAbility(POSITIVE_SPIN, self.spun, option=ROTATE)]
        return []

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if action in self.window_options(ctx, ps, window):
            return
        if not isinstance(action, UseAbility) or action.ability not in (
                TWO_TRUTHS, FLAGSTONE_TAX, POSITIVE_SPIN):
            raise self.not_here(ctx, ps, window, action)
        if action.ability == POSITIVE_SPIN:
            self._check_rotation(ctx, ps, window, action)
        rank = Rank.TWO if action.ability == TWO_TRUTHS else Rank.TEN
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", f"{action.ability} is played after the draw phase")
        if action.card is None or action.card.rank is not rank:
            raise RuleViolation("AB-2", f"{action.ability} is played with one of Quince's "
                                        f"{'2s' if rank is Rank.TWO else '10s'}")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.ability == FLAGSTONE_TAX:
            raise RuleViolation("AB-2", "Flagstone Tax names one option: attack, block, throw "
                                        "or dodge")
        raise RuleViolation("AB-2", "Two Truths takes no other choice when played (the cards "
                                    "are chosen as it resolves)")

    def _check_rotation(self, ctx: AbilityContext, ps: PlayerState, window: str,
                        action: UseAbility) -> None:
        if window != "combat_reveal":
            raise RuleViolation("WIN-REVEAL", "Positive Spin's rotation is made after the "
                                              "combat cards are revealed (Combat Reveal)")
        if self.spun is None or self.spun_turn != ctx.turn - 1:
            raise RuleViolation("AB-1", "Positive Spin: no face card was revealed at the end of "
                                        "last turn")
        if self.rotated:
            raise RuleViolation("AB-1", "Positive Spin: the card was already rotated")
        if ps.revealed_card != self.spun or ps.combat_card != self.spun:
            raise RuleViolation("AB-1", f"Positive Spin rotates only the revealed card "
                                        f"{self.spun}, and only if it is Quince's "
                                        "combat-revealed card")
        if not ps.deck:
            raise RuleViolation("AB-1", "Positive Spin: the rotation costs a draw and the deck "
                                        "is empty")
        raise RuleViolation("AB-1", "Positive Spin: rotate names the revealed card and the "
                                    "option 'rotate'")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility)
        if action.ability == POSITIVE_SPIN:  # the payoff, not an activation (CTR-4)
            self.rotated = True
            yield from ctx.draw(ps, ctx.step)
            ctx.rotate(ps)
            return
        assert action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: played, then discarded
        if (yield from ctx.offer_counter(ps, action.ability, action.card)):
            return
        if action.ability == FLAGSTONE_TAX:
            assert action.option is not None
            self.taxes.append(action.option)
            return
        yield from self._two_truths(ctx, ps)

    # --- Two Truths ------------------------------------------------------------------------
    @staticmethod
    def _truth_choices(ps: PlayerState) -> TruthChoices:
        """Every choice of up to 3 discard cards of different ranks from 3 through King."""
        by_rank: dict[Rank, list[Card]] = {}
        for c in _distinct(ps.discard):
            if _truth_rank(c):
                assert c.rank is not None
                by_rank.setdefault(c.rank, []).append(c)
        return TruthChoices([tuple(by_rank[r]) for r in sorted(by_rank)])

    def _two_truths(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        def check_choice(player: PlayerId, a: Action) -> None:
            if not isinstance(a, UseAbility) or a.ability != TWO_TRUTHS or a.option != CHOOSE \
                    or a.card is not None:
                raise RuleViolation("AB-2", "Two Truths: choose up to 3 cards of the discard "
                                            "pile (option 'choose')")
            if len(a.cards) > TRUTHS_MAX:
                raise RuleViolation("AB-2", "Two Truths: at most 3 cards from the discard pile")
            for c in a.cards:
                if c not in ps.discard:
                    raise RuleViolation("AB-2", f"{c} is not in {ps.player.name}'s discard "
                                                "pile")
                if not _truth_rank(c):
                    raise RuleViolation("AB-2", f"Two Truths: {c} is not of a rank from 3 "
                                                "through King")
            if len({c.rank for c in a.cards}) != len(a.cards):
                raise RuleViolation("AB-2", "Two Truths: the chosen cards must be of different "
                                            "ranks")

        if any(_truth_rank(c) for c in ps.discard):
            _, a = yield from ctx.ask((ps.player,), "AB-2", check_choice,
                                      lambda p: self._truth_choices(ps))
            assert isinstance(a, UseAbility)
            chosen = a.cards
        else:
            chosen = ()
        before = len(ps.hand)
        yield from ctx.draw(ps, ctx.step, TRUTHS_REVEAL)  # reveal the top 2 (GEN-9: face up)
        revealed = tuple(ps.hand[before:])
        pool = (*chosen, *revealed)
        if not pool:
            return
        self.piles = (pool,)
        if len(pool) == 1:
            one: tuple[Card, ...] = pool
        else:
            options: list[Action] = [
                UseAbility(TWO_TRUTHS, cards=(pool[0], *rest), option=PILES)
                for k in range(len(pool)) for rest in combinations(pool[1:], k)]

            def check_piles(player: PlayerId, a: Action) -> None:
                if a in options:
                    return
                if not isinstance(a, UseAbility) or a.ability != TWO_TRUTHS \
                        or a.option != PILES:
                    raise RuleViolation("AB-2", "Two Truths: divide the cards into two piles "
                                                "(option 'piles', the cards of pile one)")
                raise RuleViolation("AB-2", f"Two Truths: pile one holds {pool[0]} and only "
                                            f"cards of {' '.join(c.code for c in pool)}, each "
                                            "once")

            _, a = yield from ctx.ask((ps.player,), "AB-2", check_piles, lambda p: list(options))
            assert isinstance(a, UseAbility)
            one = a.cards
        two = tuple(c for c in pool if c not in one)
        self.piles = (one, two)
        opp = ctx.opponent(ps)
        picks: list[Action] = [UseAbility(TWO_TRUTHS, cards=one, option=TO_HAND),
                               UseAbility(TWO_TRUTHS, cards=two, option=TO_HAND)]

        def check_pick(player: PlayerId, a: Action) -> None:
            if a not in picks:
                raise RuleViolation("AB-2", f"Two Truths: put one of the two piles into "
                                            f"{ps.player.name}'s hand (option 'to_hand', the "
                                            "cards of that pile)")

        _, a = yield from ctx.ask((opp.player,), "AB-2", check_pick, lambda p: list(picks))
        assert isinstance(a, UseAbility)
        self.piles = ()
        to_hand = a.cards
        for c in pool:
            if c in to_hand and c in chosen:
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)
            elif c not in to_hand and c in revealed:
                ctx.move(ps, c, Zone.HAND, Zone.DISCARD)

    # --- Flagstone Tax's payoff -------------------------------------------------------------
    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C5: draw 2 for each Tax naming the opponent's combat-revealed action."""
        revealed = ctx.opponent(ps).revealed_kind
        if revealed in TAX_OPTIONS:
            self.last_revealed = revealed
        for option in self.taxes:
            if option == revealed:
                yield from ctx.draw(ps, ctx.step, TAX_DRAW)

    # --- bots ---------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        if isinstance(legal, TruthChoices):  # Two Truths' choose, worked out from the ranks
            return legal.best()
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if not uses:
            return None
        first = uses[0]
        if first.ability == PATRIOT_MIRROR and first.card is not None:
            return self._better_of_two(ctx, ps, uses)
        mirror = [a for a in uses if a.ability == PATRIOT_MIRROR]
        if mirror:
            return mirror[0]
        spins = [a for a in uses if a.ability == POSITIVE_SPIN]
        if spins and spins[0].option == ROTATE:
            return spins[0] if self._rotation_wins(ctx, ps) else Pass()
        if spins:
            return max(spins, key=lambda a: _value(a.card) if a.card else 0)
        if first.ability == TWO_TRUTHS and first.option == PILES:
            return first  # pool[0] alone or with the rest: discard cards as pile one
        truths = [a for a in uses if a.ability == TWO_TRUTHS and a.option is None]
        if truths:
            return truths[0]
        taxes = [a for a in uses if a.ability == FLAGSTONE_TAX]
        if taxes:
            if self.taxes:
                return Pass()
            return next((a for a in taxes if a.option == self.last_revealed), taxes[0])
        return None

    def _better_of_two(self, ctx: AbilityContext, ps: PlayerState,
                       uses: list[UseAbility]) -> Action:
        opp = ctx.opponent(ps)
        speed = opp.combat_move.speed if opp.combat_move is not None else None
        for a in uses:
            c = a.card
            if c is None or c.is_joker:
                continue
            m = ps.combat_move if c == ps.combat_card else self._second_move(ps)
            if m is not None and cb.resolve(cb.KIND_OF_MOVE[m.type], m.speed, opp.kind, speed,
                                            ctx.ruleset).winner == 0:
                return a
        return uses[0]

    def _second_move(self, ps: PlayerState) -> Move | None:
        commit = self._pending_second
        if commit is None or commit.move is None:
            return None
        return ps.character.find_move(commit.card, commit.move, commit.name)

    @staticmethod
    def _rotation_wins(ctx: AbilityContext, ps: PlayerState) -> bool:
        """BOT-QUINCE: whether the spun card's other end beats the opponent's revealed action
        and the current end does not (printed speeds)."""
        opp = ctx.opponent(ps)
        c, m = ps.combat_card, ps.combat_move
        if c is None or m is None:
            return False
        other = ps.character.other_end(c, m)
        if other is None:
            return False
        speed = opp.combat_move.speed if opp.combat_move is not None else None

        def wins(move: Move) -> bool:
            r = cb.resolve(cb.KIND_OF_MOVE[move.type], move.speed, opp.kind, speed, ctx.ruleset)
            return r.winner == 0

        return wins(other) and not wins(m)

