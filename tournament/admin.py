"""The site administrator's pages (`/admin/`): organisations and their organisers (docs/security.md,
"Organisations"). Everything else is done in the app's own pages."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Organisation


@admin.register(Organisation)
class OrganisationAdmin(SimpleHistoryAdmin):
    list_display = ["name", "slug", "region", "publish_member_numbers"]
    list_filter = ["region"]  # (the hub's calendar filters by it: docs/hub.md)
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    search_fields = ["name", "slug"]
    # switched on the organisation's own page (services.organisations.switch_rating), which moves every
    # one of its tournaments' change counters; a save here would not
    readonly_fields = ["rating_enabled"]
