"""Maintenance scripts for the engine's own data files (not imported by the engine)."""
