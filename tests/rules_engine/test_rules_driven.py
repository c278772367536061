"""Rules played through a game: the vectors other tests check on a pure helper alone
(``combat.resolve``, ``follow_violation``, ``chain_lengths``, ``set_entitlement``,
``search_violation``, ``rewind_allowed``), here driven through ``Game.apply`` so that
``coverage --strict`` counts them (rules_engine/coverage.py: a citing test must drive the game).

Each test states what the table, the player or the engine does, and checks what the game does
with it: life, the step and who decides, which cards moved, which action is refused and why."""

from __future__ import annotations

import copy
import dataclasses
import json
from importlib import resources

import pytest

from rules_engine.actions import (
    Action,
    Draw,
    FaceDown,
    NoCard,
    Pass,
    PowerUp,
    Pump,
    Search,
    Stop,
    WinInitiative,
)
from rules_engine.cards import Character, card, character, parse_card_data
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.ruleset import (
    AceSource,
    ChainReward,
    FaceBlockParity,
    Ruleset,
)

from .helpers import (
    P1,
    P2,
    PLAIN,
    cards,
    combo,
    commit,
    draw,
    fight,
    recorded_game,
    with_move,
    won_combat,
)

JOKER_HAND = "X1 3D 4D 5D 6D 8D 9D"


def _game(p1: Character, p2: Character, hand1: str, hand2: str,
          ruleset: Ruleset | None = None) -> Game:
    """A recorded-draw game between two (possibly synthetic) characters; P1 has initiative."""
    g = Game(p1, p2, ruleset=ruleset or Ruleset())
    for c in cards(hand1):
        g.apply(P1, Draw(c))
    for c in cards(hand2):
        g.apply(P2, Draw(c))
    if g.step == "S-6":
        g.apply(P1, WinInitiative())
    return g


def _refused(g: Game, player: object, action: Action) -> str:
    with pytest.raises(IllegalActionError) as err:
        g.apply(player, action)  # type: ignore[arg-type]
    return err.value.rule_id


# ------------------------------------------------------------------ the combat matrix (§4.4)


@pytest.mark.parametrize(("cell", "hand2", "y"), [
    ("M-THROW-THROW", "9D 2D 3D 4D 5D 6D 8D", commit("9D", "throw")),
    ("M-THROW-DODGE", PLAIN, commit("2D", "dodge")),
    ("M-THROW-NOCARD", PLAIN, NoCard()),
])
def test_a_throw_wins_hits_and_combos__AR_1_GL_WIN_M_THROW_THROW_M_THROW_DODGE_M_THROW_NOCARD(
    cell: str, hand2: str, y: Action,
) -> None:
    """A throw beats a slower throw, a dodge and no card (AR-1): the thrower wins (GL-WIN), deals
    its base damage at C8, the loser may Rewind (C9), then the winner may combo (C10)."""
    g = recorded_game("7C 2C 3C 4C 5C 6C 8C", hand2)
    fight(g, commit("7C", "throw"), y)
    assert g.combat.cell == cell
    assert g.life == (90, 90 - 7)
    assert (g.step, g.actor) == ("C9", P2)  # the loser's Rewind window
    g.apply(P2, Pass())
    assert (g.step, g.actor) == ("C10", P1)  # the winner's combo
    g.apply(P1, combo("2C"))
    g.apply(P1, Stop())  # C12: the combo's damage
    assert g.life == (90, 90 - 7 - 2) and g.turn == 2


def test_the_slower_throw_loses_whoever_throws_it__M_THROW_THROW_GL_SPEED() -> None:
    g = recorded_game("9C 2C 3C 4C 5C 6C 8C", "7D 2D 3D 4D 5D 6D 8D")
    fight(g, commit("9C", "throw"), commit("7D", "throw"))
    assert g.combat.cell == "M-THROW-THROW" and g.life == (90 - 7, 90)
    assert (g.step, g.actor) == ("C9", P1)


def test_gold_burst_beats_a_throw_and_searches__M_THROW_JOKER_AR_1() -> None:
    """Gold Burst beats throw: no damage either way, the Joker's player searches 2 Aces (C8),
    and nobody follows up: no Rewind, no combo."""
    g = recorded_game("8C 2C 3C 4C 5C 6C 9C", JOKER_HAND)
    fight(g, commit("8C", "throw"), commit("X1"))
    assert g.combat.cell == "M-THROW-JOKER"
    assert g.life == (90, 90) and (g.step, g.actor) == ("C8", P2)
    g.apply(P2, Search((), cards("AH AS")))
    assert {card("AH"), card("AS")} <= set(g.state(P2).hand)
    assert g.step not in ("C9", "C10") and g.life == (90, 90)


