from django.urls import path

from rooms import views

app_name = "rooms"

urlpatterns = [
    path("rooms/practice/", views.practice_new, name="practice"),
    path("rooms/<int:pk>/", views.room_page, name="room"),
    path("rooms/characters/<slug:cid>.json", views.character_card, name="character-card"),
    path("rooms/<int:pk>/replay/", views.room_replay, name="room-replay"),
    path("matches/<int:pk>/room/", views.match_room, name="match-room"),
    path("matches/<int:pk>/replay/", views.match_replay, name="match-replay"),
]
