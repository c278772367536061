"""Lum (docs/rules/characters/lum.md): Roll the Dice, Jackpot, Poker Flourish, Blackjack, the
FR-LUM rulings and the decisions of lum.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Draw, Pass, Reveal, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.characters import IMPLEMENTED
from rules_engine.characters.lum import blackjack_totals, poker_effects
from rules_engine.game import Game
from rules_engine.journal import DamageDealt

from . import helpers
from .helpers import (
    P1,
    P2,
    cards,
    combo,
    commit,
    draw,
    fight,
    finish_turn,
    illegal_rule,
    recorded_game,
)

GRAVE = "5D 6D 7D 2D 3D 4D 9D"
ROLL, JACKPOT, POKER, BLACKJACK = "Roll the Dice", "Jackpot", "Poker Flourish", "Blackjack"


def _hit(hand: str = "3C 4C 7C JC QC AC TC", opp: str = GRAVE, *, p2: str = "grave") -> Game:
    """Turn 1: Lum's 3 attack hits the opponent's no-card; no combo; at the C13 window."""
    g = recorded_game(hand, opp, p1="lum", p2=p2)
    fight(g, commit("3C", "attack"), commit(None))
    draw(g, P1, "5C")  # C7
    g.apply(P2, Pass())  # C9
    g.apply(P1, Stop())
    assert g.step == "C13"
    return g


def _t2(g: Game, lum: str, opp: str) -> None:
    """T2's two draws, in initiative order."""
    for _ in range(2):
        draw(g, g.actor, lum if g.actor is P1 else opp)  # type: ignore[arg-type]


def _roll(g: Game, top: str) -> None:
    g.apply(P1, UseAbility(ROLL))
    g.apply(P1, Draw(card(top)))  # the top card of his deck, discarded (recorded log)


# --- Roll the Dice (innate) ---------------------------------------------------------------------
def test_roll_4_to_10_knocks_the_opponent_down_for_next_turns_combat__FR_LUM_1() -> None:
    """lum.md, Roll the Dice: after his attack dealt damage he may discard the top card; 4-10:
    "knock the opponent down until the end of combat next turn" (KD-3)."""
    g = _hit()
    assert UseAbility(ROLL) in g.legal_actions(P1)
    _roll(g, "6C")
    assert card("6C") in g.state(P1).discard
    g.apply(P1, UseAbility(ROLL, option="knockdown"))
    assert g.state(P2).knockdown_next
    finish_turn(g, 1)
    _t2(g, "9C", "9H")
    assert g.turn == 2 and g.state(P2).knocked_down
    while g.step == "T3":
        g.apply(g.actor, Pass())  # type: ignore[arg-type]
    fight(g, commit(None), commit(None))
    assert g.step != "C1" and not g.state(P2).knocked_down  # stood up after that combat


def test_roll_is_once_a_combat_and_needs_an_attacks_damage__FR_LUM_2() -> None:
    """FR-LUM-2: at most once per combat; FR-LUM-1: only when his attack dealt damage."""
    g = _hit()
    g.apply(P1, UseAbility(ROLL))  # rolled: its top card is due
    assert illegal_rule(g, P1, UseAbility(ROLL)) == "GEN-4"
    rules = g.rules[P1]
    from rules_engine.errors import RuleViolation

    with pytest.raises(RuleViolation) as err:
        rules.check(g, g.state(P1), "end_of_combat", UseAbility(ROLL))
    assert err.value.rule_id == "FR-LUM-2"
    # a throw that hits is not an attack: no roll (the window does not open)
    g = recorded_game("6C 4C 7C JC QC AC TC", GRAVE, p1="lum", p2="grave")
    fight(g, commit("6C", "throw"), commit(None))
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert g.step != "C13"
    with pytest.raises(RuleViolation) as err:
        rules = g.rules[P1]
        rules.rolled = False  # type: ignore[attr-defined]
        rules.check(g, g.state(P1), "end_of_combat", UseAbility(ROLL))
    assert err.value.rule_id == "FR-LUM-1"


def test_roll_not_offered_after_blackjack_damage__FR_LUM_1() -> None:
    """FR-LUM-1: "the Blackjack ability on his Ace's dodge does not" trigger Roll the Dice."""
    g = _blackjack()
    g.apply(P1, Draw(card("TS")))
    g.apply(P1, UseAbility(BLACKJACK, option="deal"))
    g.apply(P1, Draw(card("9S")))
    g.apply(P1, UseAbility(BLACKJACK, option="stop"))
    assert g.life[1] == 90 - 19
    assert UseAbility(ROLL) not in g.legal_actions(g.actor)  # type: ignore[arg-type]
    assert g.step != "C13"


