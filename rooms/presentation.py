"""How the room shows the game: card faces, choices made on cards, the turn-by-turn log.

Nothing here decides a rule. Card faces are the engine's card data (``rules_engine.cards``);
the choices are the engine's legal actions, grouped so that a page can offer them on the cards
they name; the log is the engine's timeline (``rules_engine.timeline``) put in players' words.

Choices on cards: every offered action names the cards it is made with (``keys``, each
"zone:code": a card in the deciding seat's hand, discard pile, deck, a partner's hand, an
opponent's discard pile...). The page highlights those cards; the player selects some and is
offered the actions whose cards are exactly the selection. A group of actions that differ only
in their cards and would run past ``PICKER_OVER`` (Quince's Two Truths: up to 8,441; discarding
down to the hand limit: C(12, 5) = 792) is sent as one *picker* instead: the cards it may use
(``pool``), how many of each field, and the action without its cards (``template``). The page
fills the template with the selected cards and the engine checks the result like any choice
(``Game.apply``), so a picker never lists the combinations.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from rules_engine.actions import Action, Draw, UseAbility
from rules_engine.cards import Card, Character, Move, characters
from rules_engine.choices import describe
from rules_engine.errors import RulesError
from rules_engine.game import Game
from rules_engine.log import LogEvent, MatchLog, parse_log
from rules_engine.team import Mode, Team
from rules_engine.timeline import TurnSummary, timeline
from rules_engine.types import PlayerId

logger = logging.getLogger(__name__)

# A group of actions differing only in their cards becomes a picker past this many.
PICKER_OVER = 40
# The JSON fields of an action that hold several cards (each selectable on its own).
CARD_LIST_FIELDS = ("cards", "sets", "from_discard", "from_deck", "aces")
# Where the cards of a field are, when the field says (else they are looked for, own zones
# first: see _zone_of).
FIELD_ZONES = {"from_discard": "discard", "from_deck": "deck", "partner_card": "partner"}
ZONE_NAMES = {"hand": "your hand", "discard": "your discard pile", "deck": "your deck",
              "partner": "your partner's hand", "attached": "your cards in play",
              "face_up": "your face-up cards", "opponent-discard": "the opponent's discard pile",
              "opponent-hand": "the opponent's hand", "other": "other cards"}
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}


def card_short(code: str) -> str:
    """A card as the page prints it: "10\u2665", "A\u2660", "Joker"."""
    if code.startswith("X"):
        return "Joker"
    return RANK_NAMES.get(code[0], code[0]) + SUITS.get(code[1:], code[1:])


def cards_short(codes: Iterable[str]) -> str:
    return " ".join(card_short(c) for c in codes)


# ---------------------------------------------------------------------------- card faces


def _move_face(move: Move) -> dict[str, Any]:
    face: dict[str, Any] = {"type": move.type.value, "name": move.name}
    if move.speed is not None:
        face["speed"] = move.speed / 10
    if move.damage:
        face["damage"] = move.damage
    if move.block_damage:
        face["block_damage"] = move.block_damage
    if move.combo_points is not None:
        face["combo_points"] = move.combo_points
    if move.combo_type is not None and move.combo_type.value != "normal":
        face["combo_type"] = move.combo_type.value.replace("_", " ")
    if move.knockdown:
        face["knockdown"] = True
    if move.pump is not None:
        face["pump"] = f"+{move.pump.damage} per {move.pump.kind.value} card, up to " \
                       f"{move.pump.max_cards}"
    if move.ace_cost > 1:
        face["ace_cost"] = move.ace_cost
    return face


@cache
def character_card(cid: str) -> dict[str, Any] | None:
    """A character's card and the faces of its cards, by rank code (the engine's card data),
    for the page to draw each card: both ends with their stats, and the rank's ability."""
    ch: Character | None = characters().get(cid)
    if ch is None:
        return None
    abilities: dict[str, list[dict[str, str]]] = {}
    for a in ch.abilities:
        abilities.setdefault(a.rank.code, []).append(
            {"name": a.name, "timing": a.timing.replace("_", " "), "text": a.text})
    return {
        "id": ch.id, "name": ch.name, "life": ch.life, "combo_limit": ch.combo_limit,
        "innates": [{"name": i.name, "text": i.text} for i in ch.innates],
        "ranks": {rank.code: [_move_face(m) for m in moves] for rank, moves in ch.moves.items()},
        "abilities": abilities,
    }


# ---------------------------------------------------------------------------- choices


