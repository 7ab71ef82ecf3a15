"""`manage.py create_organisation NAME --organiser USER`: the site's administrator creates an
organisation (a club or an association) and makes an account its organiser (docs/security.md,
"Organisations"). Run again with an existing --slug, it adds the organiser to that organisation."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.errors import UserError
from tournament.models import Organisation
from tournament.services import organisations


class Command(BaseCommand):
    help = "Legt eine Organisation (Verein oder Verband) an und macht ein Konto zu ihrem Veranstalter."

    def add_arguments(self, parser):
        parser.add_argument("name", help="Name der Organisation, z. B. „DK Schwarze Dame Rheydt“")
        parser.add_argument("--slug", default="", help="Kurzname (sonst aus dem Namen gebildet)")
        parser.add_argument("--organiser", help="Benutzername des Kontos, das Veranstalter wird")
        parser.add_argument("--publish-member-numbers", action="store_true",
                            help="Mitgliedsnummern der Spieler öffentlich zeigen (sonst nie)")

    def handle(self, *args, name, slug="", organiser=None, publish_member_numbers=False, **options):
        user = None
        if organiser:
            user = get_user_model().objects.filter(username=organiser).first()
            if user is None:
                raise CommandError(_("Ein Konto %(name)s gibt es nicht.") % {"name": organiser}, returncode=2)
        existing = Organisation.objects.filter(slug=slug).first() if slug else None
        try:
            if existing is not None:
                organisation = existing
                if user is not None:
                    organisations.add_organiser(organisation=organisation, user=user)
            else:
                organisation = organisations.create_organisation(name=name, slug=slug, organiser=user)
        except UserError as error:
            raise CommandError(str(error.message), returncode=2) from None
        if publish_member_numbers and not organisation.publish_member_numbers:
            organisation.publish_member_numbers = True
            organisation.save(update_fields=["publish_member_numbers"])
        who = f" ({_('Veranstalter')}: {user.get_username()})" if user is not None else ""
        self.stdout.write(f"{organisation.slug}: {organisation.name}{who}")
