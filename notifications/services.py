"""Writes of the notifications app: notify users, mark read, send the e-mails."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from notifications.models import Notification


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
            from notifications.tasks import notification_email_send_task

            transaction.on_commit(
                lambda: [notification_email_send_task.delay(pk) for pk in fresh]
            )
    return len(created)


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
