from django.urls import path

from matches import views

app_name = "matches"
urlpatterns = [
    path("players/", views.player_list_page, name="player-list"),
    path("matches/", views.match_list_page, name="match-list"),
    path("matches/<int:pk>/", views.match_detail_page, name="match-detail"),
    path("matches/<int:pk>/confirm/", views.match_confirm, name="match-confirm"),
    path("matches/<int:pk>/dispute/", views.match_dispute, name="match-dispute"),
    path("matches/<int:pk>/override/", views.match_override, name="match-override"),
    path("matches/<int:pk>/disputes/<int:dispute_pk>/", views.dispute_detail_page,
         name="dispute-detail"),
    path("matches/verdict-changes/", views.verdict_change_list_page, name="verdict-changes"),
    path("matches/<int:pk>/verdict-changes/<int:change_pk>/review/", views.verdict_change_review,
         name="verdict-change-review"),
]
