"""Ongoing and attached effects (rules_engine.effects), proven with the test-only Tester rule set
(tests/rules_engine/tester_character.py) on Midori's cards, against Grave's real rules.

Cards that stay in play: AB-2 ("discarded unless its text says otherwise"), AB-4 (acts at once),
GEN-6 (every card in one zone; leaving play = the owner's discard pile), GEN-9 (public), CTR-4
(counterable only as it is played), WIN-ENDTURN (end-of-turn checks at K1)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from rules_engine import characters as chars
from rules_engine import effects
from rules_engine.actions import Action, Draw, NoCard, Pass, Stop, UseAbility
from rules_engine.cards import card
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.log import ClaimedResult, LogEvent, MatchLog
from rules_engine.replay import replay
from rules_engine.ruleset import Ruleset
from rules_engine.selfplay import play_game

from .helpers import P1, P2, combo, commit, draw, fight, recorded_game
from .tester_character import BRACE, FORM, REINFORCE, TesterRules

TESTER = "2C 6C 7C 4C 5C 8C JC"  # Midori's cards: 2 Dragon Form, JC Whirlwind / Toxic Breath
GRAVE = "2D 3D 4D 5D 6D 8D 9D"  # nothing to play outside combat, no counter
GRAVE_COUNTER = "2D 3D 4D 5D 6D TD KD"  # Mental Toughness (10 + a face card)


@pytest.fixture(autouse=True)
def tester(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(chars.IMPLEMENTED, "midori", TesterRules)
    yield


def _game(hand2: str = GRAVE, *, ruleset: Ruleset | None = None) -> Game:
    kw = {} if ruleset is None else {"ruleset": ruleset}
    return recorded_game(TESTER, hand2, p1="midori", p2="grave", **kw)  # type: ignore[arg-type]


def _to_turn_2(g: Game, p1_draw: str = "3C", p2_draw: str = "JS") -> None:
    """Turn 1: both no-card; turn 2: the draws (P1 keeps initiative on equal lives, INI-2)."""
    fight(g, NoCard(), NoCard())
    draw(g, P1, p1_draw)
    draw(g, P2, p2_draw)
    assert (g.turn, g.step, g.actor) == (2, "T3", P1)


def _form(g: Game) -> effects.Ongoing:
    f = effects.active(g.state(P1), FORM)
    assert f is not None
    return f


def _codes(cards: object) -> list[str]:
    return [c.code for c in cards]  # type: ignore[attr-defined]


def _play(g: Game, player: object, action: Action) -> None:
    g.apply(player, action)  # type: ignore[arg-type]


def test_an_ongoing_card_stays_in_play_across_turns__AB_2_AB_4_GEN_9() -> None:
    """Given Dragon Form played at T3 (WIN-DRAW), then it is in P1's ongoing area (not the
    discard pile, AB-2), active at once (AB-4) and public (GEN-9); and still there next turn."""
    g = _game()
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    ps = g.state(P1)
    assert _form(g).card is card("2C") and _form(g).since_turn == 2
    assert "2C" not in _codes(ps.hand) + _codes(ps.discard)
    view = g.public_view(P2)["players"]["P1"]  # type: ignore[index]
    assert view["ongoing"] == [{"name": FORM, "card": "2C", "attached": []}]
    assert "ongoing" not in g.public_view(P1)["players"]["P2"]  # type: ignore[index]
    g.apply(P1, Pass())
    # turn 2: P1 attacks (so the end-of-turn check keeps it), P2 blocks
    fight(g, commit("4C", "attack"), commit("5D", "block"))
    draw(g, P1, "9C")  # C7: a blocked normal attack draws
    draw(g, P2, "QS")  # C8b: the block draws
    g.apply(P2, Pass())  # Grave's innate: no reveal
    assert (g.turn, g.step, g.actor) == (3, "T2", P1)  # P1 attacked: K1 kept Dragon Form
    assert [e.name for e in g.state(P1).ongoing] == [FORM]


def test_the_modifier_applies_only_while_the_effect_is_active__AB_4_WIN_ENDTURN_AB_8() -> None:
    """Given 6C (6 damage): without Dragon Form it deals 6; with it 6 + 1 = 7. A turn without an
    attack ends Dragon Form at K1 (its end-of-turn check, WIN-ENDTURN; "attack" = the locked-in
    action, AB-8), the card goes to the discard pile (GEN-6), and 8C then deals its base 8."""
    g = _game()
    fight(g, commit("6C", "attack"), NoCard())
    draw(g, P1, "3C")  # C7: the winning normal attack draws
    g.apply(P2, Pass())  # C9: no Rewind
    g.apply(P1, Stop())
    assert g.life == (90, 90 - 6)
    draw(g, P2, "JS")  # turn 2 (P2 has the lower life: initiative, INI-1)
    draw(g, P1, "9C")
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, Pass())
    fight(g, commit("7C", "attack"), NoCard())
    draw(g, P1, "TC")
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert g.life == (90, 90 - 6 - 8)  # 7 + 1 while Dragon Form is in play
    assert effects.is_active(g.state(P1), FORM)  # P1 attacked this turn: it stays
    draw(g, P2, "QS")  # turn 3
    draw(g, P1, "KC")
    g.apply(P1, Pass())  # no Reinforce
    fight(g, NoCard(), NoCard())  # no attack this turn ...
    assert g.turn == 4 and not g.state(P1).ongoing  # ... so K1 discarded Dragon Form
    assert g.state(P1).discard[-1] is card("2C")
    draw(g, P2, "KS")
    draw(g, P1, "AH")
    fight(g, commit("8C", "attack"), NoCard())
    draw(g, P1, "QC")
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert g.life == (90, 90 - 6 - 8 - 8)  # base damage again


def test_an_ongoing_speed_modifier_changes_the_combat_result__AB_4_AR_SPD_1() -> None:
    """Whirlwind (2.4) against Lightning Cloud (2.4) is a speed tie; with Dragon Form Tester's
    attacks are 0.2 faster, so Whirlwind (2.2) wins alone and deals 8 + 1."""
    g = _game("2D 3D 4D 5D 6D 8D JD")
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, Pass())
    fight(g, commit("JC", "attack", "Whirlwind"), commit("JD", "attack"))
    assert g.combat.cell is not None and g.combat.winner is P1
    g.apply(P2, Pass())  # C9
    assert g.life == (90, 90 - 9)


def test_thrown_ends_the_effect_and_its_cards_go_to_the_discard_pile__AR_THR_2_GEN_6() -> None:
    """Given Dragon Form with 6C attached ("discard this if you get thrown"), when Grave's throw
    beats P1's block (thrown, AR-THR-2; AB-8), then Dragon Form ends at once: 2C and the attached
    6C go to P1's discard pile (GEN-6) with the thrown block (AR-BLK-2), and the public view no
    longer shows them (GEN-9)."""
    g = _game()
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, UseAbility(REINFORCE, card("6C")))
    assert _codes(_form(g).attached) == ["6C"]
    assert g.public_view(None)["players"]["P1"]["ongoing"] == [  # type: ignore[index]
        {"name": FORM, "card": "2C", "attached": ["6C"]}]
    g.apply(P1, Pass())
    fight(g, commit("7C", "block"), commit("8D", "throw"))
    assert not g.state(P1).ongoing
    assert _codes(g.state(P1).discard) == ["2C", "6C"]
    g.apply(P1, Pass())  # C9: P1 (the loser) places no card
    g.apply(P2, Stop())
    assert _codes(g.state(P1).discard) == ["2C", "6C", "7C"]
    assert "ongoing" not in g.public_view(None)["players"]["P1"]  # type: ignore[index]


def test_attaching_beyond_the_limit_is_refused_with_rule_and_reason__AB_2() -> None:
    """Dragon Form's text allows 2 attached cards: a third Reinforce is illegal (AB-2), the state
    is unchanged, and Brace discards an attached card (GEN-6) and draws."""
    g = _game()
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, UseAbility(REINFORCE, card("6C")))
    g.apply(P1, UseAbility(REINFORCE, card("7C")))
    assert not any(a.ability == REINFORCE for a in g.legal_actions(P1)  # type: ignore[attr-defined]
                   if isinstance(a, UseAbility))
    with pytest.raises(IllegalActionError) as exc:
        g.apply(P1, UseAbility(REINFORCE, card("8C")))
    assert exc.value.rule_id == "AB-2"
    assert exc.value.reason == ("Dragon Form already has 2 attached card(s); its text allows "
                                "at most 2")
    assert _codes(_form(g).attached) == ["6C", "7C"] and card("8C") in g.state(P1).hand
    g.apply(P1, UseAbility(BRACE, cards=(card("6C"),)))
    draw(g, P1, "9C")
    assert _codes(_form(g).attached) == ["7C"] and g.state(P1).discard == [card("6C")]
    assert card("9C") in g.state(P1).hand


def test_the_end_of_turn_check_discards_the_card_and_its_attachments__WIN_ENDTURN_K1() -> None:
    """K1: the end-of-turn window first (Brace, WIN-ENDTURN), then the mandatory end-of-turn
    check in initiative order: no attack this turn, so Dragon Form and what is attached to it go
    to the discard pile (GEN-6) before the hand limit (K2, OQ-24)."""
    g = _game()
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, UseAbility(REINFORCE, card("6C")))
    g.apply(P1, UseAbility(REINFORCE, card("7C")))
    g.apply(P1, Pass())
    fight(g, NoCard(), NoCard())
    assert (g.step, g.actor) == ("K1", P1)
    assert g.legal_actions(P1) == [Pass(), UseAbility(BRACE, cards=(card("6C"),)),
                                   UseAbility(BRACE, cards=(card("7C"),))]
    g.apply(P1, UseAbility(BRACE, cards=(card("7C"),)))
    draw(g, P1, "9C")
    g.apply(P1, Pass())
    assert g.turn == 3 and not g.state(P1).ongoing
    assert _codes(g.state(P1).discard) == ["7C", "2C", "6C"]


def test_a_move_that_requires_the_state_needs_the_effect__GEN_1() -> None:
    """Toxic Breath requires Dragon Form (card data ``requires``): illegal without it, legal and
    offered while it is in play (CharacterRules.has_state)."""
    g = _game()
    with pytest.raises(IllegalActionError) as exc:
        g.apply(P1, commit("JC", "attack", "Toxic Breath"))
    assert exc.value.rule_id == "GEN-1" and "Dragon Form" in exc.value.reason
    fight(g, NoCard(), NoCard())
    draw(g, P1, "3C")
    draw(g, P2, "3S")
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, Pass())
    assert commit("JC", "attack", "Toxic Breath") in g.legal_actions(P1)
    fight(g, commit("JC", "attack", "Toxic Breath"), NoCard())
    g.apply(P2, Pass())  # C9
    assert g.life == (90, 90 - 9 - 1)


def test_an_ongoing_effect_can_be_countered_as_it_is_played__CTR_2_CTR_3_CTR_4() -> None:
    """When Dragon Form is played the opponent may counter it (CTR-2); countered, it never
    enters play and its card is discarded (CTR-3)."""
    g = _game(GRAVE_COUNTER)
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    assert (g.actor, g.step) == (P2, "T3")
    assert UseAbility("Mental Toughness", card("TD"), (card("KD"),)) in g.legal_actions(P2)
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    assert not g.state(P1).ongoing and g.state(P1).discard == [card("2C")]
    assert commit("JC", "attack", "Toxic Breath") not in g.legal_actions(P1)


def test_an_ongoing_effect_in_play_can_never_be_countered_later__CTR_4() -> None:
    """CTR-4: once Dragon Form resolved, no later decision offers a counter against it (not
    when its modifier acts, not at its end-of-turn check), and a counter event is illegal."""
    g = _game(GRAVE_COUNTER)
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P2, Pass())  # CTR-2: the only moment to counter it
    mental = UseAbility("Mental Toughness", card("TD"), (card("KD"),))

    def then(player: object, action: Action) -> None:
        assert mental not in g.legal_actions(P2)
        if P2 in g.acting_players:
            with pytest.raises(IllegalActionError):
                g.apply(P2, mental)
        _play(g, player, action)

    then(P1, Pass())  # T3: the window closes
    then(P1, commit("6C", "attack"))  # C1
    then(P2, NoCard())
    then(P1, Draw(card("9C")))  # C7: the winning normal attack draws
    then(P2, Pass())  # C9: no Rewind
    then(P1, Stop())  # C10
    assert g.life == (90, 90 - 7)  # the modifier acted; Grave never had a counter to play
    assert effects.is_active(g.state(P1), FORM)


def _recorded_log(g: Game) -> MatchLog:
    assert g.outcome is not None
    return MatchLog(
        characters=("midori", "grave"), seed=None, ruleset=g.ruleset,
        events=tuple(LogEvent(p, a) for p, a in g.history),
        result=ClaimedResult(g.outcome.winner, g.outcome.termination, g.turn, g.life))


def test_a_recorded_log_through_these_paths_replays_legal_and_a_third_attach_is_illegal__AB_2(
) -> None:
    """Given a whole recorded game (3 turns) that plays, attaches to, spends and loses Dragon
    Form, its log replays legal with the same position; inserting a third Reinforce after the
    second makes the log illegal at that event with AB-2."""
    g = _game(ruleset=Ruleset(maxTurns=3))
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, UseAbility(REINFORCE, card("6C")))
    second = len(g.history)
    g.apply(P1, UseAbility(REINFORCE, card("7C")))
    g.apply(P1, UseAbility(BRACE, cards=(card("6C"),)))
    draw(g, P1, "9C")
    g.apply(P1, Pass())
    fight(g, commit("8C", "block"), commit("8D", "throw"))
    g.apply(P1, Pass())
    g.apply(P2, Stop())
    draw(g, P1, "KC")  # turn 3: P1 has the lower life
    draw(g, P2, "KS")
    fight(g, NoCard(), NoCard())
    assert g.is_over
    log = _recorded_log(g)
    verdict = replay(log.dumps())
    assert verdict.status == "legal", verdict.summary()
    assert verdict.final is not None and verdict.final["position"] == g.fingerprint()
    doc = json.loads(log.dumps())
    third = {"player": "P1", "action": "ability", "ability": REINFORCE, "card": "8C"}
    doc["events"].insert(second + 1, third)
    bad = replay(doc)
    assert bad.status == "illegal" and bad.first_error is not None
    assert (bad.first_error["index"], bad.first_error["rule_id"]) == (second + 1, "AB-2")
    assert "at most 2" in bad.first_error["reason"]


@pytest.mark.parametrize("pair", [("midori", "grave"), ("jaina", "midori"), ("midori", "midori")])
def test_self_play_with_the_tester_replays_legal(pair: tuple[str, str]) -> None:
    """Seeded self-play (random and greedy bots) through play, attach, spend and end: every log
    replays legal with the same final position; the paths are exercised."""
    used: set[str] = set()
    for seed in range(8):
        game, log = play_game(*pair, seed, bot="random" if seed % 2 else "greedy")
        verdict = replay(log.dumps())
        assert verdict.status == "legal", (seed, verdict.summary())
        assert verdict.final is not None and verdict.final["position"] == game.fingerprint()
        for _, a in game.history:
            if isinstance(a, UseAbility):
                used.add(a.ability)
            if getattr(a, "name", None) in ("Toxic Breath", "Dragon Mountain", "Talon Swoop",
                                             "Final Dragon Buster"):
                used.add("dragon move")
    assert {FORM, REINFORCE, BRACE, "dragon move"} <= used


def test_a_throw_hit_back_after_a_dodge_is_being_thrown__AR_THR_2_AB_8() -> None:
    """The dodged player is thrown when the hit-back is a throw (AR-THR-2): Dragon Form ends at
    that move (C10), its card to the discard pile (GEN-6)."""
    g = _game()
    _to_turn_2(g)
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P1, Pass())
    fight(g, commit("6C", "attack"), commit("2D", "dodge"))
    g.apply(P1, Pass())  # C9: no Rewind
    assert effects.is_active(g.state(P1), FORM)
    g.apply(P2, combo("8D", "throw"))
    assert not g.state(P1).ongoing and card("2C") in g.state(P1).discard


def _hit_effect(g: Game, code: str) -> effects.Ongoing:
    """Put a resolved test effect "ends when you get hit" into P2's ongoing area (from hand)."""
    ps = g.state(P2)
    ps.hand.remove(card(code))
    effect = effects.Ongoing("Test Ward", card(code), frozenset({effects.Trigger.HIT}),
                             resolved=True)
    ps.ongoing.append(effect)
    return effect


