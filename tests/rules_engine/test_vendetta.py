"""Vendetta (docs/rules/characters/vendetta.md): the innate Carrion Reach, Acrobatics and Wall
Dive Loop, and the greedy heuristic (modelled on the Training bot's rule for Vendetta).

Vendetta is P1 (75 life) against Grave (P2, 90 life): P1 wins the coin flip (helpers)."""

from __future__ import annotations

import pytest

from rules_engine.actions import Draw, Pass, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, character, characters
from rules_engine.characters import abilities_implemented
from rules_engine.characters.vendetta import (
    ACROBATICS,
    CARRION_REACH,
    VendettaRules,
)
from rules_engine.game import Game
from rules_engine.journal import DamageDealt, Drew
from rules_engine.replay import replay
from rules_engine.selfplay import play_game
from rules_engine.timeline import timeline

from . import helpers
from .helpers import P1, P2, PLAIN, commit, fight, illegal_rule, recorded_game

VENDETTA = "8C 2C 5C 6C 3C 9C TC"


def _acrobatics(hand: str = VENDETTA, grave: str = PLAIN) -> Game:
    """Turn 1: Vendetta's 5 against Grave's 6; Acrobatics with the 8C and the 2C (a dodge)."""
    g = recorded_game(hand, grave, p1="vendetta")
    fight(g, commit("5C", "attack"), commit("6D", "attack"))
    assert (g.step, g.actor) == ("C4", P1)
    g.apply(P1, UseAbility(ACROBATICS, card("8C"), (card("2C"),)))
    return g


def _to_power_up(g: Game) -> None:
    """Play on to this turn's Power Up: pass, stop, or draw the first legal card."""
    turn = g.turn
    for _ in range(20):
        if g.turn > turn or g.step in ("P2", "K2") or g.actor not in (P1, P2):
            return
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        pick = next((a for a in legal if isinstance(a, (Pass, Stop))), None) or next(
            a for a in legal if isinstance(a, Draw))
        g.apply(g.actor, pick)  # type: ignore[arg-type]


def _to_c10(g: Game) -> None:
    """Pass until the combo step (C10)."""
    while g.step != "C10":
        g.apply(g.actor, Pass())  # type: ignore[arg-type]


def _to_turn(g: Game, turn: int) -> None:
    """Make the first neutral choice (pass, stop, no card, no Power Up) until turn ``turn``."""
    from rules_engine.actions import NoCard, PowerUp
    from rules_engine.types import Actor

    while g.turn < turn and not g.is_over:
        player = g.acting_players[0] if g.actor is Actor.SIMULTANEOUS else g.actor
        legal = g.legal_actions(player)  # type: ignore[arg-type]
        g.apply(player, next((a for a in (Pass(), Stop(), PowerUp(), NoCard())  # type: ignore[arg-type]
                              if a in legal), legal[0]))


def test_vendetta_is_implemented_with_a_note_per_ability__registry() -> None:
    assert abilities_implemented("vendetta")
    names = {a.name for a in character("vendetta").abilities} | {CARRION_REACH}
    assert set(VendettaRules.ability_notes) == names


# --- Acrobatics (8) ---------------------------------------------------------------------------
def test_acrobatics_cancels_combat_and_skips_to_next_combat__vendetta_md_acrobatics() -> None:
    """"Discard a dodge (and this card) to cancel combat (discard all combat cards; no combat
    damage). Players skip forward to next turn's combat." No damage, no draw, no Power Up, no
    draw phase: the next decision is turn 2's C1."""
    g = _acrobatics()
    assert (g.turn, g.step) == (2, "C1")
    assert g.life == (75, 90)
    v, gr = g.state(P1), g.state(P2)
    assert {card("8C"), card("2C"), card("5C")} <= set(v.discard)
    assert card("6D") in gr.discard
    assert len(v.hand) == 4 and len(gr.hand) == 6  # nobody drew
    assert not any(e.turn == 2 for e in g.journal.of(Drew))
    assert not list(g.journal.of(DamageDealt))


