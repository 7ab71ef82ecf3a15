from django.core.management import call_command


def test_no_model_changes_without_migrations(db):
    """Fails when a model was changed without `python manage.py makemigrations`."""
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
