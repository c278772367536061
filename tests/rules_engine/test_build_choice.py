"""Which engine build a process runs (rules_engine/build.py): the compiled copy only when it was
compiled from exactly this source, for this interpreter; YOMI_ENGINE forces either build. The
compiled build itself is exercised by `make test-compiled`, `make check-compiled` and the smoke
test; here the choice is checked against copies of the source in a scratch directory."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import rules_engine
from rules_engine import build
from tests.rules_engine import builds_agree


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the engine's source files (its code and data) to hash and edit."""
    copy = tmp_path / "rules_engine"
    for path in build.source_files():
        target = copy / path.relative_to(build.PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return copy


def stamp(compiled: Path, **fields: str) -> None:
    compiled.mkdir(parents=True, exist_ok=True)
    (compiled / "rules_engine").mkdir(exist_ok=True)
    (compiled / "rules_engine" / "__init__.py").write_text("")
    (compiled / build.STAMP).write_text(json.dumps(fields))


def test_the_hash_covers_code_and_data_and_nothing_else(package: Path) -> None:
    before = build.source_hash(package)
    assert before == build.source_hash(build.PACKAGE)  # the copy is the source
    (package / "__pycache__").mkdir(exist_ok=True)
    (package / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"cache")
    (package / "_compiled" / "rules_engine").mkdir(parents=True)
    (package / "_compiled" / "rules_engine" / "replay.py").write_text("# an older copy\n")
    (package / "_compiled.building-1").mkdir()
    (package / "_compiled.building-1" / "log.py").write_text("# a build in progress\n")
    assert build.source_hash(package) == before
    replay = package / "replay.py"
    replay.write_text(replay.read_text() + "\n# an edit\n")
    edited = build.source_hash(package)
    assert edited != before
    data = next((package / "data").glob("*.json"))
    data.write_bytes(data.read_bytes() + b" ")
    assert build.source_hash(package) not in {before, edited}


def test_a_build_is_usable_only_for_this_source_and_this_python(
    package: Path, tmp_path: Path,
) -> None:
    compiled = tmp_path / "_compiled"
    assert "no compiled engine" in build.compiled_problem(compiled, package)
    stamp(compiled, source_sha256=build.source_hash(package), python="cpython-39",
          library="x__mypyc")
    assert "cpython-39" in build.compiled_problem(compiled, package)
    stamp(compiled, source_sha256="0" * 64, python=build.python_tag(), library="x__mypyc")
    assert "another source" in build.compiled_problem(compiled, package)
    stamp(compiled, source_sha256=build.source_hash(package), python=build.python_tag(),
          library="x__mypyc")
    assert build.compiled_problem(compiled, package) is None
    (package / "log.py").write_text((package / "log.py").read_text() + "# edited after\n")
    assert "another source" in build.compiled_problem(compiled, package)


def test_yomi_engine_chooses_and_a_stale_build_is_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiled = tmp_path / "_compiled"
    stamp(compiled, source_sha256="0" * 64, python=build.python_tag(), library="x__mypyc")
    path = ["/the/source"]
    for choice in ("", "auto", "interpreted", "INTERPRETED"):
        monkeypatch.setenv("YOMI_ENGINE", choice)
        assert build.select(path, compiled) == build.Build("interpreted", "")
        assert path == ["/the/source"]  # the package still loads its modules from the source
    monkeypatch.setenv("YOMI_ENGINE", "compiled")
    with pytest.raises(ImportError, match="YOMI_ENGINE=compiled, but the compiled engine was "
                                          "built from another source"):
        build.select(path, compiled)
    monkeypatch.setenv("YOMI_ENGINE", "fast")
    with pytest.raises(ImportError, match="expected one of auto, interpreted, compiled"):
        build.select(path, compiled)


def test_a_usable_stamp_whose_library_does_not_load_falls_back_or_refuses(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiled = tmp_path / "_compiled"
    monkeypatch.setattr(build, "source_hash", lambda package=build.PACKAGE: "1" * 64)
    stamp(compiled, source_sha256="1" * 64, python=build.python_tag(), library="gone__mypyc")
    path = ["/the/source"]
    monkeypatch.setenv("YOMI_ENGINE", "auto")
    assert build.select(path, compiled).kind == "interpreted" and path == ["/the/source"]
    monkeypatch.setenv("YOMI_ENGINE", "compiled")
    with pytest.raises(ImportError, match="gone__mypyc is missing"):
        build.select(path, compiled)


def test_the_version_label_names_the_build() -> None:
    assert build.Build("interpreted", "").label == ""
    assert build.Build("mypyc", "1a2b3c4d" + "0" * 56).label == "+mypyc.1a2b3c4d"
    # this test run: the interpreted engine (make test sets YOMI_ENGINE=interpreted)
    assert rules_engine.BUILD.kind in {"interpreted", "mypyc"}


def test_the_builds_comparison_names_the_first_log_and_part_that_differ(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    lines = [{"log": "golden.yomilog", "verdict": {"status": "legal"}, "timeline": [1]},
             {"log": "game 10", "verdict": {"status": "legal"}, "timeline": [1, 2]}]
    a.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    b.write_bytes(a.read_bytes())
    assert builds_agree.first_difference(a, b) is None
    lines[1]["timeline"] = [1, 3]
    b.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    assert builds_agree.first_difference(a, b) == "game 10: timeline differ"
    b.write_text(json.dumps(lines[0], sort_keys=True) + "\n")
    assert builds_agree.first_difference(a, b) == "2 lines against 1"