def test_gold_burst_beats_no_card__M_JOKER_NOCARD() -> None:
    g = recorded_game("X1 3C 4C 5C 6C 8C 9C", PLAIN)
    fight(g, commit("X1"), NoCard())
    assert g.combat.cell == "M-JOKER-NOCARD"
    assert g.life == (90, 90) and (g.step, g.actor) == ("C8", P1)
    g.apply(P1, Search((), cards("AH AS")))
    assert {card("AH"), card("AS")} <= set(g.state(P1).hand)
    assert g.step not in ("C9", "C10")


@pytest.mark.parametrize(("cell", "y"), [
    ("M-DODGE-JOKER", commit("X1")),
    ("M-DODGE-NOCARD", NoCard()),
])
def test_a_dodge_wins_without_damage_then_hits_back__M_DODGE_JOKER_M_DODGE_NOCARD_AR_1(
    cell: str, y: Action,
) -> None:
    """A dodge beats a Gold Burst and no card: no damage and no search for the loser; the loser
    may Rewind, then the dodger hits back with one move, which ends the combo."""
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", JOKER_HAND)
    fight(g, commit("2C", "dodge"), y)
    assert g.combat.cell == cell
    assert g.life == (90, 90) and (g.step, g.actor) == ("C9", P2)
    assert len(g.state(P2).hand) == (6 if cell == "M-DODGE-JOKER" else 7)  # no Aces searched
    g.apply(P2, Pass())
    g.apply(P1, combo("6C"))  # the hit-back
    assert g.life == (90, 84) and g.turn == 2


# ------------------------------------------------------------------ speeds and card vocabulary


def test_speeds_compare_as_decimals_in_combat__GEN_7_GL_SPEED() -> None:
    """Dragonheart (0.0) beats Whirlwind (2.2); Whirlwind (2.2) beats Lightning Cloud (2.4):
    attack against attack, the lower number wins and only the winner hits."""
    g = recorded_game("QC 3C 4C 5C 6C 8C 9C", "KD 3D 4D 5D 6D 8D 9D")
    fight(g, commit("QC", "attack"), commit("KD", "attack"))
    assert g.combat.cell == "M-ATTACK-ATTACK" and g.life == (90, 80)
    g2 = recorded_game("KC 3C 4C 5C 6C 8C 9C", "JD 3D 4D 5D 6D 8D 9D")
    fight(g2, commit("KC", "attack"), commit("JD", "attack"))
    assert g2.combat.cell == "M-ATTACK-ATTACK" and g2.life == (90, 90 - 7)


def test_a_card_is_played_by_one_of_its_ends__GL_END_GL_MOVE_GL_CARD() -> None:
    """Grave's 2 shows an attack and a dodge: either end can be the combat move, a move the card
    does not show cannot. The play deck is 52 cards and 2 Jokers."""
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    assert len(g.state(P1).hand) + len(g.state(P1).deck) == 54
    assert _refused(g, P1, commit("2C", "block")) == "GL-ORIENT"
    g.apply(P1, commit("2C", "dodge"))
    g.apply(P2, commit("2D", "attack"))
    assert g.combat.cell == "M-ATTACK-DODGE" and (g.step, g.actor) == ("C9", P2)
    g2 = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    fight(g2, commit("2C", "attack"), NoCard())
    assert g2.combat.cell == "M-ATTACK-NOCARD"


@pytest.mark.parametrize(("hand", "combat", "normal"), [
    ("6C 2C 3C 4C 5C 8C 9C", commit("6C", "attack"), True),
    ("KC 2C 3C 4C 5C 8C 9C", commit("KC", "attack"), False),
    ("AC 2C 3C 4C 5C 8C 9C", commit("AC", "attack", "True-Spark Arc"), False),
])
def test_only_normal_attacks_draw_on_a_win__GL_NORMAL_GL_FACE_GL_ACE(
    hand: str, combat: Action, normal: bool,
) -> None:
    """A 2-10 attack is a normal attack and draws a card when it wins (C7); a face-card (J, Q, K)
    or Ace attack is a special or super move and does not."""
    g = recorded_game(hand, PLAIN)
    fight(g, combat, NoCard())
    assert (g.step == "C7" and g.actor is P1) is normal


