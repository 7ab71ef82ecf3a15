"""An evening in the state the accessibility tests look at: 13 players with the names, clubs and
two-digit start numbers of a real evening (a table of five), round 1 played, round 2 published; at
table 1 of round 2 three games stored (points below zero on the phone's sheet) and a phone's entry for
game 4 waiting for the second player, at table 2 a phone's entry is a conflict with the stored game
(the board shows both). The pages a player and a director use, by name."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournament.models import Player, Table, Tournament
from tournament.services import results, table_links

from ..tournament.factories import make_director, make_tournament, normal_game, play_round, seated_round

PHONE_WIDTH, DESK_WIDTH = 360, 1280

# as long as the names and clubs of the demo evening, where a walk-through found what short ones hid
PEOPLE = [("Carla Hoffmann", "Kreuzbube Köln"), ("Dieter Wolf", "Fuchsjagd Kiel"),
          ("Lothar Jäger", "Doppelkopfrunde Münster-Hiltrup"), ("Frank Möller", "Kreuzbube Köln"),
          ("Ingrid Sommer", "Fuchsjagd Kiel"), ("Hans-Joachim Petersen", "Karlchen Bielefeld"),
          ("Karin Lehmann", "Kreuzbube Köln"), ("Anna-Lena Becker-Schulze", "Fuchsjagd Kiel"),
          ("Jürgen Vogt", "Karlchen Bielefeld"), ("Maria Krüger", "Doppelkopfrunde Münster-Hiltrup"),
          ("Sabine Schröder", "Kreuzbube Köln"), ("Wolfgang Bergmann", "Fuchsjagd Kiel"),
          ("Ute Zimmermann", "Karlchen Bielefeld")]


@dataclass
class Evening:
    slug: str
    player_id: int
    token: str  # table 1 of round 2: its entry link


def make_evening(slug: str = "abend") -> Evening:
    director = make_director("leitung")
    tournament = make_tournament(players=len(PEOPLE), director=director, slug=slug)
    for entry, (name, club) in zip(tournament.entries.order_by("start_number"), PEOPLE, strict=True):
        Player.objects.filter(pk=entry.player_id).update(name=name, club=club)
    tournament.confirmation = Tournament.Confirmation.SECOND_PLAYER
    tournament.save()
    play_round(tournament, games=3)
    round2 = seated_round(tournament, seed="r2")
    table1, table2, *_others = round2.tables.order_by("number")
    token1 = Table.objects.get(pk=table1.pk).link_token
    token2 = Table.objects.get(pk=table2.pk).link_token
    for number, augen in ((1, 90), (2, 150), (3, 80)):  # Re loses twice: points below zero
        results.save_game(table=table1, number=number, data=normal_game(table1, number, re_augen=augen))
    table_links.enter_game(token=token1, number=4, data=normal_game(table1, 4, re_augen=140), key="k-wait",
                           device="phone-a".ljust(16, "0"), version=0)
    results.save_game(table=table2, number=1, data=normal_game(table2, 1, re_augen=150), version=0)
    table_links.enter_game(token=token2, number=1, data=normal_game(table2, 1, re_augen=100), key="k-conflict",
                           device="phone-b".ljust(16, "0"), version=0)
    player = tournament.entries.order_by("start_number").first()
    return Evening(slug=slug, player_id=player.pk, token=token1)


def public_pages(evening: Evening) -> dict[str, str]:
    t = f"/t/{evening.slug}/"
    return {
        "overview": t,
        "standings": t + "standings/",
        "player": t + f"players/{evening.player_id}/",
        "seating": t + "rounds/2/",
        "table sheet": t + "rounds/1/tables/1/zettel/",
        "help": "/hilfe/",
    }


def director_pages(evening: Evening) -> dict[str, str]:
    t = f"/t/{evening.slug}/"
    return {
        "tournament": t,
        "players": t + "players/",
        "round": t + "rounds/2/",
        "table": t + "rounds/2/tables/2/",
        "game form": t + "rounds/2/tables/1/games/new/",
        "board": t + "rounds/2/board/",
        "settings": t + "settings/",
        "log": t + "log/",
        "standings (director)": t + "standings/",
    }


def login(page, base: str, username: str = "leitung") -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-" + username)
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def open_entry_page(page, base: str, evening: Evening, *, seat: int = 2) -> None:
    """The table's entry page, as the player in `seat` (who did not enter the waiting game)."""
    page.goto(f"{base}/e/{evening.token}/")
    page.get_by_role("button", name=re.compile(rf"^{seat} ")).first.click()
    page.wait_for_selector("#entry-heading:has-text('Spiel')")
