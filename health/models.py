from django.db import models


class WorkerHeartbeat(models.Model):
    """Written by a Celery worker: proof that the broker delivered and the worker can write."""

    task_id = models.CharField(max_length=64, unique=True)
    worker = models.CharField(max_length=255)
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.worker} at {self.created_at:%Y-%m-%d %H:%M:%S}"
