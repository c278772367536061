"""Tag Team's tags during combat and the Ace tag (RULES.md §11.2: TAG-DODGE, TAG-CONT,
TAG-SUPER, TAG-LIMIT-1, TAG-LIMIT-3, TG-11, TAG-PU-1; OQ-02, OQ-15, OQ-21, OQ-22, OQ-32),
and the tags with assists (TAG-LIMIT-2, TAG-DODGE's "did not assist", OQ-15 across a
tag and an assist, OQ-02 with shared damage).

The scripted tests set up a position at turn 1's commit (the hands, "a position set up for the
test") and drive a seeded Tag Team match through the engine: the choices the test names are
applied, every other decision takes its neutral choice (pass, stop, no Power Up). The property
tests play random teams with the bots, which use the combat tags and assists (on by default;
the positions before "tags and assists together" have benches that pass or hold no Jack, Queen
or King)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from rules_engine.actions import (
    Action,
    Assist,
    Combo,
    Commit,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    PowerUp,
    Stop,
    Tag,
    UseAbility,
)
from rules_engine.bots import make_bot
from rules_engine.cards import MoveType, card
from rules_engine.characters.jaina import BURNING_VIGOR
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.journal import DamageDealt, Healed, JokerUsed
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.selfplay import play_match
from rules_engine.team import Mode, Team
from rules_engine.timeline import timeline
from rules_engine.types import Actor, PlayerId

from .helpers import deal_hand, illegal_rule

P1, P2, P3, P4 = PlayerId.P1, PlayerId.P2, PlayerId.P3, PlayerId.P4
ATTACK, THROW, DODGE = MoveType.ATTACK, MoveType.THROW, MoveType.DODGE


def tag_match(seed: int = 5, a: tuple[str, ...] = ("grave", "jaina"),
              b: tuple[str, ...] = ("midori", "rook")) -> Game:
    return Game.new(Mode.TAG_TEAM, (Team.of(a), Team.of(b)), seed=seed)


_NEUTRAL = (Pass(), Stop(), PowerUp(), NoCard(), Keep())


def drive(g: Game, until: Callable[[Game], bool]) -> None:
    """Apply the neutral choice at every decision until ``until`` holds (or the game ends)."""
    while not g.is_over and not until(g):
        actor = g.actor
        player = g.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
        assert isinstance(player, PlayerId)
        legal = g.legal_actions(player)
        g.apply(player, next((a for a in _NEUTRAL if a in legal), legal[0]))


def after_combo(g: Game) -> bool:
    """The first decision after the combo's damage (C13 on; the combo is journalled)."""
    return g.step not in ("C9", "C10", "C11", "C12")


def c10(seat: PlayerId) -> Callable[[Game], bool]:
    return lambda g: g.step == "C10" and g.acting_players == (seat,)


def tags_of(g: Game, seat: PlayerId, which: str | None = None) -> list[Tag]:
    return [a for a in g.legal_actions(seat) if isinstance(a, Tag)
            and (which is None or a.tag == which)]


def combat(g: Game, hands: dict[PlayerId, str], *choices: Action,
           to_c10: bool = True) -> Game:
    """A position set up for the test at turn 1's commit: each seat named in ``hands`` is dealt
    exactly those cards, then the C1 ``choices`` are made by P1, P2, P3 and P4 in turn (the
    commits, then the benches' assists; a bench left out takes the neutral choice) and, with
    ``to_c10``, the game goes on to P1's C10 decision (the winner's first combo choice)."""
    for seat, codes in hands.items():
        deal_hand(g, seat, codes)
    for seat, choice in zip((P1, P2, P3, P4)[:len(choices)], choices, strict=True):
        g.apply(seat, choice)
    if to_c10:
        drive(g, c10(P1))
    return g


# ------------------------------------------------------------------ OQ-02


def test_damage_to_a_defeated_character_is_not_applied__OQ_02() -> None:
    """OQ-02: in a team mode the game goes on after a knockout (the partner stands), and damage
    is not applied to a character already defeated: its life stays where the knockout left it
    and no damage is journalled against it."""
    g = tag_match()
    midori = g.state(P2)
    midori.life = 3
    g.damage(midori, 5, g.state(P1))
    assert midori.life == -2 and not g.is_over
    assert g.teams[1].defeated == ("midori",)
    mark = len(g.journal)
    g.damage(midori, 5, g.state(P1))
    g.damage(midori, 7, g.state(P3))
    assert midori.life == -2
    assert not [e for e in g.journal[mark:] if type(e) is DamageDealt]


@pytest.mark.parametrize("seed", range(3))
def test_no_damage_after_a_knockout_in_self_play__OQ_02(seed: int) -> None:
    """OQ-02 over whole matches: once a character is defeated, no later damage event targets
    it (a combo that goes on after the knockout deals nothing to it)."""
    for attempt in range(6):
        g, _ = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"),
                          seed * 10 + attempt, bot="greedy")
        life: dict[PlayerId, int] = {s: g.players[s].character.life for s in (P1, P2, P3, P4)}
        checked = False
        for e in g.journal:
            if type(e) is DamageDealt:
                assert life[e.target] > 0, "damage dealt to a defeated character"
                life[e.target] -= e.amount
                checked = checked or life[e.target] <= 0
            elif type(e) is Healed:
                life[e.seat] += e.amount
        if checked:
            return
    pytest.fail("no knockout in the seeded matches")


