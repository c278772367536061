"""The self-play bots (rules_engine.bots): the greedy bot's combat choices are sensible, first of
all it never commits an Ace whose mandatory cost it cannot pay (C3, CF-08)."""

from __future__ import annotations

from rules_engine.actions import Commit, NoCard
from rules_engine.bots import GreedyBot
from rules_engine.cards import MoveType, card, characters
from rules_engine.selfplay import play_game
from rules_engine.timeline import timeline

from .helpers import P1, PLAIN, recorded_game

IDS = sorted(characters())


def test_greedy_bot_never_commits_an_ace_it_cannot_pay__CF_08_C3() -> None:
    """Given Grave holding one Ace, whose True Power of Storms (45 damage, AAA) would be void
    (CF-08) and is still listed (FAQ_PENALTY only punishes it), when the greedy bot commits,
    then over many seeds it picks a payable card: never that end."""
    g = recorded_game("AH 2C 3C 4C 5C 6C 8C", PLAIN)
    legal = g.legal_actions(P1)
    storms = Commit(card("AH"), MoveType.ATTACK, "True Power of Storms")
    assert storms in legal  # the game allows the commit: the choice is the bot's
    picks = {GreedyBot(seed).choose(g, P1, legal) for seed in range(20)}
    assert storms not in picks
    assert Commit(card("AH"), MoveType.ATTACK, "True-Spark Arc") in picks  # 1 Ace: payable


def test_greedy_bot_plays_no_card_when_every_commit_is_unpayable__CF_08() -> None:
    # Given a legal list whose only commit is the unpayable end (a real list always has more),
    # when the bot chooses, then it declares no-card rather than lose the Ace for nothing.
    g = recorded_game("AH 2C 3C 4C 5C 6C 8C", PLAIN)
    storms = Commit(card("AH"), MoveType.ATTACK, "True Power of Storms")
    assert GreedyBot(0).choose(g, P1, [NoCard(), storms]) == NoCard()


def test_greedy_self_play_voids_no_combat_card_for_an_unpaid_ace__CF_08() -> None:
    """Given 50 seeded greedy self-play games over 50 character pairs, when each is explained
    turn by turn, then no combat card of either bot was void for an unpaid Ace cost."""
    combat_cards, voids = 0, []
    for n in range(50):
        p1, p2 = IDS[n % 20], IDS[(n * 7 + 3) % 20]
        _, log = play_game(p1, p2, 500 + n, bot="greedy")
        for turn in timeline(log):
            for p, pt in enumerate(turn.players):
                c = pt.combat_card
                if c is None or c.played not in ("card", "void"):
                    continue
                combat_cards += 1
                if c.void_rule == "CF-08":
                    voids.append((p1, p2, 500 + n, turn.turn, p))
    assert combat_cards > 1000  # the games really fought
    assert voids == []
