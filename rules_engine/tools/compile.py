"""An opt-in compiled copy of the engine, for measuring what compilation would give (issue 17):
``python -m rules_engine.tools.compile build/compiled`` (``make bench-compiled`` builds it and
runs ``python -m rules_engine bench`` inside it).

The engine stays pure Python: this copies ``rules_engine/`` into the target directory and
compiles most of its modules there with mypyc (part of mypy, a dev dependency; it needs a C
compiler and the Python headers), from the same source, never beside the sources (an extension
module there would shadow later edits of the ``.py`` file). Nothing in the project imports the
copy: a process uses it only when it runs from that directory (its working directory comes first
on ``sys.path``), and ``python -m rules_engine bench`` names the build it measured.

Some modules stay interpreted, each for the reason given in :data:`INTERPRETED`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1]

# Modules left interpreted (paths inside the package) and why.
INTERPRETED: dict[str, str] = {
    "actions.py": "a dataclass with a ClassVar default before fields fails to build at import",
    "cards.py": "frozen dataclasses set derived fields with object.__setattr__",
    "modifiers.py": "a Generic class with __slots__ fails at import",
    "combos.py": "the combo reference (a command, not the replay): its stand-in context names "
                 "one method under many class attributes, which mypyc makes instance "
                 "attributes (building one raised SystemError)",
    "journal.py": "Journal subclasses list (mypyc: inheriting from most builtins)",
    "strong_bot.py": "ints stored in float variables (mypyc keeps the two apart)",
    "lookahead_bot.py": "it subclasses StrongBot, which is left interpreted",
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
        if (path.name == "__init__.py" or relative.startswith("tools/")
                or relative in INTERPRETED):
            continue
        found.append(path)
    return found


def build(target: Path, opt_level: str = "1") -> int:
    """Copy the engine into ``target`` and compile it there; the number of modules compiled."""
    package = target / "rules_engine"
    if package.exists():
        shutil.rmtree(package)
    shutil.copytree(ENGINE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    # the rules and card data the engine's tools read beside the package (docs/rules)
    docs = target / "docs"
    if not docs.exists():
        docs.symlink_to(ENGINE.parent / "docs", target_is_directory=True)
    compiled = modules(package)
    # opt level 1 builds the ~75 modules in about 3 minutes on 2 cores; 3 takes longer
    env = {**os.environ, "MYPYC_OPT_LEVEL": opt_level}
    subprocess.run([sys.executable, "-m", "mypyc",
                    *(p.relative_to(target).as_posix() for p in compiled)],
                   cwd=target, env=env, check=True, stdout=subprocess.DEVNULL)
    return len(compiled)


def main(argv: list[str]) -> int:
    target = Path(argv[0] if argv else "build/compiled").resolve()
    target.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    count = build(target, os.environ.get("MYPYC_OPT_LEVEL", "1"))
    print(f"compiled {count} modules of the engine into {target} in "
          f"{time.monotonic() - started:.0f} s; run from there: cd {target} && "
          f"python -m rules_engine bench")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
