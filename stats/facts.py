"""A verified game's facts, as the statistics keep them: the engine's verdict plus the timeline.

The verdict's ``facts`` (``rules_engine.game.Game.facts``) carry characters, turns, damage,
knockdowns, Jokers and combos. What it does not carry is read from the log's timeline
(``rules_engine.timeline``, the engine's public API, which replays the log through the same
state machine the verifier uses):

- *option mix*: each turn's combat card (GL-COMBAT-CARD) by what it was: attack, throw, block,
  dodge (a card's move, even when it was made void at lock-in), Joker (Gold Burst) or no-card
  (NC-1);
- *Aces spent*: every Ace played as a combat card (not void) or as a combo move, plus the extra
  Aces the game journalled as paid for a super's mandatory cost (``PlayerTurn.aces_paid``: C3,
  CB-9; read, never worked out from the card data);
- *largest deficit*: the most damage a player was behind at the end of a turn (their life lost
  minus the opponent's). Life lost, not life left, because characters start with different life.
  A winner's largest deficit is the deficit they *overcame*; a win from behind is a *comeback*.

Team matches (``facts.mode`` in the verdict): the two *sides* are each side's seat P1 / P2 as
at the end (the match result, for the players); the characters are credited separately
(:class:`CreditFacts`), per the game's structure:

- *Triple Threat*: each bout (``facts.bouts`` of the replay) is a one-on-one fight, credited to
  its two characters: the side the game recorded as knocked out (``defeated_sides``) loses it,
  both out is a draw, and a bout the match ended without a knockout (time-out, turn limit)
  takes the match's result (OQ-18 scores the sides).
  Its counters are the timeline's turns of that bout (damage taken by the opponent, its
  knockdowns, Jokers and bluffs, combat cards, Aces, combos, the deficit within the bout).
- *Tag Team* and *Dramatic Battle*: no one-on-one pairing; every character that played
  (``facts.seats``) is credited with the team's result and its own seat's counters, with no
  opponent character (``NO_OPPONENT``): these stay out of the matchup chart.

Nothing here touches the database: ``game_facts_extract`` is a pure function of a legal log and
its verdict, so the rebuild and the incremental task can never disagree about one game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules_engine.judge import judge

SEATS = ("P1", "P2")
NO_OPPONENT = ""  # a credit without a one-on-one opponent (Tag Team, Dramatic Battle)
TEAM_MODES = ("triple_threat", "tag_team", "dramatic_battle")


@dataclass
class SideFacts:
    """One seat's counters (the fields of ``stats.models.SideCounters``) and its largest deficit."""

    character: str
    counters: dict[str, int] = field(default_factory=dict)
    largest_deficit: int = 0


@dataclass(frozen=True)
class ComboFact:
    seat: int  # the side (1: P1's, 2: P2's)
    turn: int
    cards: list[str]
    damage: int
    character: str = ""  # who hit it ("" until known)
    opponent_character: str = ""  # whom (NO_OPPONENT in Tag Team, Dramatic Battle)


@dataclass
class CreditFacts:
    """One character's share of a team match, for the character statistics.

    Triple Threat: one per side and bout (``bout`` 1, 2, ...; ``member`` 0). Tag Team and
    Dramatic Battle: one per character that played (``bout`` 0; ``member`` 1, 2 in its side's
    seating order), against ``NO_OPPONENT``.
    """

    seat: int  # the side (1: P1's, 2: P2's)
    bout: int
    member: int
    character: str
    opponent_character: str
    result: str  # "win" | "loss" | "draw"
    counters: dict[str, int] = field(default_factory=dict)
    largest_deficit: int = 0


@dataclass
class GameFacts:
    turns: int
    how: str
    winner_seat: int | None
    sides: dict[int, SideFacts]
    combos: list[ComboFact]
    mode: str = "versus"  # the log's mode (``facts.mode``; a Versus verdict has none)
    # the characters' credits of a team match (empty in Versus: its two sides are the credits)
    credits: list[CreditFacts] = field(default_factory=list)


