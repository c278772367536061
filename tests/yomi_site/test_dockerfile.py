"""The Dockerfile and .dockerignore, checked against the project: there is no Docker engine on
the CI machine. What the image runs is what .ci/smoke.py runs without Docker (the same wheel,
built the same way, with the compiled engine made by the same command as `make compile`); these
tests hold the two together.
"""

from __future__ import annotations

import fnmatch
import re
import shlex
import subprocess
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from django.core.management import get_commands

REPO = Path(__file__).resolve().parents[2]


def stages() -> dict[str, list[tuple[str, str]]]:
    """The Dockerfile's stages by name: each a list of (instruction, arguments), continuation
    lines joined and comments dropped."""
    lines, current = [], ""
    for raw in (REPO / "Dockerfile").read_text().splitlines():
        if raw.lstrip().startswith("#"):
            continue
        current += raw.rstrip()
        if current.endswith("\\"):
            current = current[:-1] + " "
            continue
        if current.strip():
            lines.append(current.strip())
        current = ""
    found: dict[str, list[tuple[str, str]]] = {}
    name = ""
    for line in lines:
        instruction, _, arguments = line.partition(" ")
        if instruction.upper() == "FROM":
            name = arguments.split(" AS ")[-1].strip()
            found[name] = []
        elif name:
            found[name].append((instruction.upper(), " ".join(arguments.split())))
    return found


STAGES = stages()
BUILD, RUNTIME = STAGES["build"], STAGES["runtime"]


def runs(stage: list[tuple[str, str]]) -> str:
    return "\n".join(arguments for instruction, arguments in stage if instruction == "RUN")


def env(stage: list[tuple[str, str]]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for instruction, arguments in stage:
        if instruction == "ENV":
            pairs.update(word.split("=", 1) for word in shlex.split(arguments))
    return pairs


def test_two_stages_the_runtime_last() -> None:
    assert list(STAGES) == ["build", "runtime"]  # the last stage is the image


def test_the_compiler_and_mypy_are_in_the_build_stage_only() -> None:
    assert re.search(r"apt-get install .*\bgcc\b", runs(BUILD))
    assert "mypy" in runs(BUILD)
    runtime = runs(RUNTIME)
    for tool in ("gcc", "apt-get", "mypy", "build-essential"):
        assert tool not in runtime


def test_the_build_stage_compiles_the_engine_as_make_compile_does() -> None:
    makefile = (REPO / "Makefile").read_text()
    compile_target = re.search(r"^compile:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "-m rules_engine.tools.compile" in compile_target
    assert "python -m rules_engine.tools.compile" in runs(BUILD)
    # the default target of the tool is where the engine looks for its compiled build
    from rules_engine import build
    from rules_engine.tools import compile as tool

    assert tool.COMPILED == build.COMPILED == REPO / "rules_engine" / "_compiled"


def test_the_wheel_is_built_as_the_smoke_test_builds_it() -> None:
    assert "python -m build --outdir /dist ." in runs(BUILD)
    smoke = (REPO / ".ci" / "smoke.py").read_text()
    assert '[python, "-m", "build", "--outdir", str(dist), str(REPO)]' in smoke


def test_the_runtime_installs_the_wheel_and_no_source() -> None:
    copies = [arguments for instruction, arguments in RUNTIME if instruction in {"COPY", "ADD"}]
    assert copies == ["--from=build /dist /tmp/dist"]
    install = next(line for line in runs(RUNTIME).splitlines() if "pip install" in line)
    assert "/tmp/dist/*.whl" in install
    assert " -e " not in f" {install} " and "--editable" not in install


def test_the_runtime_collects_the_static_files_and_requires_the_compiled_engine() -> None:
    variables = env(RUNTIME)
    assert variables["DJANGO_SETTINGS_MODULE"] == "yomi_site.settings"
    assert variables["YOMI_ENGINE"] == "compiled"  # a stale or missing build stops the image
    assert variables["STATIC_ROOT"].startswith("/")
    assert "collectstatic" in get_commands()
    assert re.search(r"DEBUG=0 SECRET_KEY=\S+ django-admin collectstatic --noinput",
                     runs(RUNTIME))
    # and the settings read the variables the image sets (YOMI_ENGINE: the engine does)
    settings_text = (REPO / "yomi_site" / "settings.py").read_text()
    assert 'os.environ.get("STATIC_ROOT"' in settings_text
    assert '"YOMI_ENGINE"' in (REPO / "rules_engine" / "build.py").read_text()


def test_the_commands_the_image_and_compose_run_are_installed_scripts() -> None:
    scripts = {entry.name for entry in entry_points(group="console_scripts")}
    cmd = next(arguments for instruction, arguments in RUNTIME if instruction == "CMD")
    assert cmd.startswith('["daphne",')
    assert {"daphne", "celery", "django-admin"} <= scripts


def tracked(*patterns: str) -> list[str]:
    return subprocess.run(["git", "ls-files", *patterns], cwd=REPO, capture_output=True,
                          text=True, check=True).stdout.split()


def ignore_patterns() -> list[str]:
    return [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether .dockerignore keeps ``path`` out of the build context (its patterns here are
    plain names and globs, ``**/`` for any depth; a pattern naming a directory covers what is
    under it)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    for pattern in patterns:
        anywhere = pattern.removeprefix("**/")
        for prefix in prefixes:
            if fnmatch.fnmatch(prefix, pattern) or (
                    pattern.startswith("**/") and fnmatch.fnmatch(prefix.split("/")[-1],
                                                                  anywhere)):
                return True
    return False


def test_the_build_context_keeps_everything_the_wheel_is_made_of() -> None:
    patterns = ignore_patterns()
    packages = [p.parent.name for p in REPO.glob("*/__init__.py") if p.parent.name != "tests"]
    needed = tracked("setup.py", "pyproject.toml", "README.md", "templates", "static", *packages)
    assert len(needed) > 300
    left_out = [path for path in needed if ignored(path, patterns)]
    assert left_out == []


@pytest.mark.parametrize("path", [
    ".env", ".git/config", ".venv/bin/python", "rules_engine/_compiled/build.json",
    "rules_engine/game/__pycache__/core.cpython-311.pyc", "db.sqlite3", "staticfiles/x.css",
    ".secret_key", "rules_engine/game/core.cpython-311-x86_64-linux-gnu.so",
])
def test_the_build_context_leaves_out_secrets_local_data_and_local_builds(path: str) -> None:
    assert ignored(path, ignore_patterns())
