"""Writes of the notifications app: notify users, mark read, send the e-mails.

The e-mails go through the outbox (issue 31): the notification row, written in the caller's
transaction, is the record that a mail is owed (``emailed_at`` empty); after the commit the
mail's task is handed to the broker through the guarded path (``matches.dispatch``), so a
broker or mail outage is logged and never turns the caller's stored write into an error; the
sweep (``notification_emails_owed_send``, every ``YOMI_SWEEP_INTERVAL`` seconds) sends again
whatever is still owed, and sending marks the row, so a mail goes out once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from matches.dispatch import outbox_tasks_send
from notifications.models import Notification

logger = logging.getLogger(__name__)

# A mail still owed after this long is no longer news: the inbox keeps it, the sweep stops.
MAIL_OWED_FOR = timedelta(days=2)


def notify(*, users: Iterable[Any], kind: str, text: str, url: str, subject: str) -> int:
    """Put one notification per user in their inbox and queue its e-mail; how many were new.

    A user already told about this ``subject`` is not told again.
    """
    ids = {u.pk if hasattr(u, "pk") else int(u) for u in users}
    if not ids:
        return 0
    # no savepoint inside a caller's transaction (a log submission's): two round trips fewer,
    # and an error here fails the caller's transaction as it would anyway (nobody catches it)
    with transaction.atomic(savepoint=False):
        created = Notification.objects.bulk_create(
            [Notification(user_id=uid, kind=kind, text=text[:300], url=url[:300],
                          subject=subject) for uid in sorted(ids)],
            ignore_conflicts=True,
        )
        # ignore_conflicts leaves pks unset on some databases: read back the ones to mail
        fresh = list(Notification.objects.filter(
            user_id__in=ids, kind=kind, subject=subject, emailed_at__isnull=True,
            user__email__gt="",
        ).values_list("pk", flat=True))
        if fresh:
            transaction.on_commit(lambda: notification_emails_send(fresh))
    return len(created)


def notification_emails_send(notification_ids: Iterable[int]) -> int:
    """Hand each mail to the workers; how many were handed over. Never raises: a broker down
    (or, with in-process tasks, a mail server down) leaves the mail owed for the sweep."""
    from notifications.tasks import notification_email_send_task

    return outbox_tasks_send("mail of notification", notification_ids,
                             notification_email_send_task)


def notification_emails_owed_send(*, older_than: timedelta) -> list[int]:
    """The sweep: send again every mail owed for longer than ``older_than`` (and less than
    MAIL_OWED_FOR): not yet mailed, to an active user with an address who wants mail."""
    now = timezone.now()
    owed = list(
        Notification.objects.filter(
            emailed_at__isnull=True, created_at__lte=now - older_than,
            created_at__gte=now - MAIL_OWED_FOR, user__is_active=True, user__email__gt="",
        ).exclude(user__profile__email_notifications=False)
        .order_by("created_at").values_list("pk", flat=True)[:500]
    )
    notification_emails_send(owed)
    return owed


def notification_email_send(*, notification_id: int) -> bool:
    """Mail one notification to its user if they have an address and want it; once only."""
    with transaction.atomic():
        n = (Notification.objects.select_for_update().select_related("user")
             .filter(pk=notification_id, emailed_at__isnull=True).first())
        if n is None:
            return False
        opted_out = Profile.objects.filter(user_id=n.user_id, email_notifications=False).exists()
        if not n.user.email or not n.user.is_active or opted_out:
            return False
        body = n.text
        if n.url:
            body += f"\n\n{settings.YOMI_SITE_URL.rstrip('/')}{n.url}"
        body += "\n\nTurn these e-mails off on your profile page."
        send_mail(subject=f"[Yomi] {n.get_kind_display()}", message=body, from_email=None,
                  recipient_list=[n.user.email])
        # marked after the send: a send that fails is retried, one that succeeds is not repeated
        n.emailed_at = timezone.now()
        n.save(update_fields=["emailed_at"])
        return True


def notification_mark_read(*, user: Any, notification_id: int) -> bool:
    """Mark one of the user's own notifications read; False when it is not theirs."""
    mine = Notification.objects.filter(pk=notification_id, user=user)
    mine.filter(read_at__isnull=True).update(read_at=timezone.now())
    return mine.exists()


def notifications_mark_all_read(*, user: Any) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
