"""The seams every character module and mode plugs into: the table of seats, modifiers that
reach the opponent, the event journal and its reactions, the C6 override, and option listings
that never change the position.

The characters here are test-only rule sets registered on a stat-only character (Rook), the way
the ongoing-effects tests register theirs; their texts are made up to exercise one seam each.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rules_engine import characters as chars
from rules_engine import combat as cb
from rules_engine.abilities import AbilityContext
from rules_engine.actions import Action, Draw, Pass, UseAbility
from rules_engine.cards import Move, MoveType, Rank, card
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import Blocked, DamageDealt, Drew, Event, Hit, Knockdown, Thrown
from rules_engine.modifiers import SPEED, Expiry, Modifier, Modifiers
from rules_engine.state import PlayerState, Step, Zone
from rules_engine.table import Table
from rules_engine.types import Actor, PlayerId

from .helpers import P1, P2, PLAIN, commit, draw, fight, recorded_game

ROOK = "2C 4C 5C 8C 9D TD KD"  # Rook's cards; the 2C is the test abilities' card


# ---------------------------------------------------------------------------- the table


def test_versus_is_one_seat_per_side() -> None:
    t = Table.versus()
    assert t.seats == (P1, P2) and t.actives == (P1, P2)
    assert (t.opponent(P1), t.opponent(P2)) == (P2, P1)
    assert t.opponents(P1) == (P2,) and t.partner(P1) is None
    assert t.in_initiative_order(P2) == (P2, P1)
    assert t.next_in_priority(P2, P2) == P1 and t.next_in_priority(P1, P2) == P2


def test_a_table_of_two_seats_a_side_opposes_the_active_seats() -> None:
    # Tag Team's seats (TG-2): side A is P1 and its bench P3, side B P2 and its bench P4
    a1, a2, b1, b2 = PlayerId.P1, PlayerId.P3, PlayerId.P2, PlayerId.P4
    t = Table(((a1, a2), (b1, b2)))
    assert t.opponent(a2) == b1 and t.opponent(b2) == a1  # the other side's active seat
    assert t.opponents(a1) == (b1, b2) and t.partner(a1) == a2 and t.partner(b1) == b2
    assert t.in_initiative_order(b1) == (b1, a1, b2, a2)  # sides alternate


# ---------------------------------------------------------------------------- test characters


class SlowFieldRules(CharacterRules):
    """Slow Field (any 2, Draw Phase): the opponent's attacks are 3.0 slower this turn."""

    abilities_implemented = True

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "draw_phase":
            return []
        return [UseAbility("Slow Field", c) for c in dict.fromkeys(ps.hand)
                if c.rank is Rank.TWO]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return bool(self.window_options(ctx, ps, window))

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if action not in self.window_options(ctx, ps, window):
            raise RuleViolation("AB-2", "Slow Field is played with a 2 in the draw phase")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)
        ctx.add_modifier(Modifier(SPEED, ctx.opponent(ps).player, _slower_attacks,
                                  "Slow Field", Expiry.END_OF_TURN))
        return
        yield  # pragma: no cover


def _slower_attacks(ps: PlayerState, move: Move, speed: int) -> int:
    return speed + 30 if move.type is MoveType.ATTACK else speed


class GrudgeRules(CharacterRules):
    """Grudge (innate): whenever you are hit, draw a card."""

    abilities_implemented = True

    def __init__(self, character: Any) -> None:
        super().__init__(character)
        self.seen: list[Event] = []

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        self.seen.append(event)
        if isinstance(event, Hit) and event.seat is ps.player:
            yield from ctx.draw(ps, ctx.step)


class ArmorRules(CharacterRules):
    """Armor (innate): your attack beats an opposing attack of speed 5.0 or slower."""

    abilities_implemented = True

    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: cb.CombatResult) -> cb.CombatResult | None:
        opp = ctx.opponent(ps)
        if ps.kind == cb.ATTACK and opp.kind == cb.ATTACK and opp.combat_move is not None \
                and (opp.combat_move.speed or 0) >= 50 and result.winner != (a, b).index(ps):
            return cb.CombatResult((a, b).index(ps), False, "AB-ARMOR")
        return None


