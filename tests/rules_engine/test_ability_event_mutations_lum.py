"""Issue 14: single-event mutations of Lum's ability events (Roll the Dice, its option, Jackpot,
Poker Flourish, Blackjack's deal/stop: the card, cards or option changed, or the event dropped)
are rejected by the verifier or change the game (its result or the positions along the way),
in self-play logs against several opponents. The ``reveal`` event exists in recorded logs only
(self-play is seeded); its mutations are tested in test_lum.py (GEN-6)."""

from __future__ import annotations

from typing import Any

import pytest

from .ability_mutations import assert_mutations_change_the_game, logs_with, variants

ABILITIES = (("lum", "Roll the Dice"), ("lum", "Jackpot"), ("lum", "Poker Flourish"),
             ("lum", "Blackjack"))
OPPONENTS = ("grave", "jaina", "midori", "gwen", "valerie", "vendetta")


def _with_option(cid: str, ability: str) -> list[tuple[dict[str, Any], int]]:
    """Logs whose event of ``ability`` names an option (Roll the Dice's choice, Blackjack's
    deal or stop) when there is one, else its first event."""
    out = []
    for doc, first in logs_with(cid, ability, OPPONENTS):
        events = doc["events"]
        i = next((j for j in range(first, len(events))
                  if events[j].get("ability") == ability and events[j].get("option")), first)
        out.append((doc, i))
    return out


@pytest.mark.parametrize(("cid", "ability"), ABILITIES)
def test_mutated_ability_events_are_rejected_or_change_the_game(cid: str, ability: str) -> None:
    assert_mutations_change_the_game(_with_option(cid, ability), ability, variants)