# ------------------------------------------------------------------ dodge tag


def dodge_position(joker: bool = False) -> Game:
    """Turn 1: Grave (P1) dodges Midori's (P2) attack; Jaina (P3) waits on the bench with a
    Linker and normals. With ``joker`` Midori keeps a Joker for C9."""
    return combat(tag_match(), {P1: "2H 9C", P3: "KS 2S 3S 4S TD",
                                P2: "4H X1" if joker else "4H", P4: "5C"},
                  Commit(card("2H"), DODGE), Commit(card("4H"), ATTACK), to_c10=False)


def test_dodge_tag_switches_and_the_incoming_makes_a_full_combo__TAG_DODGE__OQ_21() -> None:
    """TAG-DODGE / OQ-21: after winning combat with a dodge, the team may tag instead of the
    hit-back: the active player and the benched partner each discard 1 card and switch; the
    incoming player makes a full combo: any attack or throw first (CT-FIRST, here a Linker),
    not turned into an Ender, combo points from 0, then the normal follow rules."""
    g = dodge_position()
    drive(g, c10(P1))
    dodge = tags_of(g, P1, "dodge")
    assert Tag("dodge", card=card("9C"), partner_card=card("TD")) in dodge
    assert {(t.card, t.partner_card) for t in dodge} == {
        (a, b) for a in g.state(P1).hand for b in g.state(P3).hand}
    g.apply(P1, Tag("dodge", card=card("9C"), partner_card=card("TD")))
    assert card("9C") in g.state(P1).discard and card("TD") in g.state(P3).discard
    assert g.table.sides[0] == (P3, P1) and g.acting_players == (P3,)
    jaina = g.state(P3)
    assert jaina.combo_points_spent == 0
    g.apply(P3, Combo(card("KS"), ATTACK))  # a Linker first: CT-FIRST
    assert not g.combat.run.closed  # not an Ender (OQ-21)
    assert Combo(card("2S"), ATTACK) in g.legal_actions(P3)
    g.apply(P3, Combo(card("2S"), ATTACK))
    g.apply(P3, Combo(card("3S"), ATTACK))
    assert jaina.combo_points_spent == 4
    mark = len(g.journal)
    drive(g, after_combo)
    dealt = [(e.source, e.amount) for e in g.journal[mark:] if type(e) is DamageDealt]
    assert dealt == [(P3, 6), (P3, 2), (P3, 3)]
    assert g.combos[-1].player is P3 and g.combos[-1].points == 4  # the incoming's combo


def test_a_dodge_tag_needs_a_dodge_win_and_cards_in_hand__TAG_DODGE() -> None:
    """TAG-DODGE: the tag is refused after a win with an attack, and with a card the player or
    the partner does not hold; the rule is cited."""
    g = dodge_position()
    drive(g, c10(P1))
    assert illegal_rule(g, P1, Tag("dodge", card=card("KD"), partner_card=card("TD"))) \
        == "TAG-DODGE"
    assert illegal_rule(g, P1, Tag("dodge", card=card("9C"), partner_card=card("9C"))) \
        == "TAG-DODGE"
    g = combat(tag_match(), {P1: "3H 9C", P3: "TD", P2: "2H"},
               Commit(card("3H"), ATTACK), Commit(card("2H"), THROW))
    assert not tags_of(g, P1, "dodge")
    assert illegal_rule(g, P1, Tag("dodge", card=card("9C"), partner_card=card("TD"))) \
        == "TAG-DODGE"


def test_no_second_dodge_or_continue_tag_in_the_combo__TAG_LIMIT_1() -> None:
    """TAG-LIMIT-1: after a dodge tag no further dodge or combo-continue tag is allowed in that
    combo: none is offered, and one is refused with the rule."""
    g = dodge_position()
    drive(g, c10(P1))
    g.apply(P1, Tag("dodge", card=card("9C"), partner_card=card("TD")))
    g.apply(P3, Combo(card("KS"), ATTACK))
    g.state(P1).hand.append(g.state(P1).deck.pop())  # the bench could pay again
    assert not tags_of(g, P3, "continue") and not tags_of(g, P3, "dodge")
    assert illegal_rule(g, P3, Tag("continue", card=card("2S"),
                                   partner_card=g.state(P1).hand[-1])) == "TAG-LIMIT-1"


def test_a_rewind_joker_prevents_the_tagged_in_moves__TAG_LIMIT_3__RW_6() -> None:
    """TAG-LIMIT-3 / RW-6: tags happen in C10 while the loser's C9 card lies face down, so the
    incoming player's moves are played while it is face down: a Rewind Joker prevents them
    all, and its owner draws 2."""
    g = dodge_position(joker=True)
    drive(g, lambda g: g.step == "C9")
    g.apply(P2, FaceDown(card("X1")))
    drive(g, c10(P1))
    g.apply(P1, Tag("dodge", card=card("9C"), partner_card=card("TD")))
    g.apply(P3, Combo(card("KS"), ATTACK))
    g.apply(P3, Combo(card("2S"), ATTACK))
    mark = len(g.journal)
    hand = len(g.state(P2).hand)
    drive(g, after_combo)
    assert not [e for e in g.journal[mark:] if type(e) is DamageDealt]
    used = [e for e in g.journal[mark:] if type(e) is JokerUsed]
    assert used and used[0].prevented == 8  # type: ignore[attr-defined]
    assert len(g.state(P2).hand) == hand + 2