@pytest.fixture
def as_rook(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def register(rules: type[CharacterRules]) -> None:
        monkeypatch.setitem(chars.IMPLEMENTED, "rook", rules)

    yield register


def _to_turn_2_draw_phase(g: Any) -> None:
    """Turn 1: both no-card; turn 2's draw phase: each seat draws one card."""
    fight(g, commit(None), commit(None))
    draw(g, g.actor, "QC")
    draw(g, g.actor, "QD")


# ---------------------------------------------------------------------------- modifiers


def test_a_timed_modifier_changes_the_opponents_speed_until_the_turn_ends(as_rook: Any) -> None:
    # given Rook with Slow Field against Grave, in turn 2's draw phase
    as_rook(SlowFieldRules)
    g = recorded_game(ROOK, PLAIN, p1="rook")
    _to_turn_2_draw_phase(g)
    assert g.step == "T3" and g.actor is P1
    # when Rook plays Slow Field, then Grave's 4 attack (4.6) is 7.6 this turn
    g.apply(P1, UseAbility("Slow Field", card("2C")))
    assert card("2C") in g.state(P1).discard
    fight(g, commit("5C", "attack"), commit("4D", "attack"))
    # so Rook's 5.8 attack is the faster one and wins; without the field Grave's would
    assert g.combat.cell == "M-ATTACK-ATTACK" and g.combat.winner is P1
    grave_four = g.state(P2).combat_move
    assert grave_four is not None
    assert g.modifiers.fold(SPEED, g.state(P2), grave_four, 46) == 76
    assert g.modifiers.fold(SPEED, g.state(P1), grave_four, 46) == 46  # not Rook's own
    # and at cleanup (K3) the modifier ends
    g.expire_modifiers(Expiry.END_OF_TURN)
    assert g.modifiers.fold(SPEED, g.state(P2), grave_four, 46) == 46


def test_expiring_modifiers_keeps_the_lasting_ones_and_drops_each_timed_one_at_its_end() -> None:
    # given an always-on modifier, one to the end of the combat and one to the end of the turn
    # (expire skips its walk when no modifier in force is timed: the count must follow)
    mods = Modifiers()

    def slower(ps: Any, subject: Any, v: int) -> int:
        return v + 10

    lasting = Modifier(SPEED, P1, slower, "Innate")
    mods.add(lasting)
    mods.expire(Expiry.END_OF_TURN)  # nothing timed: nothing leaves
    assert len(mods) == 1
    mods.add(Modifier(SPEED, P2, slower, "This combat", Expiry.END_OF_COMBAT))
    mods.add(Modifier(SPEED, P2, slower, "This turn", Expiry.END_OF_TURN))
    # then each goes at its own end, the always-on one stays
    mods.expire(Expiry.END_OF_COMBAT)
    assert sorted(m.source for ms in mods._by_kind.values() for m in ms) == [
        "Innate", "This turn"]
    mods.expire(Expiry.END_OF_TURN)
    assert len(mods) == 1 and mods._expiring == 0
    # and removing a timed one by hand (a character leaving) is counted too
    mods.add(Modifier(SPEED, P2, slower, "This turn", Expiry.END_OF_TURN))
    mods.remove(lambda m: m.seat is P2)
    assert mods._expiring == 0
    mods.add(Modifier(SPEED, P2, slower, "This turn", Expiry.END_OF_TURN))
    mods.expire(Expiry.END_OF_TURN)
    assert len(mods) == 1


def test_the_same_commits_without_the_modifier_go_the_other_way(as_rook: Any) -> None:
    as_rook(CharacterRules)  # Rook's cards with no ability: only the modifier is missing
    g = recorded_game(ROOK, PLAIN, p1="rook")
    _to_turn_2_draw_phase(g)
    fight(g, commit("5C", "attack"), commit("4D", "attack"))
    assert g.combat.winner is P2


# ---------------------------------------------------------------------------- the journal


def test_a_reaction_to_being_hit_asks_its_decision_at_the_step_of_the_hit(as_rook: Any) -> None:
    # given Rook with Grudge, who declares no-card against Grave's 2 attack
    as_rook(GrudgeRules)
    g = recorded_game(ROOK, PLAIN, p1="rook")
    fight(g, commit(None), commit("2D", "attack"))
    # when the hit is journalled at C6, then Rook's reaction asks Rook to draw, right there
    hits = [e for e in g.journal if isinstance(e, Hit)]
    assert hits == [Hit(1, "C6", P1, P2)]
    assert g.step == "C6" and g.actor is P1
    assert all(isinstance(a, Draw) for a in g.legal_actions(P1))
    draw(g, P1, "AC")
    assert card("AC") in g.state(P1).hand
    assert Drew(1, "C6", P1) in g.journal
    rules = g.rules[P1]
    assert isinstance(rules, GrudgeRules) and Hit(1, "C6", P1, P2) in rules.seen


class HitOnlyGrudgeRules(GrudgeRules):
    """Grudge, declaring that it reads hits only (reacts_to)."""

    reacts_to = frozenset({Hit})

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        yield from super().on_event(ctx, ps, event)


class EverythingGrudgeRules(HitOnlyGrudgeRules):
    """Overrides on_event again without declaring what it reads: it gets every event."""

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        yield from super().on_event(ctx, ps, event)


@pytest.mark.parametrize(("rules", "only_hits"), [
    (GrudgeRules, False), (HitOnlyGrudgeRules, True), (EverythingGrudgeRules, False)])
def test_the_journal_is_delivered_by_the_event_types_the_reaction_declares(
        as_rook: Any, rules: type[GrudgeRules], only_hits: bool) -> None:
    # given Rook's reaction, declaring the hits as all it reads or declaring nothing
    as_rook(rules)
    g = recorded_game(ROOK, PLAIN, p1="rook")
    fight(g, commit(None), commit("2D", "attack"))
    draw(g, P1, "AC")  # the reaction to the hit
    rules_now = g.rules[P1]
    assert isinstance(rules_now, GrudgeRules)
    # then it was handed the hit only, or every event so far (the opening draws included)
    assert Hit(1, "C6", P1, P2) in rules_now.seen
    assert (rules_now.seen == [Hit(1, "C6", P1, P2)]) is only_hits
    assert any(isinstance(e, Drew) for e in rules_now.seen) is not only_hits


class StepWatcherRules(CharacterRules):
    """Overrides every step hook (STEP_HOOKS) to note when it is asked."""

    abilities_implemented = True

    def __init__(self, character: Any) -> None:
        super().__init__(character)
        self.asked: list[str] = []

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.asked.append("start_of_turn")

    def after_commits(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        self.asked.append("after_commits")
        yield from ()

    def after_reveal(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        self.asked.append("after_reveal")
        yield from ()

    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        self.asked.append("on_lock_in")
        yield from ()

    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        self.asked.append("after_winner")
        yield from ()

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        self.asked.append("end_of_combat")
        yield from ()

    def at_end_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        self.asked.append("at_end_of_turn")
        yield from ()


class LockInWatcherRules(StepWatcherRules):
    """A subclass overriding one hook again: still asked at every step."""

    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        self.asked.append("on_lock_in (again)")
        yield from ()


@pytest.mark.parametrize("rules", [StepWatcherRules, LockInWatcherRules])
def test_the_steps_ask_the_hooks_a_character_overrides_and_skip_the_others(
        as_rook: Any, rules: type[StepWatcherRules]) -> None:
    # given Rook with every step hook overridden, against Grave
    as_rook(rules)
    g = recorded_game(ROOK, PLAIN, p1="rook")
    assert chars.STEP_HOOKS == ("start_of_turn", "after_commits", "after_reveal",
                                "on_lock_in", "after_winner", "end_of_combat",
                                "at_end_of_turn")
    # then the game's index of hooked seats names Rook's seat for each hook, and Grave's for
    # the hooks Grave's rules override (T1's start, C6's after-winner), no other
    assert {hook: g._hooked[hook] for hook in chars.STEP_HOOKS} == {
        hook: {P1, P2} if hook in ("start_of_turn", "after_winner") else {P1}
        for hook in chars.STEP_HOOKS}
    # and one turn (both no-card) asks each of Rook's hooks at its step, in turn order
    fight(g, commit(None), commit(None))
    watcher = g.rules[P1]
    assert isinstance(watcher, StepWatcherRules)
    lock_in = "on_lock_in" if rules is StepWatcherRules else "on_lock_in (again)"
    assert watcher.asked == ["start_of_turn", "after_commits", "after_reveal", lock_in,
                             "after_winner", "end_of_combat", "at_end_of_turn",
                             "start_of_turn"]


def test_the_journal_records_throws_blocks_knockdowns_and_damage() -> None:
    # given Grave against Grave: P1 throws with the 7 (a knockdown) into P2's 5 block
    g = recorded_game("7C 2C 3C 4C 5C 6C 8C", PLAIN)
    fight(g, commit("7C", "throw"), commit("5D", "block"))
    while g.step in ("C9", "C10"):  # no Rewind, no combo: the throw alone
        g.apply(g.actor, g.legal_actions(g.actor)[-1] if g.actor is P1 else
                g.legal_actions(g.actor)[0])  # P1 stops; P2 passes
    events = g.journal
    assert Hit(1, "C6", P2, P1) in events and Thrown(1, "C6", P2, P1) in events
    assert DamageDealt(1, "C8", P2, P1, 7, "combat") in events
    assert Knockdown(1, "C13", P2, P1, combat=True) in events  # the combat's (C13a)
    assert g.totals(P1).knockdowns_inflicted == 1 and g.totals(P1).damage_dealt["combat"] == 7
    # and a block that beats an attack is journalled as a block
    g2 = recorded_game("5C 2C 3C 4C 6C 8C 9C", PLAIN)
    fight(g2, commit("5C", "block"), commit("4D", "attack"))
    draw(g2, P2, "QD")  # C7: a blocked normal attack draws
    draw(g2, P1, "QC")  # C8b: the block draw (AR-BLK-1)
    assert Blocked(1, "C8", P1, P2) in g2.journal
    # Grave's Knowing the Opponent reacts to the journalled block: reveal a card or pass
    assert g2.actor is P1 and UseAbility("Knowing the Opponent", card("QC")) in \
        g2.legal_actions(P1)
    g2.apply(P1, Pass())
    assert not [e for e in g2.journal if isinstance(e, DamageDealt)]  # a normal's block


# ---------------------------------------------------------------------------- C6 override


def test_the_c6_override_gives_the_win_to_the_armoured_attack(as_rook: Any) -> None:
    # given Rook with Armor: his 8 attack (8.8) against Grave's 6 attack (6.6)
    as_rook(ArmorRules)
    g = recorded_game(ROOK, PLAIN, p1="rook")
    fight(g, commit("8C", "attack"), commit("6D", "attack"))
    # then the override decides: Rook wins although he is slower
    assert g.combat.winner is P1 and g.combat.cell == "AB-ARMOR"
    assert g.state(P1).hit_this_combat and not g.state(P2).hit_this_combat


def test_without_the_override_the_faster_attack_wins(as_rook: Any) -> None:
    as_rook(CharacterRules)  # Rook's cards with no ability: only the override is missing
    g = recorded_game(ROOK, PLAIN, p1="rook")
    fight(g, commit("8C", "attack"), commit("6D", "attack"))
    assert g.combat.winner is P2 and g.combat.cell == "M-ATTACK-ATTACK"


# ---------------------------------------------------------------------------- option listings


@pytest.mark.parametrize("variant", range(8))
def test_listing_the_legal_choices_never_changes_the_position(variant: int) -> None:
    """Every decision of a few seeded games under every ruleset option: listing the choices
    (C3 re-choice, Power Up, combos, searches) leaves the position and every zone's order as
    they were."""
    from rules_engine.bots import make_bot
    from rules_engine.cards import character
    from rules_engine.game import Game

    from .test_selfplay_properties import PAIRS, _variants

    ruleset = _variants()[variant]
    for n in range(4):
        p1, p2 = PAIRS[(n * 53 + variant * 7) % 400]
        g = Game(character(p1), character(p2), ruleset=ruleset, seed=n)  # type: ignore[arg-type]
        bots = (make_bot("random", n), make_bot("greedy", n))
        while not g.is_over:
            before = g.fingerprint(), [list(ps.hand) for ps in g.players]
            for p in g.acting_players:
                g.legal_actions(p)
            assert (g.fingerprint(), [list(ps.hand) for ps in g.players]) == before
            actor = g.actor
            p = g.acting_players[0] if actor is Actor.SIMULTANEOUS else actor
            assert isinstance(p, PlayerId)
            g.apply(p, bots[p].choose(g, p, g.legal_actions(p)))
