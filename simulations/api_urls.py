from django.urls import path

from simulations import views

app_name = "simulations-api"
urlpatterns = [
    path("matchups/<int:pk>/", views.matchup_job_progress_api, name="job"),
    path("matchups/<int:pk>/chart/", views.matchup_job_chart_json, name="job-chart"),
]
