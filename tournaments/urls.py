from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.event_list_page, name="event-list"),
    # Player pages live here because ratings are the tournaments app's (matches holds players).
    path("players/", views.player_ratings_page, name="player-ratings"),
    path("players/<int:pk>/", views.player_detail_page, name="player-detail"),
    path("<slug:slug>/", views.event_detail_page, name="event-detail"),
    path("<slug:slug>/register/", views.event_register, name="event-register"),
    path("<slug:slug>/status/", views.event_status_change, name="event-status"),
    path("<slug:slug>/seeding/", views.event_seeding_page, name="event-seeding"),
    path("<slug:slug>/verification/", views.event_verification_page,
         name="event-verification"),
    path("<slug:slug>/entrants/<int:pk>/accept/", views.entrant_invitation_answer,
         {"answer": "accept"}, name="entrant-accept"),
    path("<slug:slug>/entrants/<int:pk>/decline/", views.entrant_invitation_answer,
         {"answer": "decline"}, name="entrant-decline"),
    path("<slug:slug>/entrants/<int:pk>/withdraw/", views.entrant_withdraw,
         name="entrant-withdraw"),
    path("<slug:slug>/entrants/<int:pk>/check-in/", views.entrant_check_in,
         name="entrant-check-in"),
    path("<slug:slug>/stages/<int:pk>/", views.stage_detail_page, name="stage-detail"),
    path("<slug:slug>/stages/<int:pk>/generate/", views.stage_generate, name="stage-generate"),
    path("<slug:slug>/sets/<int:pk>/", views.set_detail_page, name="set-detail"),
    path("<slug:slug>/sets/<int:pk>/correct/", views.set_correct_page, name="set-correct"),
    path("<slug:slug>/sets/<int:pk>/match/", views.set_match_open_view, name="set-match-open"),
]
