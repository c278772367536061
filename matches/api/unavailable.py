"""The API's answer when the database is down or refuses writes: 503, never a 500."""

from __future__ import annotations

import logging

from django.db import InterfaceError, InternalError, OperationalError
from rest_framework import status
from rest_framework.response import Response

logger = logging.getLogger(__name__)

# Outages, not bad input: the server unreachable, a read-only replica after a failover, a
# deadlock the database broke. Nothing was committed; the same request can be sent again.
UNAVAILABLE = (OperationalError, InterfaceError, InternalError)


def database_unavailable_response(exc: Exception, path: str) -> Response | None:
    """A 503 with ``Retry-After`` for a database outage; None for any other exception."""
    if not isinstance(exc, UNAVAILABLE):
        return None
    logger.warning("database unavailable for %s", path, exc_info=True)
    return Response(
        {"code": "unavailable",
         "message": "the database cannot take writes right now; nothing was stored, "
                    "send the same request again in a moment"},
        status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "30"},
    )
