"""The compiled build of the engine: ``python -m rules_engine.tools.compile [TARGET]``
(``make compile``; TARGET defaults to ``rules_engine/_compiled``, where the engine looks for it).

The engine's source stays pure Python and is the reference. This copies ``rules_engine/`` into
TARGET and compiles most of its modules there with mypyc (part of mypy, a dev dependency; it
needs a C compiler and the Python headers), from the same source, never beside the sources (an
extension module there would shadow later edits of the ``.py`` file). It then records the hash
of the source it compiled (:func:`rules_engine.build.source_hash`), the shared library's name
and the interpreter in ``TARGET/build.json``, written last: the engine uses the copy only when
that hash is its own source's (:mod:`rules_engine.build`). The build is made in a scratch
directory and moved into place, so a failed or interrupted build leaves no half-built copy.

Some modules stay interpreted (a ``.py`` in the copy), each for the reason in
:data:`INTERPRETED`. ``--if-stale`` does nothing when TARGET already holds the build of this
source.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from rules_engine.build import (
    COMPILED,
    PACKAGE,
    STAMP,
    compiled_problem,
    python_tag,
    source_hash,
)

# Modules left interpreted (paths inside the package) and why.
INTERPRETED: dict[str, str] = {
    "actions.py": "a dataclass with a ClassVar default before fields fails to build at import",
    "cards.py": "frozen dataclasses set derived fields with object.__setattr__",
    "modifiers.py": "a Generic class with __slots__ fails at import",
    "combos.py": "the combo reference (a command, not the replay): its stand-in context names "
                 "one method under many class attributes, which mypyc makes instance "
                 "attributes (building one raised SystemError)",
    "journal.py": "Journal subclasses list (mypyc: inheriting from most builtins)",
    "build.py": "it chooses the build: always loaded from the source, before the copy",
    "bench.py": "subclasses RuntimeError; and it is the bench, not the engine",
    "bench_bots.py": "a tool, not the engine",
    "bench_instructions.py": "a tool, not the engine",
    "cli.py": "a tool, not the engine",
    "coverage.py": "a tool, not the engine",
    "__main__.py": "the command line's entry point",
}


def modules(package: Path) -> list[Path]:
    """The modules of the copied package that mypyc compiles (every ``.py`` but the package
    ``__init__`` files, the tools and :data:`INTERPRETED`)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if (path.name == "__init__.py" or relative.startswith(("tools/", COMPILED.name))
                or relative in INTERPRETED):
            continue
        found.append(path)
    return found


def build(target: Path, opt_level: str = "1") -> int:
    """Compile the engine's source into ``target`` (replacing what is there); the number of
    modules compiled."""
    scratch = target.with_name(f"{target.name}.building-{os.getpid()}")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    try:
        package = scratch / "rules_engine"
        shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns(
            "__pycache__", "*.so", "*.pyd", COMPILED.name, f"{COMPILED.name}.*"))
        compiled = modules(package)
        # opt level 1 builds the ~75 modules in about 3 minutes on 2 cores; 3 takes longer
        env = {**os.environ, "MYPYC_OPT_LEVEL": opt_level}
        subprocess.run([sys.executable, "-m", "mypyc",
                        *(p.relative_to(scratch).as_posix() for p in compiled)],
                       cwd=scratch, env=env, check=True, stdout=subprocess.DEVNULL)
        libraries = sorted(p.name.split(".")[0] for p in scratch.glob("*__mypyc.*")
                           if p.suffix in {".so", ".pyd"})
        if len(libraries) != 1:
            raise RuntimeError(f"expected one shared library from mypyc, found {libraries}")
        for scrap in ("build", ".mypy_cache"):  # the C sources and objects, mypy's cache
            shutil.rmtree(scratch / scrap, ignore_errors=True)
        # the rules the engine's tools read beside the package (cli: docs/rules), in a checkout
        docs = PACKAGE.parent / "docs"
        if docs.is_dir():
            (scratch / "docs").symlink_to(os.path.relpath(docs, target), target_is_directory=True)
        stamp = {"source_sha256": source_hash(package), "library": libraries[0],
                 "python": python_tag(), "modules_compiled": len(compiled)}
        (scratch / STAMP).write_text(json.dumps(stamp, indent=1) + "\n", "utf-8")
        shutil.rmtree(target, ignore_errors=True)
        scratch.rename(target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return len(compiled)


def main(argv: list[str]) -> int:
    if_stale = "--if-stale" in argv
    args = [a for a in argv if a != "--if-stale"]
    target = Path(args[0]).resolve() if args else COMPILED
    if if_stale and compiled_problem(target) is None:
        print(f"the compiled engine in {target} is the build of this source: nothing to do")
        return 0
    started = time.monotonic()
    count = build(target, os.environ.get("MYPYC_OPT_LEVEL", "1"))
    print(f"compiled {count} modules of the engine into {target} in "
          f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
