"""The table of the shared cache (`CACHES` in config/settings.py: Django's database cache, table
doko_cache), made by `migrate` like every other table, so that no installation can run without it.
With DJANGO_REDIS_URL the cache is Redis and this does nothing; `manage.py createcachetable` makes the
table later should the cache move back to the database (on PostgreSQL then `manage.py migrate config
0001` and `manage.py migrate config`, so that 0002 stores its values uncompressed)."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
