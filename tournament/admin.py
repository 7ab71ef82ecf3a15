"""The site administrator's pages (`/admin/`): organisations and their organisers (docs/security.md,
"Organisations"). Everything else is done in the app's own pages."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Organisation


@admin.register(Organisation)
class OrganisationAdmin(SimpleHistoryAdmin):
    list_display = ["name", "slug", "publish_member_numbers"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    search_fields = ["name", "slug"]
