"""Publishing from a venue to a hub (docs/publishing.md): the venue's outbox, written in the transaction
of each change; the hub's endpoint with its idempotency and refusals; the sender; a round trip."""

import datetime
import hashlib
import json

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournament.models import (
    HubCorrection,
    IdempotencyRecord,
    OutboxEntry,
    Publication,
    PublishedTournament,
    Tournament,
)
from tournament.services import (
    hub_idempotency,
    importing,
    outbox,
    penalties,
    results,
    seating,
    sheet_state,
    tournaments,
)
from tournament.services.exporting import export_tournament
from tournament.services.publishing_keys import find_key, issue_key, revoke_key
from tournament.web import caching, publish_sender

from ..factories import make_organisation, normal_game, play_round, seat_ids, seated_round

pytestmark = pytest.mark.django_db
HUB = "https://hub.example"


@pytest.fixture
def hub(settings):
    settings.DOKO_HUB = True
    return make_organisation("DK Hub-Verein", "hub-verein")


@pytest.fixture
def secret(hub):
    return issue_key(organisation=hub, label="Vereinsheim")[1]


def publish(tournament, secret="doko_x"):
    return outbox.start_publication(tournament=tournament, hub_url=HUB, key=secret)


def client_transport(client=None):
    """The sender's transport through Django's test client: the hub is this same process."""
    client = client or Client()

    def transport(url, headers, body):
        assert url == HUB + publish_sender.PATH
        response = client.post(publish_sender.PATH, data=body, content_type="application/json",
                               headers={"Authorization": headers["Authorization"],
                                        "Idempotency-Key": headers["Idempotency-Key"]})
        return response.status_code, response.json()
    return transport


def post(body, secret, key="k1"):
    return Client().post(publish_sender.PATH, data=json.dumps(body), content_type="application/json",
                         headers={"Authorization": f"Bearer {secret}", "Idempotency-Key": key})


# ---- the venue's outbox ----------------------------------------------------------------------------

def test_publishing_queues_the_whole_file_first_then_each_change_in_order(tournament):
    round = seated_round(tournament)
    publication = publish(tournament)
    table = round.tables.order_by("number").first()
    results.save_game(table=table, data=normal_game(table, 1))
    seating.close_round(round=round, backup=False)
    entries = list(OutboxEntry.objects.filter(publication=publication).order_by("seq"))
    assert [(e.seq, e.kind) for e in entries] == [(1, "file"), (2, "table"), (3, "file")]
    assert entries[0].payload["name"] == tournament.name and "link" not in json.dumps(entries[0].payload)
    assert entries[1].payload["round"] == 1 and entries[1].payload["table"]["number"] == table.number
    assert len(entries[1].payload["table"]["rows"]) == 1


def test_a_change_that_rolls_back_leaves_no_entry(tournament):
    round = seated_round(tournament)
    publication = publish(tournament)
    table = round.tables.first()
    with pytest.raises(RuntimeError), transaction.atomic():
        results.save_game(table=table, data=normal_game(table, 1))
        assert OutboxEntry.objects.filter(publication=publication).count() == 2  # queued with the change ...
        raise RuntimeError("the request fails after the save")
    assert OutboxEntry.objects.filter(publication=publication).count() == 1  # ... and gone with it


def test_an_unpublished_or_stopped_tournament_queues_nothing(tournament):
    round = seated_round(tournament)
    table = round.tables.first()
    results.save_game(table=table, data=normal_game(table, 1))
    assert not OutboxEntry.objects.exists()
    publish(tournament)
    outbox.stop_publication(tournament=tournament)
    results.save_game(table=table, data=normal_game(table, 2))
    assert OutboxEntry.objects.count() == 1
    assert not Publication.objects.get().active


# ---- the hub's endpoint ------------------------------------------------------------------------------

def batch(entries, venue="8b0e3f4c-7d1a-4a55-9f0e-2c3b6a1d9e01", version=1):
    return {"format_version": version, "venue_tournament": venue, "entries": entries}


