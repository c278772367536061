from django.urls import path

from matches.api import views

app_name = "matches-api"
urlpatterns = [
    path("matches/", views.MatchListApi.as_view(), name="match-list"),
    path("solo-runs/", views.SoloRunSubmitApi.as_view(), name="solo-run-submit"),
    path("matches/<int:pk>/", views.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:pk>/logs/", views.MatchLogSubmitApi.as_view(), name="log-submit"),
    path("matches/<int:pk>/confirm/", views.MatchLogConfirmApi.as_view(), name="confirm"),
    path("matches/<int:pk>/dispute/", views.MatchLogDisputeApi.as_view(), name="dispute"),
    path("matches/<int:pk>/override/", views.MatchResultOverrideApi.as_view(), name="override"),
]
