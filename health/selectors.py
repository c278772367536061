"""Reads for /healthz: can the site reach its database and its task broker?"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connection
from kombu import Connection


@dataclass(frozen=True)
class ServiceStatus:
    name: str
    is_reachable: bool
    detail: str

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.is_reachable, "detail": self.detail}


def database_status() -> ServiceStatus:
    vendor = connection.vendor
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return ServiceStatus("database", False, f"{vendor}: {exc.__class__.__name__}: {exc}")
    return ServiceStatus("database", True, vendor)


def broker_status(timeout: float = 2.0) -> ServiceStatus:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return ServiceStatus("broker", True, "tasks run in-process (no broker needed)")
    url = settings.CELERY_BROKER_URL
    try:
        with Connection(url, connect_timeout=timeout) as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=timeout
            )
            # Redis connects lazily; a ping proves the server answers.
            client = getattr(conn.default_channel, "client", None)
            if client is not None:
                client.ping()
    except Exception as exc:  # any failure means "unreachable"; the detail says why
        return ServiceStatus("broker", False, f"{exc.__class__.__name__}: {exc}")
    return ServiceStatus("broker", True, Connection(url).as_uri())