def test_hit_triggers_fire_on_the_loser_and_on_a_speed_tie__GL_HIT_M_ATTACK_ATTACK_TIE() -> None:
    """Trigger.HIT at C6: the loser of an attack is hit; both players are hit in an attack speed
    tie; a block or a dodge that wins is no hit (a throw hit-back: the test above)."""
    g = _game()
    _hit_effect(g, "9D")
    fight(g, commit("6C", "attack"), commit("6D", "attack"))  # 6.2 vs 6.6: P1 hits first
    assert not g.state(P2).ongoing and g.state(P2).discard == [card("9D")]
    g2 = _game()
    _hit_effect(g2, "9D")
    fight(g2, commit("6C", "block"), commit("6D", "attack"))  # blocked: no hit
    assert [e.name for e in g2.state(P2).ongoing] == ["Test Ward"]
    g3 = _game("2D 3D 4D 5D 6D 8D JD")
    _hit_effect(g3, "8D")
    fight(g3, commit("JC", "attack", "Whirlwind"), commit("JD", "attack"))  # 2.4 tie
    assert g3.combat.winner is None and not g3.state(P2).ongoing
    g4 = _game()
    _hit_effect(g4, "9D")
    fight(g4, commit("6C", "attack"), commit("4D", "dodge"))  # P2 dodges: not hit
    assert [e.name for e in g4.state(P2).ongoing] == ["Test Ward"]
