"""Sets that became ready, announced after the transaction commits (for notifications).

Sets change in bulk (``bulk_create``/``bulk_update``), which sends no model signals; the services
that make sets ready call ``sets_ready_announce`` instead. Receivers get set ids, never rows, and
must tolerate a set announced twice (a corrected set is saved again while ready).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction
from django.dispatch import Signal

from tournaments.models import Set

logger = logging.getLogger(__name__)

# Sent with ``set_ids=`` (a list of ints) after the commit that made those sets ready.
sets_ready = Signal()


def sets_ready_announce(*, sets: Iterable[Set]) -> None:
    ids = [s.pk for s in sets if s.status == Set.Status.READY and s.pk is not None]
    if ids:
        transaction.on_commit(lambda: _send(ids))


def _send(ids: list[int]) -> None:
    # After the commit the result is saved: a failing receiver is logged, never turned into an
    # error page for a write that succeeded.
    for receiver, outcome in sets_ready.send_robust(sender=Set, set_ids=ids):
        if isinstance(outcome, Exception):
            logger.error("sets_ready receiver %r failed", receiver, exc_info=outcome)
