"""Geiger (docs/rules/characters/geiger.md): the innate Time Stop, Temporal Distortion,
Research and Development, and the FAQ rulings FR-GEIGER-1..3 (RW-14).

Geiger is P1 (90 life) against Grave (P2, 90 life): P1 wins the coin flip (helpers)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_engine import effects
from rules_engine.actions import Combo, Draw, FaceDown, NoCard, Pass, Search, Stop, UseAbility
from rules_engine.cards import MoveType, card, character
from rules_engine.characters import abilities_implemented
from rules_engine.characters.geiger import (
    RESEARCH,
    TEMPORAL_DISTORTION,
    GeigerRules,
    time_spiral_cards,
)
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.journal import Blocked
from rules_engine.replay import replay
from rules_engine.selfplay import play_game
from rules_engine.types import Actor

from .helpers import P1, P2, cards, combo, commit, draw, fight, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
GEIGER = "JC 9C 2C 3C 5C 6C TC"  # no 4 or 8: no draw-phase ability


def _spiral_blocked(hand: str = GEIGER, grave: str = PLAIN, spiral: str = "JC") -> Game:
    """Turn 1: Geiger's Time Spiral is blocked by Grave's 5D and deals its block damage."""
    g = recorded_game(hand, grave, p1="geiger", p2="grave")
    fight(g, commit(spiral, "attack"), commit("5D", "block"))
    return g


def test_geiger_is_implemented__registry() -> None:
    assert abilities_implemented("geiger")
    assert time_spiral_cards(character("geiger")) == {card("JC").rank, card("QC").rank,
                                                      card("AC").rank}


def test_time_stop_throw_after_block_damage__FR_GEIGER_1_RW_14_CB_1() -> None:
    """FR-GEIGER-1: the Time Spiral deals its block damage; Grave may place a card (RW-14,
    here he passes); Geiger throws with his 9 (a combo starting with it, CB-1), which knocks
    down. Grave draws nothing for blocking, his innate does not act, and his block is
    discarded at end of combat (AR-THR-2)."""
    g = _spiral_blocked()
    grave = g.state(P2)
    assert g.life == (90, 88)  # AR-BLK-3: block damage 2, dealt at C8c
    assert (g.step, g.actor) == ("C9", P2)  # RW-14: the face-down window comes first
    assert len(grave.hand) == 6  # no block draw (C8b) so far, no Knowing the Opponent
    g.apply(P2, Pass())
    assert (g.step, g.actor) == ("C10", P1)
    assert Stop() in g.legal_actions(P1) and combo("9C", "throw") in g.legal_actions(P1)
    assert not any(isinstance(a, Combo) and a.move is MoveType.ATTACK
                   for a in g.legal_actions(P1))  # only a throw opens it
    g.apply(P1, combo("9C", "throw"))
    g.apply(P1, Stop())
    assert g.life == (90, 88 - 8)
    assert card("5D") in grave.discard and card("5D") not in grave.hand  # thrown block
    assert len(grave.hand) == 6  # no block draw
    assert g.turn == 2 and grave.knocked_down  # the throw ended the combo: knockdown (KD-1)
    assert g.combos[-1].player is P1 and g.combos[-1].cards == ["9C"]


def test_time_stop_opening_move_must_be_a_throw__CB_1() -> None:
    g = _spiral_blocked()
    g.apply(P2, Pass())
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, combo("2C", "attack"))
    assert err.value.rule_id == "CB-1"
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, combo("8C", "throw"))  # not in hand
    assert err.value.rule_id == "CB-2"


def test_time_stop_declined_then_the_block_draws_without_innates__FR_GEIGER_1() -> None:
    g = _spiral_blocked()
    g.apply(P2, Pass())
    g.apply(P1, Stop())  # no throw
    assert (g.step, g.actor) == ("C8", P2)  # the block draw, put off until now
    draw(g, P2, "KD")
    grave = g.state(P2)
    # no Knowing the Opponent decision: Time Stop stops innates from blocking
    assert g.turn == 2 and card("5D") in grave.hand and card("KD") in grave.hand


def test_rewind_time_prevents_the_time_stop_throw__RW_14_RW_6() -> None:
    g = _spiral_blocked(grave="X1 3D 4D 5D 6D 8D 9D")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("9C", "throw"))
    g.apply(P1, Stop())
    draw(g, P2, "KD")  # RW-8: 8 damage prevented, Grave draws 2
    draw(g, P2, "KH")
    assert g.life == (90, 88)


def test_no_time_stop_without_a_time_spiral__FR_GEIGER_1() -> None:
    """Flash Gear (K) deals block damage too but is no Time Spiral: Grave draws at C8b and
    his innate may reveal a card."""
    g = _spiral_blocked(hand="KC 9C 2C 3C 5C 6C TC", spiral="KC")
    assert (g.step, g.actor) == ("C8", P2)
    draw(g, P2, "KD")
    assert (g.actor, g.legal_actions(P2)[0]) == (P2, Pass())  # Knowing the Opponent


def test_no_time_stop_when_the_block_takes_no_block_damage__FR_GEIGER_1() -> None:
    """geiger.md, Time Stop: "If your opponent *takes* block damage from a Time Spiral". Gwen's
    Gloria's Remedy takes no block damage (gwen.md), so the Fast Time Spiral stops nothing: no
    Rewind window for a Time Stop throw, no throw offered, Gwen's block is hers (its innates
    from blocking are not stopped)."""
    g = recorded_game(GEIGER, "TD 2D 3D 4D 5D 6D 8D", p1="geiger", p2="gwen")
    fight(g, commit("JC", "attack"), commit("TD", "block"))
    assert g.life == (90, 85)  # no block damage taken
    assert (g.step, g.actor) != ("C9", P2)
    assert not any(isinstance(a, Combo) for a in g.legal_actions(g.actor))  # type: ignore
    assert [b.innates for b in g.journal.of(Blocked)] == [True]


# --- Temporal Distortion ------------------------------------------------------------------


def _distorted(hand: str, grave: str = PLAIN, d1: str = "KS", d2: str = "JS") -> Game:
    """Turn 1: Geiger's Slow Time Spiral hits Grave's no-card (QC then discarded); turn 2:
    Temporal Distortion fetches it back (the only Jack or Queen in the discard pile)."""
    g = recorded_game(hand, grave, p1="geiger", p2="grave")
    fight(g, commit("QC", "attack"), NoCard())
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    draw(g, P2, d2)  # Grave (84) has initiative now
    draw(g, P1, d1)
    assert (g.step, g.actor) == ("T3", P1)
    g.apply(P1, UseAbility(TEMPORAL_DISTORTION, card("4C")))
    assert effects.is_active(g.state(P1), TEMPORAL_DISTORTION)
    assert card("QC") in g.state(P1).hand and card("4C") not in g.state(P1).discard
    return g


def test_temporal_distortion_makes_spirals_free_linkers__FR_GEIGER_2_CB_3() -> None:
    """FR-GEIGER-2: all 4 combo points spent (throw 2 + 2 + 3), the 0-point Slow Time Spiral
    may still follow, and so may Fast Time Spiral (a Linker now); each does +1 damage."""
    g = _distorted("QC 4C 9C 2C 3C JC QD")
    fight(g, commit("9C", "throw"), commit("5D", "block"))
    g.apply(P2, Pass())
    for code in ("2C", "3C"):
        g.apply(P1, combo(code))
    assert g.state(P1).combo_points_spent == 4
    g.apply(P1, combo("QC"))  # 0 points: still legal (CB-3)
    g.apply(P1, combo("JC"))  # a Linker now: the combo goes on (QD may follow)
    assert combo("QD") in g.legal_actions(P1)
    g.apply(P1, Stop())
    assert g.life == (90, 84 - 8 - 2 - 3 - 7 - 9)


def test_without_temporal_distortion_a_spiral_costs_its_point__CB_3() -> None:
    g = recorded_game("QC 9C 2C 3C KC 6C TC", PLAIN, p1="geiger", p2="grave")
    fight(g, commit("9C", "throw"), commit("5D", "block"))
    g.apply(P2, Pass())
    g.apply(P1, combo("2C"))
    assert combo("QC") in g.legal_actions(P1)  # 3 of 4 points spent: a 1-point Spiral fits
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, combo("KC"))  # Flash Gear: 2 points
    assert err.value.rule_id == "CB-3"
    g.apply(P1, combo("3C"))
    assert g.step != "C10"  # all 4 spent: the 1-point Spiral no longer fits (CB-11)


def test_a_hit_back_spiral_is_still_an_ender__FR_GEIGER_3_CB_7() -> None:
    """FR-GEIGER-3: after a winning dodge, Slow Time Spiral (a 0-point Linker under Temporal
    Distortion) as the hit-back is an Ender all the same: the combo ends with it."""
    g = _distorted("QC 4C 2C 3C 5C 6C TC")
    fight(g, commit("2C", "dodge"), commit("6D", "attack"))
    g.apply(P2, Pass())  # Grave lost to a dodge: his Rewind window (RW-CAN-1)
    assert combo("QC") in g.legal_actions(P1)
    g.apply(P1, combo("QC"))
    record = g.combos[-1]
    assert record.hit_back and record.cards == ["QC"] and card("3C") in g.state(P1).hand
    assert g.step != "C10" and g.life == (90, 84 - 7)


def test_spirals_are_immune_to_rewind_under_temporal_distortion() -> None:
    """Grave's Rewind Time Joker prevents the 2 and 3, not the Slow Time Spiral (7)."""
    g = _distorted("QC 4C 9C 2C 3C JC 6C", grave="X1 3D 4D 5D 6D 8D 9D")
    fight(g, commit("9C", "throw"), commit("5D", "block"))
    g.apply(P2, FaceDown(card("X1")))
    for code in ("2C", "3C", "QC"):
        g.apply(P1, combo(code))
    g.apply(P1, Stop())
    draw(g, P2, "KD")  # 5 damage prevented: Grave draws 2 (RW-8)
    draw(g, P2, "KH")
    assert g.life == (90, 84 - 8 - 7)
    from rules_engine.log import LogEvent, MatchLog
    from rules_engine.timeline import timeline

    log = MatchLog(characters=("geiger", "grave"), seed=None, ruleset=g.ruleset,
                   events=tuple(LogEvent(p, a) for p, a in g.history))
    summary = timeline(log)[1].combo
    assert summary is not None
    assert [(m.card, m.prevented) for m in summary.moves] == [
        ("9C", False), ("2C", True), ("3C", True), ("QC", False)]


