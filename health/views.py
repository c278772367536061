from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from health.selectors import broker_status, database_status
from matches.engine import ENGINE_VERSION


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker both answer, 503 otherwise, with the reasons."""
    statuses = [database_status(), broker_status()]
    is_healthy = all(status.is_reachable for status in statuses)
    body: dict[str, object] = {"status": "ok" if is_healthy else "unavailable"}
    body.update({status.name: status.as_dict() for status in statuses})
    body["engine"] = ENGINE_VERSION  # which engine build this process runs (interpreted: no "+")
    return JsonResponse(body, status=200 if is_healthy else 503)