# ------------------------------------------------------------------ combo-continue tag


def continue_position(a: tuple[str, str] = ("grave", "jaina"), p1: str = "2H 3H 9C",
                      p3: str = "4S 5S 6S 8S TD") -> Game:
    """Turn 1: Grave (P1) hits Midori's (P2) throw with a normal 2 and combos a 3; Jaina (P3)
    holds 4, 5, 6 and a Starter throw (or team ``a`` with the hands ``p1`` and ``p3``)."""
    g = combat(tag_match(a=a), {P1: p1, P3: p3, P2: "2D", P4: "5C"},
               Commit(card("2H"), ATTACK), Commit(card("2D"), THROW))
    g.apply(P1, Combo(card("3H"), ATTACK))
    return g


def test_continue_tag_continues_the_same_combo__TAG_CONT__TG_11() -> None:
    """TAG-CONT / TG-11: during a combo with points left and no Ender, the two players each
    discard 1 card and switch; the incoming player's combo points start at 0 and it continues
    the same combo. The outgoing player's last move, a normal 3, is a Linker for the next move,
    so any normal rank may follow (a 6 here); a Starter may not be played."""
    g = continue_position()
    grave = g.state(P1)
    assert grave.combo_points_spent == 2
    cont = tags_of(g, P1, "continue")
    assert Tag("continue", card=card("9C"), partner_card=card("TD")) in cont
    g.apply(P1, Tag("continue", card=card("9C"), partner_card=card("TD")))
    jaina = g.state(P3)
    assert g.table.actives[0] is P3 and jaina.combo_points_spent == 0
    legal = g.legal_actions(P3)
    assert Combo(card("6S"), ATTACK) in legal and Combo(card("4S"), ATTACK) in legal
    assert illegal_rule(g, P3, Combo(card("8S"), THROW)) == "TAG-CONT"  # a Starter
    g.apply(P3, Combo(card("4S"), ATTACK))
    assert Combo(card("6S"), ATTACK) not in g.legal_actions(P3)  # CT-NORMAL again
    g.apply(P3, Combo(card("5S"), ATTACK))
    assert [(s.seat, len(s.entries)) for s in g.combat.run.segments] == [(P1, 2), (P3, 2)]
    g.apply(P3, Combo(card("6S"), ATTACK))
    assert jaina.combo_points_spent == 3 and grave.combo_points_spent == 2
    drive(g, after_combo)
    record = g.combos[-1]
    assert record.cards == ["2H", "3H", "4S", "5S", "6S"]
    assert record.player is P1 and record.points == 5 and record.moves == 5
    assert [c for c in ("2H", "3H") if card(c) in grave.discard] == ["2H", "3H"]


def test_chains_belong_to_their_character_across_a_tag__OQ_15__CH_1() -> None:
    """OQ-15 / CH-1: a chain belongs to the character that played it and a tag ends the run:
    Grave's 2, 3 and Jaina's 4, 5, 6 are a 2-chain (nothing) and a 3-chain (1 Ace for Jaina),
    not one 5-chain of Grave's."""
    g = continue_position()
    g.apply(P1, Tag("continue", card=card("9C"), partner_card=card("TD")))
    for code in ("4S", "5S", "6S"):
        g.apply(P3, Combo(card(code), ATTACK))
    drive(g, after_combo)
    assert g.state(P1).chains == [2] and g.state(P3).chains == [3]
    assert g.chain_entitlement(g.state(P3)) == 1 and g.chain_entitlement(g.state(P1)) == 0
    assert g.combos[-1].chains == [2, 3]


def test_burning_vigor_returns_only_jainas_own_cards_across_a_tag__TG_8__TAG_CONT() -> None:
    """TG-8 (d): Jaina's buyback (Burning Vigor) covers only the attacks she plays herself.
    After a combo-continue tag (TAG-CONT): Jaina (P1) wins with a
    2, combos a 3 and tags Grave (P3) in, who continues the combo with his 4S, a card of his
    deck; Jaina holds her own 4S. At the end of combat she may take back her 2 and 3, never
    Grave's 4S: a hand never holds two cards of one code (the Tag Team self-play logs whose
    Power Up then named "4S 4S" did not replay, PU-2)."""
    g = continue_position(("jaina", "grave"), p1="2H 3H 9C 4S", p3="4S 5S TD")
    g.apply(P1, Tag("continue", card=card("9C"), partner_card=card("TD")))
    g.apply(P3, Combo(card("4S"), ATTACK))
    drive(g, lambda g: g.acting_players == (P1,) and any(
        isinstance(a, UseAbility) for a in g.legal_actions(P1)))
    assert g.step == "C13"
    returns = {a.cards for a in g.legal_actions(P1) if isinstance(a, UseAbility)}
    assert returns == {(card("2H"),), (card("3H"),), (card("2H"), card("3H"))}
    assert illegal_rule(g, P1, UseAbility(BURNING_VIGOR, cards=(card("4S"),))) == "AB-1"
    g.apply(P1, UseAbility(BURNING_VIGOR, cards=(card("2H"), card("3H"))))
    jaina, grave = g.state(P1), g.state(P3)
    assert [c.code for c in jaina.hand].count("4S") == 1
    assert card("4S") in grave.discard and card("4S") not in jaina.discard


