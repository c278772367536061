"""Persephone (docs/rules/characters/persephone.md): Dominance, Do As Told, Bare Your Soul,
Mistress's Command, and the decisions of persephone.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Action, Commit, Draw, Pass, PowerUp, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import MoveType, card, characters
from rules_engine.characters import IMPLEMENTED, abilities_implemented
from rules_engine.characters.persephone import (
    BARE_YOUR_SOUL,
    DO_AS_TOLD,
    DOMINANCE,
    TAKE_10,
    PersephoneRules,
)
from rules_engine.errors import RuleViolation
from rules_engine.game import Game
from rules_engine.journal import DamageDealt, Drew
from rules_engine.types import PlayerId

from .helpers import P1, P2, commit, draw, fight, finish_turn, illegal_rule, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
PERSEPHONE = "7C 2C 3C 4C 5C 6C 8C"  # a throw, normals, no 9 / 10 / Ace


def _discarded(g: Game, player: PlayerId, codes: str) -> None:
    """Test setup: cards of ``player``'s deck put into the discard pile."""
    ps = g.state(player)
    for code in codes.split():
        ps.deck.remove(card(code))
        ps.discard.append(card(code))


def _offered(g: Game, ability: str) -> bool:
    players = g.acting_players
    return bool(players) and any(isinstance(a, UseAbility) and a.ability == ability
                                 for a in g.legal_actions(players[0]))


def _decline_until(g: Game, stop: object) -> None:
    """Decline everything optional (first legal choice where one is due) until ``stop(g)``."""
    for _ in range(400):
        if g.outcome is not None or stop(g):  # type: ignore[operator]
            return
        player = g.acting_players[0]
        legal = g.legal_actions(player)
        pick: Action = legal[0]
        for skip in (Pass(), Stop(), PowerUp()):
            if skip in legal:
                pick = skip
                break
        g.apply(player, pick)
    raise AssertionError("the awaited decision never came")


def _knockdown_turn(g: Game) -> None:
    """Persephone's 7 throw hits Grave's no-card; Grave places no Rewind card, no combo."""
    fight(g, commit("7C", "throw"), commit(None))
    g.apply(P2, Pass())  # C9
    g.apply(P1, Stop())  # C10


# --- registry ---------------------------------------------------------------------------------
def test_persephone_is_implemented__registry() -> None:
    assert abilities_implemented("persephone") and IMPLEMENTED["persephone"] is PersephoneRules
    c = characters()["persephone"]
    notes = PersephoneRules.ability_notes
    assert {a.name for a in (*c.innates, *c.abilities)} == set(notes)


# --- Dominance (innate) -----------------------------------------------------------------------
def test_dominance_fetches_one_non_joker_card_after_a_knockdown__KD_1() -> None:
    """persephone.md, Innate: "you may fetch a non-Joker card from your discard pile (before
    you discard combat cards)"."""
    g = recorded_game(PERSEPHONE, PLAIN, p1="persephone", p2="grave")
    _discarded(g, P1, "QC 3H X1")
    _knockdown_turn(g)
    assert g.step == "C13" and g.actor is P1
    legal = g.legal_actions(P1)
    assert set(legal) == {Pass(), UseAbility(DOMINANCE, cards=(card("QC"),)),
                          UseAbility(DOMINANCE, cards=(card("3H"),))}  # no Joker, no 7C
    g.apply(P1, UseAbility(DOMINANCE, cards=(card("QC"),)))
    assert card("QC") in g.state(P1).hand
    assert not _offered(g, DOMINANCE)  # one card only: not knocked down last combat
    assert card("7C") in g.state(P1).discard  # the throw is discarded after (C13c)


def test_dominance_illegal_fetches__AB_1() -> None:
    g = recorded_game(PERSEPHONE, PLAIN, p1="persephone", p2="grave")
    _discarded(g, P1, "QC X1")
    _knockdown_turn(g)
    assert illegal_rule(g, P1, UseAbility(DOMINANCE, cards=(card("X1"),))) == "AB-1"  # Joker
    assert illegal_rule(g, P1, UseAbility(DOMINANCE, cards=(card("KC"),))) == "AB-1"  # in deck
    assert illegal_rule(g, P1, UseAbility(DOMINANCE, cards=(card("7C"),))) == "AB-1"  # combat
    assert illegal_rule(g, P1, UseAbility(DOMINANCE, card=card("QC"))) == "AB-1"
    g.apply(P1, Pass())
    assert card("QC") in g.state(P1).discard


