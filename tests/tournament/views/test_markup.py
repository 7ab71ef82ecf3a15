"""The pages' markup as a screen reader reads it (docs/accessibility.md): no id twice on a page, and every
reference to an id (aria-describedby, aria-labelledby, label for=, aria-controls, a skip link's #target)
names one that exists. Checked on the pages of an evening with games, a penalty and a phone's entry
waiting, as the public and as the director, including the game form after a refused save."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.test import Client

from tournament.models import Table
from tournament.services import penalties, table_links

from ..factories import normal_game, play_round, seated_round

pytestmark = pytest.mark.django_db

REFERENCES = ("aria-describedby", "aria-labelledby", "aria-controls", "for")


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.references: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids[attributes["id"]] += 1
        for name in REFERENCES:
            for target in (attributes.get(name) or "").split():
                self.references.append((name, target))
        href = attributes.get("href") or ""
        if tag == "a" and href.startswith("#") and len(href) > 1:
            self.references.append(("href", href[1:]))


def problems(html: str) -> list[str]:
    parsed = Ids()
    parsed.feed(html)
    found = [f'id="{name}" {n} times' for name, n in parsed.ids.items() if n > 1]
    found += [f'{name}="{target}" names no id' for name, target in parsed.references if target not in parsed.ids]
    return found


@pytest.fixture
def evening(tournament):
    play_round(tournament, games=2)
    round2 = seated_round(tournament, seed="r2")
    table = round2.tables.get(number=1)
    penalties.add_penalty(table=table, offender_id=table.seats.first().entry_id, note="Farbe")
    token = Table.objects.get(pk=table.pk).link_token
    table_links.enter_game(token=token, number=1, data=normal_game(table, 1), key="k1", device="d" * 16, version=0)
    return tournament


def pages(slug: str, entry_id: int, token: str) -> list[str]:
    t = f"/t/{slug}/"
    return [t, t + "standings/", t + f"players/{entry_id}/", t + "rounds/1/", t + "rounds/2/", t + "players/",
            t + "rounds/2/tables/1/", t + "rounds/2/tables/1/games/new/", t + "rounds/1/tables/1/games/1/",
            t + "rounds/2/board/", t + "rounds/2/links/", t + "settings/", t + "log/", t + "rounds/1/tables/1/zettel/",
            f"/e/{token}/", "/hilfe/", "/", "/accounts/login/"]


def test_no_duplicate_ids_and_no_reference_to_a_missing_id(evening, director):
    entry = evening.entries.first()
    token = Table.objects.get(round__number=2, number=1).link_token
    public, client = Client(), Client()
    client.force_login(director)
    found = []
    for who in (public, client):
        for path in pages(evening.slug, entry.pk, token):
            response = who.get(path)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                found += [f"{path}: {problem}" for problem in problems(response.content.decode())]
    refused = client.post(f"/t/{evening.slug}/rounds/2/tables/1/games/new/", {"action": "save", "re_augen": "300"})
    found += [f"game form after a refused save: {problem}" for problem in problems(refused.content.decode())]
    assert not found, "\n".join(sorted(set(found)))
