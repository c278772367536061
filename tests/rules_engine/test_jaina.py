"""Jaina (rules/characters/jaina.md): Burning Vigor, Burning Desperation, Unstable Power,
Smoldering Embers, and the FAQ rulings FR-JAINA-1..11 as they apply to the 2014 cards."""

from __future__ import annotations

import pytest

from rules_engine.actions import FaceDown, Pass, PowerUp, Pump, Search, Stop, UseAbility
from rules_engine.cards import card
from rules_engine.errors import IllegalActionError
from rules_engine.log import LogEvent, MatchLog
from rules_engine.replay import replay
from rules_engine.ruleset import DEFAULT_RULESET, Ruleset, UnstablePowerRotation

from .helpers import P1, P2, cards, combo, commit, draw, fight, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave without Martial Mastery or Mental Toughness


FIRST_EDITION = Ruleset(unstablePowerRotation=UnstablePowerRotation.ANY_CARD_WITH_ATTACK)


def _jaina_turn_two(hand: str, grave: str = PLAIN, d1: str = "KH", d2: str = "JS",  # type: ignore[no-untyped-def]
                    ruleset: Ruleset = DEFAULT_RULESET):
    """Jaina (P1, 85 life: initiative) vs Grave (P2); turn 1 both no-card; turn 2 draws."""
    g = recorded_game(hand, grave, p1="jaina", p2="grave", ruleset=ruleset)
    fight(g, commit(None), commit(None))
    draw(g, P1, d1)
    draw(g, P2, d2)
    return g


def test_the_2014_text_rotates_only_a_combat_revealed_attack() -> None:
    """Unstable Power (2014 text): "you may rotate your combat-revealed attack". Given Jaina
    revealed the 2 as a dodge, the rotation is not among her choices and the C4 window does not
    open for her; when her log rotates it anyway, the verifier says the rotation is what was
    wrong (AB-9, with the reason), not that the event came when Grave was to act."""
    g = _jaina_turn_two("7H 2C 3C 4C 5C 6C KC")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("2C", "dodge"), commit("3D", "attack"))
    assert UseAbility("Unstable Power", option="rotate") not in g.legal_actions(P1)
    with pytest.raises(IllegalActionError):
        g.apply(P1, UseAbility("Unstable Power", option="rotate"))
    log = MatchLog(characters=("jaina", "grave"),
                   events=(*(LogEvent(p, a) for p, a in g.history),
                           LogEvent(P1, UseAbility("Unstable Power", option="rotate"))))
    verdict = replay(log)
    assert verdict.status == "illegal" and verdict.first_error is not None
    error = verdict.first_error
    assert (error["rule_id"], error["turn"], error["step"]) == ("AB-9", 2, "C4")
    assert "combat-revealed attack" in error["reason"] and "dodge" in error["reason"]
    assert error["rule_text"]  # the rule's words, for the player


def test_rotate_dodge_into_attack_then_search_and_vigor__FR_JAINA_9() -> None:
    """The first-edition FAQ reading (opt.unstablePowerRotation=ANY_CARD_WITH_ATTACK)."""
    g = _jaina_turn_two("7H 2C 3C 4C 5C 6C KC", ruleset=FIRST_EDITION)
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("2C", "dodge"), commit("3D", "attack"))
    # C4: rotate the dodge into its attack end (2.6 beats Grave's 3.6)
    assert g.step == "C4"
    g.apply(P1, UseAbility("Unstable Power", option="rotate"))
    draw(g, P1, "9C")  # C7: her normal attack won
    g.apply(P2, Pass())  # Grave's Rewind window
    g.apply(P1, combo("3C"))
    g.apply(P1, Stop())
    # end of combat: she hit, so she searches 2 Aces (Unstable Power) ...
    g.apply(P1, Search((), cards("AH AS")))
    # ... then Burning Vigor: she attacked (the rotated card counts, AB-8)
    g.apply(P1, UseAbility("Burning Vigor", cards=cards("2C 3C")))
    assert g.life == (85 - 6, 90 - 2 - 3)
    assert {card("2C"), card("3C"), card("AH"), card("AS")} <= set(g.state(P1).hand)


def test_rotating_an_attack_into_a_dodge_is_no_attack__FR_JAINA_9_FR_JAINA_4() -> None:
    g = _jaina_turn_two("7H 2C 3C 4C 5C 6C KC")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("2C", "attack"), commit("3D", "attack"))
    g.apply(P1, UseAbility("Unstable Power", option="rotate"))  # now a dodge
    g.apply(P2, Pass())  # Grave may Rewind against a dodge (RW-CAN-1)
    g.apply(P1, combo("4C"))  # hit back
    # she hit (the hit-back), so Unstable Power searches; no Burning Vigor (she dodged)
    g.apply(P1, Search((), cards("AH AS")))
    assert g.turn == 2 and g.step != "C13"
    assert card("4C") in g.state(P1).discard


