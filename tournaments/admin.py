from django.contrib import admin

from tournaments.models import (
    Entrant,
    EntrantMember,
    Event,
    Game,
    PlayerRating,
    Set,
    SetResultChange,
    Stage,
)


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    fields = ["order", "name", "kind", "status"]
    readonly_fields = ["status"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "mode", "status", "created_at"]
    list_filter = ["mode", "status"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]
    inlines = [StageInline]


class EntrantMemberInline(admin.TabularInline):
    model = EntrantMember
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "status", "seed", "checked_in_at"]
    list_filter = ["status"]
    search_fields = ["name", "event__name"]
    inlines = [EntrantMemberInline]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0


@admin.register(Set)
class SetAdmin(admin.ModelAdmin):
    """Read-mostly: results change through the services (advancement, corrections)."""

    list_display = ["key", "stage", "round_name", "status", "outcome", "score_a", "score_b"]
    list_filter = ["status", "bracket"]
    search_fields = ["key", "stage__event__name"]
    readonly_fields = [f.name for f in Set._meta.fields]
    inlines = [GameInline]


@admin.register(SetResultChange)
class SetResultChangeAdmin(admin.ModelAdmin):
    list_display = ["set", "action", "changed_by", "created_at"]
    readonly_fields = ["set", "action", "changed_by", "reason", "before", "after",
                       "reset_set_keys", "created_at"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ["player", "ordinal", "mu", "sigma", "games"]
    ordering = ["-ordinal"]
