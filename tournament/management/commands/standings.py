"""`manage.py standings SLUG [--round N] [--format json|csv|text]`: the standings, for scripts or a terminal.

json: a list of {"rank", "player", "points", "games", "won"}, best first (tied players share a rank),
ranked as the tournament says (`Tournament.ranking`): with table points each row also has
"table_points" and its "placements", with the average "average" and "rounds";
csv: the same with a header row, every cell guarded against a spreadsheet's formulas
(`tournament.spreadsheet`, as the downloads); text: an aligned table, and how it is ranked on stderr.
With --teams: the team and club standings instead (`selectors.teams`: json as the page's JSON export,
csv as its CSV, text one line per team with who counted).
Every name is written as `names.printable` makes it: no control character of a name stored before
names were cleaned (an escape sequence, a carriage return) reaches the terminal.
"""
import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament import names, ranking, spreadsheet
from tournament.models import Tournament
from tournament.selectors import standings
from tournament.selectors import teams as team_selectors

FIELDS = ("rank", "player", "points", "games", "won")


class Command(BaseCommand):
    help = "Gibt den Tabellenstand eines Turniers aus (json, csv oder text)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="Kurzname des Turniers")
        parser.add_argument("--round", type=int, help="Stand nach dieser Runde (sonst nach allen)")
        parser.add_argument("--format", choices=("json", "csv", "text"), default="text")
        parser.add_argument("--teams", action="store_true", help="Team- und Vereinswertung statt der Einzelwertung")

    def handle(self, *args, slug, round=None, format="text", teams=False, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(_("Ein Turnier mit dem Kurznamen %(slug)s gibt es nicht.") % {"slug": slug})
        if teams:
            return self.write_teams(tournament, round, format)
        mode = tournament.ranking
        rows = [{"rank": row.rank or (None if format == "json" else ""), "player": names.printable(row.name),
                 **ranking.export_values(row, mode, as_text=format != "json"),
                 "points": row.points, "games": row.games, "won": row.won}
                for row in standings(tournament, up_to_round=round)]
        if format == "json":
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
        elif format == "csv":
            fields = [FIELDS[0], FIELDS[1], *ranking.export_labels(mode), *FIELDS[2:]]
            spreadsheet.write(self.stdout, fields, ([row[field] for field in fields] for row in rows),
                              delimiter=",", lineterminator="\n")
        else:
            self.write_text(rows, mode)
            self.stderr.write(ranking.sentence(tournament))

    def write_text(self, rows, mode):
        extra = ranking.export_labels(mode)
        header = [_("Platz"), _("Spieler"), *extra.values(), _("Punkte"), _("Spiele"), _("gewonnen")]
        lines = [[f"{row['rank']}." if row["rank"] else "–", row["player"], *(str(row[key]) for key in extra),
                  str(row["points"]), str(row["games"]), str(row["won"])]
                 for row in rows]
        widths = [max(len(cells[i]) for cells in [header] + lines) for i in range(len(header))]
        for cells in [header] + lines:
            # the name column is left-aligned, the numbers right-aligned
            self.stdout.write("  ".join(cell.ljust(w) if i == 1 else cell.rjust(w)
                                        for i, (cell, w) in enumerate(zip(cells, widths, strict=True))).rstrip())

    def write_teams(self, tournament, round, format):
        found = team_selectors.team_standings(tournament, standings(tournament, up_to_round=round))
        if not found.any:
            raise CommandError(_("Dieses Turnier hat keine Teams und keine Vereinswertung."))
        if format == "json":
            self.stdout.write(json.dumps(team_selectors.json_data(found), ensure_ascii=False, indent=2))
            return
        header, lines = team_selectors.csv_table(found)
        lines = [[names.printable(cell) if isinstance(cell, str) else cell for cell in line] for line in lines]
        if format == "csv":
            spreadsheet.write(self.stdout, header, lines, delimiter=",", lineterminator="\n")
            return
        for table in (found.teams, found.clubs):
            if table is None:
                continue
            self.stdout.write(_("Teams") if table.kind == "teams" else _("Vereinswertung"))
            for line in (*table.rows, *table.apart):
                place = f"{line.place}." if line.place is not None else "–"
                name, counted, tie = map(names.printable, (line.name, line.counted_names, line.tie or ""))
                self.stdout.write(f"{place:>4} {name}  {line.value}  ({counted})" + (f"  [{tie}]" if tie else ""))
            self.stderr.write(table.rule)
