from django.urls import path

from matches import views

app_name = "matches"
urlpatterns = [
    path("players/", views.player_list_page, name="player-list"),
    path("matches/", views.match_list_page, name="match-list"),
]
