from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from notifications import selectors, services


@login_required
@require_GET
def inbox_page(request: HttpRequest) -> HttpResponse:
    return render(request, "notifications/inbox.html", {
        "notifications": selectors.inbox(user=request.user),
    })


@login_required
@require_POST
def notification_read(request: HttpRequest, pk: int) -> HttpResponse:
    if not services.notification_mark_read(user=request.user, notification_id=pk):
        return render(request, "notifications/missing.html", status=404)
    # "Open" marks read and goes on to what the notification is about
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("notifications:inbox")


@login_required
@require_POST
def notifications_read_all(request: HttpRequest) -> HttpResponse:
    services.notifications_mark_all_read(user=request.user)
    return redirect("notifications:inbox")
