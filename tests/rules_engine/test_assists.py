"""Tag Team assists (RULES.md §11.2 "Assists": AS-1..AS-17, AS-TBL-1..4; DP-3, DP-5; OQ-15's
assist half, OQ-16's swap order, OQ-23, OQ-28; DB-7; ``opt.assists``).

Each test sets up a position at turn 1's C1 (the hands are dealt by the test: a position, not a
result) and drives the Tag Team game through the rule with the events a log would hold; ability
windows are passed. The rulebook's worked example (AS-17) is replayed step by step.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules_engine.actions import (
    Action,
    Assist,
    Combo,
    Commit,
    FaceDown,
    NoCard,
    Pass,
    Pump,
    Stop,
    Swap,
)
from rules_engine.cards import Card, MoveType, card
from rules_engine.game import Game
from rules_engine.journal import DamageDealt
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.ruleset import OnOff, Ruleset
from rules_engine.selfplay import play_match
from rules_engine.team import Mode, Team
from rules_engine.timeline import timeline
from rules_engine.types import PlayerId

from .helpers import deal_hand, illegal_rule

P1, P2, P3, P4 = PlayerId.P1, PlayerId.P2, PlayerId.P3, PlayerId.P4
ATTACK, THROW, DODGE, BLOCK = MoveType.ATTACK, MoveType.THROW, MoveType.DODGE, MoveType.BLOCK


def tag(a: tuple[str, str], b: tuple[str, str], seed: int = 3,
        ruleset: Ruleset | None = None) -> Game:
    """A Tag Team game at turn 1's C1 whose four seats are all in the C1 decision (each bench
    was dealt a Jack, Queen or King: the decision is set when combat begins, the test deals
    the hands it needs afterwards). With ``opt.assists=OFF``: the game of ``seed``."""
    for s in range(seed, seed + 100):
        g = Game.new(Mode.TAG_TEAM, (Team.of(a), Team.of(b)), seed=s,
                           ruleset=ruleset or Ruleset())
        assert g.turn == 1 and g.step == "C1"
        if len(g.acting_players) == 4 or ruleset is not None:
            return g
    raise AssertionError("no seed deals both benches an assist")


def finish_combat(g: Game) -> None:
    """Decline everything optional until the combat is over (no combo move is offered to
    anybody: the tests that call this check it)."""
    while g.step.startswith("C") and g.acting_players:
        p = g.acting_players[0]
        legal = g.legal_actions(p)
        assert not any(isinstance(a, Combo) for a in legal), (g.step, legal[:4])
        g.apply(p, Pass() if Pass() in legal else Stop() if Stop() in legal else legal[0])


def act(g: Game, player: PlayerId, action: Action) -> None:
    """Pass every other decision (ability windows) until ``player`` may take ``action``, then
    take it (checked by the game like any log event)."""
    for _ in range(40):
        if player in g.acting_players and action in g.legal_actions(player):
            g.apply(player, action)
            return
        other = g.acting_players[0]
        legal = g.legal_actions(other)
        assert Pass() in legal and other != player, (g.step, other, action, legal[:6])
        g.apply(other, Pass())
    raise AssertionError(f"{action} never became legal for {player.name}")


def combat_damage(g: Game, seat: PlayerId, step: str | None = None) -> int:
    return sum(e.amount for e in g.journal if type(e) is DamageDealt
               and e.target is seat and e.turn == 1 and (step is None or e.step == step))


def c(code: str) -> Card:
    return card(code)


# ------------------------------------------------------------------ placing (C1)


def test_the_bench_places_an_assist_with_the_main_cards_hidden__AS_1__AS_2__AS_3__DP_3() -> None:
    """AS-1 / AS-2 / AS-3 / DP-3 / GEN-5: at C1 the two active seats commit and the two benched
    seats place an assist or pass, all four in one hidden decision; a benched seat's choices
    are pass or the attack/throw end of a Jack, Queen or King (never an Ace, a normal or a
    Joker), each with another card of its hand to pay (AS-4)."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P3, "2S JS AS X1 5H")
    deal_hand(g, P4, "QS 3S")
    assert set(g.acting_players) == {P1, P2, P3, P4}
    legal = g.legal_actions(P3)
    assists = [a for a in legal if isinstance(a, Assist)]
    assert Pass() in legal and all(isinstance(a, Pass | Assist) for a in legal)
    # Jaina's JS has two attacks (Flame Arrow, Charged Shot), each with 4 other cards to pay
    assert {(a.card.code, a.name) for a in assists} == {("JS", "Flame Arrow"),
                                                        ("JS", "Charged Shot")}
    assert len(assists) == 2 * 4
    # Rook's QS: the Hammerfist attack and the Rolling Stone throw (one end of each type, so
    # no name), paid with the 3
    assert {(a.move, a.name, a.cost.code) for a in g.legal_actions(P4)
            if isinstance(a, Assist)} == {(ATTACK, None, "3S"), (THROW, None, "3S")}
    assert illegal_rule(g, P3, Assist(c("AS"), ATTACK, "True-Spark Arc", c("2S"))) == "AS-1"
    assert illegal_rule(g, P3, Assist(c("2S"), ATTACK, None, c("5H"))) == "AS-1"
    assert illegal_rule(g, P3, Assist(c("JS"), ATTACK, "Charged Shot", c("JS"))) == "AS-4"
    assert illegal_rule(g, P3, Assist(c("KS"), ATTACK, None, c("5H"))) == "AS-2"
    assert illegal_rule(g, P3, Commit(c("5H"), ATTACK)) == "AS-2"
    assert illegal_rule(g, P1, Assist(c("JS"), ATTACK, "Charged Shot", c("5H"))) == "C1"
    # the assists are locked once all four chose: the cost goes only then (AS-4)
    g.apply(P3, Assist(c("JS"), ATTACK, "Charged Shot", c("5H")))
    assert c("5H") in g.state(P3).hand and c("JS") not in g.state(P3).hand
    seen: Any = g.public_view(P2)["players"]
    assert "assist" not in seen["P3"]  # face down until C2 (GEN-5)
    assert set(g.acting_players) == {P1, P2, P4}
    g.apply(P4, Pass())
    g.apply(P1, NoCard())
    assert c("5H") in g.state(P3).hand
    g.apply(P2, NoCard())
    assert c("5H") in g.state(P3).discard and c("5H") not in g.state(P3).hand  # AS-4
    assert g.step == "C3"  # the swap decision: the assists are revealed (AS-5)
    assert g.public_view(P2)["players"]["P3"]["assist"] == "JS"  # type: ignore[index]


