"""The Power Up options (P2) are built rank by rank, each set choice carrying the Aces its sets
earn and the search targets among its cards: they must be exactly the list the plain
computation gives (every combination of per-rank sets, ``set_entitlement`` and
``search_targets`` of each choice), at every Power Up of many games, Menelker's (whose black
face cards are search targets, POWER_UP_FOR) and Ace pairs included. Whether a hand holds a
set at all (``_has_set``) must be what counting its cards by ``set_key`` says."""

from __future__ import annotations

import random
from collections import Counter

from rules_engine import combat as cb
from rules_engine.actions import Action, PowerUp
from rules_engine.bots import make_bot
from rules_engine.cards import FULL_DECK, JOKERS, Card, character, characters
from rules_engine.game import Game
from rules_engine.game.core import _code
from rules_engine.game.power_up import _has_set
from rules_engine.modifiers import POWER_UP_WITH
from rules_engine.ruleset import AceSource, Ruleset
from rules_engine.state import PlayerState
from rules_engine.types import Actor, PlayerId

IDS = sorted(characters())


def _plain_options(g: Game, ps: PlayerState, chain: int) -> list[Action]:
    """The options as first written: each set choice's entitlement and targets recounted."""
    groups: dict[object, list[Card]] = {}
    for c in g.modifiers.allowed(POWER_UP_WITH, ps, ps.hand):
        groups.setdefault(cb.set_key(c), []).append(c)
    per_rank = [[(), *[tuple(cs[:k]) for k in range(2, len(cs) + 1)]]
                for cs in groups.values() if len(cs) >= 2]
    set_choices: list[tuple[Card, ...]] = [()]
    for choices in per_rank:
        set_choices = [s + c for s in set_choices for c in choices]
    out: list[Action] = [PowerUp()]
    for sets in set_choices:
        owed = chain + (cb.set_entitlement(sets) if sets else 0)
        if owed == 0:
            continue
        d_aces = sorted(set(g.search_targets(ps, ps.discard + list(sets), True)), key=_code)
        k_aces = sorted(set(g.search_targets(ps, ps.deck, True)), key=_code)
        for d, k in g._search_combinations(owed, False, d_aces, k_aces):
            if sets or d or k:
                out.append(PowerUp(sets, d, k))
    return out


def test_power_up_options_are_the_plain_computation__PU_2_PU_7() -> None:
    compared = with_targets_in_sets = 0
    for n in range(60):
        p1 = "menelker" if n % 3 == 0 else IDS[n % len(IDS)]
        p2 = IDS[(n * 7 + 3) % len(IDS)]
        g = Game(character(p1), character(p2), seed=300 + n)
        bots = (make_bot("greedy" if n % 2 else "random", n), make_bot("random", n + 1))
        while not g.is_over:
            actor = g.actor
            p = g.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
            assert isinstance(p, PlayerId)
            legal = g.legal_actions(p)
            if g.step == "P2" and isinstance(legal[0], PowerUp):
                ps = g.state(p)
                chain = g.chain_entitlement(ps)
                assert g._power_up_options(ps, chain) == _plain_options(g, ps, chain)
                compared += 1
                with_targets_in_sets += any(
                    isinstance(a, PowerUp) and any(g.search_target(ps, c, True) for c in a.sets)
                    for a in legal)
            g.apply(p, bots[p].choose(g, p, legal))
    assert compared > 200
    assert with_targets_in_sets > 0  # sets holding Aces (or Menelker's targets) were listed


def test_has_set_is_counting_set_keys__PU_2() -> None:
    """``_has_set`` (a rank repeats) says what counting the cards by ``set_key`` says: some
    group of two or more, the Jokers a group of their own, over many hands of the deck."""
    rng = random.Random(17)
    hands = [list(FULL_DECK[:13]), [*JOKERS], [JOKERS[0], FULL_DECK[0]], []]
    hands += [rng.sample(FULL_DECK, rng.randint(0, 12)) for _ in range(3000)]
    found: Counter[bool] = Counter()
    for hand in hands:
        counts = Counter(cb.set_key(c) for c in hand)
        expected = any(n >= 2 for n in counts.values())
        assert _has_set(hand) is expected, hand
        found[expected] += 1
    assert found[True] > 500 and found[False] > 500


def test_a_search_taking_all_owed_needs_no_count_of_the_pile__PU_5() -> None:
    """``_check_search`` does not count the targets left in the discard pile when the Aces
    taken are the Aces owed (outside CF-18's DISCARD_FIRST, where it does): whatever that
    count, ``search_violation`` finds nothing to object to then."""
    ruleset = Ruleset(aceSource=AceSource.FREE)
    for owed in range(7):
        for took_discard in range(owed + 1):
            for in_discard in range(took_discard, 10):
                for free in (False, True):
                    assert cb.search_violation(owed, took_discard, owed - took_discard,
                                               in_discard, ruleset, free) is None
