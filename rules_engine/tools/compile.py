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
source. The environment may set ``MYPYC_OPT_LEVEL`` (gcc's ``-O``, default 1),
``MYPYC_DEBUG_LEVEL`` (``-g``, default 0) and ``COMPILE_JOBS`` (gcc processes at a time).
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


# The build script run in the scratch directory (``python setup_mypyc.py build_ext --inplace``):
# mypyc's own command line (``python -m mypyc``) writes one like it, but chooses neither
# multi-file mode nor the number of gcc processes. Without multi-file mode mypyc writes one
# 87 MB C file, which one gcc compiled alone in 372 s of CPU (1.6 GB of memory) at -O1 -g1, of
# a 399 s build (mypy and mypyc themselves: about 20 s); in multi-file mode (a C file a module
# and mypyc's runtime in its own files, all still linked into the one shared library) at -g0,
# gcc takes 138 s in all and the build 159 s, the engine running the same instructions
# (``bench-instructions``). The files are compiled ``jobs`` at a time, the largest first.
SETUP_SCRIPT = """\
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from setuptools import setup

from distutils import ccompiler  # setuptools' copy, once setuptools is imported
from mypyc.build import mypycify

config = json.loads(sys.argv.pop(1))


def compile_in_parallel(self, sources, output_dir=None, macros=None, include_dirs=None,
                        debug=0, extra_preargs=None, extra_postargs=None, depends=None):
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs)
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)
    todo = sorted((obj for obj in objects if obj in build),
                  key=lambda obj: -os.path.getsize(build[obj][0]))

    def one(obj):
        source, extension = build[obj]
        self._compile(obj, source, extension, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(max(1, config["jobs"])) as pool:
        list(pool.map(one, todo))
    return objects


ccompiler.CCompiler.compile = compile_in_parallel
setup(name="rules_engine_compiled", ext_modules=mypycify(
    config["modules"], opt_level=config["opt_level"], debug_level=config["debug_level"],
    multi_file=True))
"""


def build(target: Path, opt_level: str = "1", debug_level: str = "0",
          jobs: int | None = None) -> int:
    """Compile the engine's source into ``target`` (replacing what is there); the number of
    modules compiled. ``opt_level`` is gcc's ``-O`` level (3 ran no faster than 1,
    docs/performance.md); ``debug_level`` its ``-g`` level (0: no debug information, which
    nothing reads and which made the shared library 16 MB instead of 10); ``jobs``: how many
    gcc processes at a time (default: the CPUs this process may use; in CI the build runs
    beside the suite at a lower priority, so it takes what the suite leaves)."""
    scratch = target.with_name(f"{target.name}.building-{os.getpid()}")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    try:
        package = scratch / "rules_engine"
        shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns(
            "__pycache__", "*.so", "*.pyd", COMPILED.name, f"{COMPILED.name}.*"))
        compiled = modules(package)
        config = {"modules": [p.relative_to(scratch).as_posix() for p in compiled],
                  "opt_level": opt_level, "debug_level": debug_level,
                  "jobs": jobs or len(os.sched_getaffinity(0))}
        (scratch / "setup_mypyc.py").write_text(SETUP_SCRIPT, "utf-8")
        subprocess.run([sys.executable, "setup_mypyc.py", json.dumps(config),
                        "build_ext", "--inplace"],
                       cwd=scratch, check=True, stdout=subprocess.DEVNULL)
        libraries = sorted(p.name.split(".")[0] for p in scratch.glob("*__mypyc.*")
                           if p.suffix in {".so", ".pyd"})
        if len(libraries) != 1:
            raise RuntimeError(f"expected one shared library from mypyc, found {libraries}")
        # the C sources and objects, mypy's cache, the build script
        for scrap in ("build", ".mypy_cache"):
            shutil.rmtree(scratch / scrap, ignore_errors=True)
        (scratch / "setup_mypyc.py").unlink()
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
    jobs = os.environ.get("COMPILE_JOBS", "")
    count = build(target, os.environ.get("MYPYC_OPT_LEVEL", "1"),
                  os.environ.get("MYPYC_DEBUG_LEVEL", "0"), int(jobs) if jobs else None)
    print(f"compiled {count} modules of the engine into {target} in "
          f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
