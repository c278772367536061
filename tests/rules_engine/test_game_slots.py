"""The game keeps its own state in slots (``GameCore.__slots__``): a game past CPython's 30
shared attribute names gets a dict of its own and slow method calls, so an attribute the core
sets outside the slots would undo that silently. Every game the engine plays (Versus and the
team modes, greedy and random bots) must end with nothing in its ``__dict__`` (the compiled copy,
``make test-compiled``, has no ``__dict__`` at all)."""

from __future__ import annotations

import pytest

from rules_engine.cards import character, characters
from rules_engine.game import Game
from rules_engine.selfplay import play_game, play_match
from rules_engine.team import Mode


def test_a_game_keeps_every_attribute_of_the_core_in_its_slots() -> None:
    ids = sorted(characters())
    for i in range(20):
        game, _ = play_game(ids[i], ids[(i * 7 + 3) % 20], 300 + i,
                            bot="greedy" if i % 2 else "random")
        assert getattr(game, "__dict__", {}) == {}, sorted(vars(game))


@pytest.mark.parametrize("mode", [Mode.TRIPLE_THREAT, Mode.TAG_TEAM, Mode.DRAMATIC_BATTLE])
def test_a_team_mode_game_keeps_every_attribute_of_the_core_in_its_slots(mode: Mode) -> None:
    sides = {Mode.TRIPLE_THREAT: (("grave", "jaina", "lum"), ("rook", "midori", "setsuki")),
             Mode.TAG_TEAM: (("gwen", "valerie"), ("troq", "quince")),
             Mode.DRAMATIC_BATTLE: (("persephone",), ("degrey", "argagarg"))}[mode]
    for seed in range(3):
        game, _ = play_match(mode, *sides, seed, bot="random")
        assert getattr(game, "__dict__", {}) == {}, sorted(vars(game))


@pytest.mark.interpreted_only  # a compiled class takes no attribute it does not declare
def test_an_attribute_outside_the_slots_still_goes_in_the_dict() -> None:
    # subclasses keep a __dict__ (the timeline's observing game adds attributes of its own)
    game = Game(character("grave"), character("jaina"), seed=1)
    game.note = 1  # type: ignore[attr-defined]
    assert vars(game) == {"note": 1}
