"""Statistics API: read-only views that parse filters, call one selector and serialize it.

Every endpoint answers JSON or, with ``?format=csv``, CSV of its main table. Bad filters are a
400 ``{"code": "invalid_filter", "message": ..., "errors": {parameter: [...]}}``.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.models import Match, Player
from rules_engine.cards import characters
from stats import selectors
from stats.api.renderers import CSVRenderer
from stats.api.serializers import (
    CharacterStatsSerializer,
    GameSideSerializer,
    LeaderboardSerializer,
    MatchupChartSerializer,
    PlayerStatsSerializer,
    StatsErrorSerializer,
)
from stats.forms import LeaderboardForm, ScopeForm
from stats.models import GameSide

RENDERERS = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer]
SCOPE_PARAMETERS = [
    OpenApiParameter("mode", str, enum=[m.value for m in Match.Mode],
                     description="one mode; all modes when absent"),
    OpenApiParameter("event", str, description="an event's slug; every game when absent"),
    OpenApiParameter("since", str, description="first month, YYYY-MM"),
    OpenApiParameter("until", str, description="last month, YYYY-MM"),
    OpenApiParameter("format", str, enum=["json", "csv"], description="csv: the main table"),
]
BAD_FILTER = {400: OpenApiResponse(StatsErrorSerializer, description="a filter is wrong")}


def _bad(form: Any) -> Response:
    return Response(
        {"code": "invalid_filter", "message": form.error_text(),
         "errors": {k: list(v) for k, v in form.errors.items()}},
        status=400,
    )


class StatsApi(APIView):
    permission_classes = [AllowAny]
    renderer_classes = RENDERERS


class CharacterStatsApi(StatsApi):
    @extend_schema(parameters=SCOPE_PARAMETERS,
                   responses={200: CharacterStatsSerializer, **BAD_FILTER})
    def get(self, request: Request, character_id: str) -> Response:
        if character_id not in characters():
            raise Http404(f"no character {character_id!r}")
        form = ScopeForm(request.query_params)
        if not form.is_valid():
            return _bad(form)
        stats = selectors.character_stats(character=character_id, scope=form.scope())
        return Response(CharacterStatsSerializer(stats.to_dict()).data)


class MatchupChartApi(StatsApi):
    @extend_schema(parameters=SCOPE_PARAMETERS,
                   responses={200: MatchupChartSerializer, **BAD_FILTER})
    def get(self, request: Request) -> Response:
        form = ScopeForm(request.query_params)
        if not form.is_valid():
            return _bad(form)
        chart = selectors.matchup_chart(scope=form.scope())
        return Response(MatchupChartSerializer(chart.to_dict()).data)


class PlayerStatsApi(StatsApi):
    @extend_schema(
        parameters=[*SCOPE_PARAMETERS, OpenApiParameter(
            "opponent", int, description="a player id: their head-to-head record")],
        responses={200: PlayerStatsSerializer, **BAD_FILTER},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        form = ScopeForm(request.query_params)
        if not form.is_valid():
            return _bad(form)
        opponent = None
        raw = request.query_params.get("opponent", "")
        if raw:
            opponent = Player.objects.filter(pk=int(raw)).first() if raw.isdigit() else None
            if opponent is None:
                return Response({"code": "invalid_filter",
                                 "message": f"opponent: no player with id {raw!r}",
                                 "errors": {"opponent": [f"no player with id {raw!r}"]}},
                                status=400)
        stats = selectors.player_stats(player=player, scope=form.scope(), opponent=opponent)
        return Response(PlayerStatsSerializer(stats.to_dict()).data)


class LeaderboardApi(StatsApi):
    @extend_schema(
        parameters=[
            *SCOPE_PARAMETERS,
            OpenApiParameter("character", str, description="one character's games only"),
            OpenApiParameter("min_games", int, description="leave out players with fewer"),
        ],
        responses={200: LeaderboardSerializer, **BAD_FILTER},
    )
    def get(self, request: Request) -> Response:
        form = LeaderboardForm(request.query_params)
        if not form.is_valid():
            return _bad(form)
        scope = form.scope()
        character = form.cleaned_data.get("character") or ""
        rows = selectors.leaderboard(scope=scope, character=character,
                                     min_games=form.cleaned_data.get("min_games") or 1)
        return Response(LeaderboardSerializer(
            {"scope": scope.to_dict(), "character": character, "rows": rows}).data)


class GameSideFilter(django_filters.FilterSet):
    """Filters of the per-game list: who, which characters, which games."""

    character = django_filters.ChoiceFilter(choices=lambda: [(c, c) for c in characters()])
    opponent_character = django_filters.ChoiceFilter(
        choices=lambda: [(c, c) for c in characters()])
    player = django_filters.NumberFilter(field_name="player_id")
    opponent = django_filters.NumberFilter(field_name="opponent_id")
    mode = django_filters.ChoiceFilter(choices=Match.Mode.choices)
    event = django_filters.CharFilter(field_name="game__event__slug")
    result = django_filters.ChoiceFilter(choices=GameSide.Result.choices)
    played_after = django_filters.IsoDateTimeFilter(field_name="played_at", lookup_expr="gte")
    played_before = django_filters.IsoDateTimeFilter(field_name="played_at", lookup_expr="lt")

    class Meta:
        model = GameSide
        fields = ["character", "opponent_character", "player", "opponent", "mode", "event",
                  "result", "played_after", "played_before"]


class GameSideListApi(generics.ListAPIView):
    """Every side of every verified game counted in the statistics, newest first."""

    permission_classes = [AllowAny]
    renderer_classes = RENDERERS
    serializer_class = GameSideSerializer
    filterset_class = GameSideFilter

    def get_queryset(self) -> QuerySet[GameSide]:
        return selectors.game_sides()

    @extend_schema(parameters=[OpenApiParameter("format", OpenApiTypes.STR,
                                                enum=["json", "csv"])])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)