def test_acrobatics_next_turn_slower_and_banned__vendetta_md_acrobatics() -> None:
    """"Next turn your attacks and throws are 2 speed slower and you can't play Acrobatics."
    Turn 2: his 3 (3.2 + 2.0 = 5.2) loses to Grave's 4 (4.4); he holds another 8 and a dodge
    (the 10) but is not offered Acrobatics. On turn 1 the same 3 beats the same 4."""
    g = _acrobatics("8C 8D 2C 3C 5C 6C TC")
    assert not (g.step == "C4" and g.actor is P1)  # one Acrobatics per cancelled combat
    fight(g, commit("3C", "attack"), commit("4D", "attack"))
    assert not (g.step == "C4" and g.actor is P1)
    assert g.combat.winner is P2
    plain = recorded_game("3C 8D 2C 5C 6C 9C TC", PLAIN, p1="vendetta")
    fight(plain, commit("3C", "attack"), commit("4D", "attack"))
    if plain.step == "C4" and plain.actor is P1:
        assert illegal_rule(plain, P1, UseAbility(ACROBATICS, card("8D"), (card("9C"),))) == "AB-2"
        plain.apply(P1, Pass())
    assert plain.combat.winner is P1


def test_acrobatics_needs_an_8_and_a_dodge__AB_2() -> None:
    g = recorded_game(VENDETTA, PLAIN, p1="vendetta")
    fight(g, commit("5C", "attack"), commit("6D", "attack"))
    # 9C has no dodge end; 9C is not an 8
    assert illegal_rule(g, P1, UseAbility(ACROBATICS, card("8C"), (card("9C"),))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(ACROBATICS, card("9C"), (card("2C"),))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(ACROBATICS, card("8C"), ())) == "AB-2"  # no dodge named
    # 4C is not in hand
    assert illegal_rule(g, P1, UseAbility(ACROBATICS, card("8C"), (card("4C"),))) == "AB-2"
    # without a dodge in hand it is not offered at all
    h = recorded_game("8C 5C 6C 9C 7C JC QC", PLAIN, p1="vendetta")
    fight(h, commit("5C", "attack"), commit("6D", "attack"))
    assert not (h.step == "C4" and h.actor is P1)


def test_countered_acrobatics_refunds_the_dodge__CTR_3() -> None:
    """Grave's Mental Toughness counters it: the dodge returns to hand, the combat goes on."""
    g = recorded_game(VENDETTA, "2D 3D 4D 5D 6D TD KD", p1="vendetta")
    fight(g, commit("5C", "attack"), commit("6D", "attack"))
    g.apply(P1, UseAbility(ACROBATICS, card("8C"), (card("2C"),)))
    assert g.actor is P2
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    v = g.state(P1)
    assert card("2C") in v.hand and card("8C") in v.discard
    if g.step == "C4" and g.actor is P1:
        g.apply(P1, Pass())
    assert g.turn == 1 and g.combat.winner is P1  # 5.2 beats 6.4


def test_cancelled_combat_timeline_and_replay__vendetta_md_acrobatics() -> None:
    """The verifier and the timeline agree with play: the log replays legal, the combat is
    explained as cancelled."""
    for seed in range(60):
        game, log = play_game("vendetta", "grave", seed, bot="greedy")
        doc = log.to_json()
        if any(e.get("ability") == ACROBATICS for e in doc["events"]):
            break
    else:
        pytest.fail("no greedy self-play game played Acrobatics")
    verdict = replay(log.dumps())
    assert verdict.status == "legal", verdict.summary()
    assert verdict.final is not None and verdict.final["position"] == game.fingerprint()
    texts = [t.to_dict()["combat"]["explanation"] for t in timeline(log.dumps())
             if t.to_dict().get("combat")]
    assert any("cancelled" in t for t in texts)


# --- Carrion Reach ------------------------------------------------------------------------------
@pytest.mark.parametrize(("vend", "grave", "returns"), [
    (("5C", "attack"), ("6D", "attack"), True),  # wins (5.2 < 6.4)
    (("5C", "attack"), ("5D", "block"), True),  # blocked
    (("6C", "attack"), ("2D", "attack"), False),  # loses to an attack
    (("5C", "attack"), ("2D", "dodge"), False),  # dodged
])
def test_carrion_reach_returns_a_normal_attack_that_won_or_was_blocked__vendetta_md(
        vend: tuple[str, str], grave: tuple[str, str], returns: bool) -> None:
    """"Whenever your normal attack is blocked or wins combat, return it to your hand.\""""
    g = recorded_game("5C 6C 9C 7C JC QC KC", PLAIN, p1="vendetta")
    fight(g, commit(*vend), commit(*grave))
    _to_power_up(g)
    c = card(vend[0])
    assert (c in g.state(P1).hand) is returns
    assert (c in g.state(P1).discard) is not returns