def test_no_dominance_with_nothing_to_fetch_or_without_a_knockdown() -> None:
    g = recorded_game(PERSEPHONE, PLAIN, p1="persephone", p2="grave")
    _discarded(g, P1, "X1 X2")  # Jokers only
    _knockdown_turn(g)
    assert g.turn == 2 or not _offered(g, DOMINANCE)
    g2 = recorded_game(PERSEPHONE, PLAIN, p1="persephone", p2="grave")
    _discarded(g2, P1, "QC")
    fight(g2, commit("2C", "attack"), commit(None))  # a hit without a knockdown
    _decline_until(g2, lambda g: g.turn == 2 or _offered(g, DOMINANCE))
    assert g2.turn == 2


def test_dominance_after_two_knockdowns_in_a_row_fetches_four_of_different_ranks__KD_1() -> None:
    """persephone.md, Innate: "If you also knocked them down last combat, instead fetch up to
    four non-Joker cards of different ranks" (persephone.md, "Engine rulings": one decision per
    card)."""
    g = recorded_game(PERSEPHONE, PLAIN, p1="persephone", p2="grave")
    _discarded(g, P1, "QC QH 3H 4H 5H KD X1")
    _knockdown_turn(g)
    g.apply(P1, Pass())  # turn 1: she fetches nothing
    finish_turn(g, 1)
    draw(g, P1, "7D")
    draw(g, P2, "TD")
    fight(g, commit("7D", "throw"), commit(None))  # knocked down again (turn 2)
    _decline_until(g, lambda g: _offered(g, DOMINANCE))
    g.apply(P1, UseAbility(DOMINANCE, cards=(card("QC"),)))
    # a second Queen is refused (different ranks), and no longer offered
    assert illegal_rule(g, P1, UseAbility(DOMINANCE, cards=(card("QH"),))) == "AB-1"
    assert UseAbility(DOMINANCE, cards=(card("QH"),)) not in g.legal_actions(P1)
    for code in ("KD", "3H", "4H"):
        g.apply(P1, UseAbility(DOMINANCE, cards=(card(code),)))
    assert not _offered(g, DOMINANCE)  # four fetched: done
    hand = g.state(P1).hand
    assert all(card(c) in hand for c in ("QC", "KD", "3H", "4H"))
    assert card("5H") in g.state(P1).discard


def test_dominance_four_fetch_may_stop_early() -> None:
    g = recorded_game(PERSEPHONE, PLAIN, p1="persephone", p2="grave")
    _discarded(g, P1, "QC 3H 4H")
    _knockdown_turn(g)
    g.apply(P1, Pass())
    finish_turn(g, 1)
    draw(g, P1, "7D")
    draw(g, P2, "TD")
    fight(g, commit("7D", "throw"), commit(None))
    _decline_until(g, lambda g: _offered(g, DOMINANCE))
    g.apply(P1, UseAbility(DOMINANCE, cards=(card("3H"),)))
    g.apply(P1, Pass())
    assert not _offered(g, DOMINANCE)
    assert card("QC") in g.state(P1).discard and card("3H") in g.state(P1).hand


# --- Do As Told (9, Reaction) -----------------------------------------------------------------
def _martial_mastery(p_hand: str = "9C 2C 3C 4C 5C 6C 8C") -> Game:
    """Turn 2's draw phase: Grave plays Martial Mastery (his 7); Persephone may counter."""
    g = recorded_game(p_hand, "7D 2D 3D 4D 5D 6D 8D", p1="persephone", p2="grave")
    fight(g, commit(None), commit(None))
    draw(g, P1, "KC")
    draw(g, P2, "KD")
    g.apply(P2, UseAbility("Martial Mastery", card("7D")))
    return g


def test_do_as_told_refused_price_counters_the_ability__CTR_1_CTR_3() -> None:
    """persephone.md, Do As Told: "If they don't, counter that ability"."""
    g = _martial_mastery()
    assert g.actor is P1 and UseAbility(DO_AS_TOLD, card("9C")) in g.legal_actions(P1)
    g.apply(P1, UseAbility(DO_AS_TOLD, card("9C")))
    assert g.actor is P2  # the opponent answers
    assert set(g.legal_actions(P2)) == {Pass(), UseAbility(DO_AS_TOLD, option=TAKE_10)}
    g.apply(P2, Pass())
    assert card("9C") in g.state(P1).discard and card("7D") in g.state(P2).discard
    assert g.life == (75, 90)
    # countered: no Martial Mastery draws for Grave
    assert not [e for e in g.journal.of(Drew) if e.turn == 2 and e.step == "T3"]