def _aces(card: str | None, move: str | None) -> int:
    """1 for an Ace played as a move (its own card; the extra Aces its cost took are the
    journal's, ``PlayerTurn.aces_paid``)."""
    return 1 if card and card.startswith("A") and move is not None else 0


def _player_counters(p: dict[str, Any], turns: int) -> dict[str, int]:
    """A seat's counters from the verdict's facts about it (the timeline's are added later)."""
    jokers = p.get("jokers") or {}
    counters = _blank(turns)
    counters.update({
        "damage_dealt": int(sum((p.get("damage_dealt") or {}).values())),
        "knockdowns": int(p.get("knockdowns_inflicted") or 0),
        "gold_bursts": int(jokers.get("gold_burst") or 0),
        "rewinds": int(jokers.get("rewind") or 0),
        "power_up_jokers": int(jokers.get("power_up_set") or 0),
        "pump_jokers": int(jokers.get("pump") or 0),
        "bluffs": int(p.get("bluffs") or 0),
    })
    return counters


def _blank(turns: int) -> dict[str, int]:
    return {
        "turns": turns, "damage_dealt": 0, "combos": 0, "combo_damage": 0, "knockdowns": 0,
        "gold_bursts": 0, "rewinds": 0, "power_up_jokers": 0, "pump_jokers": 0, "bluffs": 0,
        "option_attack": 0, "option_throw": 0, "option_block": 0, "option_dodge": 0,
        "option_joker": 0, "option_no_card": 0,
        "aces_spent": 0,
        "comebacks": 0,
        "deficit_overcome": 0,
    }


def _combat_card(counters: dict[str, int], pt: Any) -> None:
    """A seat's combat card of one turn: its option and the Aces it spent (the card, if an
    Ace, and the extra Aces the game journalled as paid this turn: a super's cost)."""
    counters["aces_spent"] += pt.aces_paid
    card = pt.combat_card
    if card is None:
        return
    if card.played == "gold_burst":
        counters["option_joker"] += 1
    elif card.played == "no_card":
        counters["option_no_card"] += 1
    elif card.move in ("attack", "throw", "block", "dodge"):
        counters[f"option_{card.move}"] += 1
    if card.played == "card":
        counters["aces_spent"] += _aces(card.card, card.move)


def _combo_aces(counters: dict[str, int], combo: Any) -> None:
    for move in combo.moves:
        if not move.combat_card:
            counters["aces_spent"] += _aces(move.card, move.move)


def _result(winner_seat: int | None, seat: int) -> str:
    if winner_seat is None:
        return "draw"
    return "win" if winner_seat == seat else "loss"


def _won_from_behind(credit: CreditFacts) -> None:
    if credit.result == "win":
        credit.counters["deficit_overcome"] = credit.largest_deficit
        credit.counters["comebacks"] = 1 if credit.largest_deficit > 0 else 0


def _bout_winner(bouts: list[dict[str, Any]], i: int, match_winner: int | None) -> int | None:
    """The side that won bout ``i`` (None: a draw), read from the sides the game recorded as
    knocked out (``defeated_sides``): the other side; both out, a draw; no knockout (the
    match ended by time-out or the turn limit), the match's result (OQ-18 scores the
    sides)."""
    defeated = list(bouts[i].get("defeated_sides") or [])
    if len(defeated) >= 2:
        return None
    if not defeated:
        return match_winner
    return 2 if defeated[0] == "P1" else 1