def test_a_bench_without_a_jack_queen_or_king_is_not_asked__AS_1__DP_3() -> None:
    """AS-1 / DP-3: a benched player with no Jack, Queen or King in its opening hand has no
    assist to place: it is not part of the C1 decision (no event); its opponent's bench is."""
    for seed in range(60):
        g = Game.new(Mode.TAG_TEAM, (Team.of(("grave", "jaina")),
                                           Team.of(("midori", "rook"))), seed=seed)
        faces = [sum(1 for x in g.state(s).hand if x.rank is not None and x.rank.is_face)
                 for s in (P3, P4)]
        if faces[0] == 0 and faces[1] > 0:
            break
    else:
        pytest.fail("no seed deals Jaina no Jack, Queen or King")
    assert set(g.acting_players) == {P1, P2, P4}
    assert illegal_rule(g, P3, Pass()) == "C1"


def test_no_assists_with_opt_assists_off__AS_intro() -> None:
    """AS (intro) / ``opt.assists=OFF``: the rulebook's "play without assists" game: only the
    active seats commit at C1, and an assist event is not legal."""
    g = tag(("grave", "jaina"), ("midori", "rook"), ruleset=Ruleset(assists=OnOff.OFF))
    assert set(g.acting_players) == {P1, P2}
    deal_hand(g, P3, "JS 5H")
    assert "it is P1 or P2's decision" in _reason(
        g, P3, Assist(c("JS"), ATTACK, "Charged Shot", c("5H")))


def _reason(g: Game, player: PlayerId, action: Action) -> str:
    from rules_engine.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as err:
        g.check(player, action)
    return err.value.reason


def test_dramatic_battles_lone_side_never_assists__DB_7__DB_1() -> None:
    """DB-7 / DB-1: the lone player has no partner, so it never assists; the pair assists by
    the Tag Team rules (its bench is part of the C1 decision)."""
    g = Game.new(Mode.DRAMATIC_BATTLE, (Team.of(("troq",)), Team.of(("lum", "grave"))),
                       seed=3)
    assert g.table.sides[0] == (P1,)
    assert set(g.acting_players) == {P1, P2, P3}  # P3: the pair's bench
    assert any(isinstance(a, Assist) for a in g.legal_actions(P3))
    assert all(not isinstance(a, Assist) for a in g.legal_actions(P1))


# ------------------------------------------------------------------ the worked example (AS-17)


