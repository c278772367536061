from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.sign_up, name="signup"),
    path("confirm/resend/", views.confirmation_resend, name="confirmation-resend"),
    path("activate/<str:uidb64>/<str:token>/", views.activate, name="activate"),
    path("profile/", views.profile, name="profile"),
    path("tokens/", views.api_tokens, name="api-tokens"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api-token-revoke"),
]