def _triple_threat_credits(
    bouts: list[dict[str, Any]], turns: list[Any], winner_seat: int | None,
) -> tuple[list[CreditFacts], dict[int, tuple[str, str]]]:
    """One credit per side and bout, with the bout's counters; and each turn's characters."""
    credits: dict[tuple[int, int], CreditFacts] = {}
    for i, bout in enumerate(bouts):
        number = int(bout["bout"])
        chars = [str(c) for c in bout.get("characters") or ["", ""]]
        winner = _bout_winner(bouts, i, winner_seat)
        for seat in (1, 2):
            credits[(number, seat)] = CreditFacts(
                seat=seat, bout=number, member=0, character=chars[seat - 1],
                opponent_character=chars[2 - seat], result=_result(winner, seat),
                counters=_blank(0),
            )
    lost: dict[tuple[int, int], int] = {key: 0 for key in credits}
    characters_at: dict[int, tuple[str, str]] = {}
    for turn in turns:
        if turn.bout is None or (turn.bout, 1) not in credits:
            continue
        characters_at[turn.turn] = (credits[(turn.bout, 1)].character,
                                    credits[(turn.bout, 2)].character)
        for seat in (1, 2):
            credit = credits[(turn.bout, seat)]
            c = credit.counters
            pt, other = turn.players[seat - 1], turn.players[2 - seat]
            c["turns"] += 1
            c["damage_dealt"] += int(other.damage_taken.get("total", 0))
            c["knockdowns"] += int(other.knockdowns_taken)
            c["gold_bursts"] += int(pt.jokers.get("gold_burst", 0))
            c["rewinds"] += int(pt.jokers.get("rewind", 0))
            c["power_up_jokers"] += int(pt.jokers.get("power_up_set", 0))
            c["pump_jokers"] += int(pt.jokers.get("pump", 0))
            c["bluffs"] += int(pt.jokers.get("bluff", 0))
            _combat_card(c, pt)
            lost[(turn.bout, seat)] += pt.life_lost
        if turn.combo is not None:
            seat = 1 if turn.combo.player.name == "P1" else 2
            credit = credits[(turn.bout, seat)]
            credit.counters["combos"] += 1
            credit.counters["combo_damage"] += int(turn.combo.damage or 0)
            _combo_aces(credit.counters, turn.combo)
        for seat in (1, 2):
            credit = credits[(turn.bout, seat)]
            deficit = lost[(turn.bout, seat)] - lost[(turn.bout, 3 - seat)]
            credit.largest_deficit = max(credit.largest_deficit, deficit)
    for credit in credits.values():
        _won_from_behind(credit)
    return list(credits.values()), characters_at


def _team_credits(
    facts: dict[str, Any], turns: list[Any], winner_seat: int | None, match_turns: int,
) -> dict[str, CreditFacts]:
    """Tag Team and Dramatic Battle: every character that played, credited with the team's
    result and its own seat's counters (no one-on-one opponent), by seat (P1, ... P4)."""
    seating = facts.get("seats") or {}
    players = facts.get("players") or {}
    chars = facts.get("characters") or {}
    credits: dict[str, CreditFacts] = {}
    for seat, side_name in enumerate(SEATS, start=1):
        for member, name in enumerate(seating.get(side_name) or [], start=1):
            p = players.get(name) or {}
            counters = _player_counters(p, match_turns)
            credits[name] = CreditFacts(
                seat=seat, bout=0, member=member,
                character=str(chars.get(name) or p.get("character") or ""),
                opponent_character=NO_OPPONENT, result=_result(winner_seat, seat),
                counters=counters,
            )
    for combo in facts.get("combos") or []:
        credit = credits.get(str(combo.get("player")))
        if credit is not None:
            credit.counters["combos"] += 1
            credit.counters["combo_damage"] += int(combo.get("damage") or 0)
    order = (*SEATS, "P3", "P4")
    lost = {1: 0, 2: 0}
    largest = {1: 0, 2: 0}
    for turn in turns:
        for index, pt in enumerate(turn.players):
            name = order[index] if index < len(order) else ""
            credit = credits.get(name)
            if credit is None:
                continue
            _combat_card(credit.counters, pt)
            lost[credit.seat] += pt.life_lost
        if turn.combo is not None:
            for move in turn.combo.moves:
                who = move.seat.name if move.seat is not None else turn.combo.player.name
                credit = credits.get(who)
                if credit is not None and not move.combat_card:
                    credit.counters["aces_spent"] += _aces(move.card, move.move)
        for seat in (1, 2):
            largest[seat] = max(largest[seat], lost[seat] - lost[3 - seat])
    for credit in credits.values():
        credit.largest_deficit = largest[credit.seat]  # the side's: life lost by its seats
        _won_from_behind(credit)
    return credits