def test_roll_2_or_3_gains_4_life_or_draws_the_bottom_card() -> None:
    """lum.md, Roll the Dice, 2-3: "you gain 4 life -OR- draw the bottom card of your deck"."""
    g = _hit()
    g.state(P1).life = 80
    _roll(g, "2S")
    assert illegal_rule(g, P1, UseAbility(ROLL, option="knockdown")) == "AB-1"
    g.apply(P1, UseAbility(ROLL, option="life"))
    assert g.life[0] == 84
    g = _hit()
    _roll(g, "3S")
    g.apply(P1, UseAbility(ROLL, option="bottom"))
    hand = len(g.state(P1).hand)
    g.apply(P1, Draw(card("KS")))  # recorded log: the bottom card is named
    assert len(g.state(P1).hand) == hand + 1 and card("KS") in g.state(P1).hand


def test_roll_4_to_10_returns_face_cards_of_the_combo_with_pumps__FR_LUM_3() -> None:
    """FR-LUM-3: on a 4-10 he returns to hand the face cards of his combo, pump cards
    included."""
    g = recorded_game("3C JC QC QD 7C 8C TC", GRAVE, p1="lum", p2="grave")
    fight(g, commit("JC", "attack", "Coin Toss"), commit(None))
    g.apply(P2, Pass())
    g.apply(P1, combo("QC", "attack", "Rolling Panda"))
    from rules_engine.actions import Pump

    g.apply(P1, Pump(1, cards("QD")))
    assert g.step == "C13"
    _roll(g, "6S")
    g.apply(P1, UseAbility(ROLL, option="return"))
    finish_turn(g, 1)
    hand = g.state(P1).hand
    assert {card("JC"), card("QC"), card("QD")} <= set(hand)
    assert card("6S") in g.state(P1).discard


def test_roll_face_card_slows_the_opponents_attacks_next_turn() -> None:
    """lum.md, Roll the Dice, J/Q/K: "opponent's attacks and throws are 4 speed slower next
    turn" (slower = a higher number): Grave's 2 (2.6) loses to Lum's 4 (4.4)."""
    g = _hit()
    _roll(g, "KS")
    finish_turn(g, 1)
    _t2(g, "9C", "9H")
    while g.step == "T3":
        g.apply(g.actor, Pass())  # type: ignore[arg-type]
    life = g.life
    fight(g, commit("4C", "attack"), commit("2D", "attack"))
    draw(g, P1, "2H")  # C7: Lum won
    assert g.life[1] == life[1] - 4 and g.life[0] == life[0]


def test_roll_ace_draws_3_and_joker_deals_1_to_lum() -> None:
    """lum.md, Roll the Dice, A: "draw 3 cards, then peek at the bottom card"; Joker: "you take
    1 damage"."""
    g = _hit()
    hand = len(g.state(P1).hand)
    _roll(g, "AS")
    for code in ("2S", "3S", "4S"):
        draw(g, P1, code)
    assert len(g.state(P1).hand) == hand + 3
    assert "deck_bottom" not in g.public_view(P1)["players"]["P1"]  # type: ignore[index]
    g = _hit()
    _roll(g, "X1")
    assert g.life[0] == 90 - 1


def test_roll_ace_peek_is_shown_to_lum_only__GEN_9() -> None:
    """GEN-9: the bottom card Lum peeked at (seeded game) is in his view, not the opponent's."""
    g = Game(characters()["lum"], characters()["grave"], seed=5)
    lum = g.state(P1)
    g.rules[P1].rolled = False  # type: ignore[attr-defined]
    ace = next(c for c in lum.deck if c.rank is not None and c.rank.code == "A")
    lum.deck.remove(ace)
    lum.deck.insert(0, ace)
    g.rules[P1].attack_hit = True  # type: ignore[attr-defined]
    bottom = lum.deck[-1]
    g.peek_bottom(lum)
    assert g.public_view(P1)["players"]["P1"]["deck_bottom"] == bottom.code  # type: ignore[index]
    assert "deck_bottom" not in g.public_view(P2)["players"]["P1"]  # type: ignore[index]
    assert "deck_bottom" not in g.public_view(None)["players"]["P1"]  # type: ignore[index]


# --- Jackpot (7) ---------------------------------------------------------------------------------
def _draw_phase(hand: str = "3C 4C 7C JC QC AC 8C", opp: str = GRAVE) -> Game:
    """Turn 2's draw phase (T3), both players blocked on turn 1."""
    g = recorded_game(hand, opp, p1="lum", p2="grave")
    fight(g, commit(None), commit(None))
    finish_turn(g, 1)
    _t2(g, "9C", "AD")
    assert g.step == "T3"
    return g