def _zones(game: Game, seat: PlayerId) -> list[tuple[str, list[Card]]]:
    """Where the deciding seat's choices can find cards, in the order they are looked for."""
    ps = game.state(seat)
    out: list[tuple[str, list[Card]]] = [
        ("hand", ps.hand), ("discard", ps.discard), ("attached", ps.attached),
        ("face_up", ps.face_up)]
    partner = game.partner(ps)
    if partner is not None:
        out.append(("partner", partner.hand))
    for other in game.opponents(ps):
        out.append(("opponent-discard", other.discard))
    out.append(("deck", ps.deck))
    for other in game.opponents(ps):
        out.append(("opponent-hand", other.hand))
    return out


def _zone_of(code: str, field: str, zones: list[tuple[str, list[Card]]]) -> str:
    if field in FIELD_ZONES:
        return FIELD_ZONES[field]
    for name, cards in zones:
        if any(c.code == code for c in cards):
            return name
    return "other"


def _card_fields(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """An action's cards by field, in the order the JSON lists them."""
    out: list[tuple[str, list[str]]] = []
    for key, value in data.items():
        if key in CARD_LIST_FIELDS and isinstance(value, list):
            out.append((key, value))
        elif key in ("card", "partner_card") and isinstance(value, str):
            out.append((key, [value]))
    return out


def _group_key(data: dict[str, Any]) -> str:
    """What an action is apart from its cards: actions with the same key differ only in them."""
    return json.dumps({k: v for k, v in data.items() if k not in CARD_LIST_FIELDS},
                      sort_keys=True)


def _picker_label(action: Action, label: str) -> str:
    if isinstance(action, UseAbility):
        return action.ability + (f" ({action.option})" if action.option else "")
    return re.split(r"[:(]| with | \d", label, maxsplit=1)[0].strip() or action.kind


def decision(game: Game, seat: PlayerId,
             legal: Sequence[Action]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The seat's choices as the page offers them: ``(choices, pickers)``.

    A choice: the engine's description of it (``rules_engine.choices.describe``: ``label``,
    ``action``, ``kind``, ``cards`` and where they apply ``option``, ``move_name``, ``speed``,
    ``damage``...) and ``keys`` (its cards, "zone:code", in the order the action names them;
    empty: a button of its own). A picker:
    ``label``, ``template`` (the action's JSON without its card fields), ``fields`` (each
    field's ``pool`` of keys, in the engine's order, and the ``min``/``max`` cards it takes),
    ``count`` (how many actions it stands for) and ``first`` (the first of them, as a choice).
    """
    zones = _zones(game, seat)
    groups: OrderedDict[str, list[tuple[Action, dict[str, Any]]]] = OrderedDict()
    for action in legal:
        data = action.to_json()
        groups.setdefault(_group_key(data), []).append((action, data))
    choices: list[dict[str, Any]] = []
    pickers: list[dict[str, Any]] = []
    for members in groups.values():
        lists = [f for f in CARD_LIST_FIELDS
                 if len(members) > PICKER_OVER and any(f in data for _, data in members)]
        if lists:
            pickers.append(_picker(game, seat, members, lists, zones))
            continue
        for action, data in members:
            if isinstance(action, Draw):  # a recorded draw: a card from the deck
                keys = [f"deck:{action.card.code}"]
            else:
                keys = [f"{_zone_of(code, field, zones)}:{code}"
                        for field, codes in _card_fields(data) for code in codes]
            choices.append({**describe(game, seat, action).to_json(), "keys": keys})
    return choices, pickers


def _picker(game: Game, seat: PlayerId, members: list[tuple[Action, dict[str, Any]]],
            lists: list[str], zones: list[tuple[str, list[Card]]]) -> dict[str, Any]:
    first_action, first = members[0]
    fields: dict[str, dict[str, Any]] = {}
    for field in lists:
        pool: dict[str, None] = {}
        sizes = []
        for _, data in members:
            codes = data.get(field, [])
            sizes.append(len(codes))
            for code in codes:
                pool[f"{_zone_of(code, field, zones)}:{code}"] = None
        fields[field] = {"pool": list(pool), "min": min(sizes), "max": max(sizes)}
    first_choice = describe(game, seat, first_action).to_json()
    return {
        "label": _picker_label(first_action, first_choice["label"]),
        "template": {k: v for k, v in first.items() if k not in CARD_LIST_FIELDS},
        "fields": fields,
        "count": len(members),
        "first": first_choice,
    }


def buttons_at(choices: list[dict[str, Any]], pickers: list[dict[str, Any]]) -> int:
    """How many controls the page shows for a decision before anything is selected: a button
    per choice made on no card, and each card that can be selected (once, however many
    choices name it). (After a card is selected, the choices made on exactly it are added:
    :func:`buttons_after_one`.)"""
    plain = sum(1 for c in choices if not c["keys"])
    keys = {k for c in choices for k in c["keys"]}
    for p in pickers:
        for f in p["fields"].values():
            keys.update(f["pool"])
    return plain + len(keys)


def buttons_after_one(choices: list[dict[str, Any]]) -> int:
    """The most choices offered on one selected card (its ends, its abilities)."""
    by_key: dict[str, int] = {}
    for c in choices:
        if len(c["keys"]) == 1:
            by_key[c["keys"][0]] = by_key.get(c["keys"][0], 0) + 1
    return max(by_key.values(), default=0)


# ---------------------------------------------------------------------------- the log

_log_cache: OrderedDict[tuple[Any, ...], list[dict[str, Any]]] = OrderedDict()
_log_lock = threading.Lock()
LOG_CACHE_SIZE = 256


def partial_log(game: Game, seed: int | None, picks: Sequence[str], mode: str,
                 acting: Sequence[str | None]) -> MatchLog:
    """The game so far as a log (no result): what the timeline reads."""
    if mode == Mode.VERSUS.value:
        return MatchLog(characters=(picks[0], picks[1]),
                        events=tuple(LogEvent(p, a) for p, a in game.history), seed=seed)
    sides = tuple(tuple(c for c in pick.split(",") if c) for pick in picks)
    return MatchLog(
        characters=(sides[0][0], sides[1][0]),
        events=tuple(LogEvent(p, a, c) for (p, a), c in zip(game.history, acting, strict=True)),
        seed=seed, mode=Mode(mode), sides=(Team.of(sides[0]).members, Team.of(sides[1]).members),
        version=2)


def turn_log(key: Any, game: Game, seed: int | None, picks: Sequence[str], mode: str,
             acting: Sequence[str | None], names: dict[str, str]) -> list[dict[str, Any]]:
    """The finished turns (all of them once the game is over), each as lines of text in
    players' words, from the engine's timeline. Worked out once per turn per room (a replay
    of the game so far), public: what every audience may know."""
    done = game.turn + 1 if game.is_over else game.turn
    cache_key = (key, seed, tuple(picks), mode, done)
    with _log_lock:
        if cache_key in _log_cache:
            _log_cache.move_to_end(cache_key)
            return _log_cache[cache_key]
    turns: list[TurnSummary] = []
    if mode == Mode.VERSUS.value or len(acting) == len(game.history):
        try:
            turns = [t for t in timeline(partial_log(game, seed, picks, mode, acting))
                     if t.turn < done]
        except (RulesError, ValueError, KeyError):
            # the page goes on without its log; the game itself is unaffected
            logger.exception("the room's log could not be worked out")
    out = [turn_lines(t.to_dict(), names) for t in turns]
    with _log_lock:
        _log_cache[cache_key] = out
        while len(_log_cache) > LOG_CACHE_SIZE:
            _log_cache.popitem(last=False)
    return out


_SEAT = re.compile(r"\bP[1-4]\b")


def _named(text: str, names: dict[str, str]) -> str:
    """The engine's seat names ("P1") replaced by the players' ("Ann (Grave)")."""
    return _SEAT.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def _played(card: dict[str, Any] | None) -> str:
    if card is None:
        return "nothing"
    if card["played"] == "no_card":
        return "no card"
    if card["played"] == "gold_burst":
        return f"{card_short(card['card'])} as a Gold Burst" if card.get("card") else "a Gold Burst"
    # a card whose move the timeline does not name (a void card has none) shows by itself
    move = (card.get("move") or "") + (f" \u201c{card['name']}\u201d" if card.get("name") else "")
    speed = f", speed {card['speed']}" if card.get("speed") is not None else ""
    void = ""
    if card["played"] == "void" and card.get("void"):
        void = f" \u2014 void ({card['void'].get('reason')}, {card['void'].get('rule_id')})"
    return f"{card_short(card['card'])} {move}".rstrip() + f"{speed}{void}"


def turn_lines(turn: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """One timeline turn (``TurnSummary.to_dict()``) as lines for people. Only what the table
    saw: the revealed cards, the combat and why, the combo, damage and life, how many cards
    each drew (never which), Power Up sets and where the Aces came from, tags."""
    seats = list(turn["players"])
    lines: list[dict[str, str]] = []
    reveal = "; ".join(f"{names.get(s, s)}: {_played(turn['players'][s]['combat_card'])}"
                       for s in seats if turn["players"][s]["combat_card"] is not None)
    if reveal:
        lines.append({"kind": "reveal", "text": f"Reveal \u2014 {reveal}"})
    if turn.get("combat"):
        lines.append({"kind": "combat", "text": _named(turn["combat"]["explanation"], names)})
    combo = turn.get("combo")
    if combo:
        moves = " \u203a ".join(
            f"{card_short(m['card'])} {m['move']}" + (f" \u201c{m['name']}\u201d"
                                                     if m.get("name") else "")
            + (f" +{len(m['pumps'])} pump" if m.get("pumps") else "")
            for m in combo["moves"])
        what = "hits back with" if combo["hit_back"] else "combos"
        tail = f" for {combo['damage']} damage" if combo.get("damage") is not None else ""
        extra = [f"{combo['combo_points']} combo points"]
        if combo.get("knockdown"):
            extra.append("knockdown")
        if combo.get("chain_reward"):
            extra.append(f"chain earns {combo['chain_reward']} Ace(s)")
        if combo.get("prevented"):
            extra.append(f"{combo['prevented']} prevented by Rewind Time")
        lines.append({"kind": "combo",
                      "text": f"{names.get(combo['player'], combo['player'])} {what} {moves}"
                              f"{tail} ({', '.join(extra)})"})
    for s in seats:
        p = turn["players"][s]
        fd = p.get("face_down")
        if fd and fd.get("revealed"):
            what = "Rewind Time" if fd["kind"] == "rewind" else "a bluff"
            lines.append({"kind": "rewind",
                          "text": f"{names.get(s, s)} reveals {card_short(fd['card'])}: {what}"})
        for used in p.get("abilities") or []:
            card = f" ({card_short(used['card'])})" if used.get("card") else ""
            option = f": {used['option']}" if used.get("option") else ""
            lines.append({"kind": "ability",
                          "text": f"{names.get(s, s)} plays {used['ability']}{card}{option}"})
    damage = [f"{names.get(s, s)} takes {turn['players'][s]['damage_taken']['total']}"
              for s in seats if turn["players"][s]["damage_taken"]["total"]]
    life = ", ".join(f"{names.get(s, s)} {turn['players'][s]['life']}" for s in seats)
    lines.append({"kind": "damage",
                  "text": (("Damage: " + "; ".join(damage) + ". ") if damage else "No damage. ")
                          + f"Life: {life}."})
    draws = ", ".join(f"{names.get(s, s)} {turn['players'][s]['draws']['count']}"
                      for s in seats if turn["players"][s]["draws"]["count"])
    if draws:
        lines.append({"kind": "draws", "text": f"Cards drawn: {draws}."})
    for s in seats:
        pu = turn["players"][s].get("power_up")
        if pu:
            took = len(pu["from_discard"]) + len(pu["from_deck"])
            parts = [f"discards {cards_short(pu['sets'])}"] if pu["sets"] else []
            if took:
                parts.append(f"takes {took} Ace(s)"
                             + (f" ({cards_short(pu['from_discard'])} from the discard pile)"
                                if pu["from_discard"] else "")
                             + (f", {len(pu['from_deck'])} from the deck"
                                if pu["from_deck"] else ""))
            lines.append({"kind": "power-up",
                          "text": f"Power Up: {names.get(s, s)} {' and '.join(parts)}"})
    for t in turn.get("tags", []):
        lines.append({"kind": "tag", "text": f"{names.get(t['out'], t['out'])} tags out for "
                                             f"{names.get(t['in'], t['in'])} ({t['tag']} tag)"})
    initiative = names.get(turn["initiative"], turn["initiative"])
    head = f"Turn {turn['turn']}"
    if turn.get("characters"):
        head += f" (bout {turn['bout']})"
    return {"turn": turn["turn"], "title": f"{head} \u00b7 initiative {initiative}",
            "lines": lines}


def log_turns(text: str) -> list[dict[str, Any]]:
    """A finished game's log (a room's or an uploaded one) as the room's log shows it: each
    turn's lines, the seats named by the log's players and characters. Empty when the
    timeline cannot read it (the replay viewer says why)."""
    try:
        log = parse_log(text)
        turns = timeline(log)
    except (RulesError, ValueError, KeyError):
        return []
    known = characters()
    names: dict[str, str] = {}
    for seat, name, cid in zip(("P1", "P2"), log.names, log.characters, strict=True):
        who = name or seat
        names[seat] = (f"{who} ({known[cid].name})" if log.mode is Mode.VERSUS and cid in known
                       else who)
    return [turn_lines(t.to_dict(), names) for t in turns]
