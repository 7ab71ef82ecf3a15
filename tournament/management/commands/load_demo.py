"""Demo data for trying the app locally: `python manage.py load_demo` (also run by `make run`).

Idempotent: running it again resets the demo director's password and changes nothing else (the demo
tournament, found by its slug, is left as it is).
"""
import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from tournament.models import Rangliste, Series, Tournament
from tournament.services import generate, organisations, rangliste, seating, series, teams, tournaments

from ... import engine
from ...services import penalties

DIRECTOR_USERNAME = "turnierleitung"
DIRECTOR_PASSWORD = "doppelkopf"

DEMO_SLUG = "demo-doko-abend"
DEMO_NAME = "Demo: Doko-Abend im Vereinsheim"
DEMO_RANGLISTE = "demo-rangliste"
DEMO_LEAGUE = "demo-liga"
DEMO_TEAMS = {"Kreuz-Asse": ("Anna", "Bernd", "Carla", "Dieter"), "Pik-Damen": ("Elke", "Frank", "Gisela", "Hans"),
              "Herz-Buben": ("Ingrid", "Jürgen", "Karin", "Lothar"), "Karo-Füchse": ("Monika", "Nina", "Otto", "Petra")}
DEMO_PLAYERS = [
    ("Anna Becker", "DK Kreuzbube Köln"), ("Bernd Schulte", "DK Kreuzbube Köln"), ("Carla Hoffmann", ""),
    ("Dieter Wolf", "Doko-Freunde Münster"), ("Elke Brandt", "Doko-Freunde Münster"), ("Frank Möller", ""),
    ("Gisela Krüger", "Fuchsjagd Kiel"), ("Hans Petersen", "Fuchsjagd Kiel"), ("Ingrid Sommer", ""),
    ("Jürgen Vogt", "DK Kreuzbube Köln"), ("Karin Lehmann", "Doko-Freunde Münster"), ("Lothar Jäger", ""),
    ("Monika Fuchs", "Fuchsjagd Kiel"),
]