def _as17(opponents_assist: bool) -> Game:
    """AS-17's position: Grave (P1) with Jaina on the bench (P3) against Midori (P2) with Rook
    on the bench (P4). Grave's 2 attack wins against Midori's throw; Jaina's assist is Charged
    Shot, a Starter attack."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "2S 2H 3H 4H JS 9C")
    deal_hand(g, P3, "JS 5C 6C")
    deal_hand(g, P2, "9S 5H 6H")
    deal_hand(g, P4, "JS 7C 8C")
    act(g, P1, Commit(c("2S"), ATTACK))
    act(g, P2, Commit(c("9S"), THROW))
    act(g, P3, Assist(c("JS"), ATTACK, "Charged Shot", c("5C")))
    act(g, P4, Assist(c("JS"), ATTACK, None, c("7C")) if opponents_assist else Pass())
    return g


@pytest.mark.parametrize("opponents_assist", [False, True])
def test_the_rulebook_example_step_by_step__AS_17__AS_11__AS_TBL_4__AS_16(
        opponents_assist: bool) -> None:
    """AS-17 (with AS-11 and AS-TBL-4): a 2-attack combat card wins and the partner's assist is
    a Starter attack: 2 → the assist → (the opponent may place a Joker or bluff) → 2, 3, 4,
    Ender, with the combo points reset after the assist. AS-16 / AS-9: if the opponents
    assisted too, all of it hits both of them."""
    g = _as17(opponents_assist)
    midori, rook, grave = g.state(P2), g.state(P4), g.state(P1)
    if opponents_assist:  # AS-6: both teams may swap; both keep their main cards
        act(g, P4, Pass())
    act(g, P3, Pass())
    # 2 (C8: the combat card's base damage) → the assist, hitting at once (before C9)
    while not (g.step == "C9" and P2 in g.acting_players):
        p = g.acting_players[0]
        g.apply(p, Pass())
    assert combat_damage(g, P2) == 2 + 8  # the 2 and Charged Shot, dealt before C9
    assert combat_damage(g, P4) == (2 + 8 if opponents_assist else 0)
    assert g.combo == []  # the combat card and the assist join the combo at C10
    # the opponent may place a Joker or bluff now: it places a bluff
    g.apply(P2, FaceDown(c("5H")))
    assert g.step == "C10" and [e.card.code for e in g.combo] == ["2S", "JS"]
    assert grave.combo_points_spent == 0  # AS-11 (4): the Starter reset the points
    for code in ("2H", "3H", "4H"):  # any normal may follow a Starter, then +1 each
        g.apply(P1, Combo(c(code), ATTACK))
    g.apply(P1, Combo(c("JS"), ATTACK))  # Lightning Cloud, an Ender: the limit 4 reached
    assert grave.combo_points_spent == 4  # 1 + 1 + 1 + 1 after the reset (5 without it)
    act(g, P1, Stop()) if Stop() in g.legal_actions(P1) else None
    finish_combat(g)
    combo = 2 + 3 + 4 + 8
    assert midori.life == midori.character.life - (2 + 8 + combo)
    expected_rook = (2 + 8 + combo) if opponents_assist else 0
    assert rook.life == rook.character.life - expected_rook
    assert c("JS") in g.state(P3).discard  # the assist went to its owner's pile (C13c)
    assert grave.chains == [1, 3]  # 2S, then 2H 3H 4H: the assist is between them


def test_combo_points_would_run_out_without_the_reset__AS_11() -> None:
    """AS-11 (4) against CB-3: after the reset, Grave's four points pay for 2, 3, 4 and the
    Ender; the same line with a Linker assist also resets them; an Ender assist ends the combo
    (pumps only)."""
    g = tag(("grave", "lum"), ("midori", "rook"))
    deal_hand(g, P1, "2S 2H 3H 4H 5H")
    deal_hand(g, P3, "QS 5C")  # Lum's Rolling Panda: an Ender (and pumpable with a Queen)
    deal_hand(g, P2, "9S 5D")
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("2S"), ATTACK))
    act(g, P2, Commit(c("9S"), THROW))
    act(g, P3, Assist(c("QS"), ATTACK, None, c("5C")))
    act(g, P3, Pass())  # no swap
    act(g, P2, Pass())  # no Rewind card
    finish_combat(g)  # AS-11: an Ender assist ends the combo: no move is offered
    assert g.combos[-1].cards == ["2S", "QS"]
    assert combat_damage(g, P2) == 2 + 8  # the 2 and Rolling Panda


def test_chains_do_not_run_across_an_assist__OQ_15() -> None:
    """OQ-15 (the assist half; with a tag too: test_tag_team_tags.py): a chain belongs to the
    character that played it, and a move by another character (the assist) ends the run. 2,
    then the assist, then 3 and 4 is no 3-long chain (2-3-4 would have been)."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "2S 3H 4H 9C")
    deal_hand(g, P3, "KS 5C")  # Crossfire Kick, a Linker
    deal_hand(g, P2, "9S 5H")
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("2S"), ATTACK))
    act(g, P2, Commit(c("9S"), THROW))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
    act(g, P3, Pass())
    act(g, P2, Pass())  # no Rewind card
    act(g, P1, Combo(c("3H"), ATTACK))
    act(g, P1, Combo(c("4H"), ATTACK))
    act(g, P1, Stop()) if Stop() in g.legal_actions(P1) else None
    finish_combat(g)
    assert g.combos[-1].cards == ["2S", "KS", "3H", "4H"]
    assert g.state(P1).chains == [1, 2]  # 3-4 is 2 long; 2-3-4 was broken by Jaina's move
    assert g.state(P3).chains == []


