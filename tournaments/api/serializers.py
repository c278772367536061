"""Output serializers shared by the API views (inputs live on each view)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.models import Player
from tournaments.models import (
    Entrant,
    EntrantMember,
    Event,
    Game,
    PlayerRating,
    RatingHistory,
    Set,
    Stage,
)


class PlayerBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "display_name", "region"]


class EventSerializer(serializers.ModelSerializer):
    organizers = serializers.SlugRelatedField(many=True, read_only=True, slug_field="username")
    entrant_count = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = [
            "id", "slug", "name", "description", "mode", "ruleset", "best_of", "top_best_of",
            "top_rounds", "grand_final_best_of", "character_rule", "status", "max_entrants",
            "check_in_opens_at", "check_in_closes_at", "starts_at", "room_decision_seconds",
            "organizers",
            "entrant_count", "created_at",
        ]

    def get_entrant_count(self, event: Event) -> int:
        return event.entrants.filter(status=Entrant.Status.REGISTERED).count()


class EntrantMemberSerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer()

    class Meta:
        model = EntrantMember
        fields = ["player", "order", "character", "is_accepted"]


class EntrantSerializer(serializers.ModelSerializer):
    members = EntrantMemberSerializer(many=True, read_only=True)
    event = serializers.SlugRelatedField(read_only=True, slug_field="slug")

    class Meta:
        model = Entrant
        fields = [
            "id", "event", "name", "status", "seed", "lineup", "registered_at", "checked_in_at",
            "members",
        ]


class StageSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(read_only=True, slug_field="slug")

    class Meta:
        model = Stage
        fields = [
            "id", "event", "order", "name", "kind", "status", "third_place", "grand_final_reset",
            "group_count", "swiss_rounds", "advance_count", "tiebreaks", "starts_at",
            "round_days", "current_round",
        ]


class GameSerializer(serializers.ModelSerializer):
    class Meta:
        model = Game
        fields = ["number", "winner_side", "characters_a", "characters_b", "played_at"]


class SideSerializer(serializers.Serializer):
    entrant_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    is_bye = serializers.BooleanField()


class SetSerializer(serializers.ModelSerializer):
    side_a = serializers.SerializerMethodField()
    side_b = serializers.SerializerMethodField()
    winner_id = serializers.IntegerField(read_only=True, allow_null=True)
    winner_to = serializers.SerializerMethodField()
    loser_to = serializers.SerializerMethodField()

    class Meta:
        model = Set
        fields = [
            "id", "stage", "key", "bracket", "round", "round_name", "position", "group",
            "side_a", "side_b", "best_of", "score_a", "score_b", "winner_id", "status",
            "outcome", "is_conditional", "winner_to", "loser_to", "window_opens_at",
            "window_closes_at", "finished_at",
        ]

    def _side(self, s: Set, side: str) -> dict[str, Any]:
        entrant = s.entrant_a if side == "a" else s.entrant_b
        return {
            "entrant_id": entrant.pk if entrant else None,
            "name": s.side_label(side),
            "is_bye": s.is_bye_a if side == "a" else s.is_bye_b,
        }

    @extend_schema_field(SideSerializer)
    def get_side_a(self, s: Set) -> dict[str, Any]:
        return self._side(s, "a")

    @extend_schema_field(SideSerializer)
    def get_side_b(self, s: Set) -> dict[str, Any]:
        return self._side(s, "b")

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_winner_to(self, s: Set) -> str | None:
        return f"{s.winner_to_key}:{s.winner_to_side}" if s.winner_to_key else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_loser_to(self, s: Set) -> str | None:
        return f"{s.loser_to_key}:{s.loser_to_side}" if s.loser_to_key else None


class SetDetailSerializer(SetSerializer):
    games = GameSerializer(many=True, read_only=True)

    class Meta(SetSerializer.Meta):
        fields = [*SetSerializer.Meta.fields, "games"]


class StandingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    group = serializers.IntegerField(allow_null=True)
    entrant_id = serializers.IntegerField(source="entrant.pk")
    name = serializers.CharField(source="entrant.name")
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    points = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())


class StandingsSerializer(serializers.Serializer):
    stage = serializers.IntegerField(source="stage.pk")
    tiebreaks = serializers.ListField(child=serializers.CharField(), source="tiebreak_names")
    lines = StandingLineSerializer(many=True)


class RatingSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlayerRating
        fields = ["mu", "sigma", "ordinal", "games", "updated_at"]


class RatingHistorySerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingHistory
        fields = ["game", "mu", "sigma", "ordinal", "recorded_at"]


class PlayerSerializer(serializers.ModelSerializer):
    rating = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "display_name", "region", "rating"]

    @extend_schema_field(RatingSerializer(allow_null=True))
    def get_rating(self, player: Player) -> dict[str, Any] | None:
        rating = getattr(player, "rating", None)
        return RatingSerializer(rating).data if rating else None


class PlayerDetailSerializer(PlayerSerializer):
    history = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "history"]

    @extend_schema_field(RatingHistorySerializer(many=True))
    def get_history(self, player: Player) -> list[dict[str, Any]]:
        history = player.rating_history.order_by("recorded_at", "id")
        return RatingHistorySerializer(history, many=True).data


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
