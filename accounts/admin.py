from django.contrib import admin

from accounts.models import ApiToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["user", "country", "email_notifications"]
    search_fields = ["user__username"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    # the digest is useless to read and the key is never stored: show who and when only
    list_display = ["name", "user", "hint", "created_at", "last_used_at"]
    readonly_fields = ["user", "name", "hint", "created_at", "last_used_at"]
    exclude = ["digest"]
    search_fields = ["user__username", "name"]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False