def test_jackpot_reveals_an_ace_7_damage_and_another_draw() -> None:
    """lum.md, Jackpot: "draw a card, then the opponent reveals a card from their hand at random.
    If it's an Ace, they take 7 damage and you draw another card"."""
    g = _draw_phase()
    g.apply(P1, UseAbility(JACKPOT, card("7C")))
    draw(g, P1, "2S")
    assert illegal_rule(g, P2, Reveal(card("AS"))) == "GEN-6"  # not in Grave's hand
    g.apply(P2, Reveal(card("AD")))
    draw(g, P1, "3S")
    assert g.life[1] == 90 - 7
    assert card("7C") in g.state(P1).discard and card("3S") in g.state(P1).hand


def test_jackpot_reveals_a_joker_lum_takes_2() -> None:
    """lum.md, Jackpot: "If it's a Joker, you take 2 damage"."""
    g = recorded_game("3C 4C 7C JC QC AC 8C", "5D 6D 7D 2D 3D 4D X1", p1="lum", p2="grave")
    fight(g, commit(None), commit(None))
    finish_turn(g, 1)
    _t2(g, "9C", "9D")
    g.apply(P1, UseAbility(JACKPOT, card("7C")))
    draw(g, P1, "2S")
    g.apply(P2, Reveal(card("X1")))
    assert g.life[0] == 90 - 2 and g.life[1] == 90


