from __future__ import annotations

import smtplib

from celery import shared_task

from notifications.services import notification_email_send


@shared_task(autoretry_for=(smtplib.SMTPException, OSError), retry_backoff=30, max_retries=5)
def notification_email_send_task(notification_id: int) -> bool:
    return notification_email_send(notification_id=notification_id)
