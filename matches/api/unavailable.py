"""The API's answer when the database is down or refuses writes: 503, never a 500."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, InternalError, OperationalError, connection
from rest_framework import status
from rest_framework.response import Response

from matches.models import MatchLog

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
        {"code": "unavailable", "stored": False,
         "message": "the database cannot take writes right now; nothing was stored, "
                    "send the same request again in a moment"},
        status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "30"},
    )


def submission_answered(submit: Callable[[], Any], body: Callable[[Any], dict[str, Any]], *,
                        log_bytes: bytes, user: Any, match_id: int | None,
                        created: Callable[[Any], bool]) -> Response:
    """Run a log submission and answer it so that the answer says "stored" exactly when the
    log was stored (issue 31).

    The database can fail at three moments: before the commit (nothing stored: 503), on the
    commit itself (the answer was lost, the commit may have happened), or after it, reading
    the stored log back for the answer. In the last two the log is looked up on a fresh
    connection (a submission is its bytes: the same bytes are the same log): found, the
    answer is 201 "stored"; not found, 503 "nothing was stored"; the look-up failing too,
    503 saying that whether it was stored is not known and that sending it again is safe.
    """
    try:
        outcome = submit()
    except UNAVAILABLE as exc:
        return _after_outage(exc, log_bytes=log_bytes, user=user, match_id=match_id)
    try:
        return Response(body(outcome), status=status.HTTP_201_CREATED if created(outcome)
                        else status.HTTP_200_OK)
    except UNAVAILABLE:
        logger.warning("stored log %s: reading it back failed", outcome.log.pk, exc_info=True)
        return _stored(outcome.log.pk, outcome.log.sha256, outcome.log.match_id)


def _stored(log_id: int, sha256: str, match_id: int) -> Response:
    return Response(
        {"code": "stored", "stored": True, "log": {"id": log_id, "sha256": sha256},
         "match": match_id,
         "message": "the log was stored and will be verified; its details could not be read "
                    "back just now (the database is struggling): see the match page"},
        status=status.HTTP_201_CREATED)


def _after_outage(exc: Exception, *, log_bytes: bytes, user: Any,
                  match_id: int | None) -> Response:
    sha256 = hashlib.sha256(log_bytes).hexdigest()
    try:
        if connection.errors_occurred and not connection.is_usable():
            connection.close()  # the broken connection; the look-up opens a new one
        found = MatchLog.objects.filter(sha256=sha256, submitted_by=user)
        if match_id is not None:
            found = found.filter(match_id=match_id)
        log = found.order_by("-id").values_list("pk", "match_id").first()
    except UNAVAILABLE:
        logger.warning("submission: the database failed and could not be asked what it kept",
                       exc_info=True)
        return Response(
            {"code": "unavailable", "stored": None,
             "message": "the database failed while storing the log and cannot be asked now "
                        "whether it kept it; sending the same log again is safe (the same "
                        "bytes are the same submission)"},
            status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "30"})
    if log is not None:
        logger.warning("submission: the database failed after storing log %s", log[0],
                       exc_info=exc)
        return _stored(log[0], sha256, log[1])
    response = database_unavailable_response(exc, "log submission")
    assert response is not None
    response.data["stored"] = False
    return response
