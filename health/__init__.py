"""Operational health: service reachability for /healthz and worker heartbeats."""
