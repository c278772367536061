from django.urls import path

from simulations import views

app_name = "simulations"
urlpatterns = [
    path("matchups/", views.matchup_jobs_page, name="jobs"),
    path("matchups/new/", views.matchup_job_create_view, name="job-create"),
    path("matchups/<int:pk>/", views.matchup_job_page, name="job"),
    path("matchups/<int:pk>/progress.json", views.matchup_job_progress_api, name="job-progress"),
    path("matchups/<int:pk>/chart.json", views.matchup_job_chart_json, name="job-chart-json"),
    path("matchups/<int:pk>/chart.csv", views.matchup_job_chart_csv, name="job-chart-csv"),
    path("chart/", views.chart_in_use_page, name="chart-in-use"),
    path("calibration/", views.calibration_page, name="calibration"),
    path("events/<slug:slug>/seed/", views.event_seeding_simulated_view, name="event-seed"),
]
