from django.urls import path

from stats import views

app_name = "stats"
urlpatterns = [
    path("", views.stats_index_page, name="index"),
    path("matchups/", views.matchup_chart_page, name="matchups"),
    path("leaderboards/", views.leaderboard_page, name="leaderboards"),
    path("survival/", views.survival_leaderboard_page, name="survival"),
    path("characters/<slug:character_id>/", views.character_stats_page, name="character"),
    path("players/<int:pk>/", views.player_stats_page, name="player"),
]
