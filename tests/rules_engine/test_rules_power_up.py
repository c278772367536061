"""Power Up (RULES.md §7): sets, entitlement, ACE-SEARCH, shuffles; vectors TV-PU-01..09;
and the hand limit (§8)."""

from __future__ import annotations

import pytest

from rules_engine import combat as cb
from rules_engine.actions import Discard, NoCard, PowerUp, Search
from rules_engine.cards import card
from rules_engine.errors import IllegalActionError, RuleViolation
from rules_engine.ruleset import AceSource, GoldBurstSearch, Ruleset, ShuffleTrigger

from .helpers import P1, PLAIN, cards, combo, commit, fight, recorded_game, won_combat


def test_sets_give_k_minus_1_aces__TV_PU_01_PU_2_PU_3() -> None:
    assert cb.set_entitlement(cards("4H 4C 7S 7D 7C")) == 3


def test_joker_and_nine_is_not_a_set__TV_PU_02_GL_JOKER() -> None:
    with pytest.raises(RuleViolation) as err:
        cb.set_entitlement(cards("X1 9C"))
    assert err.value.rule_id == "PU-2"


def test_two_jokers_are_a_pair__TV_PU_03() -> None:
    assert cb.set_entitlement(cards("X1 X2")) == 1


def test_set_entitlement_is_the_sum_of_k_minus_1_over_the_ranks_and_names_the_lone_ones() -> None:
    # set_entitlement counts len(cards) - groups; checked against the plain sum over groups
    # (set_key's grouping) for every choice of up to 5 cards of a small pool
    from itertools import combinations

    pool = cards("4H 4C 4D 7S 7D 9C X1 X2 AH AS")
    for n in range(1, 6):
        for chosen in combinations(pool, n):
            groups: dict[object, int] = {}
            for c in chosen:
                groups[cb.set_key(c)] = groups.get(cb.set_key(c), 0) + 1
            lone = [k for k, m in groups.items() if m < 2]
            if lone:
                with pytest.raises(RuleViolation) as err:
                    cb.set_entitlement(chosen)
                for k in lone:
                    assert ("Joker" if k == "joker" else k.code) in err.value.reason  # type: ignore[attr-defined]
            else:
                assert cb.set_entitlement(chosen) == sum(m - 1 for m in groups.values())


@pytest.mark.parametrize(("d", "k", "ok"), [
    (1, 1, True), (1, 0, True), (0, 2, True),   # allowed
    (0, 1, False), (0, 0, False),               # fewer while an Ace stays in the discard pile
])
def test_ace_search_constraint__TV_PU_04_PU_5_CF_18(d: int, k: int, ok: bool) -> None:
    assert (cb.search_violation(2, d, k, 1, Ruleset()) is None) is ok


def test_ace_search_discard_first__TV_PU_04_CF_18() -> None:
    rs = Ruleset(aceSource=AceSource.DISCARD_FIRST)
    assert cb.search_violation(2, 1, 1, 1, rs) is None
    assert cb.search_violation(2, 0, 2, 1, rs).rule_id == "CF-18"  # type: ignore[union-attr]


@pytest.mark.parametrize("source", list(AceSource))
def test_search_allowed_agrees_with_search_violation__PU_5_CF_18_CF_09(source: AceSource,
                                                                      ) -> None:
    """The predicate the option listing uses states the same rule as the explained check."""
    rs = Ruleset(aceSource=source)
    for owed in range(5):
        for d in range(5):
            for k in range(5):
                for in_discard in range(5):
                    for free in (False, True):
                        assert cb.search_allowed(owed, d, k, in_discard, rs, free) is (
                            cb.search_violation(owed, d, k, in_discard, rs, free) is None)


def test_chain_with_face_card_end__TV_PU_05_TV_PU_06() -> None:
    from rules_engine.cards import character
    grave = character("grave")
    m = {c: grave.moves_of(card(c))[0] for c in ("2C", "3C", "4C", "5C", "JC")}
    assert cb.chain_reward(cb.chain_lengths([m["3C"], m["4C"], m["5C"], m["JC"]]), Ruleset()) == 1
    assert cb.chain_reward(cb.chain_lengths([m["2C"], m["4C"], m["5C"]]), Ruleset()) == 0