def test_sets_are_same_rank_cards_of_any_suit__GL_RANK_GL_SUIT_PU_2_PU_3_TV_PU_01() -> None:
    """TV-PU-01: 4♥4♣ and 7♠7♦7♣ are two sets (same rank, any suit): 1 + 2 = 3 Aces."""
    g = recorded_game("4H 4C 7S 7D 7C 2C 3C", PLAIN)
    fight(g, NoCard(), NoCard())
    assert (g.step, g.actor) == ("P2", P1)
    sets = cards("4H 4C 7S 7D 7C")
    assert _refused(g, P1, PowerUp(sets, (), cards("AC AD AH AS"))) == "PU-5"
    g.apply(P1, PowerUp(sets, (), cards("AC AD AH")))
    assert {card("AC"), card("AD"), card("AH")} <= set(g.state(P1).hand)
    assert set(sets) <= set(g.state(P1).discard)


def test_cards_of_one_suit_and_different_ranks_are_no_set__GL_RANK_GL_SUIT() -> None:
    g = recorded_game("4C 4D 5C 2C 3C 6C 8C", PLAIN)
    fight(g, NoCard(), NoCard())
    assert _refused(g, P1, PowerUp(cards("4C 5C"), (), cards("AC"))) == "PU-2"


def test_a_joker_and_a_nine_are_no_pair__TV_PU_02_GL_JOKER_PU_2() -> None:
    g = recorded_game("X1 9C 4C 4D 2C 3C 6C", PLAIN)
    fight(g, NoCard(), NoCard())
    assert _refused(g, P1, PowerUp(cards("X1 9C"), (), cards("AC"))) == "PU-2"


def test_two_jokers_are_a_pair__TV_PU_03_GL_JOKER() -> None:
    g = recorded_game("X1 X2 2C 3C 4C 5C 6C", PLAIN)
    fight(g, NoCard(), NoCard())
    assert _refused(g, P1, PowerUp(cards("X1 X2"), (), cards("AC AD"))) == "PU-5"
    g.apply(P1, PowerUp(cards("X1 X2"), (), cards("AC")))
    assert card("AC") in g.state(P1).hand and card("X1") in g.state(P1).discard


def test_help_text_changes_nothing_in_play__GEN_2() -> None:
    """GEN-2: help text only reminds players of rules. Given card data where every character,
    move and ability carries printed help text, a game played with it goes exactly as one
    played with the engine's data."""
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
    loaded = parse_card_data(helped)

    def play(p1: Character, p2: Character) -> tuple[object, ...]:
        g = _game(p1, p2, "KC KD 5C JC 3C 4C 8S", "6D 2D 3D 4D 5D 8D 9D")
        fight(g, commit("KC", "attack"), commit("6D", "attack"))
        g.apply(P2, Pass())
        g.apply(P1, Pump(0, cards("KD")))
        g.apply(P1, combo("5C"))
        g.apply(P1, combo("JC"))
        return (g.life, g.turn, g.step, sorted(map(str, g.state(P1).discard)))

    played = play(character("grave"), character("jaina"))
    assert played[0] == (90, 85 - (7 + 7) - 5 - 8)  # Whirlwind pumped, 5, Lightning Cloud
    assert play(loaded["grave"], loaded["jaina"]) == played


# ------------------------------------------------------------------ knockdowns and mixups (§4.6)


def _knocked_down_p2(hand1: str, hand2: str, *, p2: str = "grave",
                     ruleset: Ruleset | None = None) -> Game:
    """Turn 1: P1's throw knocks P2 down; turn 2 is ready for both combat cards."""
    g = recorded_game(hand1, hand2, p2=p2, ruleset=ruleset or Ruleset())
    fight(g, commit("8C", "throw"), NoCard())
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert g.state(P2).knocked_down and g.turn == 2
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    return g


def test_a_knocked_down_block_stops_a_face_attack_whatever_its_parity__M_KD_SPECIAL() -> None:
    """Whirlwind is a K (13, odd) and the block a 6 (even): against a normal attack that would
    be a mixup, against a face-card attack the block works as usual (M-ATTACK-BLOCK)."""
    g = _knocked_down_p2("8C KC 2C 3C 4C 5C 9C", "6D 2D 3D 4D 5D 8D 9D")
    fight(g, commit("KC", "attack"), commit("6D", "block"))
    assert g.combat.cell == "M-ATTACK-BLOCK" and (g.step, g.actor) == ("C8", P2)
    draw(g, P2, "9H")  # the block draws
    g.apply(P2, Pass())  # Grave's innate after a block: no reveal
    assert g.life == (90, 90 - 7 - 1)  # Whirlwind's block damage only
    assert card("6D") in g.state(P2).hand  # a block that works returns to hand


