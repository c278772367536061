"""Gloria (docs/rules/characters/gloria.md): the innate Healing Touch, Healing Sphere, Bathed in
Moonlight and Overdose, with the heal cap (GEN-8).

Gloria is P1 (70 life) against Grave (P2, 90 life): with less life she has initiative (INI-1),
so she acts first in every window."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules_engine import effects
from rules_engine.actions import NoCard, Pass, Search, Stop, UseAbility
from rules_engine.cards import card
from rules_engine.characters import abilities_implemented
from rules_engine.characters.gloria import (
    BATHED,
    HEALING_SPHERE,
    HEALING_TOUCH,
    OVERDOSE,
    GloriaRules,
)
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.replay import replay
from rules_engine.selfplay import play_game

from .helpers import P1, P2, cards, combo, commit, draw, fight, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
COUNTER = "2D 3D 4D 5D 6D TD KD"  # Grave with Mental Toughness
GLORIA = "TC JC AC 2C 3C 4S 5H"


def _touch(*codes: str) -> UseAbility:
    return UseAbility(HEALING_TOUCH, cards=cards(" ".join(codes)))


def _to_k1(g: Game) -> None:
    """Pass Gloria's end-of-combat window (Overdose is playable whenever she holds an Ace)."""
    if (g.step, g.actor) == ("C13", P1):
        g.apply(P1, Pass())


def _turn_two(hand: str = GLORIA, grave: str = PLAIN, d1: str = "6S", d2: str = "JS") -> Game:
    """Turn 1: both no-card, Gloria declines Healing Touch; turn 2: the draws."""
    g = recorded_game(hand, grave, p1="gloria", p2="grave")
    fight(g, NoCard(), NoCard())
    _to_k1(g)
    assert (g.step, g.actor) == ("K1", P1)  # Healing Touch is offered after Power Up
    g.apply(P1, Pass())
    draw(g, P1, d1)
    draw(g, P2, d2)
    return g


def test_gloria_is_implemented__registry() -> None:
    assert abilities_implemented("gloria")


# --- Healing Touch ------------------------------------------------------------------------


def test_healing_touch_heals_4_and_fetches_a_hearts_card__GEN_8_AB_1() -> None:
    """gloria.md Healing Touch: after the Power Up phase (here the K1 window that follows it),
    discard two non-Hearts cards to gain 4 life and fetch a Hearts card from the discard pile;
    with two Hearts there the choice is a ``search`` event."""
    g = recorded_game("7H 8H 2C 3C 4S 5C 6C", PLAIN, p1="gloria", p2="grave")
    fight(g, commit("7H", "throw"), commit("5D", "attack"))  # her throw loses to the attack
    draw(g, P2, "KD")  # Grave's normal attack won (C7)
    g.apply(P1, Pass())  # no Rewind card
    g.apply(P2, Stop())
    assert g.life == (70 - 5, 90) and card("7H") in g.state(P1).discard
    # K1: Healing Touch with 4S and 5C
    assert (g.step, g.actor) == ("K1", P1)
    assert _touch("4S", "5C") in g.legal_actions(P1)
    g.apply(P1, _touch("4S", "5C"))
    assert g.life == (69, 90)  # 65 + 4
    ps = g.state(P1)
    assert card("7H") in ps.hand and {card("4S"), card("5C")} <= set(ps.discard)


def test_healing_touch_never_heals_above_70_and_chooses_among_hearts__GEN_8() -> None:
    g = _turn_two(hand="TC JC AC 2C 3C 4S 5H")
    g.apply(P1, Pass())  # no Healing Sphere
    fight(g, commit("5H", "attack"), commit("2D", "dodge"))  # dodged: 5H discarded
    g.apply(P1, Pass())  # Gloria's Rewind window (RW-CAN-1)
    g.apply(P2, Stop())  # Grave does not hit back
    _to_k1(g)
    g.state(P1).discard.append(card("9H"))  # a second Hearts card (test setup)
    g.state(P1).deck.remove(card("9H"))
    g.apply(P1, _touch("2C", "3C"))
    assert (g.step, g.actor) == ("K1", P1)
    assert sorted(a.from_discard[0].code for a in g.legal_actions(P1)) == ["5H", "9H"]  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Search((card("TC"),), ()))
    assert err.value.rule_id == "AB-1"
    g.apply(P1, Search((card("9H"),), ()))
    assert g.life[0] == 70 and card("9H") in g.state(P1).hand  # capped at 70 (GEN-8)