def test_unstable_power_without_a_hit_costs_7_life() -> None:
    g = _jaina_turn_two("7H 2C 3C 4C 5C 6C KC")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    g.apply(P1, Pass())  # C4: no rotation
    draw(g, P1, "9C")  # blocked normal attack draws (C7)
    draw(g, P2, "9S")  # block draw
    g.apply(P2, Pass())  # Grave's innate: no reveal
    g.apply(P1, Pass())  # Burning Vigor declined
    assert g.life == (85 - 7, 90)


def test_unstable_power_forbids_aces_this_turn__FR_JAINA_7() -> None:
    # 2014 text: "You can't play Aces this turn", so rotating into Letter J never comes up
    g = _jaina_turn_two("7H AC 3C 4C 5C 6C KC")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, commit("AC", "attack", "Red Dragon"))
    assert err.value.rule_id == "GEN-1"


def test_unstable_power_stands_up_a_knocked_down_opponent() -> None:
    # turn 1: Jaina's lone knockdown throw beats Grave's block: Grave is knocked down
    g = recorded_game("7H 8C 3C 4C 5C 6C KC", PLAIN, p1="jaina", p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "block"))
    g.apply(P2, Pass())  # no Rewind
    g.apply(P1, Stop())
    assert g.turn == 2 and g.state(P2).knocked_down
    draw(g, P2, "JS")  # Grave (83 life) has initiative now (INI-1)
    draw(g, P1, "KH")
    # turn 2: Unstable Power stands him up, so his dodge works
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    assert not g.state(P2).knocked_down
    fight(g, commit("3C", "attack"), commit("2D", "dodge"))
    g.apply(P1, Pass())  # C4: no rotation
    assert g.step == "C9" and g.actor is P1  # Grave's dodge won


def test_countered_unstable_power_has_no_effect__FR_JAINA_11_CTR_3() -> None:
    # Grave counters with Mental Toughness (10 + a face card): no Ace ban, no 7 damage
    g = _jaina_turn_two("7H AC 3C 4C 5C 6C KC", "2D 3D 4D 5D 6D TD QD")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    # no Ace ban: Red Dragon may be committed; the 7 stays discarded
    fight(g, commit("AC", "attack", "Red Dragon"), commit("2D", "dodge"))
    assert card("7H") in g.state(P1).discard
    g.apply(P1, Pass())  # C9: Jaina lost to a dodge; no Rewind card
    g.apply(P2, combo("3D"))  # Grave hits back
    # end of combat: no Unstable Power resolution (no 7 damage); Power Up is next
    assert g.step == "P2" and g.life == (85 - 3, 90)


def test_smoldering_embers_every_copy_in_discard_deals_2_on_a_dodge__FR_JAINA_10() -> None:
    # given two Smoldering Embers already in Jaina's discard pile (played at C4 on turn 1)
    g = recorded_game("TH TC 2C 3C 4C 5C 6C", PLAIN, p1="jaina", p2="grave")
    fight(g, commit("2C", "attack"), commit("3D", "attack"))
    g.apply(P1, UseAbility("Smoldering Embers", card("TH")))
    g.apply(P1, UseAbility("Smoldering Embers", card("TC")))  # nothing left: window closes
    draw(g, P1, "9C")  # her faster normal attack won (C7)
    g.apply(P2, Pass())
    g.apply(P1, combo("3C"))
    g.apply(P1, Stop())
    g.apply(P1, Pass())  # Burning Vigor declined
    assert g.life == (85, 90 - 5)
    draw(g, P1, "KH")  # 85 vs 85: Jaina keeps initiative (INI-2)
    draw(g, P2, "JS")
    # when Grave dodges on turn 2, he takes 2 per copy in her discard pile
    fight(g, commit("4C", "attack"), commit("2D", "dodge"))
    assert g.life[1] == 90 - 5 - 4


def test_jaina_cannot_power_up_with_smoldering_embers() -> None:
    # a pair of 10s is not a set for her ("You can't power up with this card")
    g = recorded_game("TH TC 2C 3C 4C 5C 6C", PLAIN, p1="jaina", p2="grave")
    fight(g, commit(None), commit(None))
    g.apply(P1, Pass())  # C4: Smoldering Embers not played
    assert g.turn == 2  # no Power Up decision was offered
    g2 = recorded_game("TH TC 2C 3C 4C 5C 6C", PLAIN, p1="grave", p2="grave")
    fight(g2, commit(None), commit(None))
    assert g2.step == "P2" and g2.legal_actions(P1)[0] == PowerUp()


