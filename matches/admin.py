from django.contrib import admin

from matches.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "region", "user", "created_at"]
    search_fields = ["display_name", "user__username"]