def game_facts_extract(*, log_text: str, verdict: dict[str, Any]) -> GameFacts:
    """The facts of one legal game: the verdict's counters plus the timeline's.

    ``verdict`` is the stored ``Verdict.to_dict()`` of the same log (status ``legal``).
    """
    facts = verdict.get("facts") or {}
    final = verdict.get("final") or {}
    winner = final.get("winner")
    winner_seat = {"P1": 1, "P2": 2}.get(winner) if winner else None
    mode = str(facts.get("mode") or "versus")
    players = facts.get("players") or {}
    sides: dict[int, SideFacts] = {}
    for seat, name in enumerate(SEATS, start=1):
        p = players.get(name) or {}
        counters = _player_counters(p, int(facts.get("turns") or final.get("turns") or 0))
        sides[seat] = SideFacts(character=str(p.get("character") or ""), counters=counters)

    # one replay gives the turns and the game's own account of the bouts (a verdict stored
    # before ``defeated_sides`` was recorded has not got it; the replay has)
    judged = judge(log_text)
    turns = list(judged.turns)
    replayed = judged.verdict.facts or {}
    match_turns = int(final.get("turns") or facts.get("turns") or 0)
    credits: list[CreditFacts] = []
    characters_at: dict[int, tuple[str, str]] = {}
    by_name: dict[str, CreditFacts] = {}
    if mode == "triple_threat":
        credits, characters_at = _triple_threat_credits(
            list(replayed.get("bouts") or []), turns, winner_seat)
    elif mode in TEAM_MODES:
        by_name = _team_credits(facts, turns, winner_seat, match_turns)
        credits = list(by_name.values())
    side_of = {name: credit.seat for name, credit in by_name.items()}
    combos = []
    for combo in facts.get("combos") or []:
        player = str(combo.get("player") or "")
        seat = side_of.get(player) or (1 if player == "P1" else 2)
        damage = int(combo.get("damage") or 0)
        turn = int(combo.get("turn") or 0)
        sides[seat].counters["combos"] += 1
        sides[seat].counters["combo_damage"] += damage
        if mode == "triple_threat" and turn in characters_at:
            pair = characters_at[turn]
            character, opponent = pair[seat - 1], pair[2 - seat]
        elif player in by_name:
            character, opponent = by_name[player].character, NO_OPPONENT
        else:
            character, opponent = sides[seat].character, sides[3 - seat].character
        combos.append(ComboFact(seat=seat, turn=turn, cards=list(combo.get("cards") or []),
                                damage=damage, character=character,
                                opponent_character=opponent))

    lost = {1: 0, 2: 0}
    for turn in turns:
        for seat in (1, 2):
            side = sides[seat]
            pt = turn.players[seat - 1]
            lost[seat] += pt.life_lost
            _combat_card(side.counters, pt)
        if turn.combo is not None:
            name = turn.combo.player.name
            seat = side_of.get(name) or (1 if name == "P1" else 2)
            _combo_aces(sides[seat].counters, turn.combo)
        for seat in (1, 2):
            deficit = lost[seat] - lost[3 - seat]
            sides[seat].largest_deficit = max(sides[seat].largest_deficit, deficit)

    if winner_seat is not None:
        won = sides[winner_seat]
        won.counters["deficit_overcome"] = won.largest_deficit
        won.counters["comebacks"] = 1 if won.largest_deficit > 0 else 0
    return GameFacts(
        turns=match_turns,
        how=str(final.get("how") or ""),
        winner_seat=winner_seat,
        sides=sides,
        combos=combos,
        mode=mode,
        credits=credits,
    )
