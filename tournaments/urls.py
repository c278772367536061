from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.event_list_page, name="event-list"),
]
