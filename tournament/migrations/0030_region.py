"""The hub's calendar and search (docs/hub.md): an organisation's region, the folded search keys of
organisations, tournaments and players (filled here for the rows there are), an index on the date."""

import tournament.models.search_keys
from django.conf import settings
from django.db import migrations, models

from tournament.collation import search_key

KEYS = {"Organisation": ("name",), "Tournament": ("name", "place"), "Player": ("name",)}


def fill_keys(apps, schema_editor):
    for model_name, sources in KEYS.items():
        model = apps.get_model("tournament", model_name)
        changed = []
        for row in model.objects.only("id", *sources).iterator(chunk_size=2000):
            row.search_key = search_key(*(getattr(row, source) for source in sources))
            changed.append(row)
            if len(changed) >= 2000:
                model.objects.bulk_update(changed, ["search_key"])
                changed = []
        model.objects.bulk_update(changed, ["search_key"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0029_rating'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='historicalorganisation',
            name='region',
            field=models.CharField(blank=True, choices=[('BW', 'Baden-Württemberg'), ('BY', 'Bayern'), ('BE', 'Berlin'), ('BB', 'Brandenburg'), ('HB', 'Bremen'), ('HH', 'Hamburg'), ('HE', 'Hessen'), ('MV', 'Mecklenburg-Vorpommern'), ('NI', 'Niedersachsen'), ('NW', 'Nordrhein-Westfalen'), ('RP', 'Rheinland-Pfalz'), ('SL', 'Saarland'), ('SN', 'Sachsen'), ('ST', 'Sachsen-Anhalt'), ('SH', 'Schleswig-Holstein'), ('TH', 'Thüringen')], default='', max_length=2, verbose_name='Region'),
        ),
        migrations.AddField(
            model_name='organisation',
            name='region',
            field=models.CharField(blank=True, choices=[('BW', 'Baden-Württemberg'), ('BY', 'Bayern'), ('BE', 'Berlin'), ('BB', 'Brandenburg'), ('HB', 'Bremen'), ('HH', 'Hamburg'), ('HE', 'Hessen'), ('MV', 'Mecklenburg-Vorpommern'), ('NI', 'Niedersachsen'), ('NW', 'Nordrhein-Westfalen'), ('RP', 'Rheinland-Pfalz'), ('SL', 'Saarland'), ('SN', 'Sachsen'), ('ST', 'Sachsen-Anhalt'), ('SH', 'Schleswig-Holstein'), ('TH', 'Thüringen')], default='', max_length=2, verbose_name='Region'),
        ),
        migrations.AddField(
            model_name='organisation',
            name='search_key',
            field=tournament.models.search_keys.SearchKeyField(sources=('name',)),
        ),
        migrations.AddField(
            model_name='player',
            name='search_key',
            field=tournament.models.search_keys.SearchKeyField(sources=('name',)),
        ),
        migrations.AddField(
            model_name='tournament',
            name='search_key',
            field=tournament.models.search_keys.SearchKeyField(sources=('name', 'place')),
        ),
        migrations.AddIndex(
            model_name='tournament',
            index=models.Index(fields=['date'], name='tournament_date'),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
