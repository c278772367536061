from django.contrib import admin

from tournaments.models import Event


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "mode", "status", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
