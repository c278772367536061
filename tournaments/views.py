from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import event_list


def event_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/event_list.html", {"events": event_list()})
