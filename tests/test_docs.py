"""The docs name only what exists: files, modules, commands and make targets.

Every Markdown file a reader gets (README.md and docs/**/*.md) is read for what it names, by
explicit patterns only, so that prose is never mistaken for a reference:

- a relative link or image, ``[text](path)``: the file (or folder) must exist, relative to the
  doc;
- a path in backticks, such as `matches/services/submission.py`: a span with no spaces whose first
  segment is a top-level entry of the repository, or whose last segment ends in a source
  extension. It must exist from the repository's root or, for a partial path written inside a
  package's own section (`game/core.py`, `data/characters.json`), as the end of some
  path in the repository. A bare file name (`test_jaina.py`) must exist somewhere. A
  placeholder segment (``<id>``, ``*``, ``{x}``, ``...``) ends the path: what comes before it
  must exist. A path the repository's .gitignore ignores (``.venv/``, ``build/``) is made by a
  command and passes;
- a dotted name in backticks whose first part is one of the project's packages
  (`matches.engine.log_judge`): the longest prefix that is a module must exist, and the
  next part must be named in that module's source;
- in code (backticks or fenced blocks): ``make X`` (X a target of the Makefile),
  ``python -m X`` (a project module with a file to run, or a module the environment can
  import) and ``manage.py X`` (a Django management command of the installed apps).
"""

from __future__ import annotations

import importlib.util
import re
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Directories that are never part of the project's tree (tools' caches, the virtualenv).
SKIPPED_DIRS = {".git", ".venv", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis",
                "__pycache__", "node_modules", "build", "staticfiles"}

# Paths the docs may name that a command creates (the virtualenv, the compiled engine, the
# collected static files, the embedded database): whatever the repository's .gitignore ignores.
@cache
def ignored_patterns() -> tuple[str, ...]:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    return tuple(line.strip().strip("/") for line in lines
                 if line.strip() and not line.startswith(("#", "!")))


def generated(path: str) -> bool:
    """Whether ``path``, or a folder it is in, is ignored by git: made by a command. As in
    .gitignore, a pattern with no slash matches a name at any depth, one with a slash the path
    from the root."""
    segments = path.strip("/").split("/")
    for n in range(1, len(segments) + 1):
        prefix = "/".join(segments[:n])
        for pattern in ignored_patterns():
            if fnmatch(prefix if "/" in pattern else segments[n - 1], pattern):
                return True
    return False


# Docs that another branch of this session adds; named here so this branch's README may link
# them before the merge. Remove an entry once the file is on main.

PROJECT_PACKAGES = {"rules_engine", "matches", "tournaments", "stats", "rooms", "accounts",
                    "notifications", "simulations", "health", "yomi_site", "tests"}
SOURCE_EXTENSIONS = {".py", ".md", ".toml", ".json", ".yml", ".yaml", ".html", ".js", ".css",
                     ".yomilog", ".cfg", ".ini", ".txt", ".sh", ".png"}
# A bare file name is checked only for the project's own kinds of file: a bare ``chart.json``
# or ``game.json`` is usually a file a command writes or a page offers for download.
BARE_EXTENSIONS = {".py", ".md", ".toml", ".yomilog"}