def test_do_as_told_price_paid_the_ability_resolves_uncounterable__CTR_2() -> None:
    """persephone.md, Do As Told: "The opponent may take 10 damage to make their ability
    uncounterable"."""
    g = _martial_mastery()
    g.apply(P1, UseAbility(DO_AS_TOLD, card("9C")))
    g.apply(P2, UseAbility(DO_AS_TOLD, option=TAKE_10))
    assert g.life[1] == 90 - 10
    hits = [e for e in g.journal.of(DamageDealt) if e.kind == "ability"]
    assert [(e.target, e.source, e.amount) for e in hits] == [(P2, P1, 10)]
    # Martial Mastery resolves: its two draws follow
    assert g.actor is P2 and isinstance(g.legal_actions(P2)[0], Draw)


def test_do_as_told_illegal_uses__CTR_1_CTR_2_AB_2() -> None:
    g = _martial_mastery("9C 8C 2C 3C 4C 5C 6C")
    assert illegal_rule(g, P1, UseAbility(DO_AS_TOLD, card("8C"))) == "CTR-1"  # not a 9
    assert illegal_rule(g, P1, UseAbility(DO_AS_TOLD, card("9D"))) == "CTR-1"  # not in hand
    assert illegal_rule(g, P1, UseAbility("Crash and Flow", card("9C"))) == "CTR-2"
    g.apply(P1, UseAbility(DO_AS_TOLD, card("9C")))
    assert illegal_rule(g, P2, UseAbility(DO_AS_TOLD, option="take 5 damage")) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(DO_AS_TOLD, option=TAKE_10)) == "AB-2"  # not hers


def test_no_do_as_told_without_a_9__CTR_1() -> None:
    g = _martial_mastery("8C 2C 3C 4C 5C 6C 7C")
    assert g.actor is P2  # Martial Mastery resolves: Grave's draws, no counter decision


# --- Bare Your Soul (10, Draw Phase) ------------------------------------------------------------
def _bare(p_hand: str = "TC 2C 3C 4C 5C 6C 8C") -> Game:
    """Turn 2's draw phase; Persephone (less life: initiative) holds a 10."""
    g = recorded_game(p_hand, PLAIN, p1="persephone", p2="grave")
    fight(g, commit(None), commit(None))
    _decline_until(g, lambda g: g.turn == 2)  # no Power Up
    draw(g, P1, "KC")
    draw(g, P2, "KD")
    assert g.step == "T3" and g.actor is P1
    return g


def test_bare_your_soul_turns_the_top_3_face_up_and_replaces_draws__GEN_9() -> None:
    """persephone.md, Bare Your Soul: the top 3 cards face up; "Whenever they would draw a
    card, you may have them draw one of those face-up cards instead"."""
    g = _bare()
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, card("TC")))
    # a recorded game names the cards turned face up
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("AS"), card("7H"), card("2S"))))
    assert g.state(P2).face_up == [card("AS"), card("7H"), card("2S")]
    for viewer in (P1, P2, None):  # face up: public
        view = g.public_view(viewer)["players"]["P2"]  # type: ignore[index]
        assert view["face_up"] == ["AS", "7H", "2S"]
    # the next draw of Grave (turn 3's draw phase): Persephone names a face-up card
    _decline_until(g, lambda g: g.actor is P1 and _offered(g, BARE_YOUR_SOUL))
    assert g.turn == 3 and g.step == "T2"
    assert illegal_rule(g, P1, UseAbility(BARE_YOUR_SOUL, cards=(card("KS"),))) == "AB-2"
    size = len(g.state(P2).deck)
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("2S"),)))
    assert card("2S") in g.state(P2).hand and g.state(P2).face_up == [card("AS"), card("7H")]
    assert len(g.state(P2).deck) == size  # persephone.md's rulings: nothing leaves the deck
    drew = [e for e in g.journal.of(Drew) if e.turn == 3 and e.seat is P2]
    assert len(drew) == 1  # a replaced draw is still a draw, from no deck


