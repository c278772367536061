from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from health.views import healthz
from tournaments.views import my_matches_page
from yomi_site import characters, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("characters/", characters.character_list_page, name="characters"),
    path("characters/<slug:character_id>/", characters.character_detail_page,
         name="character-detail"),
    path("events/", include("tournaments.urls")),
    path("my-matches/", my_matches_page, name="my-matches"),
    path("stats/", include("stats.urls")),
    path("simulations/", include("simulations.urls")),
    path("", include("matches.urls")),
    path("", include("rooms.urls")),  # match rooms, practice, replays (issue 22)
    # before the auth URLs: the same name, with rate limits (issue 11)
    path("accounts/login/", views.RateLimitedLoginView.as_view(), name="login"),
    path("accounts/password_reset/", views.RateLimitedPasswordResetView.as_view(),
         name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("accounts/", include("accounts.urls")),
    path("notifications/", include("notifications.urls")),
    path("admin/login/", views.admin_login, name="admin-login"),  # rate limited (issue 11)
    path("admin/", admin.site.urls),
    path("api/", include("tournaments.api.urls")),
    path("api/", include("matches.api.urls")),
    path("api/stats/", include("stats.api.urls")),
    path("api/simulations/", include("simulations.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # the split view serves Swagger UI's start-up script as a file (no inline script: CSP)
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"),
         name="api-docs"),
]