# ------------------------------------------------------------------ hit, miss, dodge, block


def test_an_assist_misses_after_an_ender__AS_10__AS_TBL_1() -> None:
    """AS-10 / AS-TBL-1: a team that won with an Ender (no swap): the assist misses; no combo,
    pumps only. The assist card is discarded at C13."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "JS 2H")  # Lightning Cloud: an Ender, speed 2.4
    deal_hand(g, P3, "KS 5C")
    deal_hand(g, P2, "9S 5H")
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("JS"), ATTACK))
    act(g, P2, Commit(c("9S"), THROW))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
    act(g, P3, Pass())
    finish_combat(g)  # AS-TBL-1: no combo move is offered
    assert combat_damage(g, P2) == 8  # Lightning Cloud only: Crossfire Kick missed
    assert c("KS") in g.state(P3).discard


def test_after_a_dodge_the_assist_hits_back_then_rewind__AS_14__AS_TBL_3__OQ_23() -> None:
    """AS-14 / AS-TBL-3 / OQ-23: a team that won with a dodge: the assist hits as the hit-back
    and is an Ender; it hits first (its damage cannot be prevented), then the loser's C9
    window, then pumps, which a Rewind Joker prevents."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "2S KH 3H")
    deal_hand(g, P3, "KS 5C")  # Crossfire Kick: 6 damage, pumped by Kings (7 each)
    deal_hand(g, P2, "4S X1 6H")
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("2S"), DODGE))
    act(g, P2, Commit(c("4S"), ATTACK))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
    act(g, P3, Pass())
    while not (g.step == "C9" and P2 in g.acting_players):
        g.apply(g.acting_players[0], Pass())
    assert combat_damage(g, P2) == 6  # the hit-back assist, before the Rewind window
    g.apply(P2, FaceDown(c("X1")))  # Rewind Time
    assert g.combat.run.hit_back and g.combat.run.closed
    assert [e.card.code for e in g.combo] == ["KS"]
    assert illegal_rule(g, P1, Combo(c("3H"), ATTACK)) == "CB-7"  # an Ender: nothing follows
    hand = len(g.state(P2).hand)
    g.apply(P1, Pump(0, (c("KH"),)))
    act(g, P1, Stop()) if Stop() in g.legal_actions(P1) else None
    finish_combat(g)
    assert combat_damage(g, P2) == 6  # the pump was prevented (RW-6)
    assert len(g.state(P2).hand) == hand + 2  # RW-8: at least 1 prevented


def test_an_assist_misses_after_a_gold_burst__AS_10__AS_TBL_2() -> None:
    """AS-10 / AS-TBL-2: a team that won with a Gold Burst: no combo is possible and the assist
    misses (it deals no damage and is discarded at C13)."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "X1 2H")
    deal_hand(g, P3, "KS 5C")
    deal_hand(g, P2, "4S 6H")
    act(g, P1, Commit(c("X1")))
    act(g, P2, Commit(c("4S"), ATTACK))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
    act(g, P4, Pass())
    act(g, P3, Pass())
    finish_combat(g)
    assert combat_damage(g, P2) == 0
    assert c("KS") in g.state(P3).discard


def test_a_block_win_makes_the_assist_do_nothing__AS_15__AS_TBL_2() -> None:
    """AS-15 / AS-TBL-2: a team that won with a block: no combo, the assist does nothing (and is
    discarded); the block returns to hand as usual (no swap)."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "5S 2H")
    deal_hand(g, P3, "KS 5C")
    deal_hand(g, P2, "4S 6H")
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("5S"), BLOCK))
    act(g, P2, Commit(c("4S"), ATTACK))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
    act(g, P3, Pass())
    finish_combat(g)
    assert combat_damage(g, P2) == 0
    assert c("5S") in g.state(P1).hand and c("KS") in g.state(P3).discard


def test_losing_after_assisting_hits_both_speed_tie_too__AS_9() -> None:
    """AS-9: a team that assisted and tied takes every piece of combat damage on both its
    characters: in a speed tie, its attack hits the opposing active player and the opposing
    attack hits both of them. No combo follows a tie."""
    g = tag(("grave", "lum"), ("jaina", "rook"))
    deal_hand(g, P1, "2S 3H")
    deal_hand(g, P3, "JS 5C")
    deal_hand(g, P2, "2H 6H")  # Jaina's 2: speed 2.6, as Grave's
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("2S"), ATTACK))
    act(g, P2, Commit(c("2H"), ATTACK))
    act(g, P3, Assist(c("JS"), ATTACK, None, c("5C")))
    act(g, P3, Pass())
    finish_combat(g)  # no combo after a tie
    assert combat_damage(g, P1) == 2 and combat_damage(g, P3) == 2  # both of the assisting team
    assert combat_damage(g, P2) == 2 and combat_damage(g, P4) == 0