def test_bathed_in_moonlight_is_not_offered_for_the_partners_jack__TG_8__TAG_CONT() -> None:
    """TG-8 (d), "you" means you (AB-7): Gloria's Bathed in Moonlight returns a Jack she hit
    with. Gloria (P1) wins with a 2, combos a 3 and tags Grave (P3) in, whose JS hits; at the
    end of combat she is offered nothing for his Jack (a card of his deck; she holds her own
    JS, which did not hit)."""
    g = continue_position(("gloria", "grave"), p1="2H 3H 9C JS", p3="JS 5S TD")
    g.apply(P1, Tag("continue", card=card("9C"), partner_card=card("TD")))
    g.apply(P3, Combo(card("JS"), ATTACK))
    offered: list[UseAbility] = []

    def to_power_up(g: Game) -> bool:  # noting Gloria's abilities offered on the way
        offered.extend(a for a in g.legal_actions(P1) if isinstance(a, UseAbility))
        return g.step == "P2"

    drive(g, to_power_up)
    assert (g.turn, g.step) == (1, "P2") and offered == []
    assert card("JS") in g.state(P3).discard and card("JS") in g.state(P1).hand


def test_continue_tag_refused_with_an_ender_or_no_points__TAG_CONT() -> None:
    """TAG-CONT: no combo-continue tag once the combo holds an Ender (or a Can't Combo move),
    or when the active player has no combo point left."""
    g = continue_position()
    g.state(P1).combo_points_spent = 4  # Grave's limit reached (a position for the test)
    assert not tags_of(g, P1, "continue")
    assert illegal_rule(g, P1, Tag("continue", card=card("9C"), partner_card=card("TD"))) \
        == "TAG-CONT"
    g = combat(tag_match(a=("jaina", "grave")), {P1: "QH 9C", P3: "TD", P2: "2D"},
               Commit(card("QH"), ATTACK),  # an Ender (pumpable) as the combat card
               Commit(card("2D"), THROW))
    assert g.combat.run.closed and g.legal_actions(P1)  # its pumps
    assert not tags_of(g, P1)
    assert illegal_rule(g, P1, Tag("continue", card=card("9C"), partner_card=card("TD"))) \
        == "TAG-CONT"


def test_a_knockdown_stays_with_the_character_that_tags_out__OQ_32__KD_6() -> None:
    """OQ-32 / KD-6: a knockdown is a status of the character: Grave, knocked down this turn,
    wins with an attack and tags out; he stays knocked down on the bench until K3, and Jaina,
    coming in, is not knocked down."""
    g = tag_match()
    g.state(P1).knocked_down = True  # knocked down for this turn (a position for the test)
    combat(g, {P1: "2H 3H 9C", P3: "4S TD", P2: "2D"},
           Commit(card("2H"), ATTACK), Commit(card("2D"), THROW))
    g.apply(P1, Tag("continue", card=card("9C"), partner_card=card("TD")))
    assert g.state(P1).knocked_down and not g.state(P3).knocked_down
    assert P1 in g.table.bench(0)
    drive(g, lambda g: g.step.startswith(("P", "K")))
    assert g.state(P1).knocked_down and not g.state(P3).knocked_down
    drive(g, lambda g: g.turn == 2)
    assert not g.state(P1).knocked_down and not g.state(P3).knocked_down


# ------------------------------------------------------------------ super cancel tag


def super_position() -> Game:
    """Turn 1: Grave (P1) wins with his super (AH, an Ender); Jaina (P3) holds AS (an Ender
    that costs one more Ace) and AD; Grave keeps AC for a tag back."""
    return combat(tag_match(), {P1: "AH AC", P3: "AS AD 2S", P2: "2D"},
                  Commit(card("AH"), ATTACK, "True-Spark Arc"), Commit(card("2D"), THROW))


def _super_tag(g: Game, seat: PlayerId, code: str, name: str | None = None) -> Tag:
    return next(t for t in tags_of(g, seat, "super") if t.card == card(code)
                and (name is None or t.name == name))


