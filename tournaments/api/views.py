"""API views: each adapts HTTP to one service or selector call (``<Entity><Action>Api``).

Errors come back as ``{"code": ..., "message": ...}``: 403 for a missing permission, 409 for a
request the current state refuses (a started stage, a finished set), 400 for bad input.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.api.unavailable import database_unavailable_response
from matches.models import Player
from tournaments import selectors
from tournaments.api.serializers import (
    EntrantSerializer,
    ErrorSerializer,
    EventSerializer,
    PlayerDetailSerializer,
    PlayerSerializer,
    SetDetailSerializer,
    SetSerializer,
    StageSerializer,
    StandingsSerializer,
)
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event, Set, Stage
from tournaments.services import (
    advancement,
    events,
    generation,
    registration,
    seeding,
    verification,
)

FORBIDDEN = {TournamentErrorCode.NOT_ORGANIZER, TournamentErrorCode.NOT_YOUR_ENTRANT}
BAD_INPUT = {
    TournamentErrorCode.INVALID, TournamentErrorCode.RESULT_INVALID,
    TournamentErrorCode.SEEDING_INVALID, TournamentErrorCode.ROSTER_SIZE,
    TournamentErrorCode.LINEUP,
}
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="bad input"),
    403: OpenApiResponse(ErrorSerializer, description="not allowed"),
    409: OpenApiResponse(ErrorSerializer, description="refused in the current state"),
}


def error_response(error: TournamentError) -> Response:
    if error.code in FORBIDDEN:
        code = status.HTTP_403_FORBIDDEN
    elif error.code in BAD_INPUT:
        code = status.HTTP_400_BAD_REQUEST
    else:
        code = status.HTTP_409_CONFLICT
    return Response(error.as_dict(), status=code)


class ServiceApi(APIView):
    """Write endpoints: authenticated users only; service errors become JSON responses."""

    permission_classes = [IsAuthenticated]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TournamentError):
            return error_response(exc)
        unavailable = database_unavailable_response(exc, self.request.path)
        if unavailable is not None:
            return unavailable
        return super().handle_exception(exc)


# --- filters -----------------------------------------------------------------------------------


class EventFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Event
        fields = ["mode", "status", "name"]


class StageFilter(django_filters.FilterSet):
    event = django_filters.CharFilter(field_name="event__slug")

    class Meta:
        model = Stage
        fields = ["event", "kind", "status"]


class EntrantFilter(django_filters.FilterSet):
    event = django_filters.CharFilter(field_name="event__slug")

    class Meta:
        model = Entrant
        fields = ["event", "status"]


class SetFilter(django_filters.FilterSet):
    entrant = django_filters.NumberFilter(method="filter_entrant")

    class Meta:
        model = Set
        fields = ["stage", "status", "bracket", "round", "group"]

    def filter_entrant(self, qs: QuerySet[Set], name: str, value: int) -> QuerySet[Set]:
        return qs.filter(entrant_a_id=value) | qs.filter(entrant_b_id=value)


class PlayerFilter(django_filters.FilterSet):
    display_name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["region", "display_name"]


# --- events ------------------------------------------------------------------------------------


class EventInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    mode = serializers.ChoiceField(Event.Mode.choices, required=False)
    ruleset = serializers.CharField(max_length=64, required=False)
    best_of = serializers.IntegerField(required=False)
    top_best_of = serializers.IntegerField(required=False)
    top_rounds = serializers.IntegerField(required=False, min_value=0)
    grand_final_best_of = serializers.IntegerField(required=False)
    character_rule = serializers.ChoiceField(Event.CharacterRule.choices, required=False)
    max_entrants = serializers.IntegerField(required=False, allow_null=True)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    # the bounds are the model's (tournaments.models.ROOM_DECISION_SECONDS): its message names them
    room_decision_seconds = serializers.IntegerField(required=False, allow_null=True)


class EventListApi(generics.ListAPIView):
    """Events, newest first; filter by mode, status or name. POST creates a draft event."""

    serializer_class = EventSerializer
    filterset_class = EventFilter
    queryset = Event.objects.none()

    def get_queryset(self) -> QuerySet[Event]:
        return selectors.event_list(user=self.request.user)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TournamentError):
            return error_response(exc)
        return super().handle_exception(exc)

    @extend_schema(request=EventInputSerializer, responses={201: EventSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        data = EventInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        if "name" not in fields:
            raise serializers.ValidationError({"name": ["This field is required."]})
        event = events.event_create(actor=request.user, **fields)
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)


class EventDetailApi(generics.RetrieveAPIView):
    """One event. PATCH changes its settings (organizers only, until it starts)."""

    serializer_class = EventSerializer
    lookup_field = "slug"
    queryset = Event.objects.none()

    def get_queryset(self) -> QuerySet[Event]:
        return selectors.events_visible_to(self.request.user)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TournamentError):
            return error_response(exc)
        return super().handle_exception(exc)

    @extend_schema(request=EventInputSerializer, responses={200: EventSerializer, **ERRORS})
    def patch(self, request: Request, slug: str) -> Response:
        event = self.get_object()
        data = EventInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        event = events.event_update(event=event, actor=request.user, **data.validated_data)
        return Response(EventSerializer(event).data)


class EventStatusChangeApi(ServiceApi):
    class EventStatusChangeInputSerializer(serializers.Serializer):
        status = serializers.ChoiceField(Event.Status.choices)

    @extend_schema(
        request=EventStatusChangeInputSerializer, responses={200: EventSerializer, **ERRORS}
    )
    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(Event, slug=slug)
        data = self.EventStatusChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = events.event_status_change(
            event=event, actor=request.user, status=data.validated_data["status"]
        )
        return Response(EventSerializer(event).data)


class StageInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    kind = serializers.ChoiceField(Stage.Kind.choices)
    third_place = serializers.BooleanField(required=False)
    grand_final_reset = serializers.BooleanField(required=False)
    group_count = serializers.IntegerField(required=False, min_value=1, max_value=512)
    swiss_rounds = serializers.IntegerField(required=False, min_value=1, max_value=20)
    advance_count = serializers.IntegerField(required=False, min_value=1, allow_null=True)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(selectors.ROUND_ROBIN_TIEBREAKS), required=False
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    round_days = serializers.IntegerField(required=False, min_value=1, max_value=90)


class StageCreateApi(ServiceApi):
    @extend_schema(request=StageInputSerializer, responses={201: StageSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(Event, slug=slug)
        data = StageInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = events.stage_create(event=event, actor=request.user, **data.validated_data)
        return Response(StageSerializer(stage).data, status=status.HTTP_201_CREATED)


# --- registration ------------------------------------------------------------------------------


class EntrantListApi(generics.ListAPIView):
    """Entrants; filter by event (slug) and status."""

    serializer_class = EntrantSerializer
    filterset_class = EntrantFilter
    queryset = Entrant.objects.none()

    def get_queryset(self) -> QuerySet[Entrant]:
        return Entrant.objects.prefetch_related("members__player").select_related("event").filter(
            event__in=selectors.events_visible_to(self.request.user)
        )


class EntrantRegisterApi(ServiceApi):
    class EntrantRegisterInputSerializer(serializers.Serializer):
        players = serializers.ListField(
            child=serializers.IntegerField(), required=False,
            help_text="Player ids of the roster; default: yourself.",
        )
        name = serializers.CharField(max_length=120, required=False, allow_blank=True)
        lineup = serializers.ListField(child=serializers.CharField(max_length=32),
                                       required=False, max_length=3)
        characters = serializers.ListField(child=serializers.CharField(max_length=32),
                                           required=False, max_length=3)

    @extend_schema(
        request=EntrantRegisterInputSerializer, responses={201: EntrantSerializer, **ERRORS}
    )
    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(Event, slug=slug)
        data = self.EntrantRegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ids = data.validated_data.get("players")
        if ids:
            players = list(Player.objects.filter(pk__in=ids))
            if len(players) != len(set(ids)):
                raise TournamentError(TournamentErrorCode.INVALID, "unknown player id")
        else:
            player = Player.objects.filter(user=request.user).first()
            if player is None:
                raise TournamentError(
                    TournamentErrorCode.NOT_YOUR_ENTRANT, "your account has no player profile"
                )
            players = [player]
        entrant = registration.entrant_register(
            event=event, actor=request.user, players=players,
            name=data.validated_data.get("name", ""),
            lineup=data.validated_data.get("lineup", []),
            characters=data.validated_data.get("characters", []),
        )
        return Response(EntrantSerializer(entrant).data, status=status.HTTP_201_CREATED)


class EntrantWithdrawApi(ServiceApi):
    @extend_schema(request=None, responses={200: EntrantSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        entrant = get_object_or_404(Entrant, pk=pk)
        registration.entrant_withdraw(entrant=entrant, actor=request.user)
        entrant.refresh_from_db()
        return Response(EntrantSerializer(entrant).data)


class EntrantInvitationAcceptApi(ServiceApi):
    """The invited player accepts their place on a team; it is registered once all accepted."""

    @extend_schema(request=None, responses={200: EntrantSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        entrant = get_object_or_404(Entrant, pk=pk)
        entrant = registration.entrant_invitation_accept(entrant=entrant, actor=request.user)
        return Response(EntrantSerializer(entrant).data)


class EntrantInvitationDeclineApi(ServiceApi):
    """The invited player declines: the team is not registered."""

    @extend_schema(request=None, responses={200: EntrantSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        entrant = get_object_or_404(Entrant, pk=pk)
        entrant = registration.entrant_invitation_decline(entrant=entrant, actor=request.user)
        return Response(EntrantSerializer(entrant).data)


class EntrantCheckInApi(ServiceApi):
    @extend_schema(request=None, responses={200: EntrantSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        entrant = get_object_or_404(Entrant, pk=pk)
        entrant = registration.entrant_check_in(entrant=entrant, actor=request.user)
        return Response(EntrantSerializer(entrant).data)


class EntrantDisqualifyApi(ServiceApi):
    class EntrantDisqualifyInputSerializer(serializers.Serializer):
        reason = serializers.CharField(required=False, allow_blank=True)

    @extend_schema(
        request=EntrantDisqualifyInputSerializer, responses={200: EntrantSerializer, **ERRORS}
    )
    def post(self, request: Request, pk: int) -> Response:
        entrant = get_object_or_404(Entrant, pk=pk)
        data = self.EntrantDisqualifyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entrant = advancement.entrant_disqualify(
            entrant=entrant, actor=request.user, reason=data.validated_data.get("reason", "")
        )
        return Response(EntrantSerializer(entrant).data)


# --- seeding and generation --------------------------------------------------------------------


class SeedingInputSerializer(serializers.Serializer):
    method = serializers.ChoiceField(seeding.METHODS)
    order = serializers.ListField(child=serializers.IntegerField(), required=False)
    random_seed = serializers.IntegerField(required=False, allow_null=True)


SEEDING_OUTPUT = inline_serializer(
    "SeedingOutput",
    {"fixed": serializers.BooleanField(), "entrants": EntrantSerializer(many=True)},
)


class EventSeedingPreviewApi(ServiceApi):
    """The order a seeding method gives, without fixing it (organizers only)."""

    @extend_schema(request=SeedingInputSerializer, responses={200: SEEDING_OUTPUT, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(Event, slug=slug)
        data = SeedingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not event.is_organizer(request.user):
            raise TournamentError(TournamentErrorCode.NOT_ORGANIZER, "organizers only")
        ordered = seeding.seeding_preview(event=event, **data.validated_data)
        body = {"fixed": False, "entrants": EntrantSerializer(ordered, many=True).data}
        return Response(body)


class EventSeedingSetApi(ServiceApi):
    @extend_schema(request=SeedingInputSerializer, responses={200: SEEDING_OUTPUT, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(Event, slug=slug)
        data = SeedingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ordered = seeding.event_seeding_set(event=event, actor=request.user,
                                            **data.validated_data)
        return Response({"fixed": True, "entrants": EntrantSerializer(ordered, many=True).data})


class StageListApi(generics.ListAPIView):
    """Stages; filter by event (slug), kind and status."""

    serializer_class = StageSerializer
    filterset_class = StageFilter
    queryset = Stage.objects.none()

    def get_queryset(self) -> QuerySet[Stage]:
        return Stage.objects.select_related("event").order_by("event", "order").filter(
            event__in=selectors.events_visible_to(self.request.user)
        )


class StageDetailApi(generics.RetrieveAPIView):
    """One stage. PATCH configures it (organizers only, until it is generated)."""

    serializer_class = StageSerializer
    queryset = Stage.objects.none()

    def get_queryset(self) -> QuerySet[Stage]:
        return Stage.objects.select_related("event").filter(
            event__in=selectors.events_visible_to(self.request.user)
        )

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TournamentError):
            return error_response(exc)
        return super().handle_exception(exc)

    @extend_schema(request=StageInputSerializer(partial=True),
                   responses={200: StageSerializer, **ERRORS})
    def patch(self, request: Request, pk: int) -> Response:
        stage = self.get_object()
        data = StageInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        stage = events.stage_update(stage=stage, actor=request.user, **data.validated_data)
        return Response(StageSerializer(stage).data)


class StageGenerateApi(ServiceApi):
    @extend_schema(request=None, responses={200: StageSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        stage = get_object_or_404(Stage.objects.select_related("event"), pk=pk)
        stage = generation.stage_generate(stage=stage, actor=request.user)
        return Response(StageSerializer(stage).data)


class StageStandingsApi(APIView):
    @extend_schema(responses={200: StandingsSerializer})
    def get(self, request: Request, pk: int) -> Response:
        stage = get_object_or_404(
            Stage, pk=pk, event__in=selectors.events_visible_to(request.user)
        )
        return Response(StandingsSerializer(selectors.stage_standings(stage)).data)


# --- sets --------------------------------------------------------------------------------------


class SetListApi(generics.ListAPIView):
    """Sets; filter by stage, status, bracket, round, group or entrant."""

    serializer_class = SetSerializer
    filterset_class = SetFilter
    queryset = Set.objects.none()

    def get_queryset(self) -> QuerySet[Set]:
        return Set.objects.select_related("entrant_a", "entrant_b").order_by(
            "stage", "bracket", "round", "position"
        ).filter(stage__event__in=selectors.events_visible_to(self.request.user))


class SetDetailApi(generics.RetrieveAPIView):
    serializer_class = SetDetailSerializer
    queryset = Set.objects.none()

    def get_queryset(self) -> QuerySet[Set]:
        return Set.objects.select_related("entrant_a", "entrant_b").prefetch_related(
            "games"
        ).filter(stage__event__in=selectors.events_visible_to(self.request.user))


class GameInputSerializer(serializers.Serializer):
    winner_side = serializers.ChoiceField(["a", "b"])
    characters_a = serializers.ListField(child=serializers.CharField(max_length=32),
                                         required=False, max_length=3)
    characters_b = serializers.ListField(child=serializers.CharField(max_length=32),
                                         required=False, max_length=3)


class ResultInputSerializer(serializers.Serializer):
    games = GameInputSerializer(many=True, required=False, max_length=15)
    forfeit = serializers.ChoiceField(["a", "b", "both"], required=False)


def _result(data: dict[str, Any]) -> advancement.SetResult:
    return advancement.SetResult(
        games=[
            advancement.GameInput(
                winner_side=g["winner_side"], characters_a=g.get("characters_a", []),
                characters_b=g.get("characters_b", []),
            )
            for g in data.get("games", [])
        ],
        forfeit=data.get("forfeit", ""),
    )


class SetResultReportApi(ServiceApi):
    """Report a ready set's games (or a forfeit); the winner advances at once."""

    @extend_schema(request=ResultInputSerializer, responses={200: SetDetailSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        s = get_object_or_404(Set.objects.select_related("stage__event"), pk=pk)
        data = ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        s = advancement.set_result_report(set=s, actor=request.user,
                                          result=_result(data.validated_data))
        return Response(SetDetailSerializer(Set.objects.get(pk=s.pk)).data)


class SetResultCorrectApi(ServiceApi):
    """Correct a finished set. With ``confirm: false`` it only says what would change."""

    class SetResultCorrectInputSerializer(ResultInputSerializer):
        reason = serializers.CharField(required=False, allow_blank=True, default="")
        confirm = serializers.BooleanField(default=False)

    OUTPUT = inline_serializer(
        "CorrectionOutput",
        {
            "confirmed": serializers.BooleanField(),
            "winner_changes": serializers.BooleanField(),
            "new_winner_id": serializers.IntegerField(allow_null=True),
            "reset_sets": SetSerializer(many=True),
            "summary": serializers.CharField(),
        },
    )

    @extend_schema(request=SetResultCorrectInputSerializer, responses={200: OUTPUT, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        s = get_object_or_404(Set.objects.select_related("stage__event"), pk=pk)
        data = self.SetResultCorrectInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = _result(data.validated_data)
        confirm = data.validated_data["confirm"]
        if confirm:
            plan = advancement.set_result_correct(
                set=s, actor=request.user, result=result,
                reason=data.validated_data["reason"], confirm=True,
            )
        else:
            plan = advancement.set_correction_preview(set=s, actor=request.user, result=result)
        return Response({
            "confirmed": confirm,
            "winner_changes": plan.winner_changes,
            "new_winner_id": plan.new_winner.pk if plan.new_winner else None,
            "reset_sets": SetSerializer(plan.reset_sets, many=True).data,
            "summary": advancement.describe_plan(plan),
        })


# --- players -----------------------------------------------------------------------------------


class PlayerListApi(generics.ListAPIView):
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    queryset = Player.objects.select_related("rating").order_by("display_name")


class PlayerDetailApi(generics.RetrieveAPIView):
    serializer_class = PlayerDetailSerializer
    queryset = Player.objects.select_related("rating")


class VerificationProgressSerializer(serializers.Serializer):
    batch = serializers.IntegerField(allow_null=True)
    log_count = serializers.IntegerField()
    total = serializers.IntegerField()
    finished = serializers.IntegerField()
    percent = serializers.IntegerField()
    is_done = serializers.BooleanField()
    by_status = serializers.DictField(child=serializers.IntegerField())


def _verification_body(event: Event) -> dict[str, Any]:
    latest = verification.event_verification_latest(event)
    log_count = verification.event_match_logs(event).count()
    body: dict[str, Any] = {"batch": None, "log_count": log_count}
    if latest is None:
        body.update(total=0, finished=0, percent=100, is_done=True, by_status={})
    else:
        body.update(latest[1].as_dict(), batch=latest[0].pk)
    return body


class EventVerificationApi(ServiceApi):
    """Progress of the event's latest bulk re-verification; POST starts one (organizers)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: VerificationProgressSerializer})
    def get(self, request: Request, slug: str) -> Response:
        return Response(_verification_body(get_object_or_404(Event, slug=slug)))

    @extend_schema(request=None, responses={202: VerificationProgressSerializer, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        event = get_object_or_404(Event, slug=slug)
        verification.event_logs_reverify(event=event, actor=request.user)
        return Response(_verification_body(event), status=status.HTTP_202_ACCEPTED)
