"""Generic ability rules of RULES.md §10.1 and the end-of-turn window (OQ-24), checked with
Grave's and Jaina's cards (the characters whose abilities are implemented) or, where neither has
the card text a rule is about, with a test-only character rule set; plus GEN-2 on card data."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from importlib import resources

import pytest

from rules_engine import characters as chars
from rules_engine.actions import Action, Discard, FaceDown, Pass, Stop, UseAbility
from rules_engine.cards import card, parse_card_data
from rules_engine.characters import CharacterRules
from rules_engine.characters.grave import INNATE
from rules_engine.errors import RuleViolation

from .helpers import P1, P2, cards, combo, commit, draw, fight, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave without Martial Mastery or Mental Toughness


def test_help_text_in_card_data_changes_nothing__GEN_2() -> None:
    """GEN-2: help text only reminds players of rules. Given the engine's card data and a copy
    where every character, move and ability carries printed help text, when both are loaded,
    then the characters are equal: nothing the game plays with differs."""
    raw = json.loads(resources.files("rules_engine").joinpath("data/characters.json")
                     .read_text("utf-8"))
    helped = copy.deepcopy(raw)
    for ch in helped["characters"]:
        ch["help_text"] = "Attacks beat throws. Throws beat blocks and dodges."
        for ability in ch["abilities"]:
            ability["help_text"] = "Play this after the draw phase."
        for moves in ch["ranks"].values():
            for m in moves:
                m["help_text"] = "This attack beats every throw and loses to blocks."
    assert parse_card_data(helped) == parse_card_data(raw)


def test_an_ability_of_the_combat_card_triggers_once_per_combat__AB_6() -> None:
    """AB-6: Lightning Trap belongs to Grave's J (Lightning Cloud). Given P1 commits one J and
    holds another, and P2 blocks holding Mental Toughness (so each trigger offers a counter),
    when the block damage is dealt, then exactly one trigger happens: one counter offer, the
    combat card returns to hand, the J in hand stays put and P2 draws nothing for blocking."""
    g = recorded_game("JC JH 2C 3C 4C 5C 6C", "5D TD QD 2D 3D 4D 6D")
    fight(g, commit("JC", "attack"), commit("5D", "block"))
    assert g.step == "C8" and g.actor is P2  # the Reaction window of the one trigger
    assert UseAbility("Mental Toughness", card("TD"), cards("QD")) in g.legal_actions(P2)
    g.apply(P2, Pass())
    # next: Grave P2's innate reveal after the block, not a second Lightning Trap
    assert g.actor is P2 and UseAbility(INNATE, card("2D")) in g.legal_actions(P2)
    g.apply(P2, Pass())
    assert (g.turn, g.step) == (1, "P2")  # combat is over: Power Up (P1's pair of Js)
    assert sorted(g.state(P1).hand, key=str) == sorted(cards("JC JH 2C 3C 4C 5C 6C"), key=str)
    assert len(g.state(P2).hand) == 7  # the block returned, no card drawn for blocking
    assert g.life == (90, 90 - 3)


def test_you_in_ability_text_means_that_character__AB_7() -> None:
    """AB-7 (Versus half): "draw two cards" on Martial Mastery means Grave, who played it.
    Given turn 2's draw phase, when P1 plays Martial Mastery, then P1 draws two and discards
    one, and P2's hand is unchanged."""
    g = recorded_game("7C 2C 3C 4C 5C 6C 8C", PLAIN)
    fight(g, commit(None), commit(None))
    draw(g, P1, "KC")
    draw(g, P2, "JS")
    g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    assert g.actor is P1  # the two draws are P1's
    draw(g, P1, "KH")
    draw(g, P1, "KS")
    g.apply(P1, Discard(cards("2C")))
    assert len(g.state(P1).hand) == 8 - 1 + 2 - 1
    assert sorted(c.code for c in g.state(P2).hand) == sorted([*PLAIN.split(), "JS"])


def test_rewind_never_prevents_ability_damage__AB_10() -> None:
    """AB-10 / RW-6: given Jaina's Smoldering Embers in her discard pile and Grave dodging her
    throw, when Grave's Rewind Joker stops her combo, then the Embers' 2 damage (an ability)
    and the throw's base damage stay dealt; only the combo moves are prevented."""
    g = recorded_game("8C TH 2C 3C 4C 5C 6C", "2D X1 3D 4D 5D 6D 8D", p1="jaina", p2="grave")
    fight(g, commit("8C", "throw"), commit("2D", "dodge"))
    g.apply(P1, UseAbility("Smoldering Embers", card("TH")))  # C4: into her discard pile
    assert g.step == "C9" and g.actor is P2
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))
    g.apply(P1, Stop())
    draw(g, P2, "9D")  # the Rewind draw: damage was prevented
    draw(g, P2, "TD")
    assert g.totals(P2).jokers["rewind_prevented_damage"] == 2 + 3
    assert g.totals(P1).damage_dealt == {"combat": 7, "block": 0, "ability": 2}
    assert g.life[1] == 90 - 7 - 2


