from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from matches.selectors import player_list


def player_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "matches/player_list.html", {"players": player_list()})


def match_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "matches/match_list.html", {"matches": []})
