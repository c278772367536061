"""Power Up (P1..P6), Ace searches (PU-5, PU-6) and the hand limit (K2, HL-1)."""

from __future__ import annotations

from itertools import combinations

from rules_engine import combat as cb
from rules_engine.actions import (
    Action,
    Discard,
    PowerUp,
    Tag,
)
from rules_engine.cards import Card, Rank
from rules_engine.errors import (
    RuleViolation,
)
from rules_engine.game.core import HAND_LIMIT as HAND_LIMIT_HL2
from rules_engine.game.core import GameCore, _code
from rules_engine.modifiers import HAND_LIMIT, POWER_UP_WITH
from rules_engine.state import (
    PlayerState,
    Step,
)
from rules_engine.types import PlayerId


def _has_set(cards: list[Card]) -> bool:
    """PU-2: whether ``cards`` hold a set, two or more cards of one rank (the two Jokers are a
    set of their own). Asked at every seat's Power Up: a rank repeats when the ranks are fewer
    than the cards (a Joker's rank is None, so the Jokers pair only with each other, as
    ``set_key`` groups them), without counting each group (tested equal to counting)."""
    ranks: set[Rank | None] = set()  # (a loop: no comprehension made per Power Up)
    for c in cards:
        rank = c.rank
        if rank in ranks:
            return True
        ranks.add(rank)
    return False


