"""A person's data on request (GDPR Art. 15 and 17, docs/security.md "Personal data"): the report
holds what is stored; erasing removes the name, club, member number and contact everywhere, the
change log included, and keeps every result under a pseudonym."""

import json

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from tournament.log.changelog import LOG_KINDS
from tournament.models import CorrectionRequest, Player, Registration, Score
from tournament.services import checkin, corrections, personal_data
from tournament.services import rangliste as rangliste_services

from ..factories import make_tournament, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna(tournament):
    checkin.set_registration(tournament=tournament, open=True, limit=0)
    registration = checkin.register(tournament=tournament, name="Anna Kreuz", club="DK Kreuz-Dame",
                                    contact="anna@example.org")
    entry = Registration.objects.get(pk=registration.pk).entry
    rangliste_services.set_member_number(entry=entry, member_number="DDV-4711")
    play_round(tournament, games=2)
    return entry.player


def test_the_report_names_everything_stored_of_the_person(anna, capsys):
    call_command("player_data", "verein", "Anna Kreuz")
    report = json.loads(capsys.readouterr().out)
    assert report["player"] == {"name": "Anna Kreuz", "club": "DK Kreuz-Dame", "member_number": "DDV-4711",
                                "publication": "full"}
    assert report["registrations"][0]["contact"] == "anna@example.org"
    assert [t["slug"] for t in report["tournaments"]] == ["herbst"]


def everything_stored(tournament) -> str:
    """Every row the app keeps of the tournament and its change log, as text."""
    rows = [list(Player.objects.values()), list(Registration.objects.values()),
            list(Registration.history.model.objects.values()), list(CorrectionRequest.objects.values())]
    rows += [list(model.history.model.objects.filter(log_tournament=tournament.pk).values())
             for model in LOG_KINDS.values()]
    return json.dumps(rows, default=str, ensure_ascii=False)


def test_erasing_removes_name_club_number_and_contact_everywhere_and_keeps_the_results(tournament, anna):
    before = dict(Score.objects.filter(round__tournament=tournament).values("entry_id").annotate(p=Sum("points"))
                  .values_list("entry_id", "p"))
    assert "Anna Kreuz" in everything_stored(tournament)
    call_command("player_data", "verein", "Anna Kreuz", "--erase")
    stored = everything_stored(tournament)
    for secret in ("Anna Kreuz", "DK Kreuz-Dame", "DDV-4711", "anna@example.org"):
        assert secret not in stored, secret
    after = dict(Score.objects.filter(round__tournament=tournament).values("entry_id").annotate(p=Sum("points"))
                 .values_list("entry_id", "p"))
    assert after == before  # the results stay, under the pseudonym
    assert Player.objects.get(pk=anna.pk).name == personal_data.pseudonym(anna)
    page = Client().get(reverse("tournament:standings", kwargs={"slug": tournament.slug})).content.decode()
    assert "Anna Kreuz" not in page and personal_data.pseudonym(anna) in page  # the caches moved on


def test_an_unknown_or_ambiguous_name_is_a_sentence_not_a_traceback(tournament):
    with pytest.raises(CommandError, match="gibt es"):
        call_command("player_data", "verein", "Niemand")
    other = make_tournament(players=0, slug="zwei")
    from tournament.services import tournaments

    tournaments.register_player(tournament=tournament, name="Max Muster", club="A")
    tournaments.register_player(tournament=other, name="Max Muster", club="B")
    with pytest.raises(CommandError, match="--club"):
        call_command("player_data", "verein", "Max Muster")


def test_erasing_takes_what_the_person_wrote_in_a_correction_request_too(tournament, anna, capsys):
    """On the hub a player may ask for a correction (docs/hub.md): the report shows it, erasing takes its
    text, contact and answer, in the log too."""
    request = corrections.request_correction(tournament=tournament, player_id=anna.pk,
                                             text="Anna Kreuz hatte im Spiel 3 ein Solo", contact="0171 4711")
    corrections.answer_correction(tournament=tournament, request_id=request.pk,
                                  status=CorrectionRequest.Status.ANSWERED, answer="Liebe Anna Kreuz, korrigiert.")
    call_command("player_data", "verein", "Anna Kreuz")
    report = json.loads(capsys.readouterr().out)
    assert [(c["text"], c["contact"]) for c in report["correction_requests"]] == [
        ("Anna Kreuz hatte im Spiel 3 ein Solo", "0171 4711")]
    call_command("player_data", "verein", "Anna Kreuz", "--erase")
    stored = everything_stored(tournament)
    for secret in ("Anna Kreuz", "im Spiel 3 ein Solo", "0171 4711", "korrigiert"):
        assert secret not in stored, secret
    assert CorrectionRequest.objects.get(pk=request.pk).status == CorrectionRequest.Status.ANSWERED
