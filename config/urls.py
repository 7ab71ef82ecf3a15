from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # login/, logout/, password_change/, ... (names "login", "logout", ...)
    path("accounts/", include("django.contrib.auth.urls")),
    # set_language (POST) for the language switch in base.html
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournament.urls")),
]