def test_healing_touch_refuses_hearts_and_cards_not_in_hand__AB_1() -> None:
    g = recorded_game(GLORIA, PLAIN, p1="gloria", p2="grave")
    fight(g, NoCard(), NoCard())
    _to_k1(g)
    for wrong in (_touch("2C", "5H"), _touch("2C", "KC"), _touch("2C"), _touch("2C", "2C")):
        with pytest.raises(IllegalActionError) as err:
            g.apply(P1, wrong)
        assert err.value.rule_id == "AB-1"


def test_healing_touch_is_played_after_power_up_only__WIN_ENDTURN() -> None:
    g = _turn_two()
    assert g.step == "T3"  # Healing Sphere (the 10) opens the draw-phase window for her
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, _touch("2C", "3C"))
    assert err.value.rule_id == "WIN-ENDTURN"


def test_no_healing_touch_while_knocked_down__AB_1_KD_6() -> None:
    """Knocked down by this turn's combat (the token lies from C13, KD-6): not offered."""
    g = recorded_game(GLORIA, PLAIN, p1="gloria", p2="grave")
    fight(g, commit("2C", "block"), commit("9D", "throw"))  # knockdown throw
    g.apply(P1, Pass())  # no Rewind card
    g.apply(P2, Stop())
    assert g.state(P1).knockdown_next
    _to_k1(g)
    assert g.turn == 2  # the K1 window did not open for her
    rules = g.rules[P1]
    assert isinstance(rules, GloriaRules)
    g.state(P1).knockdown_next = True  # as at K1 of turn 1
    with pytest.raises(Exception) as err:
        rules.check(g, g.state(P1), "end_of_turn", _touch("3C", "4S"))
    assert getattr(err.value, "rule_id", None) == "AB-1" and "knocked down" in str(err.value)


# --- Healing Sphere -----------------------------------------------------------------------


def test_healing_sphere_draws_when_she_healed_and_stays__AB_2_WIN_ENDTURN() -> None:
    g = _turn_two()
    g.apply(P1, UseAbility(HEALING_SPHERE, card("TC")))
    assert effects.is_active(g.state(P1), HEALING_SPHERE)
    assert g.public_view(P2)["players"]["P1"]["ongoing"][0]["card"] == "TC"  # type: ignore[index]
    fight(g, NoCard(), NoCard())
    _to_k1(g)
    g.apply(P1, _touch("2C", "3C"))  # heals (at max life: it still counts)
    assert (g.step, g.actor) == ("K1", P1)  # the Sphere's draw (recorded game)
    draw(g, P1, "QC")
    ps = g.state(P1)
    assert card("QC") in ps.hand and effects.is_active(ps, HEALING_SPHERE)


def test_healing_sphere_is_discarded_when_she_did_not_heal() -> None:
    g = _turn_two()
    g.apply(P1, UseAbility(HEALING_SPHERE, card("TC")))
    fight(g, NoCard(), NoCard())
    _to_k1(g)
    g.apply(P1, Pass())  # no Healing Touch: no heal this turn
    ps = g.state(P1)
    assert g.turn == 3 and not ps.ongoing and card("TC") in ps.discard


def test_healing_sphere_draws_then_is_discarded_when_thrown__AR_THR_2() -> None:
    g = _turn_two(hand="TC JC AC 2C 3C 4S 5H")
    g.apply(P1, UseAbility(HEALING_SPHERE, card("TC")))
    fight(g, commit("2C", "block"), commit("8D", "throw"))  # thrown
    g.apply(P1, Pass())
    g.apply(P2, combo("2D"))  # not a knockdown finish: she may still use Healing Touch
    g.apply(P2, Stop())
    _to_k1(g)
    assert (g.step, g.actor) == ("K1", P1)
    g.apply(P1, _touch("3C", "4S"))
    draw(g, P1, "QC")  # she healed: the Sphere draws first ...
    ps = g.state(P1)
    assert card("QC") in ps.hand and card("TC") in ps.discard  # ... then goes (thrown)


def test_healing_sphere_needs_a_ten_and_the_draw_phase__AB_2_WIN_DRAW() -> None:
    g = _turn_two()
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(HEALING_SPHERE, card("2C")))
    assert err.value.rule_id == "AB-2"
    g.apply(P1, Pass())
    fight(g, NoCard(), NoCard())
    _to_k1(g)
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(HEALING_SPHERE, card("TC")))  # K1: too late
    assert err.value.rule_id == "WIN-DRAW"