def test_vigor_returns_queen_pump_cards_not_queens_above_35__FR_JAINA_1_FR_JAINA_3() -> None:
    # Dragonheart (Q, +5 with 1 card of any kind) pumped with an Unstable Power card (a 7)
    g = recorded_game("QH 7C 2C 3C 4C 5C 6C", PLAIN, p1="jaina", p2="grave")
    fight(g, commit("QH", "attack"), commit("2D", "attack"))
    g.apply(P2, Pass())  # may Rewind (a pumpable Ender, RW-CAN-4)
    g.apply(P1, Pump(0, (card("7C"),)))  # the combo is over: Ender, pump paid in full
    assert g.life == (85, 90 - 8 - 5)
    # then: the Queen cannot come back above 35 life, but the 7 used as a pump can
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility("Burning Vigor", cards=cards("QH")))
    assert err.value.rule_id == "AB-1"
    g.apply(P1, UseAbility("Burning Vigor", cards=cards("7C")))
    assert card("7C") in g.state(P1).hand and g.life[0] == 85 - 3


def test_burning_vigor_returns_an_attack_that_did_not_hit__FR_JAINA_2() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 7C KC", PLAIN, p1="jaina", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    draw(g, P1, "9C")
    draw(g, P2, "9S")
    g.apply(P2, Pass())
    g.apply(P1, UseAbility("Burning Vigor", cards=cards("5C")))
    assert card("5C") in g.state(P1).hand and g.life[0] == 85 - 3


def test_burning_desperation_returns_letter_j_and_its_ace_for_4_each__FR_JAINA_2() -> None:
    g = recorded_game("AC AD 3C 4C 5C 6C KC", PLAIN, p1="jaina", p2="grave")
    g.state(P1).life = 30
    fight(g, commit("AC", "attack", "Letter J"), commit("5D", "block"))
    # C3: the only other Ace pays automatically (one choice); the block beats Letter J
    draw(g, P2, "9S")
    g.apply(P2, Pass())
    g.apply(P1, UseAbility("Burning Vigor", cards=cards("AC AD")))
    assert {card("AC"), card("AD")} <= set(g.state(P1).hand)
    # Letter J's block damage went to the blocker; she pays 4 per Ace returned
    assert g.life == (30 - 4 - 4, 90 - 4)


def test_burning_vigor_needs_an_attack_combat_card__FR_JAINA_4() -> None:
    # she throws, then combos attacks: no Burning Vigor decision
    g = recorded_game("8C 2C 3C 4C 5C 6C KC", PLAIN, p1="jaina", p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "block"))
    g.apply(P2, Pass())
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))
    g.apply(P1, Stop())
    assert g.turn == 2  # straight on: no Burning Vigor window


def test_rewind_time_does_not_stop_burning_vigor__FR_JAINA_6_RW_7() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 7C KC", "X1 3D 4D 5D 6D 8D 9D", p1="jaina", p2="grave")
    fight(g, commit("2C", "attack"), commit(None))
    draw(g, P1, "9C")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("3C"))
    g.apply(P1, combo("4C"))
    g.apply(P1, Stop())
    draw(g, P2, "JS")  # the Rewind draw (damage was prevented)
    draw(g, P2, "JH")
    g.apply(P1, UseAbility("Burning Vigor", cards=cards("2C 3C 4C")))
    assert g.life == (85 - 9, 90 - 2)


def test_pump_after_a_rotation__FR_JAINA_8() -> None:
    # her 6 is Attack / Knee Bash (throw, +4 per card, up to 2): rotate into the throw, pump it
    g = _jaina_turn_two("7H 6C 2C 3C 4C 5C KC")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("6C", "attack"), commit("5D", "block"))
    g.apply(P1, UseAbility("Unstable Power", option="rotate"))
    g.apply(P2, Pass())  # Knee Bash is Can't Combo but pumpable: Rewind allowed (RW-CAN-4)
    g.apply(P1, Pump(0, cards("2C 3C")))  # the combo is over: Can't Combo, pumps paid
    g.apply(P1, Search((), cards("AH AS")))  # Unstable Power: she hit
    assert g.life[1] == 90 - 7 - 8


def test_unstable_power_played_as_an_ability_is_not_a_combo_card__FR_JAINA_3() -> None:
    g = _jaina_turn_two("7H 2C 3C 4C 5C 6C KC")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    g.apply(P1, Pass())  # no rotation
    draw(g, P1, "9C")
    draw(g, P2, "9S")
    g.apply(P2, Pass())  # Grave's innate
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility("Burning Vigor", cards=cards("7H")))
    assert err.value.rule_id == "AB-1" and "not one of her combo cards" in err.value.reason


def test_burning_vigor_is_an_innate_and_cannot_be_countered__CTR_8_AB_1() -> None:
    """CTR-8: Mental Toughness can't counter character cards. Grave holds it (10 + face
    card), yet no reaction window follows Jaina's announced returns."""
    g = recorded_game("2C 3C 4C 5C 6C 8C KC", "2D 3D 4D 5D TD QD 9D", p1="jaina", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    draw(g, P1, "9C")
    draw(g, P2, "9S")
    g.apply(P2, Pass())
    g.apply(P1, UseAbility("Burning Vigor", cards=cards("5C")))
    assert card("5C") in g.state(P1).hand
    assert g.step == "P2"  # straight on to Power Up (Grave's pair of 9s), no reaction window
