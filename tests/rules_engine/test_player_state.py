"""``PlayerState.holds``: whether a card of some ranks is in hand (the cost check of most card
abilities' windows), the same answer as looking at each card."""

from __future__ import annotations

from itertools import combinations

from rules_engine.cards import Rank, card, character
from rules_engine.state import PlayerState
from rules_engine.types import PlayerId


def test_holds_is_whether_some_card_in_hand_has_one_of_the_ranks() -> None:
    pool = [card(c) for c in ("7H", "7S", "TD", "AS", "2C", "X1", "X2")]
    ps = PlayerState(PlayerId.P1, character("grave"), 90)
    for size in range(4):
        for hand in combinations(pool, size):
            ps.hand = list(hand)
            for ranks in [(Rank.SEVEN,), (Rank.TEN,), (Rank.ACE,), (Rank.FOUR, Rank.EIGHT),
                          (Rank.TWO, Rank.TEN), ()]:
                assert ps.holds(*ranks) == any(c.rank in ranks for c in hand
                                                if not c.is_joker), (hand, ranks)


def test_a_joker_has_no_rank_to_hold() -> None:
    ps = PlayerState(PlayerId.P1, character("grave"), 90, hand=[card("X1"), card("X2")])
    assert not any(ps.holds(r) for r in Rank)