def file_entries(tournament, first=1):
    return [{"seq": first, "at": "2026-11-21T21:14:00+01:00", "kind": "file",
             "payload": outbox.file_payload(tournament)}]


def test_the_same_idempotency_key_and_body_gets_the_same_answer_and_applies_once(tournament, secret):
    body = batch(file_entries(tournament))
    first, again = post(body, secret), post(body, secret)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() == {"applied_seq": 1}
    assert PublishedTournament.objects.count() == 1
    assert Tournament.objects.count() == 2  # the venue's (in this test database) and the hub's, once
    other = post(batch(file_entries(tournament) + [dict(file_entries(tournament)[0], seq=2)]), secret)
    assert other.status_code == 422 and other.json()["reason"] == "idempotency_key_reused"


def test_a_key_still_being_processed_is_refused_with_409(tournament, secret):
    raw = json.dumps(batch(file_entries(tournament))).encode()
    assert hub_idempotency.begin(key=find_key(secret), idempotency_key="k1",
                                 fingerprint=hashlib.sha256(raw).hexdigest()) is None
    response = Client().post(publish_sender.PATH, data=raw, content_type="application/json",
                             headers={"Authorization": f"Bearer {secret}", "Idempotency-Key": "k1"})
    assert response.status_code == 409 and response.json()["reason"] == "in_progress"


def test_a_key_whose_request_died_a_minute_ago_is_taken_over(tournament, secret):
    # a hub instance killed in the middle of a batch leaves its key "being processed": the venue's retry
    # of the same batch must not wait long (make hub-check kills the hub; five minutes held everything up)
    raw = json.dumps(batch(file_entries(tournament))).encode()
    hub_idempotency.begin(key=find_key(secret), idempotency_key="k1", fingerprint=hashlib.sha256(raw).hexdigest())
    IdempotencyRecord.objects.update(created_at=timezone.now() - datetime.timedelta(seconds=90))
    response = Client().post(publish_sender.PATH, data=raw, content_type="application/json",
                             headers={"Authorization": f"Bearer {secret}", "Idempotency-Key": "k1"})
    assert response.status_code == 200 and response.json() == {"applied_seq": 1}


def test_refusals_say_why_in_words_and_for_the_program(tournament, hub, secret):
    body = batch(file_entries(tournament))
    wrong = post(body, "doko_wrong")
    assert (wrong.status_code, wrong.json()["reason"]) == (401, "wrong_key")
    assert post(batch(file_entries(tournament), version=99), secret).json()["reason"] == "unknown_format_version"
    assert post(body, secret, key="k2").status_code == 200
    gap = post(batch(file_entries(tournament, first=3)), secret, key="k3")
    assert (gap.status_code, gap.json()["reason"], gap.json()["expected_seq"]) == (409, "out_of_order", 2)
    other_venue = issue_key(organisation=hub, label="Zweiter Turnierort")[1]  # same organisation, other key
    foreign = post(batch(file_entries(tournament, first=2)), other_venue, key="k4")
    assert (foreign.status_code, foreign.json()["reason"]) == (403, "foreign_tournament")
    revoke_key(key=PublishedTournament.objects.get().key)
    revoked = post(batch(file_entries(tournament, first=2)), secret, key="k5")
    assert (revoked.status_code, revoked.json()["reason"]) == (403, "revoked_key")
    assert revoked.json()["message"] == "Der Schlüssel wurde auf dem Hub widerrufen."
    assert PublishedTournament.objects.get().applied_seq == 1


def test_the_endpoint_is_off_on_a_venue(tournament, secret, settings):
    settings.DOKO_HUB = False
    assert post(batch(file_entries(tournament)), secret).status_code == 404


# ---- venue -> hub ------------------------------------------------------------------------------------

def comparable(tournament):
    data = export_tournament(tournament, backup=False)
    data.pop("slug")
    for round_item in data["rounds"]:
        for table in round_item["tables"]:
            for key in outbox.VENUE_ONLY:
                table.pop(key, None)
    return data


