"""`manage.py import_tournament FILE.json`: creates a tournament from a file (docs/tournament-file.md).

Prints the new tournament's slug. A file with problems is not imported at all: every problem goes to
standard error, one line each, and the command exits with status 2. So does a file that is not JSON
or nested too deeply to read (Python's recursion limit), with one line and no traceback.
"""
import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.errors import UserError
from tournament.services.file_checks import ImportProblems
from tournament.services.importing import import_tournament
from tournament.services.organisations import organisation_named


class Command(BaseCommand):
    help = "Legt ein Turnier aus einer Turnierdatei (JSON) an und gibt seinen Kurznamen aus."

    def add_arguments(self, parser):
        parser.add_argument("file", help="die Turnierdatei (JSON, UTF-8)")
        parser.add_argument("--slug", help="Kurzname statt dem der Datei, etwa um eine Kopie anzulegen")
        parser.add_argument("--organisation", help="Kurzname der Organisation, der das Turnier gehört "
                                                   "(sonst die des Vereins, docs/security.md)")

    def handle(self, *args, file, slug=None, organisation=None, **options):
        data = load_file(file)
        try:
            owner = organisation_named(organisation)
        except UserError as error:
            raise CommandError(str(error.message), returncode=2) from None
        try:
            notes: list[str] = []
            tournament = import_tournament(data, slug=slug, organisation=owner, notes=notes)
        except RecursionError:
            # nested just shallow enough for json.load, but not for the checks a few calls deeper
            # (file_checks quotes a wrong value with json.dumps); import writes in one transaction
            raise too_deep(file) from None
        except ImportProblems as error:
            for line in error.lines:
                self.stderr.write(line)
            raise CommandError(_("Nichts importiert: %(n)s Problem(e) in %(file)s.")
                               % {"n": len(error.lines), "file": file}, returncode=2) from None
        except UserError as error:
            raise CommandError(str(error.message), returncode=2) from None
        for note in notes:
            self.stderr.write(note)
        self.stdout.write(tournament.slug)



def load_file(file: str):
    """The JSON of a tournament file; a file that cannot be read, is not JSON or is nested too deeply
    for Python's reader: a CommandError with one line and exit status 2 (also for `check_file`)."""
    try:
        with open(file, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise CommandError(_("%(file)s lässt sich nicht lesen: %(error)s")
                           % {"file": file, "error": error.strerror}, returncode=2) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CommandError(_("%(file)s ist kein gültiges JSON: %(error)s") % {"file": file, "error": error},
                           returncode=2) from None
    except RecursionError:
        raise too_deep(file) from None


def too_deep(file) -> CommandError:
    return CommandError(_("%(file)s ist zu tief verschachtelt, um es als JSON zu lesen.") % {"file": file},
                        returncode=2)
