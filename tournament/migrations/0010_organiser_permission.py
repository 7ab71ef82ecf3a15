"""The organiser's permission (docs/security.md): who may create tournaments and series and restore
backups. Granted here to every account that already directs a tournament or a series, so that nobody
who could do it before loses it; from now on the site's administrator grants it."""

from django.conf import settings
from django.db import migrations

CODENAME = "organise"
NAME = "Veranstalter: darf Turniere und Serien anlegen und Sicherungen einspielen"


def grant_to_directors(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Tournament = apps.get_model("tournament", "Tournament")
    Series = apps.get_model("tournament", "Series")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    # the permission is made by post_migrate only after every migration: make it now
    content_type, _ = ContentType.objects.get_or_create(app_label="tournament", model="tournament")
    permission, _ = Permission.objects.get_or_create(content_type=content_type, codename=CODENAME,
                                                     defaults={"name": NAME})
    directors = (set(Tournament.directors.through.objects.values_list("user_id", flat=True))
                 | set(Series.directors.through.objects.values_list("user_id", flat=True)))
    for user in User.objects.filter(pk__in=directors):
        user.user_permissions.add(permission)


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0009_draft_settled"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tournament",
            options={"ordering": ["-date", "name"],
                     "permissions": [(CODENAME, NAME)],
                     "verbose_name": "Turnier", "verbose_name_plural": "Turniere"},
        ),
        migrations.RunPython(grant_to_directors, migrations.RunPython.noop),
    ]
