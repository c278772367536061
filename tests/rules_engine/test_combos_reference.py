"""The combo reference (``python -m rules_engine combos``, issue 12): for each attack and throw,
the highest-damage legal combo that starts with it (RULES.md §5: CB-1..CB-11, the CT table,
PM-1..PM-2, S-2's four copies of each rank), checked against the game itself: every line small
enough for an opening hand is played through a real game and deals exactly its damage."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from rules_engine import characters as chars
from rules_engine import combat as cb
from rules_engine.actions import Action, Combo, Commit, Draw, NoCard, Pass, Pump, Stop
from rules_engine.cards import (
    RANK_BY_CODE,
    Card,
    ComboType,
    Move,
    Rank,
    card,
    character,
    characters,
)
from rules_engine.characters import CharacterRules
from rules_engine.cli import main
from rules_engine.combos import COPIES, ComboLine, attacks_and_throws, combos, damage_of
from rules_engine.errors import RuleViolation
from rules_engine.journal import DamageDealt, Drew
from rules_engine.modifiers import FOLLOW, Modifier
from rules_engine.ruleset import DEFAULT_RULESET
from rules_engine.types import PlayerId

from .helpers import P1, P2, recorded_game

ALL = sorted(characters())
SUITS = "CDHS"


def _moves(line: ComboLine) -> list[Move]:
    return [s.move for s in line.steps if s.role == "move" and s.move is not None]


def _follow_violation(cid: str, prev: Move, nxt: Move) -> object:
    """The CT table as the character's always-on ``FOLLOW`` modifiers change it (Valerie's
    Agile Hands lifts CT-NORMAL, CB-15): the engine's own fold at C10."""
    from rules_engine.combos import _reference

    _char, ctx, _ = _reference(cid, None, 0)
    return ctx.modifiers.fold(FOLLOW, ctx.seat, (prev, nxt),
                              cb.follow_violation(prev, nxt, DEFAULT_RULESET))


@pytest.mark.parametrize("cid", ALL)
def test_every_line_is_a_legal_combo__CB_3_CB_4_CB_5_CB_9_CT_FIRST(cid: str) -> None:
    """Each start of the character has a line; the line starts with it, follows the CT table,
    stays within the combo limit (CB-3), ends at its first Ender (CB-5), pays every mandatory
    Ace cost (CB-9), uses at most four cards of a rank (S-2), and its damage is the sum of its
    cards' damage (C8c + C12)."""
    char = character(cid)
    lines = combos(cid)
    starts = [m for m in attacks_and_throws(char) if m.requires is None]
    assert [ln.start for ln in lines if ln.start.requires is None] == starts
    for line in lines:
        moves = _moves(line)
        assert moves[0] == line.start
        for prev, nxt in pairwise(moves):
            assert _follow_violation(cid, prev, nxt) is None
        assert all(m.follow_type not in (ComboType.ENDER, ComboType.CANT_COMBO)
                   for m in moves[:-1])
        assert sum(m.combo_points or 0 for m in moves) == line.combo_points <= char.combo_limit
        aces = sum(1 for s in line.steps if s.role == "ace_cost")
        assert aces == sum(m.extra_aces for m in moves)
        counts: dict[str, int] = {}
        for s in line.steps:
            if s.rank != "any":
                counts[s.rank] = counts.get(s.rank, 0) + 1
        assert max(counts.values()) <= COPIES
        for s in line.steps:
            if s.role == "pump":
                assert s.target is not None
                target = moves[s.target]
                assert target.pump is not None and s.damage == target.pump.damage
                assert s.rank == "any" or target.pump.kind.accepts(card(s.rank + "C"))
        assert line.damage == sum(s.damage for s in line.steps)


def _sequences(char: Move | None, moves: list[Move], limit: int, spent: int,
               used: dict[Rank, int]) -> Iterator[list[Move]]:
    """Every legal pump-free continuation (a naive enumeration, independent of the search)."""
    assert char is not None
    yield []
    if char.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO):
        return
    for m in moves:
        cost = m.combo_points or 0
        n = used.get(m.rank, 0) + 1 + m.extra_aces
        if cb.follow_violation(char, m, DEFAULT_RULESET) is None and spent + cost <= limit \
                and n <= COPIES:
            for rest in _sequences(m, moves, limit, spent + cost, {**used, m.rank: n}):
                yield [m, *rest]


@pytest.mark.parametrize("cid", ["grave", "degrey", "argagarg", "gwen", "valerie"])
def test_no_pump_free_combo_deals_more__CB_11(cid: str) -> None:
    """The line is the best: no legal combo without pumps from the same start deals more."""
    char = character(cid)
    moves = attacks_and_throws(char)
    for line in combos(cid):
        s = line.start
        best = max(sum(m.damage for m in seq) for seq in (
            [s, *rest] for rest in _sequences(s, moves, char.combo_limit, s.combo_points or 0,
                                              {s.rank: 1 + s.extra_aces})))
        assert line.damage >= best, (cid, s.label)