def test_claw_trip_is_a_normal_attack_for_carrion_reach__GL_NORMAL() -> None:
    """vendetta.md engine notes (open case): Claw Trip, the attack end of his 7, is a normal
    attack (GL-NORMAL) although an Ender: blocked, it returns."""
    g = recorded_game("7C 6C 9C 5C JC QC KC", PLAIN, p1="vendetta")
    fight(g, commit("7C", "attack", "Claw Trip"), commit("5D", "block"))
    _to_power_up(g)
    assert card("7C") in g.state(P1).hand


# --- Wall Dive Loop (K) -------------------------------------------------------------------------
def _knocked_down_grave(grave_turn2: str) -> Game:
    """Turn 1: Vendetta's 9 throw knocks Grave down; turn 2: his K against Grave's move."""
    g = recorded_game("9C KC 5C 6C 2C 3C TC", PLAIN, p1="vendetta")
    fight(g, commit("9C", "throw"), commit(None))
    for _ in range(20):
        if g.turn == 2 and g.step == "C1":
            break
        legal = g.legal_actions(g.actor) if g.actor in (P1, P2) else []  # type: ignore[arg-type]
        pick = next((a for a in legal if isinstance(a, (Pass, Stop))), None) or next(
            a for a in legal if isinstance(a, Draw))
        g.apply(g.actor, pick)  # type: ignore[arg-type]
    assert g.state(P2).knocked_down
    return g


def test_wall_dive_loop_is_speed_1_0_against_a_knocked_down_opponent__vendetta_md() -> None:
    """"While the opponent is knocked down, both sides of this card are speed 1.0. When you hit
    with either side of this card, return it to your hand." Diving Pincer Slice (3.2) is 1.0
    and beats Grave's 2 (2.4); it returns to hand."""
    g = _knocked_down_grave("2D")
    fight(g, commit("KC", "attack", "Diving Pincer Slice"), commit("2D", "attack"))
    assert g.combat.winner is P1
    _to_power_up(g)
    assert card("KC") in g.state(P1).hand


def test_wall_dive_loop_keeps_printed_speed_otherwise__vendetta_md() -> None:
    g = recorded_game("KC 9C 5C 6C 2C 3C TC", PLAIN, p1="vendetta")
    fight(g, commit("KC", "attack", "Diving Pincer Slice"), commit("2D", "attack"))
    assert g.combat.winner is P2  # 3.2 against 2.4
    _to_power_up(g)
    assert card("KC") in g.state(P1).discard  # it did not hit: no return


def test_a_loop_k_whose_hit_ended_the_bout_is_not_returned_later__TT_4() -> None:
    """Wall Dive Loop in Triple Threat: Vendetta dodges Rook's 6 and hits back with his KD,
    knocking Rook out. The bout ends at once (END-2, TT-4): that combat has no end (C13), so
    the KD goes to the discard pile with the combat area and, Vendetta carrying on, into his
    deck (TT-5), instead of returning to his hand. The next bout's combats end as usual: the
    K is not looked for in their combos (the seeded match that raised EngineInvariantError
    at such a combat's end)."""
    from rules_engine.actions import Combo, Pick
    from rules_engine.cards import MoveType
    from rules_engine.team import Mode, Team

    g = Game.new(Mode.TRIPLE_THREAT, (Team.of(("vendetta", "grave", "jaina")),
                                      Team.of(("rook", "troq", "gwen"))), seed=5)
    g.apply(P1, Pick("vendetta"))
    g.apply(P2, Pick("rook"))
    helpers.deal_hand(g, P1, "2C KD 5C 6C 9C")
    helpers.deal_hand(g, P2, "6D 7D 8D")
    g.state(P2).life = 3  # a position set up for the test: the hit-back knocks Rook out
    fight(g, commit("2C", "dodge"), commit("6D", "attack"))
    _to_c10(g)
    g.apply(P1, Combo(card("KD"), MoveType.ATTACK))  # the hit-back (CB-7)
    assert g.state(P2).life <= 0 and (g.step, g.acting_players) == ("TT-4", (P2,))
    vendetta = g.state(P1)
    assert card("KD") in vendetta.deck and card("KD") not in vendetta.hand
    g.apply(P2, Pick("troq"))
    _to_turn(g, 3)  # turn 2's combat ends (C13) with Vendetta in it
    assert g.turn == 3 and g.state(P2).character.id == "troq"
    assert [c.code for c in vendetta.hand].count("KD") <= 1


