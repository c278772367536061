"""Issue 30, part 1: the journal is the only record of what the game decided (a void with its
rule and reason, a knockdown a snapback replaced, the C6 resolution, where each turn ended, the
acting character of every event), and the timeline shows what it recorded. The full check is
``python -m tests.rules_engine.journal_agreement`` (1,000 seeded games per mode), the figure of
record; here 200 per mode (the tests marked slow) and a few (``make test``), and the records
themselves driven through seeded games."""

from __future__ import annotations

import pytest

from rules_engine.journal import (
    CombatResolved,
    Entered,
    Knockdown,
    KnockdownAvoided,
    TurnEnded,
    Voided,
    acting_characters,
    actor,
)
from rules_engine.judge import judge
from rules_engine.team import Mode
from rules_engine.types import PlayerId

from .journal_agreement import MODES, check, disagreements, seeded_game


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_the_timelines_knockdowns_snapbacks_and_voids_are_the_journals(mode: Mode) -> None:
    agree, found = check(mode, range(6))
    assert found == [] and agree == 6


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_200_seeded_games_per_mode_agree_with_the_journal(mode: Mode) -> None:
    """200 games a mode keep CI inside its time: each game is played once by the bots and its
    log replayed once (``judge``), nothing twice, so the cost is the games themselves (400 a
    mode took 20-85 s of a loaded CI's wall clock). ``python -m
    tests.rules_engine.journal_agreement 1000`` checks 1,000 per mode, the figure of record."""
    agree, found = check(mode, range(200))
    assert found == [] and agree == 200  # every game plays (no engine error) and agrees


def test_a_snapback_replaces_the_knockdown_and_the_combo_says_so() -> None:
    # SB-1 / SB-2: the knocking side discards a card; the target switches out, not knocked down
    for seed in range(60):
        game, log = seeded_game(Mode.TAG_TEAM, seed)
        snaps = [e for e in game.journal if type(e) is KnockdownAvoided and e.rule == "SB-2"]
        if not snaps:
            continue
        snap = snaps[0]
        assert snap.card is not None and snap.replaced_by is not None
        assert snap.replaced_by is not snap.seat
        # no knockdown of that seat at that combat: the snapback replaced it
        assert not any(type(e) is Knockdown and e.turn == snap.turn and e.combat
                       and e.seat is snap.seat for e in game.journal)
        turn = next(t for t in judge(log).turns if t.turn == snap.turn)
        if turn.combo is not None:
            shown = turn.to_dict()["combo"]
            assert shown["knockdown"] is False
            assert shown["snapback"] == {"rule_id": "SB-2", "out": snap.seat.name,
                                         "in": snap.replaced_by.name, "card": snap.card.code}
            assert "snapback (SB-2)" in turn.summary()
            return
    raise AssertionError("no snapback after a combo in these seeds")


@pytest.mark.parametrize("rule", ["KD-4", "AB-2"])
def test_a_void_is_recorded_with_its_rule_and_shown_as_recorded(rule: str) -> None:
    # KD-4: a knocked-down player's dodge; AB-2: Acrobatics (KD-5 and CF-08 are met by the
    # agreement check above and the golden logs)
    for seed in range(80):
        game, log = seeded_game(Mode.VERSUS, seed)
        v = next((e for e in game.journal if type(e) is Voided and e.rule == rule), None)
        if v is None:
            continue
        assert v.card is not None
        assert disagreements(game, log) == []
        turn = judge(log).turns[v.turn - 1].to_dict()
        card = turn["players"][v.seat.name]["combat_card"]
        assert card["card"] == v.card.code and card["played"] == "void"
        assert card["void"] == {"rule_id": v.rule, "reason": v.reason}
        explanation = turn["combat"]["explanation"]
        if rule == "AB-2":  # card text cancelled the combat: every combat card discarded
            assert "Acrobatics" in explanation
        else:
            assert f"{v.seat.name}'s" in explanation and f"({rule})" in explanation
            # the knockdown that voided it: the turn before (KD-6) or card text's this turn
            assert any(type(e) is Knockdown and e.seat is v.seat
                       and e.turn in (v.turn - 1, v.turn) for e in game.journal)
        return
    raise AssertionError(f"no {rule} void in these seeds")


def test_the_c6_resolution_is_recorded_and_explained() -> None:
    game, log = seeded_game(Mode.VERSUS, 4)
    resolved = [e for e in game.journal if type(e) is CombatResolved]
    turns = judge(log).turns
    assert len(resolved) >= len(turns) - 1
    for e in resolved:
        combat = turns[e.turn - 1].combat
        assert combat is not None and combat.cell == e.cell
        assert combat.winner is e.winner
        assert f"({e.cell})" in combat.explanation
        assert e.seats == (PlayerId.P1, PlayerId.P2)