def test_rewind_prevents_the_damage_to_both_teammates__OQ_28__AS_16() -> None:
    """OQ-28 / AS-16: the opposing team assisted and lost, so the winner's combo hits both;
    the active player's Rewind Joker prevents the face-down-period damage to both teammates and
    the draw 2 goes to the active player."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "2S 3H 4H")
    deal_hand(g, P3, "2C")
    deal_hand(g, P2, "9S X1 5H")
    deal_hand(g, P4, "JS 7C")
    act(g, P1, Commit(c("2S"), ATTACK))
    act(g, P2, Commit(c("9S"), THROW))
    act(g, P4, Assist(c("JS"), ATTACK, None, c("7C")))
    act(g, P4, Pass())
    rook_hand, midori_hand = len(g.state(P4).hand), len(g.state(P2).hand) - 1
    act(g, P2, FaceDown(c("X1")))
    act(g, P1, Combo(c("3H"), ATTACK))
    act(g, P1, Combo(c("4H"), ATTACK))
    finish_combat(g)
    assert combat_damage(g, P2) == 2 and combat_damage(g, P4) == 2  # the 2 only, both
    assert len(g.state(P2).hand) == midori_hand + 2 and len(g.state(P4).hand) == rook_hand


# ------------------------------------------------------------------ swaps (AS-6, AS-7, AS-12)


def test_a_swapped_assist_is_an_ender_and_both_cards_are_discarded__AS_6__AS_12__AS_13() -> None:
    """AS-6 / DP-5: the team that assisted may swap: the assist becomes its main combat card
    and the main card is not used. AS-12 / AS-TBL-1 / AS-TBL-4: the swapped-in assist is an
    Ender: no further combo (and Charged Shot is not pumpable, so no Rewind window,
    RW-CANNOT-3). AS-13: the team discards both cards at C13, even a block (which would return
    to hand otherwise)."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "5S 2H 3H")
    deal_hand(g, P3, "JS 5C")
    deal_hand(g, P2, "9S 5H")
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("5S"), BLOCK))
    act(g, P2, Commit(c("9S"), THROW))  # a throw beats the block, but not an attack
    act(g, P3, Assist(c("JS"), ATTACK, "Charged Shot", c("5C")))
    act(g, P4, Pass())
    assert g.step == "C3" and g.acting_players == (P3,)
    assert set(g.legal_actions(P3)) == {Pass(), Swap()}
    g.apply(P3, Swap())
    grave = g.state(P1)
    assert grave.revealed_card == c("JS") and grave.kind == "attack"  # the team's main card
    seen = []
    while g.step.startswith("C") and g.acting_players:
        p = g.acting_players[0]
        legal = g.legal_actions(p)
        seen.append(g.step)
        assert not any(isinstance(a, Combo) for a in legal)  # an Ender: nothing follows
        g.apply(p, Pass() if Pass() in legal else Stop())
    assert "C9" not in seen
    assert combat_damage(g, P2) == 8 and combat_damage(g, P4) == 0
    assert c("5S") in grave.discard and c("5S") not in grave.hand  # AS-13
    assert c("JS") in g.state(P3).discard and c("JS") not in grave.discard


