"""``Game.apply`` trusts a choice that *is* one of the options the current decision listed for
that seat (it skips the decision's check): every listed option must therefore be legal (GEN-2),
for every character, and a choice that is not one of *this* decision's listed options (an
option of an earlier decision, an action added to the returned list, an equal but distinct
value) must still be checked."""

from __future__ import annotations

import pytest

from rules_engine.actions import Commit, PowerUp
from rules_engine.bots import make_bot
from rules_engine.cards import character, characters
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.types import Actor, PlayerId

P1, P2 = PlayerId.P1, PlayerId.P2

IDS = sorted(characters())


def _acting(g: Game) -> PlayerId:
    actor = g.actor
    p = g.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
    assert isinstance(p, PlayerId)
    return p


@pytest.mark.parametrize("cid", IDS)
def test_every_listed_option_passes_the_check__GEN_2(cid: str) -> None:
    for n, bot in enumerate(("greedy", "random")):
        opp = IDS[(IDS.index(cid) * 7 + 3 + n) % len(IDS)]
        g = Game(character(cid), character(opp), seed=900 + n)
        bots = (make_bot(bot, n), make_bot(bot, n + 1))
        while not g.is_over:
            for p in g.acting_players:
                for action in g.legal_actions(p):
                    g.check(p, action)  # raises IllegalActionError if listed wrongly
            p = _acting(g)
            g.apply(p, bots[p].choose(g, p, g.legal_actions(p)))


def _to_power_up(g: Game) -> tuple[PlayerId, list[object]]:
    """Play greedy moves until a seat is asked to Power Up; its seat and options."""
    bots = (make_bot("greedy", 1), make_bot("greedy", 2))
    while not g.is_over:
        p = _acting(g)
        legal = g.legal_actions(p)
        if isinstance(legal[0], PowerUp):
            return p, list(legal)
        g.apply(p, bots[p].choose(g, p, legal))
    raise AssertionError("no Power Up in the game")


def test_an_earlier_decisions_option_is_checked_again() -> None:
    g = Game(character("grave"), character("jaina"), seed=3)
    p = _acting(g)
    commit = next(a for a in g.legal_actions(p) if isinstance(a, Commit))
    g.apply(p, commit)
    # the same object again: listed by the decision before, so checked (the card is no longer
    # in hand, and the decision is the other seat's), never applied blindly
    g.legal_actions(_acting(g))
    with pytest.raises(IllegalActionError):
        g.apply(p, commit)


def test_an_action_added_to_the_returned_list_is_checked() -> None:
    g = Game(character("grave"), character("jaina"), seed=3)
    p = _acting(g)
    legal = g.legal_actions(p)
    foreign = PowerUp()  # not a C1 choice
    legal.append(foreign)  # the caller's list is its own: the decision kept a copy
    with pytest.raises(IllegalActionError):
        g.apply(p, foreign)


def test_a_listed_option_is_not_trusted_for_another_seat() -> None:
    g = Game(character("grave"), character("jaina"), seed=3)
    p, legal = _to_power_up(g)
    other = P2 if p is P1 else P1
    assert g.legal_actions(other) == []
    with pytest.raises(IllegalActionError):
        g.apply(other, legal[-1])  # type: ignore[arg-type]


def test_the_fast_path_applies_what_the_check_would_accept() -> None:
    """The same game twice: once choosing listed options (the check skipped), once choosing
    equal copies (the check run): the same history and position."""
    from dataclasses import replace

    games = []
    for copy in (False, True):
        g = Game(character("quince"), character("menelker"), seed=11)
        bots = (make_bot("greedy", 5), make_bot("greedy", 6))
        while not g.is_over:
            p = _acting(g)
            a = bots[p].choose(g, p, g.legal_actions(p))
            g.apply(p, replace(a) if copy else a)
        games.append((g.history, g.fingerprint()))
    assert games[0] == games[1]