@pytest.mark.parametrize(("attack", "ruleset", "cell"), [
    ("3C", Ruleset(), "M-ATTACK-BLOCK"),       # odd attack, Ace block = 1 (odd): it works
    ("4C", Ruleset(), "M-ATTACK-NOCARD"),      # even attack: mixup, the block fails
    ("4C", Ruleset(faceBlockParity=FaceBlockParity.IMMUNE), "M-ATTACK-BLOCK"),
])
def test_an_ace_block_counts_as_odd_in_a_mixup__OQ_07(
    attack: str, ruleset: Ruleset, cell: str,
) -> None:
    """OQ-07: J=11, Q=12, K=13, A=1; opt.faceBlockParity=IMMUNE makes face and Ace blocks
    immune to mixups. Argagarg's Ace shows a block."""
    g = _knocked_down_p2(f"8C {attack} 2C 5C 6C 9C TC", "AD 2D 3D 4D 5D 8D 9D", p2="argagarg",
                         ruleset=ruleset)
    fight(g, commit(attack, "attack"), commit("AD", "block"))
    assert g.combat.cell == cell


# ------------------------------------------------------------------ follow rules (§5)


def test_each_added_move_is_checked_against_the_one_before__CB_4_CF_13() -> None:
    """CB-4: legality is checked after every move. CF-13 (the rulebook's CT table): after a
    Linker a normal of any rank, a Linker or an Ender may follow; nothing may precede a
    Starter."""
    g = won_combat("2C KC 6C 3C 4C 9C 8C", commit("2C", "attack"))
    g.apply(P1, combo("KC"))  # normal -> Linker
    g.apply(P1, combo("6C"))  # Linker -> any normal rank
    assert g.combos[-1].points == 4
    g2 = won_combat("2C 3C 5C 8C 4C 6C 9C", commit("2C", "attack"))
    g2.apply(P1, combo("3C"))  # 2 -> 3 is fine ...
    assert _refused(g2, P1, combo("5C")) == "CT-NORMAL"  # ... 3 -> 5 is not
    assert _refused(g2, P1, combo("8C", "throw")) == "CT-FIRST"  # a Starter only opens
    g3 = won_combat("2C KC JC 3C 4C 5C 6C", commit("2C", "attack"))
    g3.apply(P1, combo("KC"))
    g3.apply(P1, combo("JC"))  # Linker -> Ender
    assert g3.life == (90, 90 - 2 - 7 - 8) and g3.turn == 2  # the Ender closed the combo


def test_a_cant_combo_move_neither_follows_nor_is_followed__CB_6_CT_CANTCOMBO() -> None:
    """Jaina's Knee Bash (6 throw) is Can't Combo: it cannot follow her 8 throw, and after
    winning with it only its pumps remain: no attack or throw may follow."""
    g = recorded_game("8C 6C 2C 3C 4C 5C 9C", PLAIN, p1="jaina")
    fight(g, commit("8C", "throw"), NoCard())
    g.apply(P2, Pass())
    assert (g.step, g.actor) == ("C10", P1)
    assert _refused(g, P1, combo("6C", "throw", "Knee Bash")) == "CB-6"
    g2 = recorded_game("6C 2C 3C 4C 5C 8C 9C", PLAIN, p1="jaina")
    fight(g2, commit("6C", "throw", "Knee Bash"), NoCard())
    g2.apply(P2, Pass())
    assert (g2.step, g2.actor) == ("C10", P1)
    assert _refused(g2, P1, combo("2C")) == "CB-6"


def test_after_a_normal_a_linker_throw_only_under_the_rulebook__CF_14() -> None:
    """CF-14: the rulebook lets any Linker follow a normal, Zane's 5 throw included; with
    opt.afterNormalAttackOnly (the German rules) only attacks may."""
    g = recorded_game("2C 5C 3C 6C 7C 9C TC", PLAIN, p1="zane")
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "4C")
    g.apply(P2, Pass())
    g.apply(P1, combo("5C", "throw"))
    g.apply(P1, Stop())
    assert g.combos[-1].cards == ["2C", "5C"] and g.life == (85, 90 - 2 - 6)
    strict = Ruleset(afterNormalAttackOnly=True)
    g2 = recorded_game("2C 5C 3C 6C 7C 9C TC", PLAIN, p1="zane", ruleset=strict)
    fight(g2, commit("2C", "attack"), NoCard())
    draw(g2, P1, "4C")
    g2.apply(P2, Pass())
    assert _refused(g2, P1, combo("5C", "throw")) == "CF-14"


