"""What the wheel holds: every package of the project (found, never listed by hand), the engine's
data, the site's templates and static files, and the engine's compiled build when there is one.

- The templates and static files stay at the top of the repository (``templates/``,
  ``static/``, where a checkout reads them); the wheel carries them inside the site package as
  ``yomi_site/templates`` and ``yomi_site/static``, where ``yomi_site/settings.py`` looks first.
- ``make compile`` puts the compiled engine in ``rules_engine/_compiled`` (not a package: its
  own directory, ``rules_engine/build.py``); when it is there the wheel carries it, and is then
  tagged for this platform and Python.

The rest of the metadata is in ``pyproject.toml``. The smoke test of the shipped tree
(``.ci/smoke.py``) installs the wheel and fails when anything the site needs is left out.
"""

from pathlib import Path

from setuptools import find_packages, setup
from setuptools.dist import Distribution

# every top-level package with an __init__.py but the tests
PACKAGES = find_packages(exclude=["tests", "tests.*", "build", "build.*"])
SITE_FILES = {"yomi_site.templates": "templates", "yomi_site.static": "static"}
COMPILED = Path(__file__).resolve().parent / "rules_engine" / "_compiled"
# the copy the engine loads from there: its stamp, shared library, modules and data (not the
# docs link a checkout's build has)
COMPILED_FILES = ["_compiled/build.json", "_compiled/*.so", "_compiled/*.pyd",
                  "_compiled/rules_engine/py.typed", "_compiled/rules_engine/**/*.py",
                  "_compiled/rules_engine/**/*.so", "_compiled/rules_engine/**/*.pyd",
                  "_compiled/rules_engine/**/*.json"]


class EngineDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        """With the compiled engine inside, the wheel runs on this platform only."""
        return (COMPILED / "build.json").is_file()


setup(
    distclass=EngineDistribution,
    packages=[*PACKAGES, *SITE_FILES],
    package_dir=SITE_FILES,
    package_data={
        "rules_engine": ["py.typed", "data/*.json", "schema/*.json", *COMPILED_FILES],
        "yomi_site.templates": ["**/*.html", "**/*.txt"],
        "yomi_site.static": ["**/*"],
    },
    include_package_data=False,
)
