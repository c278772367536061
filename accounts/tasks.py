"""Sign-up confirmation and password-reset mails, sent by the workers (the outboxes of
``accounts.services``)."""

from __future__ import annotations

import smtplib
from datetime import timedelta

from celery import shared_task
from django.conf import settings

from accounts.services import (
    confirmation_mail_send,
    confirmation_mails_owed_send,
    password_reset_mail_send,
    password_reset_mails_owed_send,
)


@shared_task(autoretry_for=(smtplib.SMTPException, OSError), retry_backoff=30, max_retries=5)
def password_reset_mail_send_task(mail_id: int) -> bool:
    return password_reset_mail_send(mail_id=mail_id)


@shared_task
def password_reset_mails_owed_send_task() -> int:
    """Celery beat's sweep of owed reset mails (the outbox's backstop)."""
    return len(password_reset_mails_owed_send(
        older_than=timedelta(seconds=settings.YOMI_SWEEP_AFTER)))


@shared_task(autoretry_for=(smtplib.SMTPException, OSError), retry_backoff=30, max_retries=5)
def confirmation_mail_send_task(mail_id: int) -> bool:
    return confirmation_mail_send(mail_id=mail_id)


@shared_task
def confirmation_mails_owed_send_task() -> int:
    """Celery beat's sweep of owed sign-up confirmation mails (the outbox's backstop)."""
    return len(confirmation_mails_owed_send(
        older_than=timedelta(seconds=settings.YOMI_SWEEP_AFTER)))