def test_an_untyped_special_follows_the_starter_rules__OQ_11_GL_COMBO_TYPE() -> None:
    """OQ-11: a throw printed without a combo type is treated as a Starter: it opens a combo
    (a normal may follow it) but may not follow anything, and losing to it opens Rewind."""
    untyped = with_move("grave", "7", combo_type=None)
    g = _game(untyped, character("grave"), "7C 2C 3C 4C 5C 6C 8C", JOKER_HAND)  # type: ignore[arg-type]
    fight(g, commit("7C", "throw"), NoCard())
    assert (g.step, g.actor) == ("C9", P2)  # a Starter's loser may Rewind
    g.apply(P2, Pass())
    g.apply(P1, combo("2C"))
    g.apply(P1, Stop())
    assert g.combos[-1].cards == ["7C", "2C"] and g.life == (90, 90 - 7 - 2)
    g2 = _game(untyped, character("grave"), "2C 7C 3C 4C 5C 6C 8C", PLAIN)  # type: ignore[arg-type]
    fight(g2, commit("2C", "attack"), NoCard())
    draw(g2, P1, "9H")
    g2.apply(P2, Pass())
    assert _refused(g2, P1, combo("7C", "throw")) == "CT-FIRST"


# ------------------------------------------------------------------ chains and Power Up (§5, §7)


def _long_combo_grave() -> Character:
    """Synthetic: Grave with a combo limit of 10, so one combo can hold two chains."""
    return dataclasses.replace(character("grave"), combo_limit=10)


def _combo_from_2(hand: str, draw_at_c7: str, moves: list[str],
                  ruleset: Ruleset | None = None) -> Game:
    """P1 wins with a normal 2 (drawing ``draw_at_c7``), P2 does not Rewind, P1 adds ``moves``."""
    g = _game(_long_combo_grave(), character("grave"), hand, PLAIN, ruleset)
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, draw_at_c7)
    g.apply(P2, Pass())
    for code in moves:
        g.apply(P1, combo(code))
    return g


def test_a_chain_is_a_gap_free_run_of_normals__CH_1_GL_CHAIN() -> None:
    """2-3-4-5 is one 4-chain (2 Aces in Power Up); 2-3, Whirlwind, 4-5 is no chain at all:
    the Linker ends the run and two runs of two earn nothing."""
    whole = _combo_from_2("2C 3C 4C 5C KC 8C 9C", "TH", ["3C", "4C", "5C"])
    whole.apply(P1, Stop())
    assert whole.state(P1).chains == [4] and (whole.step, whole.actor) == ("P2", P1)
    assert _refused(whole, P1, PowerUp((), (), cards("AC AD AH"))) == "PU-5"
    whole.apply(P1, PowerUp((), (), cards("AC AD")))
    assert {card("AC"), card("AD")} <= set(whole.state(P1).hand)
    broken = _combo_from_2("2C 3C KC 4C 5C 8C 9C", "TH", ["3C", "KC", "4C", "5C"])
    assert broken.state(P1).chains == [] and broken.turn == 2  # nothing owed: no Power Up
    assert not any(c.is_ace for c in broken.state(P1).hand)


def test_a_face_card_ends_the_chain_it_follows__TV_PU_05() -> None:
    g = won_combat("3C 4C 5C JC 2C 8C 9C", commit("3C", "attack"))
    g.apply(P1, combo("4C"))
    g.apply(P1, combo("5C"))
    g.apply(P1, combo("JC"))  # 4 points and an Ender: the combo is over
    assert g.state(P1).chains == [3] and (g.step, g.actor) == ("P2", P1)
    assert _refused(g, P1, PowerUp((), (), cards("AC AD"))) == "PU-5"
    g.apply(P1, PowerUp((), (), cards("AC")))
    assert card("AC") in g.state(P1).hand


