"""Issue 13: single-event mutations of the decisions Rook, Troq and Onimaru bring (Rock Armor's
``ability`` event: dropped, turned into a pass, another card; War Stomp's ``ability`` event and
the opponent's ``discard`` it asks for: dropped, another card, another discarded card; Final
Authority's and Clockwork Formation's ``ability`` events: dropped, another card, other cards) are
rejected by the verifier or change the game (its result or the positions along the way), in
self-play logs against several opponents."""

from __future__ import annotations

import json

import pytest

from rules_engine.selfplay import play_game

from .ability_mutations import assert_mutations_change_the_game

OPPONENTS = ("grave", "jaina", "gwen", "argagarg", "troq", "rook", "onimaru")


def _stomp_logs(want: int = 4) -> list[tuple[dict, int]]:  # type: ignore[type-arg]
    """(log, index of a War Stomp event followed by the opponent's discard) from self-play."""
    found: list[tuple[dict, int]] = []  # type: ignore[type-arg]
    for seed in range(60):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = ("troq", opp) if seed % 2 else (opp, "troq")
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        events = doc["events"]
        for i, e in enumerate(events):
            if e.get("action") == "ability" and e.get("ability") == "War Stomp" and any(
                    x.get("action") == "discard" for x in events[i + 1:i + 4]):
                found.append((doc, i))
                break
        if len(found) >= want:
            break
    return found


def _variants(doc: dict, i: int) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    events = doc["events"]
    out = []
    dropped = json.loads(json.dumps(doc))
    del dropped["events"][i]
    out.append(("drop stomp", dropped))
    for other in ("9S", "KH", "X2"):
        altered = json.loads(json.dumps(doc))
        altered["events"][i]["card"] = other
        out.append((f"card {other}", altered))
    j = next(k for k in range(i + 1, i + 4) if events[k].get("action") == "discard")
    dropped = json.loads(json.dumps(doc))
    del dropped["events"][j]
    out.append(("drop discard", dropped))
    for other in ("2S", "QH", "X1"):
        if other != events[j]["cards"][0]:
            altered = json.loads(json.dumps(doc))
            altered["events"][j]["cards"] = [other]
            out.append((f"discard {other}", altered))
    return out


def test_mutated_war_stomp_events_are_rejected_or_change_the_game() -> None:
    logs = _stomp_logs()
    assert len(logs) >= 2, "self-play plays War Stomp with a discard"
    assert_mutations_change_the_game(logs, "War Stomp", _variants)


def _armor_logs(want: int = 4) -> list[tuple[dict, int]]:  # type: ignore[type-arg]
    """(log, index of a Rock Armor event) from self-play of Rook."""
    found: list[tuple[dict, int]] = []  # type: ignore[type-arg]
    for seed in range(300):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = ("rook", opp) if seed % 2 else (opp, "rook")
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        for i, e in enumerate(doc["events"]):
            if e.get("action") == "ability" and e.get("ability") == "Rock Armor":
                found.append((doc, i))
                break
        if len(found) >= want:
            break
    return found


def _armor_variants(doc: dict, i: int) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    out = []
    dropped = json.loads(json.dumps(doc))
    del dropped["events"][i]
    out.append(("drop", dropped))
    passed = json.loads(json.dumps(doc))
    passed["events"][i] = {"player": doc["events"][i]["player"], "action": "pass"}
    out.append(("pass", passed))
    for other in ("QS", "2H", "X1"):
        if other not in doc["events"][i]["cards"]:
            altered = json.loads(json.dumps(doc))
            altered["events"][i]["cards"][0] = other
            out.append((f"cards {other}", altered))
    return out


def test_mutated_rock_armor_events_are_rejected_or_change_the_game() -> None:
    """RW-13: the Rock Armor decision (its two cards, or a pass instead)."""
    logs = _armor_logs()
    assert len(logs) >= 2, "self-play plays Rock Armor"
    assert_mutations_change_the_game(logs, "Rock Armor", _armor_variants)


def _onimaru_logs(ability: str, want: int = 3) -> list[tuple[dict, int]]:  # type: ignore[type-arg]
    """(log, index of an event of Onimaru's ``ability``) from self-play."""
    found: list[tuple[dict, int]] = []  # type: ignore[type-arg]
    for seed in range(300):
        opp = OPPONENTS[seed % len(OPPONENTS)]
        p1, p2 = ("onimaru", opp) if seed % 2 else (opp, "onimaru")
        _, log = play_game(p1, p2, seed, bot="random" if seed % 3 else "greedy")
        doc = log.to_json()
        for i, e in enumerate(doc["events"]):
            if e.get("action") == "ability" and e.get("ability") == ability:
                found.append((doc, i))
                break
        if len(found) >= want:
            break
    return found


def _onimaru_variants(doc: dict, i: int) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    e = doc["events"][i]
    out = []
    dropped = json.loads(json.dumps(doc))
    del dropped["events"][i]
    out.append(("drop", dropped))
    if e.get("card"):
        for other in ("9S", "KH", "X2"):
            if other != e["card"]:
                altered = json.loads(json.dumps(doc))
                altered["events"][i]["card"] = other
                out.append((f"card {other}", altered))
    cards = e.get("cards") or []
    altered = json.loads(json.dumps(doc))
    altered["events"][i]["cards"] = cards[1:] if cards else ["AS"]
    out.append(("cards", altered))
    return out


@pytest.mark.parametrize("ability", ["Final Authority", "Clockwork Formation"])
def test_mutated_onimaru_events_are_rejected_or_change_the_game(ability: str) -> None:
    logs = _onimaru_logs(ability)
    assert len(logs) >= 2, f"self-play plays {ability}"
    assert_mutations_change_the_game(logs, ability, _onimaru_variants)
