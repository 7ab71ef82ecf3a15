"""The rating carried across an association's Rangliste, stored by its refresh (services/rangliste_ratings.py,
docs/rating.md, "Across clubs on the hub"): exactly what replaying every game of the member clubs'
Ranglistenturniere in order gives, after corrections and a deletion; rated again only from the first
tournament that changed; shown beside the Schnitt and on the player's page with its chart, as the
publication levels and the organisation's switch allow."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import rating
from tournament import privacy
from tournament.models import Game, Player, RanglisteRating, RanglisteStanding, Seat
from tournament.selectors import association_rangliste as association
from tournament.selectors import rangliste as rangliste_selectors
from tournament.selectors.rangliste import public_key
from tournament.selectors.ratings import rating_text
from tournament.services import organisations, rangliste_ratings, rangliste_refresh, results, tournaments

from ..factories import normal_game, play_round, player_names, register
from .test_rangliste_association import association_rangliste, clubs  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
DAYS = [TODAY - datetime.timedelta(days=90), TODAY - datetime.timedelta(days=60), TODAY - datetime.timedelta(days=30)]


def ranglistenturnier(director, day, names, *, slug, club):
    tournament = tournaments.create_tournament(
        name=f"Turnier {slug}", date=day, director=director, slug=slug, counts_for_rangliste=True
    )
    register(tournament, [(name, club) for name in names])
    return tournament


def three_tournaments(clubs):  # noqa: F811
    """Three Ranglistenturniere of two clubs with games, entered out of date order; players of club A go to
    club B's tournament too (recognised by name and club)."""
    a, b, director_a, director_b = clubs
    names = player_names(10)
    march = ranglistenturnier(director_b, DAYS[2], names[:8], slug="maerz", club="DK Nord")
    january = ranglistenturnier(director_a, DAYS[0], names[2:10], slug="januar", club="DK Nord")
    february = ranglistenturnier(director_b, DAYS[1], names[1:9], slug="februar", club="DK Nord")
    for tournament in (march, january, february):
        play_round(tournament, games=2)
        play_round(tournament, games=2)
    return january, february, march


def refreshed(rangliste):
    rangliste.refresh_from_db()
    rangliste_refresh.refresh_rangliste(rangliste=rangliste, today=TODAY)
    rangliste.refresh_from_db()
    return rangliste


def replayed(rangliste) -> dict[str, rating.Rating]:
    """Every game of the Rangliste's tournaments rated anew by the pure engine in date, round, table and
    game order, by the link of who played it."""
    found = rangliste_selectors.read(rangliste, until=TODAY)
    matches = []
    for tournament in found.tournaments:
        seated: dict[int, list[int]] = {}
        for table_id, entry_id in (
            Seat.objects.filter(round__tournament=tournament).order_by("position").values_list("table_id", "entry_id")
        ):
            seated.setdefault(table_id, []).append(entry_id)
        for game in Game.objects.filter(table__round__tournament=tournament).order_by(
            "table__round__number", "table__number", "number"
        ):
            players = [found.keys[e] for e in seated[game.table_id] if e != game.sitting_out_id]
            matches.append(
                rating.match(
                    players=players,
                    re=[found.keys[int(e)] for e in game.re],
                    winner=game.winner,
                    value=game.value // game.multiplier,
                )
            )
    return {public_key(key): value for key, value in rating.replay(matches).items()}


def stored(rangliste) -> dict[str, rating.Rating]:
    return {
        link: rating.Rating(mu=mu, sigma=sigma, games=games)
        for link, mu, sigma, games in RanglisteRating.objects.filter(rangliste=rangliste, latest=True).values_list(
            "link", "mu", "sigma", "games"
        )
    }