def test_a_team_that_swapped_and_lost_discards_both_and_takes_damage_on_both__AS_13__AS_9(
        ) -> None:
    """AS-13 (whether it won or lost) and AS-9 (it assisted): the swapped team loses to a
    faster attack, takes the damage on both characters and discards both its cards."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "5S 2H")
    deal_hand(g, P3, "JS 5C")  # Charged Shot: speed 4.6
    deal_hand(g, P2, "4S 5H")  # Midori's 4 attack: speed 4.2
    deal_hand(g, P4, "2C")
    act(g, P1, Commit(c("5S"), BLOCK))
    act(g, P2, Commit(c("4S"), ATTACK))
    act(g, P3, Assist(c("JS"), ATTACK, "Charged Shot", c("5C")))
    act(g, P3, Swap())
    while g.step.startswith("C") and g.acting_players:
        p = g.acting_players[0]
        g.apply(p, Pass() if Pass() in g.legal_actions(p) else Stop())
    assert combat_damage(g, P1) == 4 and combat_damage(g, P3) == 4
    assert c("5S") in g.state(P1).discard and c("JS") in g.state(P3).discard


def _both_assist(bench_a: str, card_a: str, bench_b: str, card_b: str, seed: int = 3,
                 ) -> Game:
    g = tag(("jaina", bench_a), ("midori", bench_b), seed=seed)
    deal_hand(g, P1, "2S 3H")
    deal_hand(g, P2, "4S 5H")
    deal_hand(g, P3, f"{card_a} 5C")
    deal_hand(g, P4, f"{card_b} 7C")
    act(g, P1, Commit(c("2S"), DODGE))
    act(g, P2, Commit(c("4S"), ATTACK))
    act(g, P3, next(a for a in g.legal_actions(P3) if isinstance(a, Assist)))
    act(g, P4, next(a for a in g.legal_actions(P4) if isinstance(a, Assist)))
    assert g.step == "C3"
    return g


def test_the_faster_assist_decides_its_swap_first__AS_7__DP_5() -> None:
    """AS-7 / DP-5: both teams assisted: the team with the faster assist (lower speed)
    decides on its swap first, then the other team."""
    g = _both_assist("grave", "QS", "rook", "JS")  # Dragonheart 0.0 against Thunderclap 2.2
    assert g.acting_players == (P3,)
    g.apply(P3, Pass())
    assert g.acting_players == (P4,)
    g = _both_assist("grave", "JS", "rook", "JS")  # Lightning Cloud 2.4 against 2.2
    assert g.acting_players == (P4,)


def test_equal_assist_speeds_more_life_first_then_without_initiative__AS_7__OQ_16() -> None:
    """AS-7 / OQ-16: equal assist speeds: the team whose active character has more life
    decides first; equal lives too: the team **without** initiative decides first."""
    for hurt, first in ((P1, P4), (P2, P3)):  # Whirlwind 2.2 against Thunderclap 2.2
        g = tag(("jaina", "grave"), ("midori", "rook"))
        g.state(hurt).life -= 10  # a position: one active character is hurt
        deal_hand(g, P1, "2S 3H")
        deal_hand(g, P2, "4S 5H")
        deal_hand(g, P3, "KS 5C")
        deal_hand(g, P4, "JS 7C")
        act(g, P1, Commit(c("2S"), DODGE))
        act(g, P2, Commit(c("4S"), ATTACK))
        act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
        act(g, P4, Assist(c("JS"), ATTACK, None, c("7C")))
        assert g.acting_players == (first,)
    for seed in range(4):  # equal lives (Jaina 85, Midori 90: set equal)
        g = tag(("jaina", "grave"), ("midori", "rook"), seed=seed)
        g.state(P2).life = g.state(P1).life
        deal_hand(g, P1, "2S 3H")
        deal_hand(g, P2, "4S 5H")
        deal_hand(g, P3, "KS 5C")
        deal_hand(g, P4, "JS 7C")
        act(g, P1, Commit(c("2S"), DODGE))
        act(g, P2, Commit(c("4S"), ATTACK))
        act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
        act(g, P4, Assist(c("JS"), ATTACK, None, c("7C")))
        without = P4 if g.table.side_of(g.initiative) == 0 else P3
        assert g.acting_players == (without,)


# ------------------------------------------------------------------ logs, bots, verdicts


def _assisting_match(seed: int, bot: str = "greedy") -> tuple[Game, Any]:
    rng = random.Random(seed)
    from rules_engine.characters import IMPLEMENTED
    chosen = rng.sample(sorted(IMPLEMENTED), 4)
    mode = Mode.TAG_TEAM if seed % 2 == 0 else Mode.DRAMATIC_BATTLE
    a, b = (tuple(chosen[:2]), tuple(chosen[2:])) if mode is Mode.TAG_TEAM else (
        (chosen[0],), tuple(chosen[1:3]))
    return play_match(mode, a, b, seed, bot=bot)


@pytest.mark.parametrize("seed", range(6))
def test_self_play_with_assists_replays_as_legal__AS_2__AS_6__DP_3__DP_5(seed: int) -> None:
    """AS-2 / AS-6 / DP-3 / DP-5: seeded matches over random teams (greedy and random bots
    both assist and swap) give version-2 logs with ``assist`` and ``swap`` events that replay
    as legal with the same result; the timeline words each assist."""
    _, log = _assisting_match(seed, "greedy" if seed % 3 else "random")
    text = log.dumps()
    doc = json.loads(text)
    kinds = [e["action"] for e in doc["events"]]
    assert "assist" in kinds
    first = next(e for e in doc["events"] if e["action"] == "assist")
    assert set(first) == {"player", "character", "action", "card", "move", "discard"} | (
        {"name"} if "name" in first else set())
    assert first["player"] in ("P3", "P4")
    verdict = replay(text)
    assert verdict.status == "legal", verdict.summary()
    turns = timeline(text)
    words = [t.combat.explanation for t in turns if t.combat and "assist" in t.combat.explanation]
    assert words and all("(AS-" in w for w in words)  # each outcome cites its rule


def test_the_bots_assist_and_swap__AS_2__AS_6() -> None:
    """AS-2 / AS-6: the greedy bot places assists and swaps one in when its team committed no
    main card; the random bot does both too."""
    counts = {"greedy": {"assist": 0, "swap": 0}, "random": {"assist": 0, "swap": 0}}
    for bot in counts:
        for seed in range(4):
            _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), seed,
                                bot=bot)
            for e in log.events:
                if e.action.kind in counts[bot]:
                    counts[bot][e.action.kind] += 1
    assert all(n > 0 for bot in counts for n in counts[bot].values()), counts


@pytest.mark.parametrize("seed", range(4))
def test_an_altered_assist_event_is_caught__AS_1__AS_2__AS_4(seed: int) -> None:
    """AS-1 / AS-2 / AS-4: in a self-play log, an assist whose card is not a Jack, Queen or
    King of the hand, whose cost is the assist card itself, or which is moved to an active seat
    is not a legal log."""
    _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), seed,
                        bot="greedy")
    doc = log.to_json()
    marked = [i for i, e in enumerate(doc["events"]) if e["action"] == "assist"]
    assert marked
    i = random.Random(seed).choice(marked)
    event = doc["events"][i]
    cost = json.loads(json.dumps(doc))
    cost["events"][i]["discard"] = event["card"]
    assert replay(cost).first_error["rule_id"] == "AS-4"  # type: ignore[index]
    normal = json.loads(json.dumps(doc))
    normal["events"][i]["card"] = event["discard"]
    normal["events"][i]["discard"] = event["card"]
    assert replay(normal).status == "illegal"
    moved = json.loads(json.dumps(doc))
    moved["events"][i]["player"] = "P1" if event["player"] == "P3" else "P2"
    moved["events"][i]["character"] = "grave" if event["player"] == "P3" else "midori"
    assert replay(moved).status in ("illegal", "result_mismatch")
    swapped = json.loads(json.dumps(doc))
    swapped["events"][i] = {"player": event["player"], "character": event["character"],
                            "action": "pass"}
    assert replay(swapped).status in ("illegal", "result_mismatch")


def test_assist_events_are_version_2_only__AS_2() -> None:
    """AS-2: ``assist`` and ``swap`` belong to team-mode logs (format version 2); parsing
    keeps every field."""
    _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), 1, bot="greedy")
    again = parse_log(log.dumps())
    assert [e.action for e in again.events] == [e.action for e in log.events]


def test_ace_costs_are_paid_before_the_swap__AS_5__AS_13() -> None:
    """AS-5: the main cards and assists are revealed together (C2) and the main cards'
    mandatory Ace costs are paid (C3) before the swap decisions (AS-6), so a team that then
    swaps its Ace out has paid all the same; the Ace is discarded at C13 (AS-13)."""
    g = tag(("valerie", "grave"), ("midori", "rook"))
    deal_hand(g, P1, "AS AH 2H")  # Masterpiece costs one more Ace
    deal_hand(g, P3, "KS 3C")
    deal_hand(g, P2, "9S 5H")
    act(g, P1, Commit(c("AS"), ATTACK, "Masterpiece"))
    act(g, P2, Commit(c("9S"), THROW))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("3C")))
    act(g, P4, Pass())
    assert g.step == "C3" and g.acting_players == (P3,)  # the swap decision
    valerie = g.state(P1)
    assert c("AH") in valerie.discard and c("AH") not in valerie.hand  # already paid
    g.apply(P3, Swap())
    finish_combat(g)
    assert combat_damage(g, P2) == 7  # Whirlwind, not Masterpiece's 16
    assert c("AS") in valerie.discard and c("KS") in g.state(P3).discard


def test_the_reveal_window_and_the_winner_come_after_the_swap__AS_8() -> None:
    """AS-8: after the swap decisions come the combat-reveal window (C4), lock-in (C5) and the
    winner between the two main combat cards (C6). Valerie committed a block; once the team
    swaps Grave's Whirlwind in, her combat action is an attack, so she may play Burst of Speed
    on it at C4 (2.2 → 1.0), and it beats Midori's Rising Mountain (1.2)."""
    g = tag(("valerie", "grave"), ("midori", "rook"))
    deal_hand(g, P1, "5S TH 2H")
    deal_hand(g, P3, "KS 3C")
    deal_hand(g, P2, "QS 4H")
    act(g, P1, Commit(c("5S"), BLOCK))
    act(g, P2, Commit(c("QS"), ATTACK, "Rising Mountain"))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("3C")))
    act(g, P4, Pass())
    g.apply(P3, Swap())
    burst = next(a for a in g.legal_actions(P1) if "Burst" in str(a))
    assert g.step == "C4"
    g.apply(P1, burst)
    finish_combat(g)
    assert combat_damage(g, P2) == 7 and combat_damage(g, P1) == 0