def test_temporal_distortion_ends_when_geiger_is_hit() -> None:
    g = _distorted("QC 4C 9C 2C 3C JC 6C")
    fight(g, commit("9C", "throw"), commit("2D", "attack"))  # the attack beats the throw
    assert not effects.is_active(g.state(P1), TEMPORAL_DISTORTION)
    assert card("4C") in g.state(P1).discard


def test_temporal_distortion_needs_a_4_in_the_draw_phase__AB_2_WIN_DRAW() -> None:
    g = recorded_game("4C 8C 2C 3C 5C 6C QC", PLAIN, p1="geiger", p2="grave")
    with pytest.raises(IllegalActionError) as err:  # turn 1: no draw-phase window (T3)
        g.apply(P1, UseAbility(TEMPORAL_DISTORTION, card("4C")))
    assert err.value.rule_id == "C1"
    rules = g.rules[P1]
    assert isinstance(rules, GeigerRules)
    with pytest.raises(Exception) as exc:
        rules.check(g, g.state(P1), "combat_reveal", UseAbility(TEMPORAL_DISTORTION,
                                                                 card("4C")))
    assert getattr(exc.value, "rule_id", None) == "WIN-DRAW"
    fight(g, NoCard(), NoCard())
    draw(g, P1, "KS")
    draw(g, P2, "JS")
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(TEMPORAL_DISTORTION, card("5C")))
    assert err.value.rule_id == "AB-2"


