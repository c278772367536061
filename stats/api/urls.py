from django.urls import path

from stats.api import views

app_name = "stats-api"
urlpatterns = [
    path("characters/<slug:character_id>/", views.CharacterStatsApi.as_view(), name="character"),
    path("matchups/", views.MatchupChartApi.as_view(), name="matchups"),
    path("players/<int:pk>/", views.PlayerStatsApi.as_view(), name="player"),
    path("leaderboard/", views.LeaderboardApi.as_view(), name="leaderboard"),
    path("games/", views.GameSideListApi.as_view(), name="games"),
]
