from django.urls import path

from tournaments.api import views

app_name = "tournaments-api"
urlpatterns = [
    path("events/", views.EventListApi.as_view(), name="event-list"),
    path("events/<slug:slug>/", views.EventDetailApi.as_view(), name="event-detail"),
    path("events/<slug:slug>/status/", views.EventStatusChangeApi.as_view(), name="event-status"),
    path("events/<slug:slug>/stages/", views.StageCreateApi.as_view(), name="stage-create"),
    path("events/<slug:slug>/register/", views.EntrantRegisterApi.as_view(), name="register"),
    path("events/<slug:slug>/seeding/preview/", views.EventSeedingPreviewApi.as_view(),
         name="seeding-preview"),
    path("events/<slug:slug>/seeding/", views.EventSeedingSetApi.as_view(), name="seeding-set"),
    path("events/<slug:slug>/verification/", views.EventVerificationApi.as_view(),
         name="event-verification"),
    path("entrants/", views.EntrantListApi.as_view(), name="entrant-list"),
    path("entrants/<int:pk>/withdraw/", views.EntrantWithdrawApi.as_view(), name="withdraw"),
    path("entrants/<int:pk>/accept/", views.EntrantInvitationAcceptApi.as_view(), name="accept"),
    path("entrants/<int:pk>/decline/", views.EntrantInvitationDeclineApi.as_view(),
         name="decline"),
    path("entrants/<int:pk>/check-in/", views.EntrantCheckInApi.as_view(), name="check-in"),
    path("entrants/<int:pk>/disqualify/", views.EntrantDisqualifyApi.as_view(),
         name="disqualify"),
    path("stages/", views.StageListApi.as_view(), name="stage-list"),
    path("stages/<int:pk>/", views.StageDetailApi.as_view(), name="stage-detail"),
    path("stages/<int:pk>/generate/", views.StageGenerateApi.as_view(), name="stage-generate"),
    path("stages/<int:pk>/standings/", views.StageStandingsApi.as_view(), name="standings"),
    path("sets/", views.SetListApi.as_view(), name="set-list"),
    path("sets/<int:pk>/", views.SetDetailApi.as_view(), name="set-detail"),
    path("sets/<int:pk>/report/", views.SetResultReportApi.as_view(), name="set-report"),
    path("sets/<int:pk>/correct/", views.SetResultCorrectApi.as_view(), name="set-correct"),
    path("players/", views.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:pk>/", views.PlayerDetailApi.as_view(), name="player-detail"),
]
