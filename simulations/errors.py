from __future__ import annotations


class SimulationError(ValueError):
    """A simulation request the platform refuses (unknown bot or character, bad sizes)."""
