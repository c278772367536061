"""Output shapes of the statistics API (and its OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from stats.models import GameSide


class ScopeSerializer(serializers.Serializer):
    mode = serializers.CharField(allow_null=True)
    event = serializers.CharField(allow_null=True)
    since = serializers.CharField(allow_null=True, help_text="YYYY-MM")
    until = serializers.CharField(allow_null=True, help_text="YYYY-MM")


class RecordSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="a draw is half a win")
    interval_low = serializers.FloatField(allow_null=True, help_text="95% Wilson interval")
    interval_high = serializers.FloatField(allow_null=True)
    enough_games = serializers.BooleanField()


class MatchupSerializer(RecordSerializer):
    character = serializers.CharField()
    opponent = serializers.CharField()
    opponent_name = serializers.CharField(required=False)


class OptionSerializer(serializers.Serializer):
    option = serializers.CharField()
    label = serializers.CharField()
    count = serializers.IntegerField()
    share = serializers.FloatField(allow_null=True)


class ComboSerializer(serializers.Serializer):
    game_id = serializers.IntegerField(help_text="the match id")
    turn = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())
    damage = serializers.IntegerField()
    opponent_character = serializers.CharField()
    opponent_name = serializers.CharField()


class CombosSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    per_game = serializers.FloatField(allow_null=True)
    damage_mean = serializers.FloatField(allow_null=True)
    damage_max = serializers.IntegerField(allow_null=True)
    top = ComboSerializer(many=True)


class UseSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    per_game = serializers.FloatField(allow_null=True)


class JokersSerializer(serializers.Serializer):
    gold_bursts = UseSerializer()
    rewinds = UseSerializer()
    power_up_jokers = UseSerializer()
    pump_jokers = UseSerializer()
    bluffs = UseSerializer()


class ComebacksSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    share_of_wins = serializers.FloatField(allow_null=True)
    deficit_overcome_mean = serializers.FloatField(allow_null=True)
    largest_deficit_overcome = serializers.IntegerField(allow_null=True)
    largest_game = serializers.IntegerField(allow_null=True)
    aces_spent_per_game = serializers.FloatField(allow_null=True)
    damage_per_game = serializers.FloatField(allow_null=True)
    knockdowns_per_game = serializers.FloatField(allow_null=True)


class PopularitySerializer(serializers.Serializer):
    month = serializers.CharField()
    games = serializers.IntegerField()
    all_games = serializers.IntegerField()
    pick_rate = serializers.FloatField(allow_null=True)


class CharacterStatsSerializer(serializers.Serializer):
    character = serializers.CharField()
    name = serializers.CharField()
    scope = ScopeSerializer()
    overall = RecordSerializer()
    matchups = MatchupSerializer(many=True)
    options = OptionSerializer(many=True)
    combos = CombosSerializer()
    jokers = JokersSerializer()
    comebacks = ComebacksSerializer()
    popularity = PopularitySerializer(many=True)


class CharacterRefSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()


class MatchupChartSerializer(serializers.Serializer):
    scope = ScopeSerializer()
    characters = CharacterRefSerializer(many=True)
    min_games = serializers.IntegerField()
    cells = MatchupSerializer(many=True)


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()


class PlayerCharacterSerializer(RecordSerializer):
    character = serializers.CharField()
    name = serializers.CharField()


class HeadToHeadSerializer(RecordSerializer):
    opponent = serializers.IntegerField()
    opponent_name = serializers.CharField()


class StatsRatingSerializer(serializers.Serializer):
    ordinal = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class RatingPointSerializer(serializers.Serializer):
    recorded_at = serializers.CharField()
    ordinal = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class RecentGameSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    character = serializers.CharField()
    character_name = serializers.CharField()
    opponent_character = serializers.CharField()
    opponent_character_name = serializers.CharField()
    opponent_name = serializers.CharField()
    result = serializers.CharField()


class PlacementSerializer(serializers.Serializer):
    event = serializers.CharField()
    event_slug = serializers.CharField()
    entrant = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True)
    entrants = serializers.IntegerField()


class SetResultSerializer(serializers.Serializer):
    event = serializers.CharField()
    event_slug = serializers.CharField()
    set = serializers.IntegerField()
    round = serializers.CharField()
    entrant_a = serializers.CharField()
    entrant_b = serializers.CharField()
    score_a = serializers.IntegerField()
    score_b = serializers.IntegerField()
    winner = serializers.CharField(allow_null=True)


class PlayerStatsSerializer(serializers.Serializer):
    player = PlayerRefSerializer()
    scope = ScopeSerializer()
    overall = RecordSerializer()
    characters = PlayerCharacterSerializer(many=True)
    head_to_head = HeadToHeadSerializer(many=True)
    opponent = HeadToHeadSerializer(allow_null=True)
    rating = StatsRatingSerializer(allow_null=True)
    rating_history = RatingPointSerializer(many=True)
    recent_games = RecentGameSerializer(many=True)
    placements = PlacementSerializer(many=True)
    results = SetResultSerializer(many=True)


class LeaderboardRowSerializer(RecordSerializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()


class LeaderboardSerializer(serializers.Serializer):
    scope = ScopeSerializer()
    character = serializers.CharField(allow_blank=True)
    rows = LeaderboardRowSerializer(many=True)


class GameSideSerializer(serializers.ModelSerializer):
    match = serializers.IntegerField(source="game_id")
    player_name = serializers.CharField(source="player.display_name")
    opponent_name = serializers.CharField(source="opponent.display_name")

    class Meta:
        model = GameSide
        exclude = ["id", "game", "event_key", "month"]


class StatsErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
