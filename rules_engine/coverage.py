"""Rule coverage: every rule ID of RULES.md's game sections and the tests that cite it.

Glossary: a *rule ID* is a stable label from ``docs/rules/RULES.md`` (``AR-THR-1``,
``TV-CB-04``, ``C10``). The *game sections* are §0-§13: Versus, the team modes
(§11; a team mode's IDs are deferred until the engine plays it, see :func:`requirement`) and
Training (§12; a BOT-<character> rule, and TR-11's abilities, are deferred until the Training
bot plays them: :data:`rules_engine.training.bot.BOT_RULES_IMPLEMENTED`). A test *cites* an
ID by writing it in its docstring or body with hyphens (``AR-THR-1``; IDs inside string
data do not count) or at the end of its name after a double underscore, with underscores
(``def test_throw_beats_block__AR_THR_1_M_THROW_BLOCK``).

*In scope* / *deferred*: an ID is deferred while it needs something the engine does not
implement yet, a game mode (Tag Team, Dramatic Battle), a part of the Training bot or
another character's abilities; the committed table :data:`REQUIRES` (plus the
``FR-<CHARACTER>-n`` and ``BOT-`` prefixes) says what and why. A character requirement is
met once ``characters.abilities_implemented(id)`` is true, so a later issue implementing Rook
brings FR-ROOK-* and RW-13 into scope at once. Every other ID is in scope now.

*Covered*: an in-scope ID counts as covered only when at least one citing test *drives the
game*. The criterion is mechanical (:func:`game_driving_tests`): the test function calls one of
:data:`GAME_DRIVERS` (``Game(...)``, ``replay``, ``new_game_for``, ``play_game``,
``timeline``; ``Game.new``, ``play`` and ``play_match`` for the team modes), directly or through
the functions and fixtures it calls or takes as parameters that are defined in the tests
directory itself (its own module, ``helpers.py``,
``conftest.py``, ...), followed transitively. So ``recorded_game`` / ``won_combat`` (which
build a ``Game``) count, and a test that only calls a pure helper such as ``combat.resolve`` or a
chain rule on a list of cards does not: those IDs are *cited by helper tests only* and
``--strict`` fails on them as on uncited IDs.

Responsibility: extracting IDs from the rules text (``docs/rules/RULES.md``, or the committed
snapshot ``data/versus_rule_ids.json`` when the rules file is absent, as in an installed
package), matching them to tests and classifying them. Uncited and helper-only in-scope IDs are
the remaining work.
"""

from __future__ import annotations

import ast
import io
import json
import re
import textwrap
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rules_engine import characters as chars
from rules_engine.cards import characters as character_data

VERSUS_SECTIONS = {str(n) for n in range(14)}  # §11 (team modes) by mode; §12 Training
_ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*"
_LINE_ID = re.compile(rf"^(?:- \*\*({_ID})\*\*|\| ({_ID}) \|)")
_SECTION = re.compile(r"^## (\d+)\.")


def rule_ids_from_text(text: str) -> list[str]:
    """The rule IDs defined in the game sections of RULES.md, in document order."""
    ids: list[str] = []
    section = None
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        if line.startswith("## ") and not line.startswith("## Appendix"):
            section = None
        if line.startswith("## Appendix"):
            section = None
        if section not in VERSUS_SECTIONS:
            continue
        m = _LINE_ID.match(line)
        if m:
            rid = m.group(1) or m.group(2)
            if rid != "ID" and (any(ch.isdigit() for ch in rid) or "-" in rid) \
                    and rid not in ids:
                ids.append(rid)
    return ids


def snapshot_ids() -> list[str]:
    text = resources.files("rules_engine").joinpath("data/versus_rule_ids.json").read_text(
        "utf-8")
    ids: list[str] = json.loads(text)["ids"]
    return ids


def load_rule_ids(rules_path: Path | None) -> tuple[list[str], str]:
    """IDs from ``rules_path`` if it exists, else the shipped snapshot; and where they came from."""
    if rules_path is not None and rules_path.exists():
        return rule_ids_from_text(rules_path.read_text(encoding="utf-8")), str(rules_path)
    return snapshot_ids(), "snapshot rules_engine/data/versus_rule_ids.json"