def test_the_stored_rating_equals_replaying_every_game_after_corrections_and_a_deletion(clubs):  # noqa: F811
    a, b, director_a, _director_b = clubs
    january, february, march = three_tournaments(clubs)
    rangliste = refreshed(association_rangliste(director_a, [a, b]))
    first = stored(rangliste)
    assert len(first) == 10 and max(r.games for r in first.values()) == 12  # three tournaments of 4 games
    assert first == replayed(rangliste)
    # a correction in the first tournament moves the ratings of every later one
    table = january.rounds.get(number=1).tables.order_by("number").first()
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=40))
    corrected = stored(refreshed(rangliste))
    assert corrected != first and corrected == replayed(rangliste)
    # a game deleted in the second
    table = february.rounds.get(number=2).tables.order_by("number").first()
    results.delete_game(table=table, number=2)
    assert stored(refreshed(rangliste)) == replayed(rangliste)
    # each player's course: the rating after each tournament he played, the newest marked
    steps = RanglisteRating.objects.filter(rangliste=rangliste)
    assert (
        sorted(steps.values_list("link", flat=True)).count(
            public_key(rangliste_selectors.read(rangliste, until=TODAY).keys[march.entries.order_by("id")[2].pk])
        )
        == 3
    )
    assert steps.filter(latest=True).count() == 10


def test_a_refresh_rates_again_only_from_the_first_tournament_that_changed(clubs):  # noqa: F811
    a, b, director_a, _director_b = clubs
    january, _february, march = three_tournaments(clubs)
    rangliste = refreshed(association_rangliste(director_a, [a, b]))

    def again():
        found = rangliste_selectors.read(rangliste, until=TODAY)
        return rangliste_ratings.compute(rangliste=rangliste, found=found).again

    assert again() == 0
    table = march.rounds.get(number=1).tables.first()
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=40))
    assert again() == 1  # the newest tournament alone
    refreshed(rangliste)
    assert stored(rangliste) == replayed(rangliste)
    table = january.rounds.get(number=1).tables.first()
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=40))
    assert again() == 3


def test_the_pages_show_the_rating_beside_the_schnitt_and_its_course(clubs):  # noqa: F811
    a, b, director_a, _director_b = clubs
    three_tournaments(clubs)
    rangliste = refreshed(association_rangliste(director_a, [a, b]))
    page = Client().get(reverse("tournament:rangliste", args=["verband"])).content.decode()
    assert ">WZ</abbr>" in page
    links = list(RanglisteRating.objects.filter(rangliste=rangliste).values_list("link", flat=True))
    link = max(set(links), key=links.count)  # one who played all three: a chart
    assert links.count(link) == 3
    value = RanglisteRating.objects.get(rangliste=rangliste, link=link, latest=True)
    shown = rating_text(rating.Rating(mu=value.mu, sigma=value.sigma, games=value.games))
    assert shown in page
    player = Client().get(reverse("tournament:rangliste_player", args=["verband"]) + f"?p={link}").content.decode()
    assert "Wertungszahl" in player and shown in player and "<svg" in player
    assert "Noch unsicher" in player  # at most 12 games of 40


def test_a_player_not_published_has_no_public_rating_and_the_switch_hides_it(clubs):  # noqa: F811
    a, b, director_a, _director_b = clubs
    january, _february, _march = three_tournaments(clubs)
    hidden = january.entries.order_by("id").first().player
    Player.objects.filter(pk=hidden.pk).update(publication=privacy.HIDDEN)
    rangliste = refreshed(association_rangliste(director_a, [a, b]))
    row = RanglisteStanding.objects.get(rangliste=rangliste, publication=privacy.HIDDEN)
    assert RanglisteRating.objects.filter(rangliste=rangliste, link=row.link, latest=True).exists()
    view = association.stored_view(rangliste, public=True)
    lines = {line.link: line for line, _cuts in view.ranked} | {line.link: line for line in view.below}
    assert lines[row.link].rating is None
    assert all(line.rating is not None for link, line in lines.items() if link != row.link)
    assert association.stored_view(rangliste, public=False).ranked[0][0].rating is not None
    player = Client().get(reverse("tournament:rangliste_player", args=["verband"]) + f"?p={row.link}")
    assert "Wertungszahl" not in player.content.decode()
    organisations.switch_rating(organisation=rangliste.organisation, enabled=False)
    page = Client().get(reverse("tournament:rangliste", args=["verband"])).content.decode()
    assert ">WZ</abbr>" not in page
