"""The hub's calendar and search (docs/hub.md): an organisation's region, the folded search keys of
organisations, tournaments and players (filled here for the rows there are), an index on the date.

On PostgreSQL the search keys get trigram indexes (pg_trgm; the search's LIKE '%…%' then reads the
index instead of every player: 300 ms -> under 50 ms at 300,000 player records, docs/hub.md). Where
the extension cannot be created (a database user without the right), the search works without them,
more slowly; SQLite has none."""

import tournament.models.search_keys
from django.conf import settings
from django.db import DatabaseError, migrations, models, transaction

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


TRIGRAM_TABLES = ("tournament_player", "tournament_tournament", "tournament_organisation")


def trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DatabaseError:
        return  # (the search reads the table instead)
    for table in TRIGRAM_TABLES:
        schema_editor.execute(f"CREATE INDEX {table}_search_trgm ON {table} USING gin (search_key gin_trgm_ops)")


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in TRIGRAM_TABLES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {table}_search_trgm")


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
        migrations.RunPython(trigram_indexes, drop_trigram_indexes),
    ]