def test_jackpot_illegal_uses__AB_2() -> None:
    """AB-2: Jackpot is played with a 7, in the draw phase (WIN-DRAW)."""
    g = _draw_phase()
    assert illegal_rule(g, P1, UseAbility(JACKPOT, card("8C"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(JACKPOT, card("7S"))) == "AB-2"  # not in hand
    assert illegal_rule(g, P1, UseAbility(POKER, card("8C"))) == "WIN-ENDTURN"
    assert illegal_rule(g, P1, UseAbility(JACKPOT, card("7C"), option="x")) == "AB-2"


# --- Poker Flourish (10) -------------------------------------------------------------------------
def _end_of_turn(hand: str, discard_top: str, opp: str = GRAVE) -> Game:
    """Turn 1's end-of-turn window; the top of Lum's discard pile is forced to ``discard_top``."""
    g = recorded_game(hand, opp, p1="lum", p2="grave")
    lum = g.state(P1)
    for code in discard_top.split():
        c = card(code)
        if c in lum.deck:
            lum.deck.remove(c)
        lum.discard.append(c)
    fight(g, commit(None), commit(None))
    from rules_engine.actions import PowerUp

    while g.step != "K1" or not any(isinstance(a, UseAbility)
                                    for a in g.legal_actions(g.actor)):  # type: ignore[arg-type]
        assert g.turn == 1
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        g.apply(g.actor, next(a for a in (Pass(), Stop(), PowerUp()) if a in legal))  # type: ignore[arg-type]
    return g


def test_poker_flourish_full_house_deals_7__FR_LUM_4() -> None:
    """lum.md, Poker Flourish: "Full House — deal 7 damage"; the shown cards stay in hand and
    the 10 is discarded."""
    g = _end_of_turn("TC 5C 5D 8H 2C 3C 4C", "5H 8S")
    action = UseAbility(POKER, card("TC"), cards("5C 5D 8H"), "full_house")
    assert action in g.legal_actions(P1)
    g.apply(P1, action)
    assert g.life[1] == 90 - 7
    assert card("TC") in g.state(P1).discard and card("5C") in g.state(P1).hand


def test_poker_flourish_wrong_hand_or_window_is_refused__FR_LUM_4() -> None:
    """FR-LUM-4: Jokers are not wild; a hand that does not make the poker hand named is refused;
    out of its window (WIN-ENDTURN) and without a 10 (AB-2)."""
    g = _end_of_turn("TC 5C X1 8H 8D 3C 4C", "5H 8S")
    assert illegal_rule(g, P1, UseAbility(POKER, card("TC"), cards("5C X1 8H"),
                                      "full_house")) == "FR-LUM-4"
    assert illegal_rule(g, P1, UseAbility(POKER, card("4C"), cards("2C 3C"), "flush")) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(JACKPOT, card("TC"))) == "WIN-DRAW"
    assert poker_effects(cards("5H 8S 5C X1 8H"))[0] == set()


def test_poker_flourish_ace_low_straight_searches_the_deck__FR_LUM_4() -> None:
    """FR-LUM-4: straights may run A-5; Straight: "search your deck for any card"."""
    g = _end_of_turn("TC 3C 4C 5C 7C 8C 9C", "AH 2S")
    g.apply(P1, UseAbility(POKER, card("TC"), cards("3C 4C 5C"), "straight"))
    assert illegal_rule(g, P1, UseAbility(POKER, None, cards("AH"), "search")) == "AB-2"
    g.apply(P1, UseAbility(POKER, None, cards("KS"), "search"))
    assert card("KS") in g.state(P1).hand and card("KS") not in g.state(P1).deck
    assert poker_effects(cards("TH JS QC KD AH"))[0] == {"straight"}


def test_poker_flourish_straight_flush_gives_two_effects() -> None:
    """lum.md, Poker Flourish: "Straight Flush — any two of the above"; Flush: draw 3."""
    g = _end_of_turn("TC 5C 6C 7C JC QC KC", "3C 4C")
    g.apply(P1, UseAbility(POKER, card("TC"), cards("5C 6C 7C"), "flush+full_house"))
    for code in ("2S", "3S", "4S"):
        draw(g, P1, code)
    assert g.life[1] == 90 - 7


def test_poker_flourish_four_of_a_kind_deals_blackjack() -> None:
    """lum.md, Poker Flourish: "Four of a kind — discard an Ace for the Blackjack effect"."""
    g = _end_of_turn("TC 5C 5D AC JC QC KC", "5H 5S")
    g.apply(P1, UseAbility(POKER, card("TC"), cards("5C 5D"), "four_of_a_kind"))
    assert card("AC") in g.state(P1).discard
    g.apply(P1, Draw(card("KS")))
    g.apply(P1, UseAbility(BLACKJACK, option="deal"))
    g.apply(P1, Draw(card("AS")))  # 10 + 11 = 21: damage and the cards to hand
    g.apply(P1, UseAbility(BLACKJACK, option="stop"))
    assert g.life[1] == 90 - 21
    assert {card("KS"), card("AS")} <= set(g.state(P1).hand)


# --- Blackjack (the Ace's dodge) ------------------------------------------------------------------
def _blackjack(opp: str = GRAVE, attack: str = "2D") -> Game:
    g = recorded_game("AC 3C 4C 7C JC QC 8C", opp, p1="lum", p2="grave")
    fight(g, commit("AC", "dodge"), commit(attack, "attack"))
    return g


def test_blackjack_deals_the_total_and_does_not_hit_back() -> None:
    """lum.md, Blackjack: "don't hit back. Discard cards from your deck until they total more
    than 21 or you decide to stop. Deal that much damage"."""
    g = _blackjack()
    g.apply(P1, Draw(card("TS")))
    assert illegal_rule(g, P1, UseAbility(BLACKJACK, option="hit")) == "AB-3"
    g.apply(P1, UseAbility(BLACKJACK, option="deal"))
    g.apply(P1, Draw(card("5S")))
    g.apply(P1, UseAbility(BLACKJACK, option="stop"))
    assert g.life[1] == 90 - 15
    assert {card("TS"), card("5S")} <= set(g.state(P1).discard)
    assert not any(a for a in g.legal_actions(g.actor)  # type: ignore[arg-type]
                   if type(a).__name__ == "Combo")


def test_blackjack_bust_deals_nothing_and_21_returns_the_cards() -> None:
    """lum.md, Blackjack: "unless you went over 21. If you deal exactly 21, also put those cards
    into your hand" (Aces 1 or 11, face cards 10, Jokers 21)."""
    g = _blackjack()
    g.apply(P1, Draw(card("TS")))
    g.apply(P1, UseAbility(BLACKJACK, option="deal"))
    g.apply(P1, Draw(card("9S")))
    g.apply(P1, UseAbility(BLACKJACK, option="deal"))
    g.apply(P1, Draw(card("KS")))  # 29: bust
    assert g.life[1] == 90
    assert [e for e in g.journal.of(DamageDealt) if e.source is P1] == []
    g = _blackjack()
    g.apply(P1, Draw(card("X1")))  # a Joker is 21
    g.apply(P1, UseAbility(BLACKJACK, option="stop"))
    assert g.life[1] == 90 - 21 and card("X1") in g.state(P1).hand
    assert blackjack_totals(cards("AS 5S")) == (6, 16)
    assert blackjack_totals(cards("AS 5S KS")) == (16, 16)


def test_blackjack_needs_the_aces_dodge_to_win() -> None:
    """lum.md, Blackjack: "if you dodge an attack or Joker with this card": a throw beats the
    dodge, no deal."""
    g = recorded_game("AC 3C 4C 7C JC QC 8C", GRAVE, p1="lum", p2="grave")
    fight(g, commit("AC", "dodge"), commit("7D", "throw"))
    assert not any(isinstance(a, UseAbility) and a.ability == BLACKJACK
                   for a in g.legal_actions(g.actor))  # type: ignore[arg-type]
    assert g.life[0] < 90


# --- bots and self-play ---------------------------------------------------------------------------
def test_greedy_bot_rolls_and_deals_to_12() -> None:
    """Like the Training bot for Lum: Blackjack keeps dealing until the total is >= 12, then stops;
    LumRules' greedy heuristic (its class docstring) rolls the dice whenever it may."""
    g = _hit()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(ROLL)
    g = _blackjack()
    g.apply(P1, Draw(card("5S")))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(BLACKJACK, option="deal")
    g.apply(P1, UseAbility(BLACKJACK, option="deal"))
    g.apply(P1, Draw(card("8S")))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(BLACKJACK, option="stop")


def test_greedy_bot_plays_jackpot_and_the_best_poker_hand() -> None:
    """LumRules' greedy heuristic: Jackpot whenever he holds a 7; the Poker Flourish effect worth
    most."""
    g = _draw_phase()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(JACKPOT, card("7C"))
    g = _end_of_turn("TC 5C 6C 7C JC QC KC", "3C 4C")
    pick = GreedyBot().choose(g, P1, g.legal_actions(P1))
    assert isinstance(pick, UseAbility) and pick.option == "flush+full_house"  # no Ace: no 4oak


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 14: Lum against each of the 20 (both seats, random and greedy bots)."""
    assert "lum" in IMPLEMENTED
    helpers.assert_self_play_replays_legal("lum", opponent, first_seed=14)


def test_rolling_panda_block_damage_none_or_first_edition_2() -> None:
    """lum.md, Special moves: Rolling Panda's block damage "not listed; 1st ed: 2": none by
    default, 2 under opt.rollingPandaBlock=FIRST_EDITION_2 (lum.md, "Engine rulings")."""
    from rules_engine.ruleset import RollingPandaBlock, Ruleset

    for ruleset, taken in ((Ruleset(), 0),
                           (Ruleset(rollingPandaBlock=RollingPandaBlock.FIRST_EDITION_2), 2)):
        g = recorded_game("QC 3C 4C 7C JC 8C TC", GRAVE, p1="lum", p2="grave", ruleset=ruleset)
        fight(g, commit("QC", "attack", "Rolling Panda"), commit("5D", "block"))
        while g.step in ("C7", "C8"):
            g.apply(g.actor, g.legal_actions(g.actor)[0])  # type: ignore[arg-type]
        assert g.life[1] == 90 - taken


def test_recorded_log_with_a_reveal_replays_validates_and_has_a_timeline__GEN_6() -> None:
    """docs/log-format.md: a tabletop log records Jackpot's random card as the opponent's
    ``reveal`` event; it replays legal, matches the JSON Schema, gives a timeline, and a
    ``reveal`` naming a card not in that hand is refused (GEN-6)."""
    import json
    from importlib import resources

    from rules_engine.log import LogEvent, MatchLog
    from rules_engine.replay import replay
    from rules_engine.timeline import timeline

    g = _draw_phase()
    g.apply(P1, UseAbility(JACKPOT, card("7C")))
    draw(g, P1, "2S")
    g.apply(P2, Reveal(card("AD")))
    draw(g, P1, "3S")
    log = MatchLog(characters=("lum", "grave"), seed=None, ruleset=g.ruleset,
                   events=tuple(LogEvent(p, a) for p, a in g.history))
    doc = log.to_json()
    assert {"player": "P2", "action": "reveal", "card": "AD"} in doc["events"]
    verdict = replay(json.dumps(doc))  # legal up to its end (an unfinished game: END-1)
    assert verdict.first_error is not None and verdict.first_error["rule_id"] == "END-1"
    assert verdict.first_error["index"] == len(doc["events"])
    assert verdict.to_dict()["abilities_complete"] is True
    assert timeline(log)[1].turn == 2
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("rules_engine").joinpath(
        "schema/match-log-v1.json").read_text("utf-8"))
    jsonschema.validate(doc, schema)
    i = doc["events"].index({"player": "P2", "action": "reveal", "card": "AD"})
    doc["events"][i]["card"] = "KS"
    bad = replay(json.dumps(doc))
    assert bad.status == "illegal" and bad.first_error is not None
    assert bad.first_error["rule_id"] == "GEN-6"