def test_bare_your_soul_declined_discards_the_face_up_cards_and_the_draw_follows() -> None:
    """persephone.md, Bare Your Soul: "if you don't, they discard the face-up cards"."""
    g = _bare()
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, card("TC")))
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("AS"), card("7H"), card("2S"))))
    _decline_until(g, lambda g: g.actor is P1 and _offered(g, BARE_YOUR_SOUL))
    g.apply(P1, Pass())
    ps = g.state(P2)
    assert ps.face_up == [] and {card("AS"), card("7H"), card("2S")} <= set(ps.discard)
    assert g.actor is P2 and isinstance(g.legal_actions(P2)[0], Draw)  # the normal draw


def test_bare_your_soul_above_3_face_up_cards_she_discards_down() -> None:
    """persephone.md, Bare Your Soul: "If there are more than 3 such face-up cards, discard
    down to 3 (your choice)"."""
    g = _bare("TC TH 2C 3C 4C 5C 6C")
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, card("TC")))
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("AS"), card("7H"), card("2S"))))
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, card("TH")))
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("KS"), card("QS"), card("JS"))))
    assert len(g.state(P2).face_up) == 6
    assert illegal_rule(g, P1, UseAbility(BARE_YOUR_SOUL, cards=(card("AS"),))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(
        BARE_YOUR_SOUL, cards=(card("AS"), card("KS"), card("TS")))) == "AB-2"
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("AS"), card("KS"), card("QS"))))
    assert g.state(P2).face_up == [card("7H"), card("2S"), card("JS")]
    assert {card("AS"), card("KS"), card("QS")} <= set(g.state(P2).discard)


def test_bare_your_soul_illegal_uses__AB_2_WIN_DRAW_GEN_6() -> None:
    g = _bare("TC 9C 2C 3C 4C 5C 6C")
    assert illegal_rule(g, P1, UseAbility(BARE_YOUR_SOUL, card("9C"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(BARE_YOUR_SOUL, card("TD"))) == "AB-2"
    # Do As Told is a Reaction: in a window, with no ability being played, it has nothing to
    # counter (the refusal says so, CTR-2, instead of listing her window abilities)
    assert illegal_rule(g, P1, UseAbility(DO_AS_TOLD, card("9C"))) == "CTR-2"
    with pytest.raises(RuleViolation) as err:
        g.rules[P1].check(g, g.state(P1), "combat_reveal", UseAbility(BARE_YOUR_SOUL, card("TC")))
    assert err.value.rule_id == "WIN-DRAW"
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, card("TC")))
    # the revealed cards must be in the opponent's deck (KD was drawn: in his hand)
    assert illegal_rule(g, P1, UseAbility(
        BARE_YOUR_SOUL, cards=(card("KD"), card("7H"), card("2S")))) == "GEN-6"
    assert illegal_rule(g, P1, UseAbility(BARE_YOUR_SOUL, cards=(card("7H"),))) == "AB-2"


def test_bare_your_soul_not_in_the_combat_reveal_window__WIN_DRAW() -> None:
    g = recorded_game("TC 2C 3C 4C 5C 6C 8C", PLAIN, p1="persephone", p2="grave")
    fight(g, commit("2C", "attack"), commit("3D", "attack"))
    assert not _offered(g, BARE_YOUR_SOUL)  # C4 and on: never listed


def test_a_shuffle_shuffles_the_face_up_cards_back_into_the_deck() -> None:
    """persephone.md, Bare Your Soul: "Whenever the opponent shuffles their deck, they shuffle
    those cards back into it"."""
    g = _bare()
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, card("TC")))
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("AS"), card("7H"), card("2S"))))
    ps = g.state(P2)
    size = len(ps.deck)
    g.shuffle_deck(ps)
    assert ps.face_up == [] and len(ps.deck) == size + 3 and card("AS") in ps.deck


def test_bare_your_soul_in_a_seeded_game_takes_the_actual_top_cards() -> None:
    for seed in range(200):
        g = Game(characters()["persephone"], characters()["grave"], seed=seed)
        if not any(c.rank is not None and int(c.rank) == 10 for c in g.state(P1).hand):
            continue
        _decline_until(g, lambda g: g.turn == 2 or g.outcome is not None)
        _decline_until(g, lambda g: g.step != "T2" or g.outcome is not None)
        if g.step != "T3" or g.actor is not P1 or not _offered(g, BARE_YOUR_SOUL):
            continue
        ten = next(a for a in g.legal_actions(P1) if isinstance(a, UseAbility))
        top = g.state(P2).deck[:3]
        g.apply(P1, ten)
        if g.actor is P2:  # Grave's counter decision (Mental Toughness)
            g.apply(P2, Pass())
        assert g.state(P2).face_up == top
        return
    raise AssertionError("no seed gave Persephone a 10 in her draw phase")