def citations(test_dir: Path, ids: list[str]) -> dict[str, list[str]]:
    """Map each ID to the tests (``file::function``) citing it."""
    known = set(ids)
    by_underscore = {rid.replace("-", "_"): rid for rid in ids}
    longest_first = sorted(by_underscore, key=len, reverse=True)
    patterns = {rid: re.compile(rf"(?<![A-Za-z0-9-]){re.escape(rid)}(?![A-Za-z0-9-])")
                for rid in ids}
    out: dict[str, list[str]] = {rid: [] for rid in ids}
    for path in sorted(test_dir.glob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test"):
                continue
            label = f"{path.name}::{node.name}"
            found: set[str] = set()
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            segment = "\n".join(source.splitlines()[start - 1:node.end_lineno])
            prose = _prose(segment, ast.get_docstring(node) or "")
            found |= {rid for rid, pat in patterns.items() if pat.search(prose)}
            if "__" in node.name:
                tail = node.name.split("__", 1)[1]
                found |= _parse_tail(tail, longest_first, by_underscore)
            for rid in found & known:
                out[rid].append(label)
    return out


GAME_DRIVERS: frozenset[str] = frozenset({"Game", "replay", "new_game_for", "play_game",
                                          "timeline", "new", "for_log", "play",
                                          "play_match"})
"""Callables that play a game through the engine: constructing a ``Game`` (which every
``apply`` needs), replaying or explaining a log, or a self-play game."""


def game_driving_tests(test_dir: Path) -> frozenset[str]:
    """The tests (``file::function``) that drive the game: see the module docstring.

    Local functions are the module-level functions (fixtures included) of every ``*.py`` in
    ``test_dir``; a name is looked up in the test's own module first, then in the other
    non-test modules (``helpers.py``, ``conftest.py``, ``tester_character.py``). A call is
    ``name(...)`` or ``obj.name(...)``; a test's parameters count as calls of the fixtures of
    that name."""
    modules = {path.name: ast.parse(path.read_text(encoding="utf-8"))
               for path in sorted(test_dir.glob("*.py"))}
    common: dict[str, list[ast.FunctionDef]] = {}
    for name, tree in modules.items():
        if not name.startswith("test_"):
            for fn in _module_functions(tree):
                common.setdefault(fn.name, []).append(fn)
    driving: set[str] = set()
    for name, tree in modules.items():
        if not name.startswith("test_"):
            continue
        local: dict[str, list[ast.FunctionDef]] = {}
        for fn in _module_functions(tree):
            local.setdefault(fn.name, []).append(fn)
        reaches: dict[str, bool] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test") \
                    and _drives(node, local, common, reaches, set()):
                driving.add(f"{name}::{node.name}")
    return frozenset(driving)


def _module_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in tree.body if isinstance(n, ast.FunctionDef)]


def _called_names(fn: ast.FunctionDef) -> set[str]:
    names = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)
    return names


def _drives(fn: ast.FunctionDef, local: dict[str, list[ast.FunctionDef]],
            common: dict[str, list[ast.FunctionDef]], driving: dict[str, bool],
            visiting: set[str]) -> bool:
    """Whether ``fn`` reaches a game driver. Only positive answers are remembered in
    ``driving``: a negative one may have been cut short by a cycle (``visiting``)."""
    for name in sorted(_called_names(fn)):
        if name in GAME_DRIVERS or driving.get(name):
            return True
        if name in visiting:
            continue
        visiting.add(name)
        found = any(_drives(f, local, common, driving, visiting)
                    for f in local.get(name) or common.get(name, []))
        visiting.discard(name)
        if found:
            driving[name] = True
            return True
    return False


def _prose(segment: str, docstring: str) -> str:
    """A test's docstring and comments: where it says which rules it checks. Rule IDs inside
    string data (a list of IDs to look up, say) are not citations."""
    comments = [docstring]
    try:
        for tok in tokenize.generate_tokens(io.StringIO(textwrap.dedent(segment)).readline):
            if tok.type == tokenize.COMMENT:
                comments.append(tok.string)
    except (tokenize.TokenError, IndentationError):
        pass
    return "\n".join(comments)


def _parse_tail(tail: str, longest_first: list[str], by_underscore: dict[str, str]) -> set[str]:
    found: set[str] = set()
    pos = 0
    while pos < len(tail):
        for u in longest_first:
            end = pos + len(u)
            if tail.startswith(u, pos) and (end == len(tail) or tail[end] == "_"):
                found.add(by_underscore[u])
                pos = end + 1
                break
        else:
            nxt = tail.find("_", pos)
            if nxt < 0:
                break
            pos = nxt + 1
    return found


