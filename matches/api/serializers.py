"""Output serializers for the matches API (inputs are declared on each view)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from matches.models import Dispute, Match, MatchLog, MatchSide, VerificationRun
from matches.selectors import log_latest_run


class MatchErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    json_path = serializers.CharField(required=False)


class MatchSideSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.display_name")
    player_id = serializers.IntegerField()

    class Meta:
        model = MatchSide
        fields = ["side", "player_id", "player", "character"]


class VerificationRunSerializer(serializers.ModelSerializer):
    class Meta:
        model = VerificationRun
        fields = [
            "id", "status", "verdict", "engine_version", "duration_ms", "attempts",
            "created_at", "started_at", "finished_at",
        ]


class MatchLogSerializer(serializers.ModelSerializer):
    submitted_by = serializers.CharField(source="submitted_by.get_username")
    latest_run = serializers.SerializerMethodField()
    endorsed_by_sides = serializers.SerializerMethodField()

    class Meta:
        model = MatchLog
        fields = [
            "id", "sha256", "size_bytes", "submitted_by", "created_at", "latest_run",
            "endorsed_by_sides",
        ]

    def get_latest_run(self, log: MatchLog) -> dict[str, Any] | None:
        run = log_latest_run(log)
        return None if run is None else VerificationRunSerializer(run).data

    def get_endorsed_by_sides(self, log: MatchLog) -> list[int]:
        return sorted({e.side for e in log.endorsements.all() if e.side is not None})


class DisputeSerializer(serializers.ModelSerializer):
    class Meta:
        model = Dispute
        fields = [
            "id", "status", "log_a", "log_b", "reason", "first_divergence_index", "divergence",
            "opened_at", "resolution", "resolved_at",
        ]


class MatchSerializer(serializers.ModelSerializer):
    sides = MatchSideSerializer(many=True)

    class Meta:
        model = Match
        fields = [
            "id", "mode", "status", "sides", "winner_side", "is_draw", "result_source",
            "result_log", "created_at", "updated_at",
        ]


class MatchDetailSerializer(MatchSerializer):
    logs = MatchLogSerializer(many=True)
    disputes = DisputeSerializer(many=True)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "logs", "disputes"]


class SubmissionSerializer(serializers.Serializer):
    is_new = serializers.BooleanField()
    log = MatchLogSerializer()
    match = MatchSerializer()