@pytest.mark.parametrize(("ruleset", "aces"), [
    (Ruleset(), 2),                                   # LONGEST: the 4-chain's 2
    (Ruleset(chainReward=ChainReward.SUM), 3),        # SUM: 1 + 2
])
def test_two_chains_in_one_turn_earn_the_longest_or_the_sum__CH_7_CF_17(
    ruleset: Ruleset, aces: int,
) -> None:
    g = _combo_from_2("2C 3C 4C KC 3D 4D 5D", "6D", ["3C", "4C", "KC", "3D", "4D", "5D", "6D"],
                      ruleset)
    assert g.state(P1).chains == [3, 4] and (g.step, g.actor) == ("P2", P1)
    owed = cards("AC AD AH AS")[:aces]
    assert _refused(g, P1, PowerUp((), (), cards("AC AD AH AS")[:aces + 1])) == "PU-5"
    g.apply(P1, PowerUp((), (), owed))
    assert set(owed) <= set(g.state(P1).hand)


def _ace_in_discard_and_two_owed(ruleset: Ruleset) -> Game:
    """TV-PU-04's table: True-Spark Arc (its own Ace cost) wins and goes to the discard pile;
    three 4s then owe N = 2 Aces, with 1 Ace in the discard pile and 3 in the deck."""
    g = recorded_game("AC 4C 4D 4H 2C 3C 5C", PLAIN, ruleset=ruleset)
    fight(g, commit("AC", "attack", "True-Spark Arc"), NoCard())
    assert (g.step, g.actor) == ("P2", P1) and g.state(P1).discard == [card("AC")]
    return g


FOURS = cards("4C 4D 4H")


@pytest.mark.parametrize(("ruleset", "from_discard", "from_deck", "refused"), [
    (Ruleset(), "AC", "AD", None),
    (Ruleset(), "AC", "", None),
    (Ruleset(), "", "AD AH", None),
    (Ruleset(), "", "AD", "PU-5"),      # fewer while an Ace stays in the discard pile
    (Ruleset(), "", "", "PU-5"),
    (Ruleset(aceSource=AceSource.DISCARD_FIRST), "AC", "AD", None),
    (Ruleset(aceSource=AceSource.DISCARD_FIRST), "", "AD AH", "CF-18"),
])
def test_where_power_up_aces_come_from__TV_PU_04_PU_5_CF_18(
    ruleset: Ruleset, from_discard: str, from_deck: str, refused: str | None,
) -> None:
    g = _ace_in_discard_and_two_owed(ruleset)
    action = PowerUp(FOURS, cards(from_discard) if from_discard else (),
                     cards(from_deck) if from_deck else ())
    if refused is not None:
        assert _refused(g, P1, action) == refused
        return
    g.apply(P1, action)
    taken = set(action.from_discard) | set(action.from_deck)
    assert taken <= set(g.state(P1).hand) and not taken & set(g.state(P1).discard)


# ------------------------------------------------------------------ Rewind eligibility (§6)


@pytest.mark.parametrize(("p1", "hand", "combat", "window"), [
    # a normal attack opens the window even when its player holds no follow-up at all (RW-4)
    ("grave", "6C 7C 8C 9C TC 7D 8D", commit("6C", "attack"), True),
    ("grave", "8C 2C 3C 4C 5C 6C 9C", commit("8C", "throw"), True),       # Starter
    ("grave", "KC 2C 3C 4C 5C 8C 9C", commit("KC", "attack"), True),      # Linker
    ("jaina", "QC 2C 3C 4C 5C 8C 9C", commit("QC", "attack", "Dragonheart"), True),  # pumpable
    ("jaina", "6C 2C 3C 4C 5C 8C 9C", commit("6C", "throw", "Knee Bash"), True),  # Can't Combo
    ("grave", "2C 3C 4C 5C 6C 8C 9C", commit("2C", "dodge"), True),
    ("grave", "QC 2C 3C 4C 5C 8C 9C", commit("QC", "attack"), False),     # plain Ender
])
def test_rewind_window_follows_the_winning_moves_category__RW_4_OQ_03_CF_07(
    p1: str, hand: str, combat: Action, window: bool,
) -> None:
    """RW-4 / OQ-03: the loser's C9 window depends on the category of the winner's locked-in
    move only, never on the winner's hand. CF-07: the rulebook's lists, so a pumpable Ender or
    a pumpable Can't Combo move opens it and a plain Ender does not."""
    g = recorded_game(hand, JOKER_HAND, p1=p1)
    fight(g, combat, NoCard())
    if g.step == "C7":
        draw(g, P1, "9H")
    opened = (g.step, g.actor) == ("C9", P2)
    assert opened is window
    if window:
        g.apply(P2, FaceDown(card("X1")))  # and the Joker may go face down
        assert card("X1") not in g.state(P2).hand
    else:
        assert g.turn == 2 and card("X1") in g.state(P2).hand