def test_super_cancel_tag_after_a_super_hit_deals_half__TAG_SUPER__OQ_22__TG_11() -> None:
    """TAG-SUPER / OQ-22 / TG-11: when the active player hits with a super, the partner tags in
    by playing its own super, whatever the combo points and types (Grave's super is an Ender:
    the combo was closed). It deals 50% of its damage, rounded down; the incoming player's
    points reset and the super is charged to them; super cancel tags may go back and forth,
    each after a super hit (Grave tags back in: his points reset from 2)."""
    g = super_position()
    assert g.combat.run.closed
    grave, jaina = g.state(P1), g.state(P3)
    assert grave.combo_points_spent > 0
    tag = _super_tag(g, P1, "AS", "Letter J")
    assert tag.aces == (card("AD"),)
    g.apply(P1, tag)
    assert g.table.actives[0] is P3 and card("AD") in jaina.discard
    m = jaina.character.moves_of_type(card("AS"), ATTACK)
    played = next(x for x in m if (x.name == tag.name or tag.name is None) and x.extra_aces == 1)
    assert jaina.combo_points_spent == played.combo_points
    spent_before = grave.combo_points_spent
    back = _super_tag(g, P3, "AC")
    mark = len(g.journal)
    g.apply(P3, back)
    assert g.table.actives[0] is P1
    back_move = next(x for x in grave.character.moves_of_type(card("AC"), ATTACK)
                     if back.name is None or x.name == back.name)
    assert grave.combo_points_spent == (back_move.combo_points or 0) != spent_before + (
        back_move.combo_points or 0)  # TG-11: reset to 0, then charged
    drive(g, after_combo)
    dealt = [(e.source, e.amount) for e in g.journal[mark:] if type(e) is DamageDealt]
    assert dealt == [(P3, played.damage // 2), (P1, back_move.damage // 2)]


def test_super_cancel_tag_needs_a_super_hit_and_the_partners_super__TAG_SUPER() -> None:
    """TAG-SUPER: no super cancel tag after a move that is not a super, and the partner must
    tag in with its own super (an Ace attack or throw from its hand)."""
    g = continue_position()
    g.state(P3).hand.append(card("AS"))
    g.state(P3).deck.remove(card("AS"))
    assert not tags_of(g, P1, "super")
    assert illegal_rule(g, P1, Tag("super", card=card("AS"), move=ATTACK, name=None)) \
        == "TAG-SUPER"
    g = super_position()
    assert illegal_rule(g, P1, Tag("super", card=card("2S"), move=ATTACK)) == "TAG-SUPER"
    assert illegal_rule(g, P1, Tag("super", card=card("AH"), move=ATTACK)) == "TAG-SUPER"


# ------------------------------------------------------------------ Ace tag (Power Up)


def test_ace_tag_hands_the_search_to_the_partner__TAG_PU_1__OQ_15__P4() -> None:
    """TAG-PU-1 / P4 / OQ-15: an active player who would search for at least 1 Ace (here the
    chain reward alone: Jaina's 3-chain) may instead switch out; the partner searches its own
    deck and discard pile for that many Aces and becomes active. No hard tag follows in that
    Power Up."""
    g = continue_position()
    g.apply(P1, Tag("continue", card=card("9C"), partner_card=card("TD")))
    for code in ("4S", "5S", "6S"):
        g.apply(P3, Combo(card(code), ATTACK))
    drive(g, lambda g: g.step == "P2" and g.acting_players == (P3,))
    aces = [a for a in tags_of(g, P3, "ace") if not a.sets]
    assert aces and all(len(a.from_discard) + len(a.from_deck) <= 1 for a in aces)
    grave, jaina = g.state(P1), g.state(P3)
    pick = next(a for a in aces if a.from_deck)
    hand = len(jaina.hand)
    g.apply(P3, pick)
    assert pick.from_deck[0] in grave.hand and pick.from_deck[0] not in grave.deck
    assert len(jaina.hand) == hand
    assert g.table.actives[0] is P1
    while not g.is_over and g.turn == 1 and not g.step.startswith("K"):
        player = g.acting_players[0]
        legal = g.legal_actions(player)
        if g.table.side_of(player) == 0:
            assert not any(isinstance(a, Tag) for a in legal)  # one tag a Power Up
        g.apply(player, next((a for a in _NEUTRAL if a in legal), legal[0]))


def test_no_ace_tag_without_an_ace_owed__TAG_PU_1() -> None:
    """TAG-PU-1: the Ace tag needs at least 1 Ace owed from sets and/or chains: with a pair of
    9s (1 Ace) it is offered, naming the pair; without the pair (and no chain reward) it is
    refused with the rule."""
    g = continue_position()
    deal_hand(g, P1, "9C 9D")
    g.apply(P1, Stop())
    drive(g, lambda g: g.step == "P2" and P1 in g.acting_players)
    assert g.state(P1).chains == [2]  # no reward
    offered = tags_of(g, P1, "ace")
    assert offered and all(t.sets == (card("9C"), card("9D")) for t in offered)
    assert illegal_rule(g, P1, Tag("ace")) == "TAG-PU-1"


def test_no_ace_tag_after_a_knockdown_this_turn__TAG_PU_3__SB_4() -> None:
    """TAG-PU-3 / SB-4: the Ace tag is a Power-Up tag like the hard tag: a side whose active
    character was knocked down this turn is offered none, and one is refused with the rule."""
    g = continue_position()
    deal_hand(g, P1, "9C 9D")
    g.apply(P1, Stop())
    g.state(P1).knockdown_next = True  # knocked down this combat (a position for the test)
    drive(g, lambda g: g.step == "P2" and P1 in g.acting_players)
    assert any(isinstance(a, PowerUp) and a.sets for a in g.legal_actions(P1))
    assert not tags_of(g, P1, "ace")
    assert illegal_rule(g, P1, Tag("ace", sets=(card("9C"), card("9D")))) == "TAG-PU-3"


def test_the_lone_player_never_tags__DB_7() -> None:
    """DB-7: Dramatic Battle's lone player has no partner: no combat tag is ever offered to it,
    and one is refused with the rule."""
    for seed in range(20):
        g = Game.new(Mode.DRAMATIC_BATTLE, (Team.of(("grave",)),
                                                  Team.of(("midori", "rook"))), seed=seed)
        bots = (make_bot("random", seed), make_bot("random", seed + 1))
        while not g.is_over and not (g.step == "C10" and g.acting_players == (P1,)):
            player = g.acting_players[0]
            g.apply(player, bots[g.table.side_of(player)].choose(g, player,
                                                                 g.legal_actions(player)))
        if g.is_over or len(g.state(P1).hand) < 1:
            continue
        assert not tags_of(g, P1)
        c = g.state(P1).hand[0]
        assert illegal_rule(g, P1, Tag("continue", card=c, partner_card=c)) == "DB-7"
        return
    pytest.fail("no C10 decision of the lone player in 20 seeded matches")


# ------------------------------------------------------------------ tags and assists together


def assist_match(a: tuple[str, str], b: tuple[str, str] = ("midori", "rook")) -> Game:
    """A Tag Team game (assists on, the default) at turn 1's C1 whose four seats are all in
    the C1 decision: each bench was dealt a Jack, Queen or King when combat began (the test
    deals the hands it needs afterwards)."""
    for seed in range(3, 103):
        g = tag_match(seed, a, b)
        if g.step == "C1" and len(g.acting_players) == 4:
            return g
    raise AssertionError("no seed deals both benches an assist")


def dodge_assist_position(assist: bool) -> Game:
    """Turn 1: Grave (P1) dodges Midori's (P2) attack; Lum (P3) assists with Rolling Panda (a
    Queen: pumpable with a Queen, so P1 has a C10 decision after it) or passes."""
    return combat(assist_match(("grave", "lum")),
                  {P1: "2H QH 9C", P3: "QS 5C 7D", P2: "4H 5H", P4: "2C"},
                  Commit(card("2H"), DODGE), Commit(card("4H"), ATTACK),
                  Assist(card("QS"), ATTACK, None, card("5C")) if assist else Pass())


def test_no_dodge_tag_for_a_team_that_assisted__TAG_DODGE__TAG_LIMIT_2() -> None:
    """TAG-DODGE: the dodge tag needs a team that won with a dodge **and did not assist this
    combat**; TAG-LIMIT-2 says the same of any team that assisted. Without the assist the
    dodge tag is offered at C10; with it (the assist hits as the hit-back, AS-14) it is not,
    and one is refused for that reason."""
    g = dodge_assist_position(assist=False)
    assert g.step == "C10" and tags_of(g, P1, "dodge")
    g = dodge_assist_position(assist=True)
    assert g.step == "C10" and g.acting_players == (P1,)
    assert g.mode.assists is not None and g.mode.assists.assisted(0)
    assert not tags_of(g, P1, "dodge") and not tags_of(g, P1, "continue")
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Tag("dodge", card=card("9C"), partner_card=card("7D")))
    assert err.value.rule_id == "TAG-DODGE" and "did not assist" in str(err.value)


def assisted_combo(assist: bool) -> Game:
    """Turn 1: Grave (P1) hits Midori's (P2) throw with a normal 2; Gloria (P3) assists with
    Moonlight Sphere (a Linker: it hits at once, Grave's points reset and the combo goes on,
    AS-11) or passes; Grave then combos a 3. Gloria holds the super Twilight Key (an Ace
    Linker, 1 more Ace) and two normals."""
    g = combat(assist_match(("grave", "gloria")),
               {P1: "2S 3H 4H AH 9C", P3: "JS 5C AS AD 2C 3C", P2: "9S 5H", P4: "2D"},
               Commit(card("2S"), ATTACK), Commit(card("9S"), THROW),
               Assist(card("JS"), ATTACK, "Moonlight Sphere", card("5C")) if assist
               else Pass())
    g.apply(P1, Combo(card("3H"), ATTACK))
    return g


TWILIGHT_KEY = Tag("super", card=card("AS"), move=ATTACK, name="Twilight Key",
                   aces=(card("AD"),))


def test_no_combo_continue_tag_after_an_assist_but_a_super_cancel_tag__TAG_LIMIT_2__TG_11(
        ) -> None:
    """TAG-LIMIT-2: a team that assisted this combat may not combo-continue tag (without the
    assist the same combo offers it), but it may still super cancel tag: the benched player who
    assisted tags in with its super; TG-11 / OQ-22: its spent points reset to 0 and the super
    is charged to them (2), then it goes on by the follow rules."""
    g = assisted_combo(assist=False)
    assert tags_of(g, P1, "continue")
    g = assisted_combo(assist=True)
    grave, gloria = g.state(P1), g.state(P3)
    assert g.combat.run.segments[1].seat is P3  # the assist: the benched seat's move
    assert grave.combo_points_spent == 1  # reset by the Linker assist (AS-11), then the 3
    assert not tags_of(g, P1, "continue") and not tags_of(g, P1, "dodge")
    assert illegal_rule(g, P1, Tag("continue", card=card("9C"), partner_card=card("2C"))) \
        == "TAG-LIMIT-2"
    g.apply(P1, Combo(card("4H"), ATTACK))
    g.apply(P1, Combo(card("AH"), ATTACK, "True-Spark Arc"))  # a super, an Ender
    assert TWILIGHT_KEY in tags_of(g, P1, "super")
    g.apply(P1, TWILIGHT_KEY)
    assert g.table.sides[0] == (P3, P1) and g.acting_players == (P3,)
    assert gloria.combo_points_spent == 2  # from 0 (TG-11), the super charged (OQ-22)
    g.apply(P3, Combo(card("2C"), ATTACK))  # after a Linker: any normal
    g.apply(P3, Combo(card("3C"), ATTACK))
    assert gloria.combo_points_spent == 4


def test_chains_across_an_assist_and_a_tag_belong_to_their_character__OQ_15__CH_1() -> None:
    """OQ-15 (both halves in one combo): a chain belongs to the character that played it, and
    any move by another character (the assist, the tag's super) ends the run. Grave's 2, then
    Gloria's assist, then Grave's 3-4 and super, then Gloria's tagged-in super and 2-3: Grave
    made chains of 1 and 2 (2-3-4 is broken by the assist), Gloria one of 2 (hers, not
    Grave's); the team's combo record lists them all, in order."""
    g = assisted_combo(assist=True)
    g.apply(P1, Combo(card("4H"), ATTACK))
    g.apply(P1, Combo(card("AH"), ATTACK, "True-Spark Arc"))
    g.apply(P1, TWILIGHT_KEY)
    g.apply(P3, Combo(card("2C"), ATTACK))
    assert [(s.seat, [e.card.code for e in s.entries]) for s in g.combat.run.segments] == [
        (P1, ["2S"]), (P3, ["JS"]), (P1, ["3H", "4H", "AH"]), (P3, ["AS", "2C"])]
    g.apply(P3, Combo(card("3C"), ATTACK))  # Gloria's last point: the combo ends
    drive(g, after_combo)
    assert g.state(P1).chains == [1, 2]
    assert g.state(P3).chains == [2]
    record = g.combos[-1]
    assert record.cards == ["2S", "JS", "3H", "4H", "AH", "AS", "2C", "3C"]
    assert record.chains == [1, 2, 2] and record.player is P1


def test_a_shared_combo_goes_on_against_the_bench_after_a_knockout__OQ_02__AS_16() -> None:
    """OQ-02 with AS-9 / AS-16: the opposing team assisted and lost, so Grave's whole combo hits
    both its characters; when its active character (Midori, 4 life) is defeated mid-combo, the
    combat carries on against the survivor: the later move deals nothing to Midori and still
    hits Rook on the bench."""
    g = assist_match(("grave", "jaina"))
    midori, rook = g.state(P2), g.state(P4)
    midori.life = 4
    bench_life = rook.life
    combat(g, {P1: "2S 3H 4H", P3: "5C", P2: "9S 5H", P4: "KS 2D"},
           Commit(card("2S"), ATTACK), Commit(card("9S"), THROW), Pass(),
           Assist(card("KS"), THROW, None, card("2D")))
    g.apply(P1, Combo(card("3H"), ATTACK))
    g.apply(P1, Combo(card("4H"), ATTACK))
    drive(g, after_combo)
    dealt = [(e.target, e.amount) for e in g.journal if type(e) is DamageDealt]
    assert dealt == [(P2, 2), (P4, 2), (P2, 3), (P4, 3), (P4, 4)]
    assert midori.life == -1 and g.teams[1].defeated == ("midori",) and not g.is_over
    assert rook.life == bench_life - 9


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_self_play_with_assists_and_tags_keeps_tag_limit_2__TAG_LIMIT_2__TAG_DODGE(
        bot: str) -> None:
    """TAG-LIMIT-2 / TAG-DODGE over whole matches: with assists on (the default) the bots
    assist and tag in the same Tag Team and Dramatic Battle games, the logs replay as legal,
    a side that assisted in a turn never dodge tags or combo-continue tags in that turn, and
    the super cancel tag it may still make does happen."""
    after_assist: list[str | None] = []
    for seed in range(8):
        mode, a, b = random_teams(seed)
        _, log = play_match(mode, a, b, seed, bot=bot)
        text = log.dumps()
        assert replay(text).status == "legal"
        for turn in timeline(text):
            events = [log.events[i] for i in range(*turn.events)]
            assisted = {e.player.value % 2 for e in events if isinstance(e.action, Assist)}
            after_assist += [e.action.tag for e in events if isinstance(e.action, Tag)
                             and e.action.tag in ("dodge", "continue", "super")
                             and e.player.value % 2 in assisted]
    assert set(after_assist) <= {"super"}
    # the greedy bots make one in these 8 matches; random play only by chance (5 super cancel
    # tags in 30 random matches, none after an assist since one tag a Power Up changed their
    # choices, TAG-PU-1)
    assert after_assist or bot == "random"


# ------------------------------------------------------------------ self-play, logs, mutants


def random_teams(seed: int) -> tuple[Mode, tuple[str, ...], tuple[str, ...]]:
    from rules_engine.characters import IMPLEMENTED

    rng = random.Random(1000 + seed)
    chosen = rng.sample(sorted(IMPLEMENTED), 4)
    if seed % 2 == 0:
        return Mode.TAG_TEAM, tuple(chosen[:2]), tuple(chosen[2:])
    return Mode.DRAMATIC_BATTLE, (chosen[0],), tuple(chosen[1:3])


@pytest.mark.parametrize("seed", range(8))
def test_random_teams_with_combat_tags_replay_as_legal__TAG_DODGE__TAG_CONT__TAG_SUPER(
        seed: int) -> None:
    """TAG-DODGE / TAG-CONT / TAG-SUPER / TAG-PU-1: self-play over random teams (random and
    greedy bots, which use the tags) gives version-2 logs with combat and Ace tags that replay
    as legal with the same result, and a timeline that lists each turn's tags."""
    mode, a, b = random_teams(seed)
    _, log = play_match(mode, a, b, seed, bot="random" if seed % 4 else "greedy")
    text = log.dumps()
    verdict = replay(text)
    assert verdict.status == "legal", verdict.summary()
    parsed = parse_log(text)
    assert [e.action for e in parsed.events] == [e.action for e in log.events]
    turns = timeline(text)
    tagged = [t for turn in turns for t in turn.tags]
    assert len(tagged) == sum(1 for e in log.events if e.action.kind == "tag")
    for turn in turns:  # a team's combo (a tag or an assist) names who played each move
        seats = {m.seat for m in turn.combo.moves} if turn.combo is not None else set()
        if seats - {None}:
            assert turn.combo is not None
            assists = {(log.events[i].player, log.events[i].action.card.code)
                       for i in range(*turn.events) if isinstance(log.events[i].action, Assist)}
            by_assist = any((m.seat, m.card) in assists for m in turn.combo.moves)
            assert by_assist or (len(seats) >= 2 and any(t["tag"] in ("continue", "super")
                                                         for t in turn.tags))


def test_self_play_makes_every_kind_of_tag__TAG_DODGE__TAG_CONT__TAG_SUPER__TAG_PU_1() -> None:
    """The bots make every kind of tag over a few seeded matches (the random bot by chance,
    the greedy one by its heuristic), and each replays as legal."""
    seen: set[str | None] = set()
    for seed in range(40):
        mode, a, b = random_teams(seed)
        _, log = play_match(mode, a, b, seed, bot="random" if seed % 2 else "greedy")
        kinds = {e.action.tag for e in log.events if isinstance(e.action, Tag)}
        if kinds - seen:
            assert replay(log.dumps()).status == "legal"
        seen |= kinds
        if {"dodge", "continue", "super", "ace", None} <= seen:
            return
    pytest.fail(f"only these tags in 40 matches: {seen}")


def test_tag_events_follow_the_version_2_schema__TAG_DODGE__TAG_CONT__TAG_SUPER() -> None:
    """docs/log-format.md §6: self-play logs with every kind of tag, and with assists and
    swaps, validate against rules_engine/schema/match-log-v2.json (built by
    tools/build_schema_v2), and a tag event with a key its kind does not take does not."""
    from pathlib import Path

    import jsonschema

    import rules_engine

    schema = json.loads((Path(rules_engine.__file__).parent / "schema" / "match-log-v2.json")
                        .read_text("utf-8"))
    kinds: set[str | None] = set()
    actions: set[str] = set()
    for seed in range(40):
        _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("midori", "rook"), seed,
                            bot="random")
        doc = json.loads(log.dumps())
        jsonschema.validate(doc, schema)
        kinds |= {e.get("tag") for e in doc["events"] if e["action"] == "tag"}
        actions |= {e["action"] for e in doc["events"]}
        if {"dodge", "continue", "super", "ace"} <= kinds:
            break
    assert {"dodge", "continue", "super", "ace"} <= kinds
    assert {"assist", "swap"} <= actions
    i = next(i for i, e in enumerate(doc["events"]) if e.get("tag") in ("dodge", "continue"))
    doc["events"][i]["aces"] = ["AS"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)
    assert replay(doc).status == "unreadable"