@pytest.mark.parametrize(("seed", "a", "b"), [
    (273, ("onimaru", "degrey", "quince"), ("gwen", "vendetta", "jaina")),
    (107, ("gloria", "vendetta", "rook"), ("lum", "setsuki", "degrey")),
])
def test_the_reported_triple_threat_matches_play_and_replay__TT_4(
        seed: int, a: tuple[str, ...], b: tuple[str, ...]) -> None:
    """The seeded Triple Threat matches (random bot) that raised EngineInvariantError at a
    combat's end after Vendetta's K hit-back had ended a bout now play to the end and replay
    legal with the game's own position."""
    from rules_engine.selfplay import play_match
    from rules_engine.team import Mode

    g, log = play_match(Mode.TRIPLE_THREAT, a, b, seed, bot="random")
    assert g.is_over and len(g.bouts) > 1
    verdict = replay(log.dumps())
    assert verdict.status == "legal", verdict.summary()
    assert verdict.final is not None and verdict.final["position"] == g.fingerprint()


# --- bots and self-play -------------------------------------------------------------------------
def test_greedy_bot_plays_acrobatics_against_a_big_hit() -> None:
    g = recorded_game(VENDETTA, "QD 2D 3D 4D 5D 6D 8D", p1="vendetta")
    fight(g, commit("6C", "attack"), commit("QD", "attack"))  # Dragonheart: 0.0, 10 damage
    choice = GreedyBot().choose(g, P1, g.legal_actions(P1))
    assert isinstance(choice, UseAbility) and choice.ability == ACROBATICS
    h = recorded_game(VENDETTA, PLAIN, p1="vendetta")
    fight(h, commit("5C", "attack"), commit("6D", "attack"))  # he wins anyway
    assert GreedyBot().choose(h, P1, h.legal_actions(P1)) == Pass()


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 13: Vendetta against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("vendetta", opponent, first_seed=13)


def test_a_draw_after_acrobatics_is_explained__vendetta_md_acrobatics() -> None:
    """A log that draws for the draw phase (T2) after Acrobatics is illegal, and the verifier
    says why: the players skipped forward to the next turn's combat."""
    action = Draw(card("9D"))
    from rules_engine.log import LogEvent, MatchLog

    g = _acrobatics(grave="2D 3D 4D 5D 6D 7D 8D")
    assert (g.turn, g.step) == (2, "C1")
    log = MatchLog(characters=("vendetta", "grave"),
                   events=(*(LogEvent(p, a) for p, a in g.history),
                           LogEvent(P2, action)))  # type: ignore[arg-type]
    verdict = replay(log)
    assert verdict.status == "illegal" and verdict.first_error is not None
    error = verdict.first_error
    assert error["index"] == len(g.history)
    assert error["rule_id"] == "AB-2" and "Acrobatics" in str(error["reason"])


def test_acrobatics_is_not_played_from_the_bench__TG_8() -> None:
    """vendetta.md, Acrobatics: "You can't play this from the bench or while assisting" (the
    exception to TG-8 c). Tag Team, Vendetta benched with an 8 and a dodge: at Combat Reveal
    (C4) he is asked nothing, and the card's refusal names the bench."""
    from rules_engine.errors import RuleViolation
    from rules_engine.ruleset import OnOff, Ruleset
    from rules_engine.team import Mode, Team
    from rules_engine.types import PlayerId

    bench = PlayerId.P3
    g = Game.new(Mode.TAG_TEAM, (Team.of(("grave", "vendetta")), Team.of(("grave", "rook"))),
                 seed=3, ruleset=Ruleset(assists=OnOff.OFF))
    assert g.state(bench).character.id == "vendetta" and not g.in_combat(g.state(bench))
    helpers.deal_hand(g, bench, "8S 2S 3S")
    helpers.deal_hand(g, P1, "5D 6D")
    helpers.deal_hand(g, P2, "5H 6H")
    fight(g, commit("5D", "attack"), commit("6H", "attack"))
    assert g.step != "C4"  # nobody could act at Combat Reveal: the window closed
    acrobatics = UseAbility(ACROBATICS, card("8S"), (card("2S"),))
    assert acrobatics not in g.legal_actions(bench)
    with pytest.raises(RuleViolation) as err:
        g.rules[bench].check(g, g.state(bench), "combat_reveal", acrobatics)
    assert err.value.rule_id == "TG-8" and "bench" in err.value.reason