def test_round_trip_plays_corrects_and_the_hub_equals_the_venue(tournament, secret):
    first = play_round(tournament, games=2)
    publish(tournament, secret)
    transport = client_transport()
    assert publish_sender.send_due(transport) == 1
    counter = caching.change_counter(PublishedTournament.objects.get().tournament)
    table = first.tables.order_by("number").first()
    results.save_game(table=table, data=normal_game(table, 1, re_augen=200), number=1)  # a correction
    results.delete_game(table=table, number=2)
    second = seated_round(tournament)
    for t in second.tables.all():
        results.save_game(table=t, data=normal_game(t, 1))
    publish_sender.send_due(transport)
    publication = Publication.objects.get()
    assert publication.acked_seq == OutboxEntry.objects.count() and publication.last_error == ""
    hub_tournament = PublishedTournament.objects.get().tournament
    assert caching.change_counter(hub_tournament) > counter  # the hub's cached pages are fresh
    assert comparable(hub_tournament) == comparable(tournament)
    listed = {(c.round, c.table, c.game, c.change) for c in HubCorrection.objects.all()}
    assert listed == {(1, table.number, 1, "changed"), (1, table.number, 2, "deleted")}
    page = Client().get(reverse("tournament:overview", kwargs={"slug": hub_tournament.slug})).content.decode()
    assert f"Runde 1, Tisch {table.number}, Spiel 1" in page and f"Runde 1, Tisch {table.number}, Spiel 2" in page


def test_the_sender_resumes_after_a_lost_answer_without_doubling(tournament, secret, monkeypatch):
    round = play_round(tournament, games=1)
    publish(tournament, secret)
    table = round.tables.order_by("number").first()
    for number in range(2, 6):
        results.save_game(table=table, data=normal_game(table, number))
    monkeypatch.setattr(publish_sender, "MOST_ENTRIES", 2)
    rebuilt = []
    monkeypatch.setattr(importing, "replace_contents", lambda **kwargs: rebuilt.append(kwargs))
    through = client_transport()
    calls = []

    def flaky(url, headers, body):
        calls.append(headers["Idempotency-Key"])
        answer = through(url, headers, body)
        if len(calls) == 2:
            raise OSError("the laptop went to sleep before the answer came")  # the hub has applied it
        return answer
    publish_sender.send_due(flaky)
    publication = Publication.objects.get()
    assert (publication.acked_seq, publication.last_error) == (2, "unreachable")
    assert publication.next_try_at is not None
    publication.next_try_at = None
    publication.save()
    publish_sender.send_due(through)  # as after a restart: only the database says where it stands
    publication.refresh_from_db()
    assert publication.acked_seq == 5 and publication.last_error == ""
    hub_tournament = PublishedTournament.objects.get().tournament
    assert comparable(hub_tournament) == comparable(tournament)
    assert PublishedTournament.objects.get().applied_seq == 5
    assert calls[1] == f"{publication.venue_tournament}:3-4"
    assert rebuilt == []  # games only: written table by table, the rest of the hub's tournament untouched


def test_back_off_doubles_with_jitter_up_to_a_minute():
    for failures, (low, high) in {1: (1, 1), 2: (1, 2), 3: (2, 4), 7: (30, 60), 20: (30, 60)}.items():
        assert all(low <= publish_sender.wait(failures) <= high for _ in range(20))


