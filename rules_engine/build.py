"""Which build of the engine a process runs: the Python source (the reference), or the copy of
the same source compiled by mypyc that ``make compile`` (:mod:`rules_engine.tools.compile`)
puts in ``rules_engine/_compiled/``.

The package's ``__init__`` asks :func:`select` before any other engine module is imported. The
compiled copy is used only when it was compiled from exactly the source beside it (the
``source_sha256`` it records is :func:`source_hash` of this package now) and its extension
loads in this interpreter; otherwise the engine runs interpreted, with the same behaviour
(``tests/rules_engine/builds_agree.py`` compares the two). ``YOMI_ENGINE`` chooses:

- ``auto`` (the default): the compiled copy when it is usable, else the source;
- ``interpreted``: always the source (``make test``, whose tests patch engine classes);
- ``compiled``: the compiled copy, or an ``ImportError`` saying why not (the production image
  sets it, so a stale or broken build stops the process instead of running slower unnoticed).

Using the copy means the package's ``__path__`` names the copy's directory, so every submodule
(compiled or one of the few left interpreted) is loaded from there. This module itself stays
loaded from the source.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import MutableSequence
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
COMPILED = PACKAGE / "_compiled"  # a directory (never a package) beside the source
STAMP = "build.json"  # in COMPILED: {"source_sha256", "library", "python"}
SOURCE_SUFFIXES = (".py", ".json")  # what the engine runs on: its code and its data
INTERPRETED, COMPILED_BUILD = "interpreted", "mypyc"
CHOICES = ("auto", INTERPRETED, "compiled")


@dataclass(frozen=True)
class Build:
    """The build this process runs: ``kind`` (``interpreted`` or ``mypyc``) and, when
    compiled, the hash of the source compiled (empty when interpreted: nothing to match)."""

    kind: str
    source_sha256: str

    @property
    def label(self) -> str:
        """A PEP 440 local version label for the engine version: ``""`` when interpreted,
        ``+mypyc.<first 8 hex digits of the source hash>`` when compiled."""
        return "" if self.kind == INTERPRETED else f"+mypyc.{self.source_sha256[:8]}"


def source_files(package: Path = PACKAGE) -> list[Path]:
    """The engine's code and data files under ``package``, in a fixed order (the compiled
    copy, caches and extension modules are not source)."""
    found = []
    for path in package.rglob("*"):
        relative = path.relative_to(package)
        if (path.suffix in SOURCE_SUFFIXES and path.is_file()
                # the compiled copy, and a build of it in progress (_compiled.building-*)
                and not relative.parts[0].startswith(COMPILED.name)
                and "__pycache__" not in relative.parts):
            found.append(path)
    return sorted(found, key=lambda p: p.relative_to(package).as_posix())


def source_hash(package: Path = PACKAGE) -> str:
    """SHA-256 over the engine's source files: each one's path inside the package and its
    bytes. The same on a checkout and on the installed wheel (the wheel carries them all)."""
    digest = hashlib.sha256()
    for path in source_files(package):
        name = path.relative_to(package).as_posix().encode()
        data = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)))
        digest.update(data)
    return digest.hexdigest()


def python_tag() -> str:
    """The interpreter an extension module must be built for (``cpython-311``...)."""
    return f"{sys.implementation.name}-{sys.version_info.major}{sys.version_info.minor}"


def compiled_problem(compiled: Path = COMPILED, package: Path = PACKAGE) -> str | None:
    """Why the compiled copy in ``compiled`` cannot run this source here; None when it can."""
    try:
        stamp = json.loads((compiled / STAMP).read_text("utf-8"))
    except FileNotFoundError:
        return f"there is no compiled engine in {compiled} (make compile builds it)"
    except (OSError, ValueError) as exc:
        return f"{compiled / STAMP} cannot be read: {exc}"
    if stamp.get("python") != python_tag():
        return f"the compiled engine is for {stamp.get('python')}, this is {python_tag()}"
    if stamp.get("source_sha256") != source_hash(package):
        return ("the compiled engine was built from another source than this one "
                "(make compile builds it again)")
    if not (compiled / "rules_engine" / "__init__.py").is_file():
        return f"{compiled} holds no copy of the engine"
    return None


def _load_library(compiled: Path, name: str) -> None:
    """Load the compiled modules' shared library under its top-level name, where each
    module's extension looks it up (``sys.modules``), without putting ``compiled`` on
    ``sys.path`` (where its copy of the package would be importable under the same name)."""
    if name in sys.modules:
        return
    paths = sorted(compiled.glob(f"{name}.*.so")) + sorted(compiled.glob(f"{name}.*.pyd"))
    spec = importlib.util.spec_from_file_location(name, paths[0]) if paths else None
    if spec is None or spec.loader is None:
        raise ImportError(f"the compiled engine's library {name} is missing from {compiled}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module


def select(path: MutableSequence[str], compiled: Path = COMPILED) -> Build:
    """Choose the build (``YOMI_ENGINE``, see the module's docstring) for the package whose
    ``__path__`` is ``path``; for the compiled one, point ``path`` at the copy."""
    wanted = os.environ.get("YOMI_ENGINE", "").strip().lower() or "auto"
    if wanted not in CHOICES:
        raise ImportError(f"YOMI_ENGINE={wanted!r}: expected one of {', '.join(CHOICES)}")
    if wanted == INTERPRETED:
        return Build(INTERPRETED, "")
    problem = compiled_problem(compiled)
    if problem is None:
        stamp = json.loads((compiled / STAMP).read_text("utf-8"))
        try:
            _load_library(compiled, str(stamp["library"]))
        except ImportError as exc:
            problem = f"the compiled engine does not load: {exc}"
        else:
            path[:] = [str(compiled / "rules_engine")]
            return Build(COMPILED_BUILD, str(stamp["source_sha256"]))
    if wanted == "compiled":
        raise ImportError(f"YOMI_ENGINE=compiled, but {problem}")
    return Build(INTERPRETED, "")
