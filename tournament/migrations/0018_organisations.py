"""Organisations (docs/security.md, "Organisations"): every tournament, series, Rangliste and player
belongs to one. What exists moves into one organisation, "Verein", whose organisers are the accounts
that had the organiser's permission (`tournament.organise`, which this replaces). A database without
tournaments, series, Ranglisten, players or organisers gets no organisation: the site's administrator
creates the first one (`manage.py create_organisation`)."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


def into_one_organisation(apps, schema_editor):
    Organisation = apps.get_model("tournament", "Organisation")
    Permission = apps.get_model("auth", "Permission")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    owned = [apps.get_model("tournament", name) for name in ("Tournament", "Series", "Rangliste", "Player")]
    permission = Permission.objects.filter(content_type__app_label="tournament", codename="organise").first()
    organisers = list(User.objects.filter(user_permissions=permission)) if permission else []
    if not organisers and not any(model.objects.exists() for model in owned):
        return
    organisation = Organisation.objects.create(name="Verein", slug="verein")
    organisation.organisers.set(organisers)
    for model in owned:
        model.objects.update(organisation=organisation)
    if permission is not None:
        permission.user_set.clear()


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0017_league_cup'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='tournament',
            options={'ordering': ['-date', 'name'], 'verbose_name': 'Turnier', 'verbose_name_plural': 'Turniere'},
        ),
        migrations.CreateModel(
            name='HistoricalOrganisation',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('log_tournament', models.IntegerField(db_index=True, null=True)),
                ('log_round', models.PositiveSmallIntegerField(null=True)),
                ('log_table', models.PositiveSmallIntegerField(null=True)),
                ('log_action', models.CharField(blank=True, max_length=32)),
                ('log_user', models.CharField(blank=True, max_length=150)),
                ('log_device', models.CharField(blank=True, max_length=64)),
                ('log_detail', models.JSONField(blank=True, default=dict)),
                ('name', models.CharField(max_length=200, verbose_name='Name')),
                ('slug', models.SlugField(max_length=80, verbose_name='Kurzname')),
                ('publish_member_numbers', models.BooleanField(default=False, verbose_name='Mitgliedsnummern öffentlich')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical Organisation',
                'verbose_name_plural': 'historical Organisationen',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='Organisation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200, verbose_name='Name')),
                ('slug', models.SlugField(max_length=80, unique=True, verbose_name='Kurzname')),
                ('publish_member_numbers', models.BooleanField(default=False, verbose_name='Mitgliedsnummern öffentlich')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('organisers', models.ManyToManyField(blank=True, related_name='organisations', to=settings.AUTH_USER_MODEL, verbose_name='Veranstalter')),
            ],
            options={
                'verbose_name': 'Organisation',
                'verbose_name_plural': 'Organisationen',
                'ordering': ['name'],
            },
        ),
        migrations.AddField(
            model_name='historicalrangliste',
            name='organisation',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournament.organisation', verbose_name='Organisation'),
        ),
        migrations.AddField(
            model_name='historicalseries',
            name='organisation',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournament.organisation', verbose_name='Organisation'),
        ),
        migrations.AddField(
            model_name='historicaltournament',
            name='organisation',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournament.organisation', verbose_name='Organisation'),
        ),
        migrations.AddField(
            model_name='player',
            name='organisation',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='players', to='tournament.organisation', verbose_name='Organisation'),
        ),
        migrations.AddField(
            model_name='rangliste',
            name='organisation',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ranglisten', to='tournament.organisation', verbose_name='Organisation'),
        ),
        migrations.AddField(
            model_name='series',
            name='organisation',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='series', to='tournament.organisation', verbose_name='Organisation'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='organisation',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='tournament.organisation', verbose_name='Organisation'),
        ),
        migrations.RunPython(into_one_organisation, migrations.RunPython.noop),
    ]