# ------------------------------------------------------------------ scope


SUPPORTED_MODES: frozenset[str] = frozenset({"versus", "triple_threat", "training",
                                             "tag_team", "dramatic_battle", "snapbacks",
                                             "tags", "assists"})
"""Game modes (and parts of a mode) the engine plays: Training with its Survival variant
(TR-14); Tag Team and Dramatic Battle with snapbacks, tags (the hard tag, the combat tags and
the Ace tag: rules_engine.tags) and assists (rules_engine.assists), each a part of its own
below."""

MODE_NAMES: dict[str, str] = {
    "versus": "Versus",
    "tag_team": "Tag Team",
    "triple_threat": "Triple Threat",
    "dramatic_battle": "Dramatic Battle",
    "training": "Training",
    "tags": "Tag Team's tags (TAG)",
    "assists": "Tag Team's assists (AS)",
    "snapbacks": "Tag Team's snapbacks (SB)",
}


@dataclass(frozen=True, slots=True)
class Requirement:
    """What the engine must implement before a rule can be tested: every mode in ``modes``
    (keys of :data:`MODE_NAMES`) and the abilities of every character in ``characters``
    (character ids). ``why`` says in a few words which part of the rule needs them."""

    modes: frozenset[str] = frozenset()
    characters: frozenset[str] = frozenset()
    why: str = ""
    bot_parts: frozenset[str] = frozenset()  # parts of the Training bot (BOT-GRAVE, TR-11)

    def unmet(self, implemented: Callable[[str], bool],
              modes: frozenset[str] = SUPPORTED_MODES) -> list[str]:
        """The missing pieces, in words ("Rook's abilities", "Tag Team"); empty when met."""
        missing = [f"{_character_name(cid)}'s abilities" for cid in sorted(self.characters)
                   if not implemented(cid)]
        missing += [MODE_NAMES[m] for m in sorted(self.modes) if m not in modes]
        missing += [f"the Training bot's {part}" for part in sorted(self.bot_parts)
                    if part not in bot_parts_implemented()]
        return missing

    def reason(self, implemented: Callable[[str], bool],
               modes: frozenset[str] = SUPPORTED_MODES) -> str:
        """The missing pieces and why, for people: ``needs Rook's abilities and Setsuki's
        abilities: Smoke Bomb counters Rock Armor``."""
        text = "needs " + " and ".join(self.unmet(implemented, modes))
        return f"{text}: {self.why}" if self.why else text


def bot_parts_implemented() -> frozenset[str]:
    """The parts of the Training bot played now: ``BOT-<CHARACTER>`` rules (§12.2), and TR-11
    once every character has one (TR-11 is played per character, by its ``BotRules``)."""
    from rules_engine.training.bot import BOT_RULES_IMPLEMENTED, bot_rule_id

    parts = {bot_rule_id(c) for c in BOT_RULES_IMPLEMENTED}
    if set(character_data()) <= BOT_RULES_IMPLEMENTED:
        parts.add("TR-11")
    return frozenset(parts)


def _character_name(cid: str) -> str:
    known = character_data()
    return known[cid].name if cid in known else cid


def _chars(*ids: str, why: str = "") -> Requirement:
    return Requirement(characters=frozenset(ids), why=why)


def _mode(*modes: str, why: str = "") -> Requirement:
    return Requirement(modes=frozenset(modes), why=why)


_TEAM = "tag_team"
_ROOK = "rook"
_SMOKE_BOMB = ("setsuki", "valerie", "midori")