def _insert_assist_at_turn_2(log: Any, seat: str) -> tuple[dict[str, Any], int]:
    """The log with an assist by ``seat`` as the first event of turn 2's C1, using a Jack,
    Queen or King of its hand there (or any card), paid with another card."""
    g = Game.for_log(log)
    at = None
    for i, e in enumerate(log.events):
        if g.turn == 2 and g.step == "C1":
            at = i
            break
        g.apply(e.player, e.action)
    assert at is not None
    ps = g.state(PlayerId[seat])
    pick = next((x for x in ps.hand if x.rank is not None and x.rank.is_face), ps.hand[0])
    move = next(m for m in ps.character.moves_of(pick))
    cost = next(x for x in ps.hand if x is not pick)
    doc = log.to_json()
    event: dict[str, Any] = {"player": seat, "character": ps.character.id, "action": "assist",
             "card": pick.code, "move": move.type.value, "discard": cost.code}
    if len(ps.character.moves_of_type(pick, move.type)) > 1:
        event["name"] = move.name
    doc["events"].insert(at, event)
    return doc, at


def test_a_verdict_says_why_an_assist_is_not_due__AS_2() -> None:
    """AS-2 / ``opt.assists``: the verdict of a log with an assist in a match played without
    assists names the rule and the reason, not just "not this seat's decision"."""
    _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), 2,
                        bot="greedy", ruleset=Ruleset(assists=OnOff.OFF))
    assert all(e.action.kind != "assist" for e in log.events)
    doc, at = _insert_assist_at_turn_2(log, "P3")
    verdict = replay(doc)
    assert verdict.status == "illegal"
    error = verdict.first_error
    assert error is not None and error["index"] == at
    assert error["rule_id"] == "AS-2" and "opt.assists=OFF" in error["reason"]


