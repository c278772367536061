"""Writes ``rules_engine/schema/match-log-v2.json`` from the version-1 schema.

Version 2 (docs/log-format.md §6) is version 1 with ``sides`` instead of ``players`` (each side:
its ``characters``, one to three, or a Survival run's bots, and optionally its ``players``),
any ``mode`` (Training and Survival included, with their options ``hardBot`` and
``botTieChoice``), a
``character`` on every event (who acts), the ``pick`` event and the team modes' ``snapback``,
``tag`` (the hard tag, the combat tags and the Ace tag), ``assist`` and ``swap`` events and
``opt.assists``, and the ``bot_tie`` event (Training, TR-8 under ``opt.botTieChoice=HUMAN``).
Deriving it keeps the two in
step: the ruleset options, cards and event shapes are written once, in version 1.

    python -m rules_engine.tools.build_schema_v2          # rewrite the file
    python -m rules_engine.tools.build_schema_v2 --check  # exit 1 if it is out of date
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
V1 = SCHEMA_DIR / "match-log-v1.json"
V2 = SCHEMA_DIR / "match-log-v2.json"


def build(v1: dict[str, Any]) -> dict[str, Any]:
    v2 = copy.deepcopy(v1)
    v2["$id"] = v1["$id"].replace("match-log-v1", "match-log-v2")
    v2["title"] = "Yomi match log, version 2 (any mode)"
    v2["description"] = ("One match of any mode: the mode, two sides with their characters "
                         "(and players), and events that each name the side's seat and the "
                         "character acting. See docs/log-format.md.")
    props = v2["properties"]
    props["version"] = {"const": 2}
    props["mode"] = {"enum": ["versus", "triple_threat", "tag_team", "dramatic_battle",
                              "training", "survival"]}
    options = props["ruleset"]["properties"]  # the options only a version-2 mode reads
    options["ttFreshBoutTurn1"] = {"type": "boolean"}  # OQ-17
    options["hardBot"] = {"enum": ["OFF", "ON"]}  # TR-7
    options["assists"] = {"enum": ["ON", "OFF"]}  # AS: play without assists (Tag Team, DB)
    options["botTieChoice"] = {"enum": ["DETERMINISTIC", "HUMAN"]}  # TR-8, OQ-26
    del props["players"]
    character = v1["$defs"]["player"]["properties"]["character"]
    v2["$defs"]["character"] = character
    del v2["$defs"]["player"]
    v2["$defs"]["side"] = {
        "type": "object", "required": ["characters"], "additionalProperties": False,
        "properties": {
            # one or three; a Survival run's bots: 1 to 20, in the order they come (TR-14)
            "characters": {"type": "array", "items": {"$ref": "#/$defs/character"},
                           "minItems": 1, "maxItems": 20, "uniqueItems": True},
            "players": {"type": "array", "items": {"type": "string"},
                        "minItems": 1, "maxItems": 3},
        },
    }
    props["sides"] = {"type": "object", "required": ["P1", "P2"], "additionalProperties": False,
                      "properties": {"P1": {"$ref": "#/$defs/side"},
                                     "P2": {"$ref": "#/$defs/side"}}}
    # a bench's seats (Tag Team: P3 side P1's second, P4 side P2's; Dramatic Battle: P3 the
    # pair's second), in events and in the result's life
    v2["$defs"]["seat"] = {"enum": ["P1", "P2", "P3", "P4"]}
    life = props["result"]["properties"]["life"]
    life["properties"] = {**life["properties"], "P3": {"type": "integer"},
                          "P4": {"type": "integer"}}
    v2["required"] = ["sides" if k == "players" else k for k in v1["required"]]
    event = v2["$defs"]["event"]
    event["properties"]["character"] = {"$ref": "#/$defs/character"}
    for branch in event["oneOf"]:
        branch["properties"]["character"] = True
    event["oneOf"].append({
        "properties": {"player": True, "character": True, "action": {"const": "pick"},
                       "incoming": {"$ref": "#/$defs/character"}},
        "required": ["incoming"], "additionalProperties": False})
    event["oneOf"].append({  # SB-1: Tag Team and Dramatic Battle
        "properties": {"player": True, "character": True, "action": {"const": "snapback"},
                       "card": {"$ref": "#/$defs/card"}},
        "required": ["card"], "additionalProperties": False})
    event["oneOf"].append({  # TAG-PU-2: a hard tag in Power Up
        "properties": {"player": True, "character": True, "action": {"const": "tag"}},
        "additionalProperties": False})
    tag = {"player": True, "character": True, "action": {"const": "tag"}}
    event["oneOf"].append({  # TAG-DODGE / TAG-CONT: the two cards paid
        "properties": {**tag, "tag": {"enum": ["dodge", "continue"]},
                       "card": {"$ref": "#/$defs/card"}, "partner_card": {"$ref": "#/$defs/card"}},
        "required": ["tag", "card", "partner_card"], "additionalProperties": False})
    event["oneOf"].append({  # TAG-SUPER: the partner's super, as a combo move
        "properties": {**tag, "tag": {"const": "super"}, "card": {"$ref": "#/$defs/card"},
                       "move": {"enum": ["attack", "throw"]}, "name": {"type": "string"},
                       "aces": {"$ref": "#/$defs/cards"}},
        "required": ["tag", "card", "move"], "additionalProperties": False})
    event["oneOf"].append({  # TAG-PU-1: the active's sets, the partner's Aces
        "properties": {**tag, "tag": {"const": "ace"}, "sets": {"$ref": "#/$defs/cards"},
                       "from_discard": {"$ref": "#/$defs/cards"},
                       "from_deck": {"$ref": "#/$defs/cards"}},
        "required": ["tag"], "additionalProperties": False})
    event["oneOf"].append({  # AS-2 / AS-4 / DP-3: a benched player's assist at C1
        "properties": {"player": True, "character": True, "action": {"const": "assist"},
                       "card": {"$ref": "#/$defs/card"}, "move": {"enum": ["attack", "throw"]},
                       "name": {"type": "string"}, "discard": {"$ref": "#/$defs/card"}},
        "required": ["card", "move", "discard"], "additionalProperties": False})
    event["oneOf"].append({  # AS-6 / DP-5: the team swaps its assist in
        "properties": {"player": True, "character": True, "action": {"const": "swap"}},
        "additionalProperties": False})
    # TR-8 (opt.botTieChoice=HUMAN): the human names the bot's next combo step among the
    # first steps of its tied combos: a combo move, a pump or stop, as those events are written
    # (without a player: the step is the bot's)
    steps = []
    for branch in v1["$defs"]["event"]["oneOf"]:
        action = branch["properties"]["action"]
        names = [action["const"]] if "const" in action else action.get("enum", [])
        for name in names:
            if name in ("combo", "pump", "stop"):
                step = copy.deepcopy(branch)
                step["properties"] = {k: v for k, v in step["properties"].items()
                                      if k != "player"}
                step["properties"]["action"] = {"const": name}
                step["additionalProperties"] = False
                step["required"] = ["action", *step.get("required", [])]
                steps.append(step)
    event["oneOf"].append({
        "properties": {"player": True, "character": True, "action": {"const": "bot_tie"},
                       "choice": {"type": "object", "oneOf": steps}},
        "required": ["choice"], "additionalProperties": False})
    return v2


def text(v1_path: Path = V1) -> str:
    return json.dumps(build(json.loads(v1_path.read_text("utf-8"))), indent=1) + "\n"


def main(argv: list[str]) -> int:
    wanted = text()
    if "--check" in argv:
        if not V2.exists() or V2.read_text("utf-8") != wanted:
            print(f"{V2} is out of date: run python -m rules_engine.tools.build_schema_v2",
                  file=sys.stderr)
            return 1
        return 0
    V2.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