def test_signed_tables_totals_penalties_and_an_ended_table_go_table_by_table(tournament, secret, monkeypatch):
    round = seated_round(tournament)
    publish(tournament, secret)
    transport = client_transport()
    publish_sender.send_due(transport)
    rebuilt = []
    monkeypatch.setattr(importing, "replace_contents", lambda **kwargs: rebuilt.append(kwargs))
    one, two = round.tables.order_by("number")
    for number in (1, 2, 3):
        results.save_game(table=one, data=normal_game(one, number, re_augen=120 + number))
    penalties.add_penalty(table=one, offender_id=seat_ids(one)[0], game_number=2, note="Karte gezeigt")
    sheet_state.end_table(table=one, note="Anna musste gehen")
    sheet_state.sign_table(table=one, note="alle")
    sheet_state.enter_totals(table=two, totals=dict(zip(seat_ids(two), (9, -3, -3, -3), strict=True)))
    publish_sender.send_due(transport)
    hub_tournament = PublishedTournament.objects.get().tournament
    assert comparable(hub_tournament) == comparable(tournament)
    sheet_state.unlock_table(table=one)
    sheet_state.resume_table(table=one)
    results.delete_game(table=one, number=3)
    sheet_state.clear_totals(table=two)
    results.save_game(table=two, data=normal_game(two, 1))
    publish_sender.send_due(transport)
    assert comparable(hub_tournament) == comparable(tournament)
    assert rebuilt == []
    assert {(c.table, c.game, c.change) for c in HubCorrection.objects.all()} == {(one.number, 3, "deleted")}


def test_after_a_revocation_a_new_key_of_the_organisation_takes_the_tournament_over(tournament, hub, secret):
    assert post(batch(file_entries(tournament)), secret).status_code == 200
    revoke_key(key=find_key(secret))
    elsewhere = issue_key(organisation=make_organisation("DK Dritter", "dritter"), label="fremd")[1]
    foreign = post(batch(file_entries(tournament, first=2)), elsewhere, key="k2")
    assert (foreign.status_code, foreign.json()["reason"]) == (403, "foreign_tournament")
    renewed = issue_key(organisation=hub, label="Vereinsheim, neuer Schlüssel")[1]
    assert post(batch(file_entries(tournament, first=2)), renewed, key="k3").json() == {"applied_seq": 2}
    assert PublishedTournament.objects.get().key == find_key(renewed)


def test_a_players_page_on_the_hub_keeps_its_address_when_the_venue_publishes_a_round(tournament, secret):
    """Followed from home: a player's page on the hub (its address holds the entry's id) stays where it
    is when the venue's setup changes (a round drawn and published, a player renamed or withdrawn)."""
    play_round(tournament, games=1)
    publish(tournament, secret)
    transport = client_transport()
    publish_sender.send_due(transport)
    hub_tournament = PublishedTournament.objects.get().tournament
    before = dict(hub_tournament.entries.values_list("start_number", "id"))
    renamed = tournament.entries.get(start_number=2)
    tournaments.edit_player(entry=renamed, name="Bernadette", club="DK Nord")
    tournaments.withdraw_player(entry=tournament.entries.get(start_number=3))
    tournaments.register_player(tournament=tournament, name="Neu Dazu", club="")
    seated_round(tournament)
    publish_sender.send_due(transport)
    assert comparable(hub_tournament) == comparable(tournament)
    after = dict(hub_tournament.entries.values_list("start_number", "id"))
    assert {number: after[number] for number in before} == before  # the renamed and the withdrawn too
    assert set(after) == set(before) | {9}
    page = Client().get(reverse("tournament:player", kwargs={"slug": hub_tournament.slug, "entry_id": before[1]}))
    assert page.status_code == 200


def test_the_sender_says_in_its_log_what_the_hub_took_and_what_it_refused(tournament, hub, secret):
    """`manage.py publish` writes a line for each batch the hub took and each refusal (var/log/publish.log
    under make serve): an administrator sees when the venue last got through, and why not."""
    play_round(tournament, games=1)
    publish(tournament, secret)
    lines: list[str] = []
    publish_sender.send_due(client_transport(), report=lines.append)
    assert len(lines) == 1 and f"{tournament.slug} -> {HUB}: angenommen bis Änderung 1" in lines[0]
    revoke_key(key=find_key(secret))
    table = tournament.rounds.get().tables.order_by("number").first()
    results.save_game(table=table, number=2, data=normal_game(table, 2))
    publish_sender.send_due(client_transport(), report=lines.append)
    assert "nicht angenommen (revoked_key: " in lines[1] and "nächster Versuch" in lines[1]