class PowerUpSteps(GameCore):
    """The steps of this module, on top of :class:`GameCore`."""

    def chain_entitlement(self, ps: PlayerState) -> int:
        return cb.chain_reward(ps.chains, self.ruleset)

    def _power_up(self, ps: PlayerState) -> Step:
        """P2-P6: sets, entitlement, search, shuffle. A player with no choice is skipped."""
        self.step = "P2"
        chain = self.chain_entitlement(ps)
        has_set = _has_set(self.modifiers.allowed(POWER_UP_WITH, ps, ps.hand))
        tags = self.mode.tags  # TAGS hook: Tag Team's Ace tag (TAG-PU-1)
        ace_tags = [] if tags is None else tags.ace_options(self, ps, chain)
        if not has_set and not (chain and (self.search_targets(ps, ps.discard, True)
                                           or self.search_targets(ps, ps.deck, True))) \
                and not ace_tags:
            if self.diagnosing is not None and type(self.diagnosing.action) is PowerUp:
                self.skipped("P2", (ps.player,), (PowerUp,),
                             lambda p, a: self._check_power_up(ps, a, chain))
            return  # nothing to discard, and no chain Aces to take (or none left to find)
        if ace_tags:
            assert tags is not None
            _, action = yield from self._ask(
                "P2", (ps.player,), "PU-1", lambda p, a: self._check_power_up_or_tag(
                    ps, a, chain),
                lambda p: [*self._power_up_options(ps, chain),
                           *tags.ace_options(self, ps, chain)])
            if isinstance(action, Tag):  # TAG-PU-1: the partner searches instead
                tags.play_ace(self, ps, action, chain)
                return
        else:
            _, action = yield from self._ask(
                "P2", (ps.player,), "PU-1", lambda p, a: self._check_power_up(ps, a, chain),
                lambda p: self._power_up_options(ps, chain))
        assert isinstance(action, PowerUp)
        self.discard_power_up_sets(ps, action.sets)
        owed = chain + (cb.set_entitlement(action.sets) if action.sets else 0)
        self.step = "P5"
        self._take_aces(ps, action.from_discard, action.from_deck, owed)

    def _check_power_up_or_tag(self, ps: PlayerState, action: Action, chain: int) -> None:
        """P2 with an Ace tag offered (TAGS hook: TAG-PU-1) besides the Power Up."""
        if isinstance(action, Tag):
            assert self.mode.tags is not None
            self.mode.tags.check_ace(self, ps, action, chain)
            return
        self._check_power_up(ps, action, chain)

    def _check_power_up(self, ps: PlayerState, action: Action, chain: int) -> None:
        if not isinstance(action, PowerUp):
            raise RuleViolation("PU-1", "Power Up: discard sets and take Aces, or take nothing")
        self.check_power_up_sets(ps, action.sets)
        owed = chain + (cb.set_entitlement(action.sets) if action.sets else 0)
        if not action.sets and not action.from_discard and not action.from_deck:
            return  # PU-1: powering up is optional
        if not action.sets and not chain:
            longest = max(ps.chains, default=0)
            raise RuleViolation(
                "CH-1", f"no Aces are owed to {ps.player.name} for chains: the longest chain "
                        f"this turn is {longest} (a chain is a run of back-to-back normal "
                        "attacks, each one rank higher; a throw, a Linker, a face card or an Ace "
                        "ends it, and it earns Aces from 3 on, CH-3)")
        # PU-7: the sets are discarded before the search, so their Aces can be found again.
        self._check_search(ps, action.from_discard, action.from_deck, owed,
                           discard=ps.discard + list(action.sets), power_up=True)

    def _power_up_options(self, ps: PlayerState, chain: int) -> list[Action]:
        """Representative choices: per rank, none or the first 2..n cards of it in hand."""
        groups: dict[object, list[Card]] = {}
        for c in self.modifiers.allowed(POWER_UP_WITH, ps, ps.hand):
            groups.setdefault(cb.set_key(c), []).append(c)
        # each set choice with the Aces its sets earn (PU-3: k cards of one rank give k - 1)
        # and the search targets among its cards (PU-7: they join the discard pile), summed
        # rank by rank as the choices are built instead of recounted per choice
        # (set_entitlement, search_targets of the sets)
        Choice = tuple[tuple[Card, ...], int, tuple[Card, ...]]
        set_choices: list[Choice] = [((), 0, ())]
        for cs in groups.values():
            if len(cs) < 2:
                continue
            choices: list[Choice] = [((), 0, ())]
            for size in range(2, len(cs) + 1):
                choices.append((tuple(cs[:size]), size - 1,
                                tuple(self.search_targets(ps, cs[:size], True))))
            set_choices = [(s + c, n + m, t + u) for s, n, t in set_choices
                           for c, m, u in choices]
        out: list[Action] = [PowerUp()]
        # the search targets of the deck and the discard pile are the same for every set
        # choice (only the sets' own targets join the pile, PU-7): found once, not per choice
        # (_search_choices of ps.discard + sets, the same lists)
        in_discard = self.search_targets(ps, ps.discard, True)
        d_plain = sorted(set(in_discard), key=_code)  # when the sets hold no target
        k_aces = sorted(set(self.search_targets(ps, ps.deck, True)), key=_code)
        for sets, earned, targets in set_choices:
            owed = chain + earned
            if owed == 0:
                continue
            d_aces = sorted({*in_discard, *targets}, key=_code) if targets else d_plain
            for d, k in self._search_combinations(owed, False, d_aces, k_aces):
                if sets or d or k:
                    out.append(PowerUp(sets, d, k))
        return out

    def _no_discard(self, ps: PlayerState, limit: int) -> None:
        raise RuleViolation("HL-1", f"{ps.player.name} holds {len(ps.hand)} cards and the hand "
                                    f"limit is {limit}: there is nothing to discard")

    def _hand_limit(self, ps: PlayerState) -> Step:
        """K2 / HL-1: discard down to the hand limit, choosing the cards (every seat in play:
        TG-5; the mode's limit: DB-4)."""
        limit = self.modifiers.fold(HAND_LIMIT, ps, None,
                                    self.mode.hand_limit(self, ps, HAND_LIMIT_HL2))
        excess = len(ps.hand) - limit
        if excess <= 0:
            if self.diagnosing is not None and type(self.diagnosing.action) is Discard:
                self.skipped("K2", (ps.player,), (Discard,), lambda p, a: self._no_discard(
                    ps, limit))
            return

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, Discard):
                raise RuleViolation("HL-1", f"{player.name} holds {len(ps.hand)} cards: "
                                            f"discard {excess} down to {limit}")
            if len(action.cards) != excess or len(set(action.cards)) != excess:
                raise RuleViolation("HL-1", f"discard exactly {excess} different card(s), "
                                            f"not {len(action.cards)}")
            for c in action.cards:
                if c not in ps.hand:
                    raise RuleViolation("HL-1", f"{c} is not in {player.name}'s hand")

        _, action = yield from self._ask(
            "K2", (ps.player,), "HL-1", check,
            lambda p: [Discard(t) for t in combinations(ps.hand, excess)])
        assert isinstance(action, Discard)
        for c in action.cards:
            ps.hand.remove(c)
            self.discard(ps, c)