def test_healing_sphere_is_countered_only_as_it_is_played__CTR_4() -> None:
    g = _turn_two(grave=COUNTER)
    g.apply(P1, UseAbility(HEALING_SPHERE, card("TC")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    ps = g.state(P1)
    assert not ps.ongoing and card("TC") in ps.discard


# --- Bathed in Moonlight ------------------------------------------------------------------


def _moonlight(grave: str = PLAIN) -> Game:
    """Turn 1: Gloria's Ray of Moonlight (J, 4.0) beats Grave's throw and hits for 9."""
    g = recorded_game("JC JD AC 2C 3C 4S 5H", grave, p1="gloria", p2="grave")
    fight(g, commit("JC", "attack", "Ray of Moonlight"), commit("9D", "throw"))
    g.apply(P2, Pass())  # Grave's Rewind window
    g.apply(P1, Stop())
    assert (g.step, g.actor) == ("C13", P1) and g.life == (70, 81)
    return g


def test_bathed_in_moonlight_returns_the_jack_and_heals_both__GEN_8() -> None:
    g = _moonlight()
    assert UseAbility(BATHED, card("JC")) in g.legal_actions(P1)
    assert UseAbility(BATHED, card("JD")) not in g.legal_actions(P1)  # did not hit
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(BATHED, card("JD")))
    assert err.value.rule_id == "AB-2"
    g.apply(P1, UseAbility(BATHED, card("JC")))
    assert card("JC") in g.state(P1).hand and g.state(P1).combat_card is None
    assert g.life == (70, 85)  # she is capped at 70 (GEN-8), Grave heals 4


def test_bathed_in_moonlight_for_a_jack_played_in_the_combo() -> None:
    g = recorded_game("7C JD AC 2C 3C 4S 5H", PLAIN, p1="gloria", p2="grave")
    fight(g, commit("7C", "throw"), commit("5D", "block"))  # throw beats block
    g.apply(P2, Pass())
    g.apply(P1, combo("JD", "attack", "Moonlight Sphere"))  # a Linker after her Starter
    g.apply(P1, Stop())
    assert UseAbility(BATHED, card("JD")) in g.legal_actions(P1)
    g.apply(P1, UseAbility(BATHED, card("JD")))
    assert card("JD") in g.state(P1).hand and g.life == (70, 90 - 6 - 5 + 4)


def test_bathed_in_moonlight_is_played_at_end_of_combat__WIN_ENDCOMBAT() -> None:
    g = recorded_game("TC JC AC 2C 3C 4S 5H", PLAIN, p1="gloria", p2="grave")
    fight(g, NoCard(), NoCard())
    _to_k1(g)
    g.apply(P1, Pass())  # K1
    draw(g, P1, "6S")
    draw(g, P2, "JS")
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(BATHED, card("JC")))
    assert err.value.rule_id == "WIN-ENDCOMBAT"


def test_countered_bathed_in_moonlight_heals_nobody__CTR_3() -> None:
    g = _moonlight(grave="2D 3D 4D 5D TD KD 9D")
    g.apply(P1, UseAbility(BATHED, card("JC")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    assert g.life == (70, 81)
    g.apply(P1, Pass())
    assert card("JC") in g.state(P1).discard  # C13c: discarded with the combat area


# --- Overdose -----------------------------------------------------------------------------


def test_overdose_deals_10_to_both_and_draws_2_after_a_win() -> None:
    g = _moonlight()
    g.apply(P1, UseAbility(OVERDOSE, card("AC")))
    draw(g, P1, "KC")
    draw(g, P1, "QC")
    assert g.life == (60, 71) and card("AC") in g.state(P1).discard
    # only one Overdose per turn: another Ace is refused (Bathed keeps her priority)
    g.state(P1).hand.append(card("AD"))
    g.state(P1).deck.remove(card("AD"))
    assert UseAbility(OVERDOSE, card("AD")) not in g.legal_actions(P1)
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(OVERDOSE, card("AD")))
    assert err.value.rule_id == "AB-2" and "one Overdose per turn" in err.value.reason


def test_overdose_without_a_win_draws_nothing() -> None:
    g = recorded_game("7C JD AC 2C 3C 4S 5H", PLAIN, p1="gloria", p2="grave")
    fight(g, commit("7C", "throw"), commit("5D", "attack"))  # the attack wins
    draw(g, P2, "KD")
    g.apply(P1, Pass())
    g.apply(P2, Stop())
    assert (g.step, g.actor) == ("C13", P1)
    hand = len(g.state(P1).hand)
    g.apply(P1, UseAbility(OVERDOSE, card("AC")))
    assert g.life == (70 - 5 - 10, 80)
    assert g.step == "K1" and len(g.state(P1).hand) == hand - 1  # no draw: on to K1


def test_overdose_hurts_gloria_first__END_2() -> None:
    """"Both players take 10 damage (you first)": with both at 10 or less, she is defeated
    first and the game ends at once (END-2): Grave wins, no double KO."""
    g = _moonlight()
    g.state(P1).life, g.state(P2).life = 10, 10
    g.apply(P1, UseAbility(OVERDOSE, card("AC")))
    assert g.outcome is not None and g.outcome.winner is P2 and g.life == (0, 10)


def test_overdose_is_played_at_end_of_combat_with_an_ace__WIN_ENDCOMBAT_AB_2() -> None:
    g = _turn_two()
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(OVERDOSE, card("AC")))
    assert err.value.rule_id == "WIN-ENDCOMBAT"
    h = _moonlight()
    with pytest.raises(IllegalActionError) as err:
        h.apply(P1, UseAbility(OVERDOSE, card("2C")))
    assert err.value.rule_id == "AB-2"


