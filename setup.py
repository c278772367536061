"""What the wheel holds: every package of the project (found, never listed by hand), the engine's
data, and the site's templates and static files.

The templates and static files stay at the top of the repository (``templates/``, ``static/``,
where a checkout reads them); the wheel carries them inside the site package as
``yomi_site/templates`` and ``yomi_site/static``, where ``yomi_site/settings.py`` looks first.
The rest of the metadata is in ``pyproject.toml``. The smoke test of the shipped tree
(``.ci/smoke``) installs the wheel and fails when anything the site needs is left out.
"""

from setuptools import find_packages, setup

# every top-level package with an __init__.py but the tests
PACKAGES = find_packages(exclude=["tests", "tests.*", "build", "build.*"])
SITE_FILES = {"yomi_site.templates": "templates", "yomi_site.static": "static"}

setup(
    packages=[*PACKAGES, *SITE_FILES],
    package_dir=SITE_FILES,
    package_data={
        "rules_engine": ["py.typed", "data/*.json", "schema/*.json"],
        "yomi_site.templates": ["**/*.html", "**/*.txt"],
        "yomi_site.static": ["**/*"],
    },
    include_package_data=False,
)