FENCE = re.compile(r"^(```|~~~).*?^\1[^\S\n]*$", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
MAKE = re.compile(r"(?:^|[\s;&|(])make\s+([a-z][\w-]*)")
PYTHON_M = re.compile(r"(?:^|[\s/;&|(])python3?\s+-m\s+([A-Za-z_][\w.]*)")
MANAGE = re.compile(r"manage\.py\s+([a-z][\w]*)")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
PLACEHOLDER = re.compile(r"[<>*{}]|\.\.\.")


def docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@cache
def tree() -> tuple[frozenset[str], frozenset[str]]:
    """Every file and every folder of the project, as paths relative to the root."""
    files: set[str] = set()
    folders: set[str] = set()

    def walk(folder: Path) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                if entry.name in SKIPPED_DIRS:
                    continue
                folders.add(entry.relative_to(ROOT).as_posix())
                walk(entry)
            else:
                files.add(entry.relative_to(ROOT).as_posix())

    walk(ROOT)
    return frozenset(files), frozenset(folders)


@cache
def basenames() -> frozenset[str]:
    return frozenset(path.rsplit("/", 1)[-1] for path in tree()[0])


@cache
def make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([A-Za-z][\w-]*)\s*:(?!=)", text, re.MULTILINE))
    for phony in re.findall(r"^\.PHONY\s*:(.*)$", text, re.MULTILINE):
        targets.update(phony.split())
    return frozenset(targets)


@cache
def management_commands() -> frozenset[str]:
    from django.core.management import get_commands

    return frozenset(get_commands())


def _exists(path: str) -> bool:
    files, folders = tree()
    path = path.strip("/")
    if path in files or path in folders:
        return True
    if generated(path):
        return True
    # a partial path, written inside a package's own section
    return any(f.endswith("/" + path) for f in files | folders)


def _before_placeholder(path: str) -> str:
    kept = []
    for segment in path.split("/"):
        if PLACEHOLDER.search(segment):
            break
        kept.append(segment)
    return "/".join(kept)


def path_problem(doc: Path, span: str) -> str | None:
    """Why a path in backticks does not resolve (None: it does, or it is not a path)."""
    if span.startswith(("./", "../")):  # relative to the doc, as a link is
        fixed = _before_placeholder(span)
        return link_problem(doc, fixed) if fixed not in ("", ".", "..") else None
    if " " in span or span.startswith(("/", "$", "-", "http:", "https:", "~")) or "://" in span:
        return None
    span = span.split("#", 1)[0].split("::", 1)[0]
    files, folders = tree()
    top = {p for p in files | folders if "/" not in p} | {
        p for p in ignored_patterns() if "/" not in p and "*" not in p}
    if "/" not in span:
        if PLACEHOLDER.search(span) or Path(span).suffix not in BARE_EXTENSIONS:
            return None
        if not re.fullmatch(r"[\w.-]+", span):
            return None
        ok = span in basenames() or span in top or generated(span)
        return None if ok else f"no file named {span!r}"
    if not re.fullmatch(r"[\w./<>*{}-]+", span):
        return None
    segments = span.strip("/").split("/")
    if segments[0] not in top and Path(segments[-1]).suffix not in SOURCE_EXTENSIONS:
        return None  # a URL path or a pair of words such as TR-5/TR-6
    fixed = _before_placeholder(span)
    if not fixed:
        return None
    return None if _exists(fixed) else f"no such file or folder {fixed!r}"


def _module_file(parts: list[str]) -> Path | None:
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def dotted_problem(span: str) -> str | None:
    if not DOTTED.fullmatch(span):
        return None
    parts = span.split(".")
    if parts[0] not in PROJECT_PACKAGES:
        return None
    for n in range(len(parts), 0, -1):
        source = _module_file(parts[:n])
        if source is None:
            continue
        if n == len(parts):
            return None
        name = parts[n]
        sources = [source]
        if n == 1:  # Django's "app_label.Model" names a model of the app
            sources.append(ROOT / parts[0] / "models.py")
        if any(f.is_file() and re.search(rf"\b{re.escape(name)}\b", f.read_text(encoding="utf-8"))
               for f in sources):
            return None
        return f"{'.'.join(parts[:n])} has no {name!r}"
    return f"no module {parts[0]!r}"


def module_problem(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] in PROJECT_PACKAGES:
        base = ROOT.joinpath(*parts)
        if base.with_suffix(".py").is_file() or (base / "__main__.py").is_file():
            return None
        return f"python -m {module}: no such module to run"
    if importlib.util.find_spec(parts[0]) is None:
        return f"python -m {module}: not installed"
    return None


def code_problems(code: str) -> list[str]:
    problems = []
    for target in MAKE.findall(code):
        if target not in make_targets():
            problems.append(f"make {target}: no such target in the Makefile")
    for module in PYTHON_M.findall(code):
        problem = module_problem(module.rstrip("."))
        if problem:
            problems.append(problem)
    for command in MANAGE.findall(code):
        if command not in management_commands():
            problems.append(f"manage.py {command}: no such management command")
    return problems


def link_problem(doc: Path, target: str) -> str | None:
    if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
        return None  # a URL, an anchor or a site path
    path = target.split("#", 1)[0]
    if not path:
        return None
    resolved = (doc.parent / path).resolve()
    try:
        resolved.relative_to(ROOT)
    except ValueError:
        return f"link {target!r} leaves the repository"
    if resolved.exists():
        return None
    return f"link {target!r}: no such file"


def problems_in(doc: Path, text: str | None = None) -> list[str]:
    """What ``doc`` (or ``text``, read as if it were ``doc``) names that does not exist."""
    if text is None:
        text = doc.read_text(encoding="utf-8")
    problems: list[str] = []
    for block in FENCE.finditer(text):
        problems += code_problems(block.group(0))
    prose = FENCE.sub("", text)
    for span in INLINE.findall(prose):
        span = span.strip()
        problems += code_problems(span)
        for problem in (path_problem(doc, span), dotted_problem(span)):
            if problem:
                problems.append(f"`{span}`: {problem}")
    for target in LINK.findall(prose):
        problem = link_problem(doc, target)
        if problem:
            problems.append(problem)
    return problems


@pytest.mark.parametrize("doc", docs(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_doc_names_only_files_modules_commands_and_targets_that_exist(doc: Path) -> None:
    assert problems_in(doc) == []


# The checks themselves: each pattern finds what it should and leaves prose alone.

def test_a_missing_file_module_command_or_target_is_found() -> None:
    doc = ROOT / "docs" / "_probe.md"  # as if in docs/, for its relative links
    text = "\n".join([
        "See `matches/services/nothing_here.py`, `game/not_a_step.py`, `gone_test_file.py`,",
        "`../no_such_folder/x.md`,",
        "[a link](no-such-page.md), `matches.engine.no_such_function`,",
        "`rules_engine.no_such_module`, `make no-such-target` and",
        "```sh", "python -m rules_engine.no_such_tool", "python -m no_such_package_anywhere",
        ".venv/bin/python manage.py no_such_command", "```",
    ])
    found = problems_in(doc, text)
    assert len(found) == 11, found
    assert any("no_such_folder" in p for p in found)
    assert any("nothing_here.py" in p for p in found)
    assert any("not_a_step.py" in p for p in found)
    assert any("gone_test_file.py" in p for p in found)
    assert any("no-such-page.md" in p for p in found)
    assert any("no_such_function" in p for p in found)
    assert any("no_such_module" in p for p in found)
    assert any("make no-such-target" in p for p in found)
    assert any("rules_engine.no_such_tool" in p for p in found)
    assert any("no_such_package_anywhere" in p for p in found)
    assert any("manage.py no_such_command" in p for p in found)


def test_what_exists_and_what_is_not_a_reference_pass() -> None:
    doc = ROOT / "docs" / "_probe.md"
    text = "\n".join([
        "`matches/services/submission.py`, `game/core.py`, `data/characters.json`,",
        "`test_jaina.py`, `rules_engine/characters/<id>.py`, `tests/rules_engine/data/*.yomilog`,",
        "`docs/`, `.venv/bin/python`, `build/compiled`, [style](style.md), `../README.md`,",
        "`chart.json`, `./rules/characters/<id>.md`, `rules_engine/__pycache__/x.pyc`,",
        "[the code](../matches/tasks.py), `matches.engine.log_judge`, `rules_engine.__version__`,",
        "`TR-5/TR-6`, `ws/rooms/<id>/`, `/accounts/signup/`, `$.events[3].card`, `opt.*`,",
        "`Game.for_teams(mode, teams)`, `settings.MATCH_RESULT_LISTENERS`, make sure to make it,",
        "`make bench-verification`, `BENCH_VERIFY_LOGS=300 make bench-verification`,",
        "```sh", "python -m rules_engine bench", "python -m pytest -q",
        ".venv/bin/python manage.py seed_demo && .venv/bin/python manage.py migrate", "```",
    ])
    assert problems_in(doc, text) == []


def test_the_readmes_figures_are_performance_mds_with_their_commands() -> None:
    """README's figures table repeats docs/performance.md's current figures (one source: a
    figure changed there and not here fails) and names the command that measures each."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    performance = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    section = readme.split("## How fast it is", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines()
            if line.startswith("|") and not set(line) <= set("|- ") and "figure" not in line]
    assert rows, "README has no figures table under 'How fast it is'"
    for row in rows:
        figure, now, _target, command = (cell.strip() for cell in row.strip("|").split("|"))
        assert re.fullmatch(r"`[^`]+`", command), f"{figure}: no command"
        for number in re.findall(r"\d[\d,.]*(?:x|\s?ms)?(?:\u2013\d[\d,.]*x?)?", now):
            assert number in performance, f"{figure}: {number} is not in docs/performance.md"
