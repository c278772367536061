"""Matches API: each view adapts HTTP to one service or selector call.

Errors come back as ``{"code", "message", ...}``: 400 bad input (an unreadable log names its JSON
path), 403 not allowed, 409 refused in the current state, 413 a log over 2 MB.
"""

from __future__ import annotations

import json
from typing import Any

import django_filters
from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import selectors, services
from matches.api.parsers import SafeJSONParser
from matches.api.serializers import (
    DisputeSerializer,
    MatchDetailSerializer,
    MatchErrorSerializer,
    MatchSerializer,
    SubmissionSerializer,
)
from matches.api.unavailable import database_unavailable_response, submission_answered
from matches.errors import MatchError, MatchErrorCode
from matches.models import LogEndorsement, Match, MatchSide, VerificationRun
from matches.ratelimits import submission_rate_check
from matches.services.matches import match_authorize_player_or_manager

HTTP_STATUS = {
    MatchErrorCode.NOT_ALLOWED: status.HTTP_403_FORBIDDEN,
    MatchErrorCode.LOG_TOO_LARGE: status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    MatchErrorCode.LOG_UNREADABLE: status.HTTP_400_BAD_REQUEST,
    MatchErrorCode.INVALID_RESULT: status.HTTP_400_BAD_REQUEST,
    MatchErrorCode.REASON_REQUIRED: status.HTTP_400_BAD_REQUEST,
    MatchErrorCode.LOG_MODE_MISMATCH: status.HTTP_400_BAD_REQUEST,
    MatchErrorCode.LOG_PICKS_MISMATCH: status.HTTP_409_CONFLICT,
    MatchErrorCode.RATE_LIMITED: status.HTTP_429_TOO_MANY_REQUESTS,
    MatchErrorCode.LOG_CHANGED: status.HTTP_409_CONFLICT,
    MatchErrorCode.MATCH_STORAGE_FULL: status.HTTP_409_CONFLICT,
}
ERRORS = {
    400: OpenApiResponse(MatchErrorSerializer, description="bad input"),
    403: OpenApiResponse(MatchErrorSerializer, description="not allowed"),
    409: OpenApiResponse(MatchErrorSerializer, description="refused in the match's current state"),
}


class MatchServiceApi(APIView):
    permission_classes = [IsAuthenticated]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, MatchError):
            response = Response(
                exc.data, status=HTTP_STATUS.get(exc.code, status.HTTP_409_CONFLICT)
            )
            if "retry_after" in exc.extra:
                response["Retry-After"] = str(exc.extra["retry_after"])
            return response
        unavailable = database_unavailable_response(exc, self.request.path)
        if unavailable is not None:
            return unavailable
        return super().handle_exception(exc)

    def get_match(self, pk: int) -> Match:
        return get_object_or_404(Match, pk=pk)


class MatchFilter(django_filters.FilterSet):
    player = django_filters.NumberFilter(field_name="sides__player_id", distinct=True)

    class Meta:
        model = Match
        fields = ["status", "mode", "player"]


class MatchListApi(generics.ListAPIView):
    serializer_class = MatchSerializer
    filterset_class = MatchFilter

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.match_list()


class MatchDetailApi(generics.RetrieveAPIView):
    serializer_class = MatchDetailSerializer

    def get_queryset(self) -> QuerySet[Match]:
        return selectors.match_detail_queryset()


