from __future__ import annotations

import smtplib
from datetime import timedelta

from celery import shared_task
from django.conf import settings

from notifications.services import notification_email_send, notification_emails_owed_send


@shared_task(autoretry_for=(smtplib.SMTPException, OSError), retry_backoff=30, max_retries=5)
def notification_email_send_task(notification_id: int) -> bool:
    return notification_email_send(notification_id=notification_id)


@shared_task
def notification_emails_owed_send_task() -> int:
    """Celery beat's sweep of owed mails (the outbox's backstop)."""
    return len(notification_emails_owed_send(
        older_than=timedelta(seconds=settings.YOMI_SWEEP_AFTER)))