class Command(BaseCommand):
    help = "Legt Demodaten an: ein Konto für die Turnierleitung und ein Demoturnier (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="Where the server runs, for the printed login URL (default: %(default)s).",
        )

    @transaction.atomic
    def handle(self, *args, base_url, **options):
        director = self.ensure_director()
        self.load_demo_tournament(director=director)
        self.load_demo_rangliste(director=director)
        self.load_demo_league(director=director)

        login_url = base_url.rstrip("/") + reverse("login")
        self.stdout.write(self.style.SUCCESS("Demodaten bereit."))
        self.stdout.write(f"Einloggen: {login_url}")
        self.stdout.write(f"Benutzer:  {DIRECTOR_USERNAME}")
        self.stdout.write(f"Passwort:  {DIRECTOR_PASSWORD}")
        self.stdout.write(f"Demoturnier: {base_url.rstrip('/')}{self.demo_path}")
        self.stdout.write(f"Rangliste:   {base_url.rstrip('/')}/r/{DEMO_RANGLISTE}/")
        self.stdout.write(f"Liga:        {base_url.rstrip('/')}/s/{DEMO_LEAGUE}/")

    def ensure_director(self):
        User = get_user_model()
        director, _created = User.objects.get_or_create(username=DIRECTOR_USERNAME)
        director.is_staff = True
        director.is_active = True
        director.set_password(DIRECTOR_PASSWORD)
        director.save()
        # an organiser of the single club: creates tournaments and series, restores backups (docs/security.md)
        organisations.default_organisation().organisers.add(director)
        return director

    def load_demo_tournament(self, *, director):
        """A small evening, built once: 13 players (tables of 4, 4 and 5), round 1 played with a
        penalty, round 2 seated and published with a few games entered, round 3 not yet drawn; the
        clubs ranked by their best two players.
        When a tournament with the demo slug exists it is left as it is."""
        tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if tournament is None:
            tournament = tournaments.create_tournament(name=DEMO_NAME, slug=DEMO_SLUG, date=datetime.date.today(),
                                                       place="Vereinsheim am Markt", rounds_planned=3)
            generate.add_players(tournament, DEMO_PLAYERS)
            rng = random.Random("demo")
            first = seating.create_round(tournament=tournament)
            seating.seat_round(round=first, seed="demo-1")
            seating.publish_round(round=first)
            generate.play_round(first, rng=rng, penalty_chance=0)
            table = first.tables.get(number=1)
            penalties.add_penalty(table=table, offender_id=engine.seat_entries(table)[2], game_number=5,
                                note="Farbe nicht bedient")
            second = seating.create_round(tournament=tournament)
            seating.seat_round(round=second, seed="demo-2")
            seating.publish_round(round=second)
            generate.play_round(second, rng=rng, games={1: 3, 2: 1}, penalty_chance=0)
            # the clubs ranked as teams, the best two players of each counting (docs/competitions.md)
            teams.set_team_options(tournament=tournament, team_count=None, club_count=2, teams_apart=False)
        tournament.directors.add(director)
        self.demo_path = f"/t/{tournament.slug}/"

    def load_demo_rangliste(self, *, director):
        """A Rangliste over three played tournaments that count for it (docs/competitions.md): the demo's
        players in all three (two with a member number), a guest in the last one only (listed below the
        minimum of 6 rounds), a cut line after place 3. Built once."""
        if Rangliste.objects.filter(slug=DEMO_RANGLISTE).exists():
            return
        today = datetime.date.today()
        for index, days in enumerate((70, 40, 10), start=1):
            tournament = tournaments.create_tournament(
                name=f"Demo: Ranglistenturnier {index}", slug=f"demo-ranglistenturnier-{index}",
                date=today - datetime.timedelta(days=days), rounds_planned=3, director=director)
            players = DEMO_PLAYERS + ([("Nina Neumann", "Fuchsjagd Kiel")] if index == 3 else [])
            entries = generate.add_players(tournament, players)
            for entry in entries[:2]:
                rangliste.set_member_number(entry=entry, member_number=f"DDV-{1000 + entry.start_number}")
            tournament.counts_for_rangliste = True
            tournament.save(update_fields=["counts_for_rangliste"])
            for number in (1, 2, 3):
                round = seating.create_round(tournament=tournament)
                seating.seat_round(round=round, seed=f"rangliste-{index}-{number}")
                seating.publish_round(round=round)
                generate.play_round(round, rng=random.Random(f"rangliste-{index}-{number}"), penalty_chance=0.02)
                seating.close_round(round=round, backup=False)
        rangliste.create_rangliste(settings=rangliste.Settings(
            name="Demo: Rangliste der Vereinsabende", slug=DEMO_RANGLISTE, minimum_rounds=6,
            cut_lines=((3, "Bezirksmeisterschaft"),)), director=director)

    def load_demo_league(self, *, director):
        """A league (docs/competitions.md): a series in mode Liga with two match days of four teams of
        four, two rounds each, one player of each team at every table. Built once."""
        if Series.objects.filter(slug=DEMO_LEAGUE).exists():
            return
        league = series.create_series(name="Demo: Doko-Liga", slug=DEMO_LEAGUE, mode=Series.Mode.LEAGUE,
                                      director=director)
        today = datetime.date.today()
        for day in (1, 2):
            tournament = tournaments.create_tournament(
                name=f"Demo: {day}. Spieltag", slug=f"demo-liga-spieltag-{day}",
                date=today - datetime.timedelta(days=35 - 14 * day), rounds_planned=2, director=director)
            entries = generate.add_players(tournament, [(f"{name} {team.split('-')[0]}", "")
                                                        for team, names in DEMO_TEAMS.items() for name in names])
            for index, team in enumerate(DEMO_TEAMS):
                teams.create_team(tournament=tournament, name=team,
                                  members=[e.pk for e in entries[4 * index:4 * index + 4]])
            teams.set_team_options(tournament=tournament, team_count=None, club_count=None, teams_apart=False,
                                   team_match=True)
            tournament.refresh_from_db()
            for number in (1, 2):
                round = seating.create_round(tournament=tournament)
                seating.seat_round(round=round, seed=f"liga-{day}-{number}")
                seating.publish_round(round=round)
                generate.play_round(round, rng=random.Random(f"liga-{day}-{number}"), penalty_chance=0)
                seating.close_round(round=round, backup=False)
            series.add_tournament(series=league, tournament=tournament, user=director)