def _hand_for(cid: str, line: ComboLine) -> tuple[list[Card], list[Action], Card] | None:
    """Cards for the line (distinct suits; Jokers for "any" pumps), its C10 actions, and the
    combat card; None when it needs more than an opening hand of seven."""
    free: dict[str, list[str]] = {r.code: [r.code + s for s in SUITS] for r in Rank}
    jokers = ["X1", "X2"]
    used_ranks = {s.rank for s in line.steps}
    spare = [r.code for r in Rank if r.code not in used_ranks]
    hand: list[Card] = []
    plan: list[Action] = []
    moves = _moves(line)
    start: Card | None = None
    i = 0
    steps = list(line.steps)
    while i < len(steps):
        s = steps[i]
        if s.role == "move":
            assert s.move is not None
            c = card(free[s.rank].pop(0))
            aces = []
            while i + 1 < len(steps) and steps[i + 1].role == "ace_cost":
                aces.append(card(free["A"].pop(0)))
                i += 1
            hand += [c, *aces]
            if start is None:
                start = c
            else:
                ms = sum(1 for o in character(cid).moves[s.move.rank] if o.type is s.move.type)
                plan.append(Combo(c, s.move.type, s.move.name if ms > 1 else None, tuple(aces)))
        else:
            if s.rank == "any":
                code = jokers.pop(0) if jokers else free[spare[0]].pop(0)
            else:
                code = free[s.rank].pop(0)
            c = card(code)
            hand.append(c)
            assert s.target is not None
            plan.append(Pump(s.target, (c,)))
        i += 1
    assert start is not None and moves
    if len(hand) > 7:
        return None
    while len(hand) < 7:
        hand.append(card(free[spare[-1]].pop(0)) if free[spare[-1]] else card(
            free[spare[-2]].pop(0)))
    return hand, plan, start


def _play(cid: str, line: ComboLine) -> tuple[int, int] | None:
    planned = _hand_for(cid, line)
    if planned is None:
        return None
    hand, plan, start = planned
    g = recorded_game(" ".join(c.code for c in hand), "2D 3D 4D 5D 6D 8D 9D", p1=cid)
    s = line.start
    name = s.name if sum(1 for o in character(cid).moves[s.rank] if o.type is s.type) > 1 \
        else None
    g.apply(P1, Commit(start, s.type, name))
    g.apply(P2, NoCard())
    while g.turn == 1 and g.outcome is None and g.step not in ("C13", "P1", "P2", "K1"):
        actor = g.actor
        assert isinstance(actor, PlayerId)
        opts = g.legal_actions(actor)
        if plan and plan[0] in opts:
            g.apply(actor, plan.pop(0))
        elif any(isinstance(o, Draw) for o in opts):  # card text's draws (Bleeding Wounds)
            g.apply(actor, next(o for o in opts if isinstance(o, Draw)))
        elif g.step == "C10" and actor is P1 and Stop() in opts:
            assert not plan, (cid, s.label, plan, opts)
            g.apply(actor, Stop())
        elif Pass() in opts:
            g.apply(actor, Pass())
        else:
            g.apply(actor, opts[0])
    assert not plan, (cid, s.label, plan)
    dealt = sum(e.amount for e in g.journal.of(DamageDealt) if e.target is P2 and e.turn == 1)
    # the opponent's extra cards once the combo is finished: it kept its 7; the combo's cards
    # left P1's hand, which a normal attack's C7 draw refilled by one
    drew = sum(1 for e in g.journal.of(Drew) if e.seat is P1 and e.step == "C7")
    return dealt, 7 - (7 - len(line.steps) + drew)


@pytest.mark.parametrize("cid", ALL)
def test_lines_deal_their_damage_in_a_game__CB_1_C12(cid: str) -> None:
    """Played in a game (P1 wins turn 1's combat against a no-card, then plays the line), each
    line that fits an opening hand deals exactly the damage the reference states."""
    played = 0
    for line in combos(cid):
        if line.start.requires is not None:
            continue
        result = _play(cid, line)
        if result is not None:
            played += 1
            dealt, difference = result
            assert dealt == damage_of(cid, line, hand_difference=difference), (
                cid, line.summary())
            if not difference:
                assert dealt == line.damage
    assert played >= len(combos(cid)) // 2


class _NothingFollows(CharacterRules):
    """A test-only ability: "nothing may follow your combat card" (a FOLLOW modifier)."""

    abilities_implemented = True

    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        def fn(ps: object, subject: object, v: RuleViolation | None) -> RuleViolation | None:
            return v or RuleViolation("CB-4", "test: nothing follows")
        return [Modifier(FOLLOW, seat, fn, "Nothing Follows")]


def test_abilities_that_change_combos_change_the_table__CB_4(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An implemented character's always-on modifiers are the rules the reference folds."""
    before = {ln.start: ln for ln in combos("gwen")}
    assert any(len(_moves(ln)) > 1 for ln in before.values())
    monkeypatch.setitem(chars.IMPLEMENTED, "gwen", _NothingFollows)
    for line in combos("gwen"):
        assert len(_moves(line)) == 1
        assert line.damage <= before[line.start].damage


def test_cli_json_shape_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["combos", "grave", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == [ln.to_json() for ln in combos("grave")]
    first = data[0]
    assert set(first) >= {"start", "cards", "damage"}
    assert set(first["start"]) == {"rank", "kind", "name"}
    assert RANK_BY_CODE[first["start"]["rank"]] and first["start"]["kind"] in ("attack", "throw")
    assert main(["combos", "grave"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Grave: life 90, combo limit 4")
    assert len(out.strip().splitlines()) == 1 + len(data)
    assert main(["combos", "nobody"]) == 2


def test_hand_difference_counts_moral_high_ground(capsys: pytest.CaptureFixture[str]) -> None:
    """DeGrey's Moral High Ground (the one game number the reference takes): each special or
    super attack of the line deals the opponent's extra cards once more; other characters'
    tables do not change."""
    plain = {ln.start: ln for ln in combos("degrey")}
    richer = {ln.start: ln for ln in combos("degrey", hand_difference=3)}
    for start, line in plain.items():
        specials = sum(1 for m in _moves(line) if m.type.value == "attack" and m.rank >= Rank.JACK)
        assert damage_of("degrey", line, hand_difference=3) == line.damage + 3 * specials
        assert richer[start].damage >= line.damage + 3 * specials
    assert combos("grave", hand_difference=3) == combos("grave")
    assert main(["combos", "degrey", "--hand-difference", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [ln.to_json() for ln in richer.values()]
