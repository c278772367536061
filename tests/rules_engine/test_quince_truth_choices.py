"""Quince's Two Truths choices (``TruthChoices``): the list of every choice of up to 3 discard
cards of different ranks from 3 through King, made on demand (issue 17: a late-game discard
pile gives thousands of choices). It must be that list, item for item, for every bot and
player that reads it."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from rules_engine.actions import Pass, UseAbility
from rules_engine.bots import GreedyBot, RandomBot
from rules_engine.cards import Card, Rank, card, deck_for
from rules_engine.characters.quince import CHOOSE, TWO_TRUTHS, TruthChoices, _value

from .helpers import P1, cards
from .test_quince import _truths


def _by_rank(discard: list[Card]) -> list[tuple[Card, ...]]:
    """The discard pile's cards of ranks 3 through King, by rank (ascending), in pile order."""
    by_rank: dict[Rank, list[Card]] = {}
    for c in discard:
        if c.rank is not None and Rank.THREE <= c.rank <= Rank.KING:
            by_rank.setdefault(c.rank, []).append(c)
    return [tuple(by_rank[r]) for r in sorted(by_rank)]


def _listed(discard: list[Card]) -> list[UseAbility]:
    """The choices as the list the engine made before (every k, ranks ascending, cards in
    discard-pile order, the last rank varying fastest)."""
    groups = _by_rank(discard)
    return [UseAbility(TWO_TRUTHS, cards=tuple(cs), option=CHOOSE)
            for k in range(4) for rs in combinations(groups, k) for cs in product(*rs)]


def _choices(discard: list[Card]) -> TruthChoices:
    return TruthChoices(_by_rank(discard))


def test_the_choices_are_the_list_in_order_by_length_index_and_membership() -> None:
    rng = random.Random(17)
    deck = list(deck_for(True))
    for _ in range(150):
        discard = rng.sample(deck, rng.randrange(0, 46))
        listed, choices = _listed(discard), _choices(discard)
        assert len(choices) == len(listed)
        assert list(choices) == listed
        picks = rng.sample(range(len(listed)), min(20, len(listed)))
        for i in [*picks, 0, len(listed) - 1, -1, -len(listed)]:
            assert choices[i] == listed[i]
        assert choices[1:4] == listed[1:4]
        for a in rng.sample(listed, min(20, len(listed))):
            assert a in choices
        longest = listed[-1]
        if len(longest.cards) > 1:  # the same cards out of rank order are not listed
            swapped = UseAbility(TWO_TRUTHS, cards=longest.cards[::-1], option=CHOOSE)
            assert swapped not in listed and swapped not in choices
        assert Pass() not in choices
        assert UseAbility(TWO_TRUTHS, cards=longest.cards, option="piles") not in choices


def test_an_index_past_the_end_is_an_index_error() -> None:
    choices = _choices(list(cards("5C 5D 9H")))
    assert len(choices) == 1 + 3 + 2  # none; 5C, 5D, 9H; 5C+9H, 5D+9H
    for i in (6, -7):
        with pytest.raises(IndexError):
            choices[i]


def test_the_greedy_pick_is_the_lists_first_best() -> None:
    """``best`` is ``max`` over the list by (cards, their total value): the first best."""
    rng = random.Random(5)
    deck = list(deck_for(True))
    for _ in range(150):
        discard = rng.sample(deck, rng.randrange(1, 46))
        listed = _listed(discard)
        expected = max(listed, key=lambda a: (len(a.cards), sum(_value(c) for c in a.cards)))
        assert _choices(discard).best() == expected


def test_a_two_truths_decision_lists_its_choices_and_takes_the_bots_picks__AB_2() -> None:
    # given Two Truths played with 5C in the discard pile (a short list: none, or 5C)
    g = _truths()
    legal = g.legal_actions(P1)
    assert isinstance(legal, TruthChoices)
    assert list(legal) == [UseAbility(TWO_TRUTHS, cards=(), option=CHOOSE),
                           UseAbility(TWO_TRUTHS, cards=cards("5C"), option=CHOOSE)]
    # when the greedy bot chooses (a new value equal to a listed one, checked by the game)
    pick = GreedyBot().choose(g, P1, legal)
    # then it takes the most cards, and the game applies it: Two Truths reveals next
    assert pick == UseAbility(TWO_TRUTHS, cards=cards("5C"), option=CHOOSE)
    g.apply(P1, pick)
    assert g.acting_players == (P1,) and card("5C") in g.state(P1).discard
    # and a random bot's pick is one of the listed choices, by index as from a list
    g2 = _truths()
    assert RandomBot(3).choose(g2, P1, g2.legal_actions(P1)) in _listed([card("5C")])
