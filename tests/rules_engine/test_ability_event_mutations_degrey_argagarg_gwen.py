"""Issue 12: single-event mutations of the ability events of DeGrey, Argagarg and Gwen (their
card, cards and option fields, or the event dropped) are rejected by the verifier or change the
game (its result or the positions along the way), in self-play logs against several opponents."""

from __future__ import annotations

import pytest

from .ability_mutations import assert_mutations_change_the_game, logs_with

ABILITIES = {
    "degrey": ("Troublesome Rhetoric", "Point, Counterpoint"),
    "argagarg": ("Protective Ward", "Crash and Flow"),
    "gwen": ("Relentless Strikes",),
}
OPPONENTS = ("grave", "jaina", "degrey", "argagarg", "gwen")


@pytest.mark.parametrize(("cid", "ability"),
                         [(c, a) for c, names in ABILITIES.items() for a in names])
def test_mutated_ability_events_are_rejected_or_change_the_game(cid: str, ability: str) -> None:
    assert_mutations_change_the_game(logs_with(cid, ability, OPPONENTS), ability)
