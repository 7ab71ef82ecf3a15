from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0024_registration_links"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="prizes",
            field=models.JSONField(blank=True, default=dict, verbose_name="Preise"),
        ),
        migrations.AddField(
            model_name="historicaltournament",
            name="prizes",
            field=models.JSONField(blank=True, default=dict, verbose_name="Preise"),
        ),
    ]
