"""The publishing pages (docs/publishing.md): the director's "Online veröffentlichen", an organisation's
keys on the hub, and the corrections on a published tournament's overview."""

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import OutboxEntry, Publication, PublishingKey
from tournament.services import outbox
from tournament.services.publishing_keys import digest

from ..factories import make_director, make_organisation

pytestmark = pytest.mark.django_db


def director_client(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_director_starts_sees_the_state_and_stops(tournament, director):
    client = director_client(director)
    url = reverse("tournament:publishing", kwargs={"slug": tournament.slug})
    assert "Online veröffentlichen" in client.get(reverse("tournament:settings", kwargs={"slug": tournament.slug})
                                                  ).content.decode()
    response = client.post(url, {"action": "start", "hub_url": "https://hub.example/", "key": " doko_abc "})
    assert response.status_code == 302
    publication = Publication.objects.get()
    assert (publication.hub_url, publication.key, publication.active) == ("https://hub.example", "doko_abc", True)
    assert "1 Änderung wartet seit" in client.get(url).content.decode()
    publication.last_error, publication.last_message = "revoked_key", "Der Schlüssel wurde auf dem Hub widerrufen."
    publication.save()
    assert "Der Schlüssel wurde auf dem Hub widerrufen." in client.get(url).content.decode()
    assert client.post(url, {"action": "start", "hub_url": "https://hub.example", "key": "doko_neu"}).status_code == 302
    publication.refresh_from_db()  # the new key, the same tournament on the hub
    assert (publication.key, publication.last_error, publication.active) == ("doko_neu", "", True)
    assert client.post(url, {"action": "stop"}).status_code == 302
    assert not Publication.objects.get().active
    actions = set(tournament.history.values_list("log_action", flat=True))
    assert {"publication_started", "publication_stopped"} <= actions  # in the change log


def test_up_to_date_says_so(tournament, director):
    publication = outbox.start_publication(tournament=tournament, hub_url="https://hub.example", key="k")
    publication.acked_seq = OutboxEntry.objects.count()
    publication.save()
    page = director_client(director).get(reverse("tournament:publishing", kwargs={"slug": tournament.slug}))
    assert "Online: auf dem neuesten Stand" in page.content.decode()


def test_an_organiser_issues_a_key_shown_once_and_revokes_it(settings):
    settings.DOKO_HUB = True
    club = make_organisation("DK Hub", "dk-hub")
    organiser = make_director("hubleitung", organisation=club)
    client = director_client(organiser)
    url = reverse("tournament:publishing_keys", kwargs={"organisation_slug": "dk-hub"})
    assert url in client.get(reverse("tournament:home")).content.decode()  # linked from the start page
    page = client.post(url, {"action": "issue", "label": "Vereinsheim"}).content.decode()
    key = PublishingKey.objects.get()
    secret = page.split('<code class="secret">')[1].split("</code>")[0]
    assert key.digest == digest(secret) and secret not in client.get(url).content.decode()
    client.post(url, {"action": "revoke", "key": str(key.pk)})
    assert PublishingKey.objects.get().revoked_at is not None
    other = director_client(make_director("fremd", organisation=make_organisation()))
    assert other.get(url).status_code == 403