def _two_faces_discarded(grave: str) -> Game:
    g = recorded_game("QC 4C JC 2C 3C 5C 6C", grave, p1="geiger", p2="grave")
    fight(g, commit("QC", "attack"), NoCard())
    g.apply(P2, Pass())
    g.apply(P1, combo("JC"))
    draw(g, P2, "JS")
    draw(g, P1, "KS")
    return g


def test_temporal_distortion_fetch_is_a_choice_of_jack_or_queen__AB_2() -> None:
    g = _two_faces_discarded(PLAIN)
    g.apply(P1, UseAbility(TEMPORAL_DISTORTION, card("4C")))
    assert sorted(a.from_discard[0].code for a in g.legal_actions(P1)) == ["JC", "QC"]  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Search((card("2C"),), ()))
    assert err.value.rule_id == "AB-2"
    g.apply(P1, Search((card("QC"),), ()))
    ps = g.state(P1)
    assert card("QC") in ps.hand and card("JC") in ps.discard
    assert effects.is_active(ps, TEMPORAL_DISTORTION)


def test_countered_temporal_distortion_fetches_nothing__CTR_3_CTR_4() -> None:
    g = _two_faces_discarded("2D 3D 4D 5D 6D TD KD")
    g.apply(P1, UseAbility(TEMPORAL_DISTORTION, card("4C")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    ps = g.state(P1)
    assert not ps.ongoing and card("4C") in ps.discard
    assert {card("QC"), card("JC")} <= set(ps.discard)


# --- Research and Development -------------------------------------------------------------


def _research(grave: str = PLAIN) -> Game:
    """Turn 1: Slow then Fast Time Spiral hit (2 Time Spiral cards in the discard pile)."""
    g = recorded_game("QC JC 8C 2C 3C 5C 6C", grave, p1="geiger", p2="grave")
    fight(g, commit("QC", "attack"), NoCard())
    g.apply(P2, Pass())
    g.apply(P1, combo("JC"))
    draw(g, P2, "JS")
    draw(g, P1, "KS")
    assert (g.step, g.actor) == ("T3", P1)
    return g


def test_research_takes_one_and_orders_the_rest_on_top__GEN_6_GEN_9() -> None:
    """geiger.md: look at the top X = 2 cards, put one in hand, the other back on top. In a
    recorded game the player names them; the card put back is the next draw, and only
    Geiger's view shows it."""
    g = _research()
    g.apply(P1, UseAbility(RESEARCH, card("8C")))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(RESEARCH, cards=cards("AS")))  # X is 2
    assert err.value.rule_id == "AB-2"
    g.apply(P1, UseAbility(RESEARCH, cards=cards("AS 9S")))
    ps = g.state(P1)
    assert card("AS") in ps.hand and ps.deck[0] is card("9S")
    assert g.public_view(P1)["players"]["P1"]["deck_top"] == ["9S"]  # type: ignore[index]
    assert "deck_top" not in g.public_view(P2)["players"]["P1"]  # type: ignore[index]
    # turn 2 ends; turn 3's draw must take the 9S
    fight(g, NoCard(), NoCard())
    while g.turn == 2 or g.actor is not P1:
        g.apply(g.actor, g.legal_actions(g.actor)[0])  # type: ignore[arg-type]
    assert g.legal_actions(P1) == [Draw(card("9S"))]
    with pytest.raises(IllegalActionError) as err:
        draw(g, P1, "TS")
    assert err.value.rule_id == "GEN-6"
    draw(g, P1, "9S")
    assert card("9S") in ps.hand and "deck_top" not in g.public_view(P1)["players"]["P1"]  # type: ignore[index]


def test_research_with_no_time_spiral_in_the_discard_pile_does_nothing() -> None:
    g = recorded_game("8C 2C 3C 5C 6C 9C TC", PLAIN, p1="geiger", p2="grave")
    fight(g, NoCard(), NoCard())
    draw(g, P1, "KS")
    draw(g, P2, "JS")
    hand = len(g.state(P1).hand)
    g.apply(P1, UseAbility(RESEARCH, card("8C")))
    assert g.step == "C1" and len(g.state(P1).hand) == hand - 1


def test_research_in_a_seeded_game_offers_the_top_cards_only() -> None:
    """Seeded self-play: whenever R&D's choice comes up, every listed choice names exactly the
    top X cards of the deck, the taken one first."""
    from rules_engine.bots import make_bot

    seen = 0
    for seed in range(30):
        g = Game(character("geiger"), character(("grave", "jaina", "gloria")[seed % 3]),
                 seed=seed)
        bots = (make_bot("greedy", seed), make_bot("random", seed + 1))
        while not g.is_over:
            p = g.acting_players[0] if g.actor is Actor.SIMULTANEOUS else g.actor
            legal = g.legal_actions(p)  # type: ignore[arg-type]
            choices = [a for a in legal if isinstance(a, UseAbility)
                       and a.ability == RESEARCH and a.card is None]
            if choices:
                seen += 1
                n = len(choices[0].cards)
                top = set(g.state(P1).deck[:n])
                assert all(set(a.cards) == top for a in choices)
            g.apply(p, bots[p].choose(g, p, legal))  # type: ignore[arg-type,index]
    assert seen > 5


# --- bots ---------------------------------------------------------------------------------


def test_bots_play_every_geiger_ability_and_replay_legal__FR_GEIGER_1() -> None:
    """Self-play with Geiger: the random and the greedy bot play Temporal Distortion and
    Research and Development and throw under Time Stop; every log replays legal."""
    used: dict[str, Counter[str]] = {"random": Counter(), "greedy": Counter()}
    for n in range(40):
        bot = "greedy" if n % 2 else "random"
        opp = ("grave", "jaina", "midori", "gloria", "rook")[n % 5]
        game, log = play_game("geiger", opp, 90 + n, bot=bot)
        verdict = replay(log.dumps())
        assert verdict.status == "legal", verdict.summary()
        assert verdict.final is not None and verdict.final["position"] == game.fingerprint()
        for e in log.to_json()["events"]:
            if e["action"] == "ability" and e["player"] == "P1":
                used[bot][e["ability"]] += 1
        stopped = {e.turn for e in game.journal if isinstance(e, Blocked) and not e.innates}
        used[bot]["Time Stop throw"] += sum(1 for c in game.combos
                                            if c.player is P1 and c.turn in stopped)
    for bot in used:
        assert {TEMPORAL_DISTORTION, RESEARCH, "Time Stop throw"} <= set(used[bot]), used


def test_time_stop_turns_off_aspect_and_ends_dragon_form__FR_GEIGER_1_FR_MIDORI_2() -> None:
    """Cross-character (characters/README.md §1, §6): Midori in Dragon Form blocks a Time
    Spiral. Time Stop stops his innate from blocking (no Aspect return, no draw yet); the Time
    Stop throw throws him, which ends Dragon Form; the timeline names Geiger's combo."""
    from rules_engine.characters.midori import DRAGON_FORM
    from rules_engine.log import LogEvent, MatchLog
    from rules_engine.timeline import timeline

    g = recorded_game("JC 9C 2C 3C 5C 6C TC", "2D 6D 9D 3D 5D 7D KD", p1="geiger",
                      p2="midori")
    fight(g, NoCard(), commit("9D", "dodge"))  # Midori's dodge beats no-card ...
    g.apply(P1, Pass())
    g.apply(P2, Stop())  # ... no hit-back: 9D goes to his discard pile
    draw(g, P1, "KS")
    draw(g, P2, "KH")
    g.apply(P2, UseAbility(DRAGON_FORM, card("2D")))
    fight(g, commit("JC", "attack"), commit("6D", "block"))
    assert (g.step, g.actor) == ("C9", P2)  # RW-14, not Aspect of the Dragon (C8b)
    assert all(a.kind in ("pass", "face_down") for a in g.legal_actions(P2))
    g.apply(P2, Pass())
    g.apply(P1, combo("9C", "throw"))
    g.apply(P1, Stop())
    midori = g.state(P2)
    assert not effects.is_active(midori, DRAGON_FORM) and card("2D") in midori.discard
    assert card("6D") in midori.discard and card("9D") in midori.discard
    log = MatchLog(characters=("geiger", "midori"), seed=None, ruleset=g.ruleset,
                   events=tuple(LogEvent(p, a) for p, a in g.history))
    turn2 = timeline(log)[1]
    assert turn2.combo is not None and turn2.combo.player is P1
    assert [m.card for m in turn2.combo.moves] == ["9C"]


def test_geiger_verdicts_are_complete() -> None:
    _, log = play_game("geiger", "grave", 5)
    verdict = replay(log.dumps())
    assert verdict.status == "legal" and verdict.abilities_complete is True