def test_chain_and_a_pair_of_kings__TV_PU_08_PU_4_P3() -> None:
    # given a 3-chain this turn and a pair of Kings in hand
    g = won_combat("3C 4C 5C KC KD 8C 9S", commit("3C", "attack"))
    g.apply(P1, combo("4C"))
    g.apply(P1, combo("5C"))  # nothing else fits the limit: the combo ends
    assert g.step == "P2" and g.actor is P1
    # when he discards the Kings and takes 2 Aces from the deck
    g.apply(P1, PowerUp(cards("KC KD"), (), cards("AC AD")))
    # then both are in hand (1 for the chain + 1 for the pair)
    assert {card("AC"), card("AD")} <= set(g.state(P1).hand)


def test_taking_more_than_owed_is_illegal__PU_5_DP_9() -> None:
    g = recorded_game("KC KD 2C 3C 4C 5C 6C", PLAIN)
    fight(g, NoCard(), NoCard())
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, PowerUp(cards("KC KD"), (), cards("AC AD")))
    assert (err.value.rule_id, err.value.position.step) == ("PU-5", "P2")


def test_nothing_owed_and_no_ace_anywhere_means_no_decision__TV_PU_09_P5_PU_6() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    # all of P1's Aces are out of reach (not in deck, not in discard)
    g.state(P1).deck = [c for c in g.state(P1).deck if not c.is_ace]
    g.state(P1).chains = [3]
    fight(g, NoCard(), NoCard())
    assert g.turn == 2  # no Power Up event: the search for Aces finds none; no shuffle


def test_power_up_is_optional__PU_1_P1() -> None:
    g = recorded_game("KC KD 2C 3C 4C 5C 6C", PLAIN)
    fight(g, NoCard(), NoCard())
    g.apply(P1, PowerUp())
    assert card("KC") in g.state(P1).hand and g.turn == 2


def test_aces_from_sets_can_be_found_again__PU_7_P2() -> None:
    g = recorded_game("AC AD 2C 3C 4C 5C 6C", PLAIN)
    fight(g, NoCard(), NoCard())
    g.apply(P1, PowerUp(cards("AC AD"), cards("AC"), ()))
    assert card("AC") in g.state(P1).hand and card("AD") in g.state(P1).discard


def test_seeded_shuffle_after_taking_from_deck__PU_6_P6_CF_19() -> None:
    from rules_engine.selfplay import play_game
    for seed in range(40):
        game, log = play_game("grave", "grave", seed, bot="greedy")
        took = [a for _, a in game.history if isinstance(a, PowerUp) and a.from_deck]
        if took:
            break
    assert took, "no self-play game took an Ace from the deck"
    # the replay reproduces the same shuffles (same final position)
    from rules_engine.replay import replay
    verdict = replay(log.dumps())
    assert verdict.final is not None and verdict.final["position"] == game.fingerprint()


def test_shuffle_trigger_searched_deck_option__CF_19() -> None:
    rs = Ruleset(shuffleTrigger=ShuffleTrigger.SEARCHED_DECK)
    assert rs.shuffleTrigger is ShuffleTrigger.SEARCHED_DECK
    assert Ruleset.from_json({"shuffleTrigger": "SEARCHED_DECK"}) == rs


def test_gold_burst_free_search_option__CF_09() -> None:
    assert cb.search_violation(2, 0, 0, 1, Ruleset(), free_up_to=True) is None
    rs = Ruleset(goldBurstSearch=GoldBurstSearch.FREE_UP_TO_2)
    g = recorded_game("X1 AC 3C 4C 5C 6C 8C", PLAIN, ruleset=rs)
    fight(g, commit("X1"), commit("2D", "attack"))
    g.apply(P1, Search((), ()))  # FREE_UP_TO_2: taking none is allowed
    assert card("AC") in g.state(P1).hand


def test_hand_limit_discards_down_to_12__HL_1_HL_2_HL_3_K2() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    ps = g.state(P1)
    extra = [c for c in ps.deck if c.code in ("TC", "TD", "JC", "JD", "QC", "KC")]
    for c in extra:
        ps.deck.remove(c)
        ps.hand.append(c)
    assert len(ps.hand) == 13  # more than the limit is fine during the turn (HL-3)
    fight(g, NoCard(), NoCard())
    g.apply(P1, PowerUp())  # the 10s and Jacks are pairs: decline
    assert g.step == "K2" and g.actor is P1
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Discard(cards("2C 3C")))
    assert err.value.rule_id == "HL-1"
    g.apply(P1, Discard(cards("2C")))
    assert len(ps.hand) == 12 and g.turn == 2