@pytest.mark.parametrize("seed", [1, 2, 4, 6])
def test_no_card_changes_owner_through_an_assist__AS_13__AS_4(seed: int) -> None:
    """AS-13 / AS-4 (GEN-6: a card goes to its owner's pile): over seeded matches with assists
    and swaps (random and greedy bots, random teams: these seeds swap against Acrobatics, which
    discards the combat cards at once, and with Jaina's Burning Vigor, which takes them back),
    after every event each seat holds each of its cards at most once among hand, deck and
    discard pile: an assist, a swapped-in card or a swapped-out main card never lands in
    another seat's zones."""
    from rules_engine.bots import make_bot
    from rules_engine.characters import IMPLEMENTED
    from rules_engine.types import Actor
    chosen = random.Random(seed).sample(sorted(IMPLEMENTED), 4)
    mode = Mode.TAG_TEAM if seed % 2 == 0 else Mode.DRAMATIC_BATTLE
    a, b = (tuple(chosen[:2]), tuple(chosen[2:])) if mode is Mode.TAG_TEAM else (
        (chosen[0],), tuple(chosen[1:3]))
    bot = "greedy" if seed % 3 else "random"
    bots = (make_bot(bot, seed * 2 + 1), make_bot(bot, seed * 2 + 2))
    g = Game.new(mode, (Team.of(a), Team.of(b)), seed=seed)
    swaps = 0
    while not g.is_over:
        p = g.acting_players[0] if g.actor is Actor.SIMULTANEOUS else g.actor
        assert isinstance(p, PlayerId)
        action = bots[g.table.side_of(g.controller(p))].choose(g, p, g.legal_actions(p))
        swaps += isinstance(action, Swap)
        g.apply(p, action)
        for ps in g.players:
            held = [*ps.hand, *ps.deck, *ps.discard]
            assert len(held) == len(set(held)), (g.turn, g.step, ps.player, action)
    assert swaps > 0


def test_a_pumpable_swapped_assist_opens_the_rewind_window_for_its_pumps__AS_12() -> None:
    """AS-12: a swapped-in assist is an Ender: no further combo move, only pumps if it is
    pumpable, and the opposing active player may place a Joker or bluff against those pumps
    (Crossfire Kick, a Linker pumped by Kings, swapped in: the Rewind Joker stops the pump)."""
    g = tag(("grave", "jaina"), ("midori", "rook"))
    deal_hand(g, P1, "5S KH 2H 3H")
    deal_hand(g, P3, "KS 5C")
    deal_hand(g, P2, "9S X1 5H")
    act(g, P1, Commit(c("5S"), BLOCK))
    act(g, P2, Commit(c("9S"), THROW))
    act(g, P3, Assist(c("KS"), ATTACK, None, c("5C")))
    act(g, P4, Pass())
    act(g, P3, Swap())
    act(g, P2, FaceDown(c("X1")))  # C9: open, for the pumps
    assert g.step == "C10"
    legal = g.legal_actions(P1)
    assert not any(isinstance(a, Combo) for a in legal)  # an Ender now: no Linker follow-up
    assert Pump(0, (c("KH"),)) in legal
    g.apply(P1, Pump(0, (c("KH"),)))
    finish_combat(g)
    assert combat_damage(g, P2) == 6  # Crossfire Kick's base; the pump was prevented