# --- Mistress's Command (A) ---------------------------------------------------------------------
MC = "Mistress's Command"


def _command(p_hand: str = "AC 2C 3C 4C 5C 6C 8C", grave: Action | None = None) -> Game:
    """Turn 1: her Mistress's Command hits Grave's no-card (or ``grave``'s commit)."""
    g = recorded_game(p_hand, PLAIN, p1="persephone", p2="grave")
    fight(g, commit("AC", "attack", MC), grave or commit(None))
    return g


def test_mistress_command_controls_the_next_turn_until_the_combat_reveal__GEN_9() -> None:
    """persephone.md, Mistress's Command: "you control the opponent's next turn until the
    combat-reveal ... Look at their hand; you may play their abilities and their combat card"."""
    g = _command()
    _decline_until(g, lambda g: g.turn == 2)
    assert g.life[1] == 90 - 1
    assert g.controller(P2) is P1 and g.controller(P1) is P1
    mine = g.public_view(P1)["players"]["P2"]  # type: ignore[index]
    theirs = g.public_view(P2)["players"]["P2"]  # type: ignore[index]
    assert mine["hand"] == theirs["hand"] and mine["controlled_by"] == "P1"
    assert "hand" not in g.public_view(None)["players"]["P2"]  # type: ignore[index]
    _decline_until(g, lambda g: g.step == "C1")
    assert g.controller(P2) is P1
    fight(g, commit("2C", "attack"), commit("2D", "attack"))
    assert g.controller(P2) is P2  # the combat reveal ends the control
    assert "hand" not in g.public_view(P1)["players"]["P2"]  # type: ignore[index]


def test_no_control_when_mistress_command_does_not_win_or_deal_damage() -> None:
    g = _command(grave=commit("5D", "block"))  # blocked
    _decline_until(g, lambda g: g.turn == 2)
    assert g.controller(P2) is P2
    g2 = recorded_game("AC 2C 3C 4C 5C 6C 8C", "QD 2D 3D 4D 5D 6D 8D", p1="persephone",
                       p2="grave")
    fight(g2, commit("AC", "attack", MC), commit("2D", "attack"))  # faster: she loses
    _decline_until(g2, lambda g: g.turn == 2)
    assert g2.controller(P2) is P2


def test_on_your_knees_gives_no_control() -> None:
    g = recorded_game("AC AD 2C 3C 4C 5C 6C", PLAIN, p1="persephone", p2="grave")
    fight(g, commit("AC", "attack", "On Your Knees"), commit(None))
    _decline_until(g, lambda g: g.turn == 2)
    assert g.controller(P2) is P2


def test_mistress_command_cannot_control_two_turns_in_a_row() -> None:
    """persephone.md, Mistress's Command: "You can't control two turns in a row"."""
    g = _command("AC AD AH 2C 3C 4C 5C")
    _decline_until(g, lambda g: g.step == "C1")
    assert g.turn == 2 and g.controller(P2) is P1
    fight(g, commit("AD", "attack", MC), commit(None))  # she hits again in the controlled turn
    _decline_until(g, lambda g: g.turn == 3)
    assert g.controller(P2) is P2  # no control two turns in a row
    _decline_until(g, lambda g: g.step == "C1")
    fight(g, commit("AH", "attack", MC), commit(None))
    _decline_until(g, lambda g: g.turn == 4)
    assert g.controller(P2) is P1  # a turn between: control again


def test_the_controller_makes_the_controlled_decisions_with_the_greedy_bot() -> None:
    """Persephone's Training-bot "worst possible choices" (greedy heuristic, PersephoneRules)."""
    g = _command()
    _decline_until(g, lambda g: g.step == "C1")
    assert g.controller(P2) is P1
    legal = g.legal_actions(P2)
    pick = GreedyBot(0).choose(g, P2, legal)
    assert isinstance(pick, Commit) and pick.card.rank is not None
    assert int(pick.card.rank) == 2 and pick.move is MoveType.ATTACK  # least damage


