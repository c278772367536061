"""Yomi rules engine: pure Python (standard library only).

Plays and verifies Yomi games by `shared/rules/RULES.md`. Nothing here may import Django or a
project app (checked by import-linter and by tests/rules_engine/test_import_purity.py).
"""

__version__ = "0.1.0"