def test_overdose_an_ace_is_not_countered_and_uses_the_limit__CTR_8() -> None:
    """CTR-8: Overdose is printed on her Aces: Grave's Mental Toughness is not offered, it
    resolves, and a second Overdose that turn is refused ("Play only one Overdose per turn")."""
    g = _moonlight(grave="2D 3D 4D 5D TD KD 9D")
    g.state(P1).hand.append(card("AD"))
    g.state(P1).deck.remove(card("AD"))
    g.apply(P1, UseAbility(OVERDOSE, card("AC")))
    assert g.life == (60, 71)
    assert UseAbility(OVERDOSE, card("AD")) not in g.legal_actions(P1)


# --- bots ---------------------------------------------------------------------------------


def test_bots_play_every_gloria_ability_and_replay_legal() -> None:
    """Self-play: the random and the greedy bot use all four abilities; every log replays
    legal with the same result and final position."""
    used: dict[str, Counter[str]] = {"random": Counter(), "greedy": Counter()}
    for n in range(24):
        bot = "greedy" if n % 2 else "random"
        opp = ("grave", "jaina", "midori", "gloria", "rook", "zane")[n % 6]
        game, log = play_game("gloria", opp, 70 + n, bot=bot)
        verdict = replay(log.dumps())
        assert verdict.status == "legal", verdict.summary()
        assert verdict.final is not None and verdict.final["position"] == game.fingerprint()
        for e in log.to_json()["events"]:
            if e["action"] == "ability" and e["player"] == "P1":
                used[bot][e["ability"]] += 1
    for bot in used:
        assert {HEALING_TOUCH, HEALING_SPHERE, BATHED, OVERDOSE} <= set(used[bot]), used


def test_greedy_bathes_always_and_overdoses_after_a_win() -> None:
    from rules_engine.bots import GreedyBot

    g = _moonlight()
    assert GreedyBot(0).choose(g, P1, g.legal_actions(P1)) == UseAbility(BATHED, card("JC"))
    g.apply(P1, UseAbility(BATHED, card("JC")))
    assert GreedyBot(0).choose(g, P1, g.legal_actions(P1)) == UseAbility(OVERDOSE, card("AC"))


WINDOWS = ("draw_phase", "combat_reveal", "power_up", "full_combo", "end_of_combat",
           "end_of_turn")


@pytest.mark.interpreted_only  # every window is watched by wrapping GameCore.window
def test_can_act_answers_whether_the_window_lists_an_ability(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # given Gloria's can_act, which works out the answer without building the options
    # (Healing Touch's are every pair of cards): at every window of random and greedy games,
    # asked about every window, it agrees with window_options
    from rules_engine.game.core import GameCore

    window = GameCore.window
    asked = Counter[bool]()

    def checked(self: GameCore, step: str, name: str) -> Any:
        for ps in self.seated:
            rules = self.rules[ps.player]
            if isinstance(rules, GloriaRules):
                for w in WINDOWS:
                    can = rules.can_act(self, ps, w)
                    assert can is bool(rules.window_options(self, ps, w)), (w, step)
                    asked[can] += 1
        return window(self, step, name)

    monkeypatch.setattr(GameCore, "window", checked)
    for seed, (opponent, bot) in enumerate([("grave", "random"), ("lum", "greedy"),
                                            ("gloria", "random"), ("rook", "greedy"),
                                            ("setsuki", "random"), ("troq", "greedy")]):
        play_game("gloria", opponent, 300 + seed, bot=bot)
    assert asked[True] > 20 and asked[False] > 100  # both answers were checked