def _tagged_log(want: str) -> tuple[Any, int]:
    for seed in range(60):
        mode, a, b = random_teams(seed)
        _, log = play_match(mode, a, b, seed, bot="random")
        marked = [i for i, e in enumerate(log.events)
                  if isinstance(e.action, Tag) and e.action.tag == want]
        if marked:
            return log, marked[0]
    raise AssertionError(f"no {want} tag in 60 seeded matches")


@pytest.mark.parametrize("want", ["dodge", "continue", "super", "ace"])
def test_an_altered_tag_event_is_caught__TAG_DODGE__TAG_CONT__TAG_SUPER__TAG_PU_1(
        want: str) -> None:
    """Mutation: in a self-play log, a tag event paying a card its player does not hold, made
    by the other side, or turned into another kind of tag, is not a legal log (or not the same
    result)."""
    log, i = _tagged_log(want)
    doc = log.to_json()
    event = doc["events"][i]
    g = Game.for_log(log)
    for e in log.events[:i]:
        g.apply(e.player, e.action)
    seat = log.events[i].player
    ps = g.state(seat)
    partner = g.state(g.table.partner(seat))  # type: ignore[arg-type]
    mutants: list[dict[str, Any]] = []
    bad = json.loads(json.dumps(doc))
    if want in ("dodge", "continue"):
        bad["events"][i]["card"] = next(c.code for c in ps.deck if c not in ps.hand)
        mutants.append(bad)
        other = json.loads(json.dumps(doc))
        other["events"][i]["tag"] = "continue" if want == "dodge" else "dodge"
        mutants.append(other)
    elif want == "super":
        bad["events"][i]["card"] = next(c.code for c in partner.deck
                                        if not c.is_ace and c not in partner.hand)
        mutants.append(bad)
    else:
        owed = len(event["from_discard"]) + len(event["from_deck"])
        bad["events"][i]["from_deck"] = event["from_deck"] + [
            c.code for c in partner.deck if c.is_ace and c.code not in event["from_deck"]
        ][:1] + ([] if owed else ["AS"])
        mutants.append(bad)
    moved = json.loads(json.dumps(doc))
    moved["events"][i]["player"] = "P2" if event["player"] in ("P1", "P3") else "P1"
    mutants.append(moved)
    for m in mutants:
        assert replay(m).status in ("illegal", "result_mismatch", "unreadable"), m["events"][i]
