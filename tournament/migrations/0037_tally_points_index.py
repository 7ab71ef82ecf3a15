"""An index for the sums of a player's page across clubs (docs/performance.md, the hub): Tally by round, entry and
points, read alone."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0036_rangliste_ratings"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="tally",
            index=models.Index(fields=["round", "entry", "points"], name="tally_round_entry_points"),
        ),
    ]