class MatchLogSubmitApi(MatchServiceApi):
    """Submit a log as JSON (``{"log": {...}}`` or ``{"log_text": "..."}``) or as a file upload
    (multipart field ``log_file``). The same log twice is one submission (200, not 201)."""

    parser_classes = [SafeJSONParser, MultiPartParser, FormParser]

    class LogSubmitInputSerializer(serializers.Serializer):
        log = serializers.JSONField(required=False)
        log_text = serializers.CharField(required=False, trim_whitespace=False)
        log_file = serializers.FileField(required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            given = [key for key in ("log", "log_text", "log_file") if key in attrs]
            if len(given) != 1:
                raise serializers.ValidationError(
                    "send exactly one of: log (a JSON object), log_text, log_file"
                )
            return attrs

    @extend_schema(
        request=LogSubmitInputSerializer,
        responses={201: SubmissionSerializer, 200: SubmissionSerializer, 413: MatchErrorSerializer,
                   429: OpenApiResponse(MatchErrorSerializer,
                                        description="too many submissions (see Retry-After)"),
                   **ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        # who may submit, before the body is read (a log can be 2 MB)
        match = self.get_match(pk)
        match_authorize_player_or_manager(match, request.user, "submit a log")
        submission_rate_check(request)
        data = self.LogSubmitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        log_bytes = _log_bytes(data.validated_data)
        return submission_answered(
            lambda: services.match_log_submit(match=match, submitted_by=request.user,
                                              log_bytes=log_bytes),
            _submission_body, log_bytes=log_bytes, user=request.user, match_id=match.pk,
            created=lambda outcome: outcome.is_new)


class SoloRunSubmitApi(MatchServiceApi):
    """Submit a Training game or a Survival run played against the engine's bot (RULES.md
    §12): the match is created for the submitting player (side 2 is the bot) and the log is
    verified like any other; the player's submission alone makes a legal log the result."""

    parser_classes = [SafeJSONParser, MultiPartParser, FormParser]

    @extend_schema(
        request=MatchLogSubmitApi.LogSubmitInputSerializer,
        responses={201: SubmissionSerializer, 413: MatchErrorSerializer,
                   429: OpenApiResponse(MatchErrorSerializer,
                                        description="too many submissions (see Retry-After)"),
                   **ERRORS},
    )
    def post(self, request: Request) -> Response:
        submission_rate_check(request)
        data = MatchLogSubmitApi.LogSubmitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        log_bytes = _log_bytes(data.validated_data)
        return submission_answered(
            lambda: services.solo_run_submit(user=request.user, log_bytes=log_bytes),
            _submission_body, log_bytes=log_bytes, user=request.user, match_id=None,
            created=lambda outcome: True)


def _submission_body(outcome: services.SubmissionOutcome) -> dict[str, Any]:
    """The response to a submission: the log (its newest run, the sides endorsing it) and the
    match with its sides. What the serializers show is read in three queries, ordered by each
    table's own columns; read lazily it took five (a query per side's player) and the models'
    orderings joined the match table into each."""
    log, match = outcome.log, outcome.log.match
    prefetch_related_objects([match], Prefetch(
        "sides", queryset=MatchSide.objects.select_related("player").order_by("side", "order")))
    prefetch_related_objects(
        [log],
        Prefetch("runs", queryset=VerificationRun.objects.order_by("-created_at", "-id")),
        Prefetch("endorsements", queryset=LogEndorsement.objects.order_by("created_at", "id")),
    )
    return SubmissionSerializer({"is_new": outcome.is_new, "log": log, "match": match}).data


def _log_bytes(validated: dict[str, Any]) -> bytes:
    """The submitted log as bytes, whichever way it came."""
    if "log_file" in validated:
        upload = validated["log_file"]
        if upload.size > services.MAX_LOG_BYTES:
            # refuse before reading a huge upload into memory
            raise MatchError(
                MatchErrorCode.LOG_TOO_LARGE,
                f"the log is {upload.size:,} bytes; "
                f"the limit is {services.MAX_LOG_BYTES:,} bytes (2 MB)",
                size_bytes=upload.size, limit_bytes=services.MAX_LOG_BYTES,
            )
        return bytes(upload.read())
    if "log_text" in validated:
        return str(validated["log_text"]).encode("utf-8")
    return json.dumps(validated["log"]).encode("utf-8")


def _log_named(request: Request) -> int:
    """The ``log`` a confirmation names; LOG_UNNAMED (refused by the service after it checked
    who asks) when it names none or no readable id."""
    raw = request.data.get("log") if hasattr(request.data, "get") else None
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0 else (
        int(raw) if isinstance(raw, str) and raw.isdigit() else services.LOG_UNNAMED)


class MatchLogConfirmApi(MatchServiceApi):
    """The other side confirms the verified log it read (``log``: its id); the result then
    becomes final. Another log waiting instead (swapped in meanwhile) is refused (409)."""

    class ConfirmInputSerializer(serializers.Serializer):
        log = serializers.IntegerField(min_value=1, help_text="the id of the log confirmed")

    @extend_schema(request=ConfirmInputSerializer, responses={200: MatchSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        match = services.match_log_confirm(match=self.get_match(pk), user=request.user,
                                           log_id=_log_named(request))
        return Response(MatchSerializer(match).data)


class MatchLogDisputeApi(MatchServiceApi):
    """The other side contests the verified log instead of confirming it; organizers decide."""

    class DisputeInputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=2000)
        log = serializers.IntegerField(min_value=1, required=False,
                                       help_text="the id of the log disputed (required)")

    @extend_schema(request=DisputeInputSerializer, responses={201: DisputeSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        data = self.DisputeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dispute = services.match_log_dispute(
            match=self.get_match(pk), user=request.user, reason=data.validated_data["reason"],
            log_id=data.validated_data.get("log", services.LOG_UNNAMED),
        )
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)


class MatchResultOverrideApi(MatchServiceApi):
    """An organizer sets or corrects the result, with a reason (kept in the audit log)."""

    class OverrideInputSerializer(serializers.Serializer):
        winner_side = serializers.ChoiceField(choices=[1, 2], allow_null=True, required=False)
        is_draw = serializers.BooleanField(default=False)
        reason = serializers.CharField(max_length=2000)

    @extend_schema(request=OverrideInputSerializer, responses={200: MatchSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        data = self.OverrideInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.match_result_override(
            match=self.get_match(pk), actor=request.user,
            winner_side=data.validated_data.get("winner_side"),
            is_draw=data.validated_data["is_draw"], reason=data.validated_data["reason"],
        )
        return Response(MatchSerializer(match).data)