# --- bots, self-play, verdicts --------------------------------------------------------------------
def test_greedy_counters_and_bares_the_soul() -> None:
    g = _martial_mastery()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(DO_AS_TOLD, card("9C"))
    g2 = _bare()
    assert GreedyBot().choose(g2, P1, g2.legal_actions(P1)) == UseAbility(BARE_YOUR_SOUL,
                                                                          card("TC"))


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    from rules_engine.replay import replay
    from rules_engine.selfplay import play_game

    for seed in range(2):
        for bot in ("random", "greedy"):
            for p1, p2 in (("persephone", opponent), (opponent, "persephone")):
                _, log = play_game(p1, p2, 31 + seed, bot=bot)
                verdict = replay(log.dumps())
                assert verdict.status == "legal", (p1, p2, seed, bot, verdict.summary())
                assert verdict.abilities_complete is abilities_implemented(opponent)


def test_bots_play_every_persephone_ability() -> None:
    from rules_engine.selfplay import play_game

    seen: set[str] = set()
    controlled = False  # Mistress's Command makes no event: its control is the rules' memory
    for seed in range(40):
        opp = sorted(characters())[seed % 20]
        game, _ = play_game("persephone", opp, seed, bot="random" if seed % 2 else "greedy")
        seen |= {a.ability for _, a in game.history if isinstance(a, UseAbility)}
        rules = game.rules[P1]
        assert isinstance(rules, PersephoneRules)
        controlled = controlled or rules.controlled_turn > 0
        if {DOMINANCE, DO_AS_TOLD, BARE_YOUR_SOUL} <= seen and controlled:
            break
    assert {DOMINANCE, DO_AS_TOLD, BARE_YOUR_SOUL} <= seen and controlled


def test_every_card_is_in_exactly_one_zone_with_face_up_cards__GEN_6() -> None:
    """Bare Your Soul's face-up cards are a zone of their owner (GEN-6)."""
    from .test_selfplay_properties import _check_zones

    opponents = ("grave", "argagarg", "gwen", "persephone", "geiger", "midori")
    _check_zones([(s, *(("persephone", o) if s % 2 else (o, "persephone")))
                  for s, o in enumerate(opponents * 2)])


def test_recorded_logs_with_her_abilities_validate_and_replay_legal() -> None:
    """A recorded (tabletop) log names the face-up cards in an ``ability`` event
    (docs/log-format.md); such logs pass the JSON Schema and replay legal with their result."""
    from rules_engine.bots import RandomBot
    from rules_engine.log import ClaimedResult, LogEvent, MatchLog
    from rules_engine.replay import replay

    found = 0
    for seed in range(60):
        g = Game(characters()["persephone"], characters()["grave"])
        bots = (RandomBot(seed), RandomBot(seed + 100))
        while not g.is_over:
            p = g.acting_players[0]
            g.apply(p, bots[g.controller(p)].choose(g, p, g.legal_actions(p)))
        assert g.outcome is not None
        reveals = [a for _, a in g.history if isinstance(a, UseAbility)
                   and a.ability == BARE_YOUR_SOUL and len(a.cards) == 3]
        log = MatchLog(("persephone", "grave"), tuple(LogEvent(p, a) for p, a in g.history),
                       result=ClaimedResult(g.outcome.winner, g.outcome.termination, g.turn,
                                            g.life))
        verdict = replay(log.dumps())
        assert verdict.status == "legal", verdict.summary()
        assert verdict.abilities_complete
        found += bool(reveals)
        if found >= 2:
            return
    raise AssertionError("no recorded game played Bare Your Soul")


def test_a_frozen_persephone_lets_the_face_up_cards_go() -> None:
    """persephone.md, "Engine rulings": frozen (Chillbane), the engine passes for her at the
    opponent's draw, so the face-up cards are discarded and the draw comes from the deck."""
    g = _bare()
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, card("TC")))
    g.apply(P1, UseAbility(BARE_YOUR_SOUL, cards=(card("AS"), card("7H"), card("2S"))))
    g.freeze(g.state(P1))
    fight(g, commit(None), commit("2D", "attack"))  # Grave's normal attack hits: C7 draw
    assert g.state(P2).face_up == [] and card("AS") in g.state(P2).discard
    assert g.step == "C7" and g.actor is P2 and isinstance(g.legal_actions(P2)[0], Draw)
