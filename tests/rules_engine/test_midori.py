"""Midori (docs/rules/characters/midori.md): Dragon Form, Glimpse of the Dragon, the innates
Aspect of the Dragon and Defense Mastery, and the FAQ rulings FR-MIDORI-1..3 (M-DRAGON).

Midori is P1 (90 life) against Grave (P2, 90 life): P1 wins the coin flip (helpers)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_engine import effects
from rules_engine.actions import Pass, Search, Stop, UseAbility
from rules_engine.cards import card
from rules_engine.characters import abilities_implemented
from rules_engine.characters.midori import ASPECT, DRAGON_FORM, GLIMPSE, MidoriRules
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.replay import replay
from rules_engine.selfplay import play_game

from .helpers import P1, P2, commit, draw, fight, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
COUNTER = "2D 3D 4D 5D 6D TD KD"  # Grave with Mental Toughness (a 10 and a face card)
MIDORI = "2C JC TC 4C 6C 7C 9C"


def _turn_two(hand: str = MIDORI, grave: str = PLAIN, d1: str = "3S", d2: str = "JS",
              *, p2: str = "grave") -> Game:
    """Turn 1: both no-card; turn 2: the draws (P1 keeps initiative, INI-2)."""
    g = recorded_game(hand, grave, p1="midori", p2=p2)
    fight(g, commit(None), commit(None))
    draw(g, P1, d1)
    draw(g, P2, d2)
    return g


def _in_form(hand: str = MIDORI, grave: str = PLAIN, **kw: object) -> Game:
    """Turn 2, Dragon Form played with the 2C and not countered; C1 is next."""
    g = _turn_two(hand, grave, **kw)  # type: ignore[arg-type]
    assert (g.step, g.actor) == ("T3", P1)
    g.apply(P1, UseAbility(DRAGON_FORM, card("2C")))
    if g.actor is P2 and g.step == "T3":  # Grave may counter (CTR-2)
        g.apply(P2, Pass())
    assert g.step == "C1" and effects.is_active(g.state(P1), DRAGON_FORM)
    return g


def test_midori_is_implemented__registry() -> None:
    assert abilities_implemented("midori")


def test_dragon_form_stays_in_play_and_allows_dragon_moves__AB_2_AB_4_GEN_1() -> None:
    """midori.md Card abilities, Dragon Form: "Ongoing. You can play Dragon moves." Without it
    a Dragon move is refused (GEN-1: card text); played, it stays in the ongoing area (public,
    GEN-9) and Toxic Breath may be committed."""
    g = _turn_two()
    with pytest.raises(IllegalActionError):
        g.apply(P1, commit("JC", "attack", "Toxic Breath"))  # T3: not even combat yet
    g.apply(P1, UseAbility(DRAGON_FORM, card("2C")))
    ps = g.state(P1)
    assert card("2C") not in ps.hand and card("2C") not in ps.discard
    view = g.public_view(P2)["players"]["P1"]  # type: ignore[index]
    assert view["ongoing"] == [{"name": DRAGON_FORM, "card": "2C", "attached": []}]
    assert commit("JC", "attack", "Toxic Breath") in g.legal_actions(P1)


def test_dragon_moves_are_refused_without_dragon_form__GEN_1() -> None:
    g = recorded_game(MIDORI, PLAIN, p1="midori", p2="grave")
    assert commit("JC", "attack", "Toxic Breath") not in g.legal_actions(P1)
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, commit("JC", "attack", "Toxic Breath"))
    assert err.value.rule_id == "GEN-1" and "Dragon Form" in err.value.reason


def test_dragon_form_needs_a_2_and_the_draw_phase__AB_2_WIN_DRAW() -> None:
    g = _turn_two()
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(DRAGON_FORM, card("4C")))  # not a 2
    assert err.value.rule_id == "AB-2"
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(DRAGON_FORM, card("2H")))  # not in hand
    assert err.value.rule_id == "AB-2"
    # at Combat Reveal (Midori has priority there because Glimpse is playable) it is too late
    g.apply(P1, Pass())
    fight(g, commit("JC", "attack", "Whirlwind"), commit("5D", "block"))
    assert (g.step, g.actor) == ("C4", P1)
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(DRAGON_FORM, card("2C")))
    assert err.value.rule_id == "WIN-DRAW"


def test_dragon_attack_beats_a_normal_dodge__FR_MIDORI_1_M_DRAGON() -> None:
    """FR-MIDORI-1 / M-DRAGON: the dodge is discarded at once (M-VOID) and the attack hits."""
    g = _in_form()
    fight(g, commit("JC", "attack", "Toxic Breath"), commit("2D", "dodge"))
    # C9: Grave lost (to a Starter: he may place a card); his dodge is already discarded
    assert (g.step, g.actor) == ("C9", P2)
    assert g.combat.cell == "M-DRAGON" and g.combat.winner is P1
    grave = g.state(P2)
    assert grave.combat_card is None and card("2D") in grave.discard
    assert g.life == (90, 90 - 9)
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert effects.is_active(g.state(P1), DRAGON_FORM)  # a Dragon attack keeps the form


def test_a_plain_attack_is_dodged_even_in_dragon_form__FR_MIDORI_1() -> None:
    """Only Dragon attacks can't be dodged; a normal attack is dodged as usual (and, being a
    non-Dragon attack, ends Dragon Form, FR-MIDORI-2)."""
    g = _in_form()
    fight(g, commit("6C", "attack"), commit("2D", "dodge"))
    assert g.combat.cell == "M-ATTACK-DODGE" and g.combat.winner is P2
    assert not effects.is_active(g.state(P1), DRAGON_FORM)
    assert card("2C") in g.state(P1).discard


def test_ability_dodges_are_not_normal_dodges__FR_MIDORI_1() -> None:
    """midori.md engine notes: "normal dodges" excludes ability dodges such as DeGrey's Ghost
    Riposte (his Ace's dodge, a During Combat ability): Toxic Breath is dodged by it."""
    g = _in_form(grave="AD 3D 5D 6D 8D 9D TD", p2="degrey")
    fight(g, commit("JC", "attack", "Toxic Breath"), commit("AD", "dodge"))
    assert g.combat.winner is P2 and g.combat.cell == "M-ATTACK-DODGE"


def test_dragon_form_ends_when_thrown__FR_MIDORI_2_AR_THR_2() -> None:
    g = _in_form()
    fight(g, commit("6C", "block"), commit("9D", "throw"))
    assert (g.step, g.actor) == ("C9", P1)  # Midori lost to a throw (a Starter)
    assert not effects.is_active(g.state(P1), DRAGON_FORM)
    assert card("2C") in g.state(P1).discard


def test_dragon_form_ends_on_combat_revealing_a_plain_strike__FR_MIDORI_2() -> None:
    """A non-Dragon attack or throw as the combat card ends it at lock-in (C5), whatever the
    result: here Midori's normal 4 is blocked."""
    g = _in_form()
    fight(g, commit("4C", "attack"), commit("5D", "block"))
    ps = g.state(P1)
    assert not effects.is_active(ps, DRAGON_FORM) and card("2C") in ps.discard


@pytest.mark.parametrize(("mine", "theirs"), [
    (("6C", "block"), ("5D", "attack")),  # a block
    (("9C", "dodge"), ("5D", "attack")),  # a dodge
    (("X1", None), ("5D", "attack")),  # a Gold Burst
    ((None, None), ("5D", "block")),  # no-card
])
def test_block_dodge_gold_burst_or_no_card_keep_dragon_form__FR_MIDORI_2(
    mine: tuple[str | None, str | None], theirs: tuple[str, str],
) -> None:
    g = _in_form(hand="2C JC TC X1 6C 7C 9C")
    fight(g, commit(*mine), commit(*theirs))
    assert effects.is_active(g.state(P1), DRAGON_FORM)


def test_dragon_form_is_countered_only_as_it_is_played__FR_MIDORI_3_CTR_4() -> None:
    """FR-MIDORI-3 / CTR-4: Grave's Mental Toughness answers Dragon Form when it is played
    (CTR-2) — and never later, while it is in play."""
    g = _turn_two(grave=COUNTER)
    g.apply(P1, UseAbility(DRAGON_FORM, card("2C")))
    assert (g.actor, g.step) == (P2, "T3")  # the counter window (CTR-2)
    assert UseAbility("Mental Toughness", card("TD"), (card("KD"),)) in g.legal_actions(P2)
    g.apply(P2, Pass())
    # in play now: through a whole combat with Dragon moves, no counter decision comes up
    fight(g, commit("JC", "attack", "Toxic Breath"), commit("5D", "block"))
    while g.turn == 2:
        for p in (P1, P2):
            assert not any(isinstance(a, UseAbility) and a.ability == "Mental Toughness"
                           for a in g.legal_actions(p))
        g.apply(g.actor, g.legal_actions(g.actor)[0])  # type: ignore[arg-type]
    assert effects.is_active(g.state(P1), DRAGON_FORM)


def test_countered_dragon_form_is_discarded_and_gives_no_dragon_moves__FR_MIDORI_3_CTR_3() -> None:
    g = _turn_two(grave=COUNTER)
    g.apply(P1, UseAbility(DRAGON_FORM, card("2C")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    ps = g.state(P1)
    assert card("2C") in ps.discard and not ps.ongoing
    assert g.step == "C1"
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, commit("JC", "attack", "Toxic Breath"))
    assert err.value.rule_id == "GEN-1"


def test_glimpse_rotates_a_face_card_to_its_dragon_end_which_beats_a_dodge__FR_MIDORI_1() -> None:
    """midori.md Glimpse of the Dragon: not in Dragon Form, the revealed Whirlwind turns into
    Toxic Breath (WIN-REVEAL, AB-2: the 10 is discarded); as a Dragon attack it can't be
    dodged (decision: Aspect speaks of Dragon attacks, not of Dragon Form)."""
    g = _turn_two()
    g.apply(P1, Pass())  # no Dragon Form
    fight(g, commit("JC", "attack", "Whirlwind"), commit("2D", "dodge"))
    assert (g.step, g.actor) == ("C4", P1)
    assert g.legal_actions(P1) == [Pass(), UseAbility(GLIMPSE, card("TC"))]
    g.apply(P1, UseAbility(GLIMPSE, card("TC")))
    ps = g.state(P1)
    assert ps.combat_move is not None and ps.combat_move.name == "Toxic Breath"
    assert card("TC") in ps.discard
    assert g.combat.cell == "M-DRAGON" and g.life == (90, 81)


def test_glimpse_needs_a_ten_and_the_combat_reveal__AB_2_WIN_REVEAL() -> None:
    g = _turn_two()
    with pytest.raises(IllegalActionError) as err:  # draw phase: too early
        g.apply(P1, UseAbility(GLIMPSE, card("TC")))
    assert err.value.rule_id == "WIN-REVEAL"
    g.apply(P1, Pass())
    fight(g, commit("JC", "attack", "Whirlwind"), commit("2D", "dodge"))
    for wrong in (UseAbility(GLIMPSE, card("9C")), UseAbility(GLIMPSE, card("TD")),
                  UseAbility(GLIMPSE, card("TC"), option="x")):
        with pytest.raises(IllegalActionError) as err:
            g.apply(P1, wrong)
        assert err.value.rule_id == "AB-2"


def test_glimpse_is_not_offered_in_dragon_form_or_for_an_ace__AB_2() -> None:
    """Glimpse is a legal choice exactly when playable: in Dragon Form, or with an Ace ("Aces
    aren't face cards"), no reveal window opens for Midori; her rules refuse it (AB-2)."""
    g = _in_form()
    rules = g.rules[P1]
    assert isinstance(rules, MidoriRules)
    with pytest.raises(Exception) as err:
        rules.check(g, g.state(P1), "combat_reveal", UseAbility(GLIMPSE, card("TC")))
    assert getattr(err.value, "rule_id", None) == "AB-2"
    assert "not in Dragon Form" in str(err.value)
    fight(g, commit("JC", "attack", "Whirlwind"), commit("5D", "block"))
    assert g.step != "C4"  # no reveal window: Whirlwind then ended Dragon Form at lock-in
    assert not effects.is_active(g.state(P1), DRAGON_FORM)
    g2 = recorded_game("AC AH TC 4C 6C 7C 9C", PLAIN, p1="midori", p2="grave")
    fight(g2, commit("AC", "attack", "Wrath of Earth"), commit("5D", "block"))
    assert g2.step != "C4" and card("AH") in g2.state(P1).discard  # C3 paid, no window


def test_countered_glimpse_leaves_the_plain_end__CTR_3() -> None:
    g = _turn_two(grave=COUNTER)
    g.apply(P1, Pass())
    fight(g, commit("JC", "attack", "Whirlwind"), commit("2D", "dodge"))
    g.apply(P1, UseAbility(GLIMPSE, card("TC")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    ps = g.state(P1)
    assert ps.combat_move is not None and ps.combat_move.name == "Whirlwind"
    assert card("TC") in ps.discard
    g.apply(P1, Pass())  # C4: no other 10
    assert g.combat.cell == "M-ATTACK-DODGE" and g.combat.winner is P2


def _aspect_setup(hand: str = "2C JC TC 4C 6C 7C 9C") -> Game:
    """Turn 1: Midori's 9C dodge beats Grave's no-card; she does not hit back (9C discarded).
    Turn 2: Dragon Form."""
    g = recorded_game(hand, PLAIN, p1="midori", p2="grave")
    fight(g, commit("9C", "dodge"), commit(None))
    g.apply(P2, Pass())  # Grave's Rewind window (RW-CAN-1)
    g.apply(P1, Stop())  # no hit-back
    draw(g, P1, "3S")
    draw(g, P2, "JS")
    g.apply(P1, UseAbility(DRAGON_FORM, card("2C")))
    assert card("9C") in g.state(P1).discard and g.step == "C1"
    return g


def test_aspect_returns_a_discarded_card_instead_of_the_block_draw__AB_1() -> None:
    """midori.md Aspect of the Dragon: blocking an attack in Dragon Form, Midori may return a
    non-Joker card from his discard pile instead of drawing. Defense Mastery: Grave's blocked
    normal attack draws nothing at C7, so Midori's choice at C8b is the next decision."""
    g = _aspect_setup()
    deck = len(g.state(P1).deck)
    grave_hand = len(g.state(P2).hand)
    fight(g, commit("6C", "block"), commit("5D", "attack"))
    assert (g.step, g.actor) == ("C8", P1)
    assert g.legal_actions(P1) == [Pass(), UseAbility(ASPECT, cards=(card("9C"),))]
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility(ASPECT, cards=(card("KC"),)))  # not in the discard pile
    assert err.value.rule_id == "AB-1"
    g.apply(P1, UseAbility(ASPECT, cards=(card("9C"),)))
    ps = g.state(P1)
    assert card("9C") in ps.hand and len(ps.deck) == deck  # returned, not drawn
    assert len(g.state(P2).hand) == grave_hand - 1  # Defense Mastery: no C7 draw
    assert effects.is_active(ps, DRAGON_FORM)


def test_aspect_pass_means_the_usual_block_draw__AB_1_AR_BLK_1() -> None:
    g = _aspect_setup()
    fight(g, commit("6C", "block"), commit("5D", "attack"))
    g.apply(P1, Pass())
    assert (g.step, g.actor) == ("C8", P1)  # the block draw (recorded game)
    draw(g, P1, "KC")
    assert card("KC") in g.state(P1).hand and card("9C") in g.state(P1).discard


def test_aspect_also_after_blocking_a_joker__AB_1() -> None:
    g = _aspect_setup()
    g.state(P2).hand.append(card("X2"))  # give Grave a Joker (test setup)
    g.state(P2).deck.remove(card("X2"))
    fight(g, commit("6C", "block"), commit("X2"))
    assert (g.step, g.actor) == ("C8", P1)
    assert UseAbility(ASPECT, cards=(card("9C"),)) in g.legal_actions(P1)


def test_no_aspect_choice_outside_dragon_form__AB_1() -> None:
    """Not in Dragon Form, Midori's block just draws (no Aspect decision); Defense Mastery
    still stops Grave's C7 draw (an innate: always on, AB-1)."""
    g = recorded_game("9C JC TC 4C 6C 7C 3C", PLAIN, p1="midori", p2="grave")
    fight(g, commit("9C", "dodge"), commit(None))
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    draw(g, P1, "3S")
    draw(g, P2, "JS")
    fight(g, commit("6C", "block"), commit("5D", "attack"))
    assert (g.step, g.actor) == ("C8", P1)
    assert all(a.kind == "draw" for a in g.legal_actions(P1))


def test_defense_mastery_only_against_normal_attacks__AB_1_C7() -> None:
    """Grave's blocked Lightning Cloud (a face-card attack) never draws at C7 anyway; his
    blocked normal attack would (C7) and does not against Midori. Against a Grave blocker the
    same attack draws: the difference is Midori's innate."""
    g = recorded_game("6C JC TC 4C 7C 9C 3C", PLAIN, p1="midori", p2="grave")
    fight(g, commit("6C", "block"), commit("5D", "attack"))
    assert (g.step, g.actor) == ("C8", P1)  # no C7 draw for P2
    g2 = recorded_game("6D 2C 3C 4C 7C 9C 8C", PLAIN)  # Grave blocks Grave
    fight(g2, commit("6D", "block"), commit("5D", "attack"))
    assert (g2.step, g2.actor) == ("C7", P2)


def test_bots_play_every_midori_ability_and_replay_legal__FR_MIDORI_1() -> None:
    """Self-play with Midori against several characters: the random and the greedy bot use
    Dragon Form, Glimpse of the Dragon and Aspect of the Dragon, Dragon attacks beat dodges
    (M-DRAGON), and every log replays legal with the same result."""
    used: dict[str, Counter[str]] = {"random": Counter(), "greedy": Counter()}
    for n in range(36):
        bot = "greedy" if n % 2 else "random"
        opp = ("grave", "jaina", "midori", "rook", "setsuki", "lum")[n % 6]
        game, log = play_game("midori", opp, 40 + n, bot=bot)
        verdict = replay(log.dumps())
        assert verdict.status == "legal", verdict.summary()
        assert verdict.final is not None and verdict.final["position"] == game.fingerprint()
        for e in log.to_json()["events"]:
            if e["action"] == "ability" and e["player"] == "P1":
                used[bot][e["ability"]] += 1
    assert {DRAGON_FORM, GLIMPSE, ASPECT} <= set(used["greedy"]), used
    assert {DRAGON_FORM, GLIMPSE} <= set(used["random"]), used  # Aspect: next test


def test_random_bot_chooses_among_all_legal_choices_including_aspect() -> None:
    """The Aspect decision is rare in random self-play (Dragon Form, a winning block, a
    discard pile); at that decision the random bot picks both the return and the draw."""
    from rules_engine.bots import RandomBot

    g = _aspect_setup()
    fight(g, commit("6C", "block"), commit("5D", "attack"))
    legal = g.legal_actions(P1)
    picks = {RandomBot(seed).choose(g, P1, legal) for seed in range(12)}
    assert picks == set(legal) == {Pass(), UseAbility(ASPECT, cards=(card("9C"),))}


def test_greedy_plays_dragon_form_and_glimpse_when_it_can() -> None:
    from rules_engine.bots import GreedyBot

    g = _turn_two()
    assert GreedyBot(0).choose(g, P1, g.legal_actions(P1)) == UseAbility(DRAGON_FORM, card("2C"))
    g.apply(P1, Pass())
    fight(g, commit("JC", "attack", "Whirlwind"), commit("2D", "dodge"))
    assert GreedyBot(0).choose(g, P1, g.legal_actions(P1)) == UseAbility(GLIMPSE, card("TC"))


def test_search_after_a_gold_burst_in_dragon_form_keeps_the_form__FR_MIDORI_2() -> None:
    g = _in_form(hand="2C JC TC X1 6C 7C 9C")
    fight(g, commit("X1"), commit("5D", "attack"))
    assert g.actor is P1 and any(isinstance(a, Search) for a in g.legal_actions(P1))
    assert effects.is_active(g.state(P1), DRAGON_FORM)
