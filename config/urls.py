from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from tournament.api.routes import api
from tournament.views import publishing_api, table_link

urlpatterns = [
    path("admin/", admin.site.urls),
    # login/, logout/, password_change/, ... (names "login", "logout", ...)
    path("accounts/", include("django.contrib.auth.urls")),
    # set_language (POST) for the language switch in base.html. Without a CSRF token: changing the
    # language is no harm to anyone, and a visitor's page without a token is the same for every visitor,
    # so it is served whole from the shared cache (tournament/web/caching.py: whole_page).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    # a table's entry link (short: it is printed as a QR code on the score sheet)
    path("e/<str:token>/", table_link.entry_page, name="table_link"),
    path("e/<str:token>/state.json", table_link.state, name="table_link_state"),
    path("e/<str:token>/preview.json", table_link.preview, name="table_link_preview"),
    path("e/<str:token>/games.json", table_link.enter, name="table_link_enter"),
    path("e/<str:token>/drafts/<int:draft_id>/decide.json", table_link.decide, name="table_link_decide"),
    path("e/<str:token>/approve.json", table_link.approve, name="table_link_approve"),
    path("e/<str:token>/sw.js", table_link.service_worker, name="table_link_sw"),
    # a venue's batch of changes to a hub (docs/publishing.md; only with DJANGO_HUB=1)
    path("api/publish/v1/batch", publishing_api.publish_batch, name="publish_batch"),
    # the open read API: JSON of what visitors see, its OpenAPI description at /api/v1/openapi.json (docs/api.md)
    path("api/v1/", api.urls),
    path("", include("tournament.urls")),
]

# every error page in the site's frame and language (tournament/views/errors.py)
handler403 = "tournament.views.errors.permission_denied"
handler404 = "tournament.views.errors.page_not_found"
handler500 = "tournament.views.errors.server_error"