REQUIRES: dict[str, Requirement] = {
    # Team modes (§11): tags and assists exist only there, and the engine plays both (GL-TEAM,
    # S-8, AB-14, INI-7, OQ-14 are in scope with the two modes; DP-8, KD-8, DB-7 and OQ-25 with
    # snapbacks; PU-8, SB-3 and SB-4 with the hard tag; P4, TG-11, OQ-21, OQ-22 and OQ-32 with
    # the tags; DP-3, DP-5, OQ-16, OQ-23 and OQ-28 with assists; OQ-15 and TAG-LIMIT-2, where
    # tags and assists meet, with both).
    # Other characters' abilities: the rule is about their card text.
    "M-DRAGON": _chars("midori", why="Dragon Form is the only undodgeable attack"),
    "RW-13": _chars(_ROOK, why="Rock Armor"),
    "RW-14": _chars("geiger", why="Time Stop"),
    "OQ-12": _chars(_ROOK, why="Rewind Time vs Rock Armor"),
    "AB-11": _chars(_ROOK, why="block cards with abilities: Stone Wall, Entangling Vines"),
    "CTR-5": _chars(*_SMOKE_BOMB, why="Smoke Bomb vs Valerie's and Midori's innates"),
    "FR-SETSUKI-1": _chars(*_SMOKE_BOMB, why="Smoke Bomb vs Valerie's and Midori's innates"),
    "FR-ROOK-5": _chars(_ROOK, "setsuki", why="Smoke Bomb counters Rock Armor"),
    # Training (§12): the generic bot passes in ability windows; each character's BotRules
    # plays TR-11 for its abilities
    "TR-11": Requirement(bot_parts=frozenset({"TR-11"}),
                         why="abilities played whenever they would have an effect"),
}
"""Versus rule IDs that need something the engine does not implement yet, beyond the FAQ
rulings ``FR-<CHARACTER>-n`` (which need that character's abilities, see :func:`requirement`).
Every other Versus ID is in scope now."""

_FAQ_RULING = re.compile(r"^FR-([A-Z]+)-\d+$")
# §11: each team mode's own IDs need that mode
_MODE_PREFIXES: tuple[tuple[str, str], ...] = (
    ("TT-", "triple_threat"), ("TG-", _TEAM), ("TAG-", "tags"), ("SB-", "snapbacks"),
    ("AS-", "assists"), ("DB-", "dramatic_battle"))


def requirement(rule_id: str) -> Requirement | None:
    """What ``rule_id`` needs besides the Versus rules and Grave's and Jaina's abilities:
    :data:`REQUIRES`, else a FAQ ruling's character from its prefix (``FR-ROOK-2`` -> rook)."""
    if rule_id in REQUIRES:
        return REQUIRES[rule_id]
    for prefix, mode in _MODE_PREFIXES:
        if rule_id.startswith(prefix):
            return _mode(mode, why=f"a {MODE_NAMES[mode]} rule (§11)")
    if rule_id.startswith("BOT-"):
        return Requirement(bot_parts=frozenset({rule_id}),
                           why="a character's change to the generic bot procedure (§12.2)")
    m = _FAQ_RULING.match(rule_id)
    if m:
        return _chars(m.group(1).lower(), why="a FAQ ruling on that character's card text")
    return None


@dataclass(frozen=True, slots=True)
class Coverage:
    """Rule IDs split four ways: in scope and covered (with the citing tests that drive the
    game), in scope and cited by helper tests only (with those tests), in scope and uncited (the
    remaining work), and deferred (with the reason)."""

    cited: dict[str, list[str]]
    uncited: list[str]
    deferred: dict[str, str]
    deferred_citations: dict[str, list[str]]
    helper_only: dict[str, list[str]]


def coverage(ids: list[str], cited: dict[str, list[str]],
             implemented: Callable[[str], bool] | None = None,
             modes: frozenset[str] = SUPPORTED_MODES,
             driving: frozenset[str] | None = None) -> Coverage:
    """Classify ``ids``: an ID is deferred while its :func:`requirement` is unmet, else in scope.
    ``implemented`` defaults to :func:`rules_engine.characters.abilities_implemented`, looked up
    at call time, so implementing a character brings its rules into scope. ``driving`` is the set
    of tests that drive the game (:func:`game_driving_tests`); an in-scope ID whose citing tests
    are all outside it is *helper-only*. ``None`` counts every citing test (the caller has
    already filtered)."""
    if implemented is None:
        implemented = chars.abilities_implemented
    in_cited: dict[str, list[str]] = {}
    uncited: list[str] = []
    deferred: dict[str, str] = {}
    deferred_cited: dict[str, list[str]] = {}
    helper_only: dict[str, list[str]] = {}
    for rid in ids:
        req = requirement(rid)
        tests = cited.get(rid, [])
        if req is not None and req.unmet(implemented, modes):
            deferred[rid] = req.reason(implemented, modes)
            deferred_cited[rid] = tests
            continue
        drivers = tests if driving is None else [t for t in tests if t in driving]
        if drivers:
            in_cited[rid] = drivers
        elif tests:
            helper_only[rid] = tests
        else:
            uncited.append(rid)
    return Coverage(in_cited, uncited, deferred, deferred_cited, helper_only)
