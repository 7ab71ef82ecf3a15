"""Every tournament, series, Rangliste and player belongs to an organisation (0018 moved what
existed into one). A migration of its own: PostgreSQL does not alter a table in the transaction that
updated its rows."""

import django.db.models.deletion
from django.db import migrations, models


def _required(model_name, related_name):
    return migrations.AlterField(
        model_name=model_name, name="organisation",
        field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name=related_name,
                                to="tournament.organisation", verbose_name="Organisation"))


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0018_organisations"),
    ]

    operations = [
        _required("player", "players"),
        _required("rangliste", "ranglisten"),
        _required("series", "series"),
        _required("tournament", "tournaments"),
    ]
