"""Whether C10 has a combo move (CB-11) is found without listing the moves or building the
violations of the ends rejected (``_combo_move_exists``, the follow table by
``follow_allowed``): it must give what the plain computation gives (a first element of
``_combo_moves``), wherever the engine asks it in many games (every character, Valerie's and
the tags' ``FOLLOW`` card text, Geiger's and others' ``MOVE`` and ``COMBO_MOVE``, the ruleset
options it reads, team modes), and
``follow_allowed`` must be ``follow_violation(...) is None`` for every pair of printed moves."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_engine import combat as cb
from rules_engine.cards import character, characters
from rules_engine.characters import IMPLEMENTED
from rules_engine.game.combo import ComboSteps
from rules_engine.modifiers import COMBO_MOVE, FOLLOW, MOVE
from rules_engine.ruleset import PumpTiming, Ruleset
from rules_engine.selfplay import play_game, play_match
from rules_engine.state import PlayerState
from rules_engine.team import Mode

IDS = sorted(characters())
STRICT = Ruleset(afterNormalAttackOnly=True, dodgeVsNoCardAttackOnly=True,
                 pumpTiming=PumpTiming.IMMEDIATE)


@pytest.mark.parametrize("ruleset", [Ruleset(), STRICT])
def test_follow_allowed_is_follow_violation_none__CB_4(ruleset: Ruleset) -> None:
    moves = {m for cid in IDS for ms in character(cid).moves.values() for m in ms
             if m.is_attack_or_throw}
    for prev in moves:
        for nxt in moves:
            assert cb.follow_allowed(prev, nxt, ruleset) is (
                cb.follow_violation(prev, nxt, ruleset) is None), (prev, nxt)


@pytest.mark.interpreted_only  # the shortcut is wrapped at run time
def test_combo_move_exists_is_the_plain_computation__CB_11(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Counter[tuple[bool, bool, bool]] = Counter()
    changed: Counter[bool] = Counter()  # card text changes the moves (MOVE, COMBO_MOVE)
    shortcut = ComboSteps._combo_move_exists

    def compared(game: ComboSteps, ps: PlayerState) -> bool:
        got = shortcut(game, ps)
        assert got is (next(iter(game._combo_moves(ps)), None) is not None)
        seen[got, game.combat.run.closed, game.modifiers.any_for(FOLLOW, ps.player)] += 1
        if any(game.modifiers.any_for(kind, ps.player) for kind in (MOVE, COMBO_MOVE)):
            changed[got] += 1
        return got

    monkeypatch.setattr(ComboSteps, "_combo_move_exists", compared)
    for n in range(80):
        p1 = "valerie" if n % 4 == 0 else IDS[n % len(IDS)]
        p2 = IDS[(n * 7 + 3) % len(IDS)]
        play_game(p1, p2, 700 + n, bot="greedy" if n % 2 else "random",
                  ruleset=STRICT if n % 3 == 0 else Ruleset())
    teams = sorted(IMPLEMENTED)
    for n in range(6):
        a, b = teams[n % len(teams)], teams[(n * 5 + 1) % len(teams)]
        c, d = teams[(n * 3 + 2) % len(teams)], teams[(n * 11 + 4) % len(teams)]
        play_match(Mode.TAG_TEAM, (a, b), (c, d), 50 + n, bot="greedy" if n % 2 else "random")
    assert seen[True, False, False] > 200 and seen[False, False, False] > 50
    assert seen[False, True, False] > 200  # a closed combo: no move
    assert seen[True, False, True] > 0 and seen[False, False, True] > 0  # FOLLOW card text
    assert changed[True] > 20 and changed[False] > 20