def test_a_card_paid_as_an_ability_cost_is_not_a_move__AB_12() -> None:
    """AB-12: given Grave counters Jaina's Unstable Power by discarding Mental Toughness and
    the Whirlwind KD as its cost, then the KD is discarded without being played: no damage,
    no combat card, no combo; combat starts afresh at C1."""
    g = recorded_game("7H 2C 3C 4C 5C 6C 8C", "TD KD 2D 3D 4D 5D 6D", p1="jaina", p2="grave")
    fight(g, commit(None), commit(None))
    draw(g, P1, "9C")
    draw(g, P2, "9D")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), cards("KD")))
    grave = g.state(P2)
    assert card("KD") in grave.discard and card("KD") not in grave.hand
    assert g.step == "C1" and grave.combat_card is None and g.combo == []
    assert g.life == (85, 90)  # the KD's Whirlwind (7) was never played


def test_block_damage_is_not_a_hit__AB_13() -> None:
    """AB-13: block damage counts as attack damage but is still not a *hit*. Given Jaina's
    Unstable Power and her red 5 attack blocked by Grave (4 block damage), when combat ends,
    then "if you hit the opponent this combat" is false: no Ace search, she takes 7."""
    g = recorded_game("7H 5H 2C 3C 4C 6C 8C", PLAIN, p1="jaina", p2="grave")
    fight(g, commit(None), commit(None))
    draw(g, P1, "9C")
    draw(g, P2, "TD")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("5H", "attack"), commit("5D", "block"))
    g.apply(P1, Pass())  # C4: no rotation
    draw(g, P1, "KC")  # C7: her blocked normal attack draws
    draw(g, P2, "JS")  # C8b: Grave's draw for blocking
    g.apply(P2, Pass())  # Grave's innate: no reveal
    # end of combat: no Search is offered; Burning Vigor (she attacked) is
    assert not any(a.kind == "search" for a in g.legal_actions(P1))
    g.apply(P1, Pass())
    assert g.totals(P1).damage_dealt["block"] == 4 and not g.state(P1).hit_this_combat
    assert g.life == (85 - 7, 90 - 4)


class _EndOfTurnDrawer(CharacterRules):
    """A test-only rule set: "At the end of the turn, draw six cards" (K1, WIN-ENDTURN), once
    per turn. Neither Grave nor Jaina has end-of-turn text; the framework's window does."""

    abilities_implemented = True

    def __init__(self, character: object) -> None:
        super().__init__(character)  # type: ignore[arg-type]
        self.used_turn = 0

    def can_act(self, game: object, ps: object, window: str) -> bool:  # type: ignore[override]
        return window == "end_of_turn" and self.used_turn != game.turn  # type: ignore[attr-defined]

    def window_options(self, game: object, ps: object, window: str) -> list[Action]:  # type: ignore[override]
        return [UseAbility("Draw Six")] if self.can_act(game, ps, window) else []

    def check(self, game: object, ps: object, window: str, action: Action) -> None:  # type: ignore[override]
        if action != UseAbility("Draw Six"):
            raise RuleViolation("AB-2", "only Draw Six")

    def play(self, game: object, ps: object, window: str, action: Action) -> Iterator[object]:  # type: ignore[override]
        self.used_turn = game.turn  # type: ignore[attr-defined]
        return game.draw(ps, game.step, 6)  # type: ignore[attr-defined, no-any-return]


@pytest.fixture
def drawer_grave(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(chars.IMPLEMENTED, "grave", _EndOfTurnDrawer)


def test_end_of_turn_draws_count_for_the_hand_limit__OQ_24_HL_1(drawer_grave: None) -> None:
    """OQ-24: K1 (end-of-turn effects) comes before K2 (hand limit). Given P1 holds 7 cards and
    draws six at K1, when K2 comes, then P1 must discard 13 - 12 = 1 card."""
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    fight(g, commit(None), commit(None))
    assert g.step == "K1" and g.actor is P1
    g.apply(P1, UseAbility("Draw Six"))
    for code in ("TC", "JC", "QC", "KC", "AC", "7C"):
        draw(g, P1, code)
    g.apply(P2, UseAbility("Draw Six"))
    for code in ("TD", "JD", "QD", "KD", "AD", "7D"):
        draw(g, P2, code)
    assert g.step == "K2" and g.actor is P1
    assert {len(a.cards) for a in g.legal_actions(P1) if isinstance(a, Discard)} == {1}
    g.apply(P1, Discard(cards("2C")))
    g.apply(P2, Discard(cards("2D")))
    assert [len(g.state(p).hand) for p in (P1, P2)] == [12, 12]