def test_every_turn_that_ends_is_recorded_with_the_life_then() -> None:
    game, log = seeded_game(Mode.VERSUS, 2)
    ends = [e for e in game.journal if type(e) is TurnEnded]
    turns = judge(log).turns
    assert [e.turn for e in ends] == list(range(1, len(ends) + 1))
    assert len(ends) in (game.turn - 1, game.turn)  # the last turn may end the game mid-way
    for e in ends:
        assert turns[e.turn - 1].players[0].life == e.life[0]
        assert turns[e.turn - 1].players[1].life == e.life[1]


def test_the_acting_character_of_every_event_follows_the_bouts() -> None:
    # Triple Threat: a seat's character changes from bout to bout (TT-4); Entered says when
    game, _ = seeded_game(Mode.TRIPLE_THREAT, 3)
    assert len(game.bouts) >= 2
    acted: dict[PlayerId, set[str]] = {PlayerId.P1: set(), PlayerId.P2: set()}
    entered = [e for e in game.journal if type(e) is Entered]
    assert len(entered) > 2  # the first seating, then each character sent in
    for e, who in acting_characters(game.journal):
        seat = actor(e)
        if seat is None or e.turn < 1 or type(e) is Entered:
            continue
        assert who is not None
        # between two bouts (TT-4, OQ-17's fresh deal) the next bout's character acts
        bouts = [b for b in game.bouts if b.first_turn <= e.turn + 1
                 and (b.last_turn is None or e.turn <= b.last_turn)]
        assert who in {b.characters[seat] for b in bouts}, (e, who)
        acted[seat].add(who)
    assert max(len(names) for names in acted.values()) >= 2


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_the_combat_area_is_journalled_once_per_combat_and_the_timeline_shows_it(
        mode: Mode) -> None:
    """What the timeline shows of a combat (the cards, the combo and who played each move) is
    the game's ``CombatArea`` record, one per combat that reached C13 or a knockout that
    ended its bout; the timeline's replay is the verifier's own game, no subclass."""
    from rules_engine.game import Game
    from rules_engine.journal import CombatArea
    from rules_engine.timeline import replay_observed

    for seed in range(3):
        game, log = seeded_game(mode, seed)
        areas = [e for e in game.journal if type(e) is CombatArea]
        resolved = [e for e in game.journal if type(e) is CombatResolved]
        # every resolved combat has its area (the game may end before the last one's)
        assert len(resolved) - 1 <= len(areas)
        assert {e.turn for e in resolved} - {e.turn for e in areas} <= {game.turn}
        _, replayed, turns = replay_observed(log)
        assert type(replayed) is Game
        by_turn = {e.turn: e for e in areas}
        for t in turns:
            area = by_turn.get(t.turn)
            if area is None or t.combat is None:
                continue
            assert (t.combat.cell, t.combat.winner, t.combat.loser) == (
                area.cell, area.winner, area.loser)
            if t.combo is not None:
                assert [m.card for m in t.combo.moves] == [e.card.code for e in area.combo]
                assert t.combo.player is area.comboer


def test_each_tag_is_journalled_with_the_seats_it_switched() -> None:
    from rules_engine.actions import Tag
    from rules_engine.journal import Tagged

    tagged = 0
    for seed in range(6):
        game, log = seeded_game(Mode.TAG_TEAM, seed)
        records = [e for e in game.journal if type(e) is Tagged]
        events = [e for e in log.events if type(e.action) is Tag]
        assert len(records) == len(events)
        shown = [t for turn in judge(log).turns for t in turn.tags]
        for record, event, row in zip(records, events, shown, strict=True):
            assert record.seat is event.player and (event.action.tag or "hard") == record.tag
            assert record.partner is game.table.partner(record.seat)
            assert (row["out"], row["in"], row["tag"]) == (
                record.seat.name, record.partner.name, record.tag)
        tagged += len(records)
    assert tagged > 0


def test_a_combos_chain_reward_is_the_one_the_game_recorded__CH_4() -> None:
    """A chain of 3 (CH-3) earns 1 Ace (CH-4): the game records it with the combo, and the
    timeline shows the record (it no longer works the reward out)."""
    from rules_engine.journal import ComboEnded
    from rules_engine.selfplay import play_match

    game, log = play_match(Mode.DRAMATIC_BATTLE, ("rook",), ("valerie", "persephone"), 105,
                           bot="random")
    records = [e.record for e in game.journal if type(e) is ComboEnded]
    chained = [r for r in records if r.chain_reward]
    assert [(r.turn, r.chains, r.chain_reward) for r in chained] == [(10, [3], 1)]
    assert all(r.chain_reward == 0 for r in records if max(r.chains, default=0) < 3)
    combo = judge(log).turns[9].combo
    assert combo is not None and combo.player is chained[0].player
    assert (combo.chains, combo.chain_length, combo.chain_reward) == ((3,), 3, 1)
