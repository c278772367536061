from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.inbox_page, name="inbox"),
    path("read-all/", views.notifications_read_all, name="read-all"),
    path("<int:pk>/read/", views.notification_read, name="read"),
]
