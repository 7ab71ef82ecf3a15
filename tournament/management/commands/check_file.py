"""`manage.py check_file FILE.json`: checks a tournament file (docs/tournament-file.md) without
importing it: its version of the exchange format, its form against the JSON Schema
(schemas/tournament-file.v1.schema.json) and everything the import checks, except whether its short
name is free in this database (`import_tournament` says that, `--slug` picks another).

A good file: one line "… in Ordnung" with what it holds, exit status 0. A file with problems: every
problem on standard output, one line each, saying where ("Runde 2, Tisch 3, Spiel 4: re_augen: …"),
then the count on standard error and exit status 2. A file that cannot be read, is not JSON or is
nested too deeply: one line on standard error, exit status 2, never a traceback.
"""
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.errors import UserError
from tournament.management.commands.import_tournament import load_file, too_deep
from tournament.services.file_checks import ImportProblems, check_file
from tournament.services.file_schema import file_version


class Command(BaseCommand):
    help = "Prüft eine Turnierdatei (JSON) gegen das Austauschformat, ohne sie zu importieren."

    def add_arguments(self, parser):
        parser.add_argument("file", help="die Turnierdatei (JSON, UTF-8)")

    def handle(self, *args, file, **options):
        data = load_file(file)
        try:
            plan = check_file(data, unique=False)
            version = file_version(data)
        except RecursionError:
            raise too_deep(file) from None
        except ImportProblems as error:
            for line in error.lines:
                self.stdout.write(line)
            raise CommandError(ngettext("Nicht in Ordnung: %(n)s Problem in %(file)s.",
                                        "Nicht in Ordnung: %(n)s Probleme in %(file)s.", len(error.lines))
                               % {"n": len(error.lines), "file": file}, returncode=2) from None
        except UserError as error:
            raise CommandError(str(error.message), returncode=2) from None
        tables = [table for round in plan.rounds for table in round.tables]
        said = (_("Austauschformat Version %(version)s") % {"version": version} if version
                else _("ohne Versionsangabe, gelesen als Version 1"))
        self.stdout.write(_("%(file)s ist in Ordnung (%(version)s). Spieler: %(players)s, Runden: %(rounds)s, "
                            "Tische: %(tables)s, Spiele: %(games)s, Strafen: %(penalties)s.")
                          % {"file": file, "version": said, "players": len(plan.players), "rounds": len(plan.rounds),
                             "tables": len(tables), "games": sum(len(t.games) for t in tables),
                             "penalties": sum(len(t.penalties) for t in tables)})
