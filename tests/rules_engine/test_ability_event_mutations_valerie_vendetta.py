"""Issue 13: single-event mutations of Valerie's and Vendetta's ability events (Bold Strokes,
Burst of Speed, Acrobatics: their card and cards fields changed, or the event dropped) are
rejected by the verifier or change the game (its result or the positions along the way), in
self-play logs against several opponents."""

from __future__ import annotations

import pytest

from .ability_mutations import assert_mutations_change_the_game, logs_with

ABILITIES = (("valerie", "Bold Strokes"), ("valerie", "Burst of Speed"),
             ("vendetta", "Acrobatics"))
OPPONENTS = ("grave", "jaina", "midori", "gwen", "valerie", "vendetta")


@pytest.mark.parametrize(("cid", "ability"), ABILITIES)
def test_mutated_ability_events_are_rejected_or_change_the_game(cid: str, ability: str) -> None:
    assert_mutations_change_the_game(logs_with(cid, ability, OPPONENTS), ability)
