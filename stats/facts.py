"""A verified game's facts, as the statistics keep them: the engine's verdict plus the timeline.

The verdict's ``facts`` (``rules_engine.game.Game.facts``) carry characters, turns, damage,
knockdowns, Jokers and combos. What it does not carry is read from the log's timeline
(``rules_engine.timeline``, the engine's public API, which replays the log through the same
state machine the verifier uses):

- *option mix*: each turn's combat card (GL-COMBAT-CARD) by what it was: attack, throw, block,
  dodge (a card's move, even when it was made void at lock-in), Joker (Gold Burst) or no-card
  (NC-1);
- *Aces spent*: every Ace played as a combat card (not void) or as a combo move, plus the extra
  Aces a super's cost asks for (GL-MANDATORY: ``ace_cost`` counts the card itself);
- *largest deficit*: the most damage a player was behind at the end of a turn (their life lost
  minus the opponent's). Life lost, not life left, because characters start with different life.
  A winner's largest deficit is the deficit they *overcame*; a win from behind is a *comeback*.

Nothing here touches the database: ``game_facts_extract`` is a pure function of a legal log and
its verdict, so the rebuild and the incremental task can never disagree about one game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rules_engine.cards import Rank, characters
from rules_engine.timeline import timeline

SEATS = ("P1", "P2")


@dataclass
class SideFacts:
    """One seat's counters (the fields of ``stats.models.SideCounters``) and its largest deficit."""

    character: str
    counters: dict[str, int] = field(default_factory=dict)
    largest_deficit: int = 0


@dataclass(frozen=True)
class ComboFact:
    seat: int
    turn: int
    cards: list[str]
    damage: int


@dataclass
class GameFacts:
    turns: int
    how: str
    winner_seat: int | None
    sides: dict[int, SideFacts]
    combos: list[ComboFact]


@cache
def _extra_ace_cost(character_id: str, move_type: str, name: str | None) -> int:
    """Aces a super costs beyond its own card (0 for an ordinary Ace move)."""
    character = characters().get(character_id)
    if character is None:
        return 0
    for move in character.moves.get(Rank.ACE, ()):
        if move.type.value == move_type and (name is None or move.name == name):
            return max(0, move.ace_cost - 1)
    return 0


def _aces(character_id: str, card: str | None, move: str | None, name: str | None) -> int:
    if not card or not card.startswith("A") or move is None:
        return 0
    return 1 + _extra_ace_cost(character_id, move, name)


def game_facts_extract(*, log_text: str, verdict: dict[str, Any]) -> GameFacts:
    """The facts of one legal game: the verdict's counters plus the timeline's.

    ``verdict`` is the stored ``Verdict.to_dict()`` of the same log (status ``legal``).
    """
    facts = verdict.get("facts") or {}
    final = verdict.get("final") or {}
    winner = final.get("winner")
    winner_seat = {"P1": 1, "P2": 2}.get(winner) if winner else None
    players = facts.get("players") or {}
    sides: dict[int, SideFacts] = {}
    for seat, name in enumerate(SEATS, start=1):
        p = players.get(name) or {}
        jokers = p.get("jokers") or {}
        dealt = p.get("damage_dealt") or {}
        counters = {
            "turns": int(facts.get("turns") or final.get("turns") or 0),
            "damage_dealt": int(sum(dealt.values())),
            "combos": 0,
            "combo_damage": 0,
            "knockdowns": int(p.get("knockdowns_inflicted") or 0),
            "gold_bursts": int(jokers.get("gold_burst") or 0),
            "rewinds": int(jokers.get("rewind") or 0),
            "power_up_jokers": int(jokers.get("power_up_set") or 0),
            "pump_jokers": int(jokers.get("pump") or 0),
            "bluffs": int(p.get("bluffs") or 0),
            "option_attack": 0, "option_throw": 0, "option_block": 0, "option_dodge": 0,
            "option_joker": 0, "option_no_card": 0,
            "aces_spent": 0,
            "comebacks": 0,
            "deficit_overcome": 0,
        }
        sides[seat] = SideFacts(character=str(p.get("character") or ""), counters=counters)

    combos = []
    for combo in facts.get("combos") or []:
        seat = 1 if combo.get("player") == "P1" else 2
        damage = int(combo.get("damage") or 0)
        sides[seat].counters["combos"] += 1
        sides[seat].counters["combo_damage"] += damage
        combos.append(ComboFact(seat=seat, turn=int(combo.get("turn") or 0),
                                cards=list(combo.get("cards") or []), damage=damage))

    lost = {1: 0, 2: 0}
    for turn in timeline(log_text):
        for seat in (1, 2):
            side = sides[seat]
            pt = turn.players[seat - 1]
            lost[seat] += pt.life_lost
            card = pt.combat_card
            if card is not None:
                if card.played == "gold_burst":
                    side.counters["option_joker"] += 1
                elif card.played == "no_card":
                    side.counters["option_no_card"] += 1
                elif card.move in ("attack", "throw", "block", "dodge"):
                    side.counters[f"option_{card.move}"] += 1
                if card.played == "card":
                    side.counters["aces_spent"] += _aces(
                        side.character, card.card, card.move, card.name
                    )
        if turn.combo is not None:
            seat = 1 if turn.combo.player.name == "P1" else 2
            for move in turn.combo.moves:
                if not move.combat_card:
                    sides[seat].counters["aces_spent"] += _aces(
                        sides[seat].character, move.card, move.move, move.name
                    )
        for seat in (1, 2):
            deficit = lost[seat] - lost[3 - seat]
            sides[seat].largest_deficit = max(sides[seat].largest_deficit, deficit)

    if winner_seat is not None:
        won = sides[winner_seat]
        won.counters["deficit_overcome"] = won.largest_deficit
        won.counters["comebacks"] = 1 if won.largest_deficit > 0 else 0
    return GameFacts(
        turns=int(final.get("turns") or facts.get("turns") or 0),
        how=str(final.get("how") or ""),
        winner_seat=winner_seat,
        sides=sides,
        combos=combos,
    )

