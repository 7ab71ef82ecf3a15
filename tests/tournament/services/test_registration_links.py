"""The registration as pretix and Tabbycat users expect it (issue "The evening as a club meets it",
docs/tournament.md "Anmeldung und Check-in"): a private link per registration to see it, cancel it
and check in on the evening; a registration deadline; the confirmation after registering (by e-mail
when the site sends mail); the registration page's QR code and poster for the director."""

import datetime
import io
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from tournament.errors import UserError
from tournament.log import changelog
from tournament.models import Registration
from tournament.services import checkin, registration_links

from ..factories import make_tournament, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament(director):
    tournament = make_tournament(players=0, director=director, slug="offen")
    return checkin.set_registration(tournament=tournament, open=True, limit=2)


def register(client, tournament, name, **extra):
    return client.post(reverse("tournament:registration", args=[tournament.slug]), {"name": name, **extra})


def own_url(registration: Registration) -> str:
    return reverse(
        "tournament:registration_own",
        kwargs={
            "slug": registration.tournament.slug,
            "registration_id": registration.pk,
            "token": registration.link_token,
        },
    )


def action_url(name: str, registration: Registration) -> str:
    return reverse(
        f"tournament:{name}",
        kwargs={
            "slug": registration.tournament.slug,
            "registration_id": registration.pk,
            "token": registration.link_token,
        },
    )


# ---- 1 and 3: the private link and the confirmation --------------------------------------------------


def test_registering_leads_to_a_private_confirmation_with_the_link(open_tournament):
    client = Client()
    response = register(client, open_tournament, "Anna Alt", club="DK Nord", category="Damen", contact="0171 2345678")
    registration = Registration.objects.get(name="Anna Alt")
    assert len(registration.link_token) >= 24
    assert response.status_code == 302 and response["Location"] == own_url(registration)
    page = client.get(response["Location"])
    text = page.content.decode()
    assert page["Cache-Control"] == "private, no-store" and page["Referrer-Policy"] == "same-origin"
    assert "<h1>Angemeldet</h1>" in text and "Anna Alt" in text and "DK Nord" in text and "Damen" in text
    assert "Startnummer 1" in text and "0171" not in text  # the contact: the director's only
    assert "http://testserver" + own_url(registration) in text and "Drucken oder als PDF speichern" in text
    # the link is nowhere public: not on the public list, not in the change log, not in the history
    public = Client().get(reverse("tournament:registration", args=[open_tournament.slug])).content.decode()
    assert registration.link_token not in public and "Anna Alt" in public
    assert not hasattr(Registration.history.model, "link_token")
    assert registration.link_token not in str([(e.before, e.after, e.user) for e in changelog.entries(open_tournament)])


def test_the_confirmation_of_a_waiting_registration_names_its_place(open_tournament):
    client = Client()
    for name in ("Anna", "Bernd", "Carla", "Dieter"):
        response = register(client, open_tournament, name)
    text = client.get(response["Location"]).content.decode()
    assert "Auf der Warteliste: Platz 2" in text and "Dieter steht auf der Warteliste (Platz 2)" in text


def test_a_wrong_secret_or_another_tournament_is_a_404(open_tournament, director):
    registration = checkin.register(tournament=open_tournament, name="Anna")
    other = make_tournament(players=0, director=director, slug="anders")
    wrong = [
        own_url(registration).replace(registration.link_token, "x" * len(registration.link_token)),
        own_url(registration).replace("/offen/", "/anders/"),
        action_url("registration_cancel", registration).replace(registration.link_token, "falsch"),
    ]
    for url in wrong:
        assert Client().get(url).status_code == 404
    assert Client().post(wrong[2], {"confirm": "yes"}).status_code == 404
    assert other.registrations.count() == 0
    url = own_url(registration)
    Registration.objects.filter(pk=registration.pk).update(link_token="")  # one made before links: none
    assert Client().get(url).status_code == 404
    assert registration_links.registration_of_link(slug="offen", registration_id=registration.pk, token="") is None


def test_cancelling_asks_first_then_frees_the_place_and_the_waiting_list_moves_up(open_tournament):
    anna, bernd, carla = (checkin.register(tournament=open_tournament, name=n) for n in ("Anna", "Bernd", "Carla"))
    assert carla.status == Registration.Status.WAITING
    client = Client()
    question = client.get(action_url("registration_cancel", anna)).content.decode()
    assert "Wirklich absagen?" in question and "Ja, Anmeldung absagen" in question
    client.post(action_url("registration_cancel", anna))  # without the confirmation: nothing
    anna.refresh_from_db()
    assert anna.status == Registration.Status.REGISTERED
    response = client.post(action_url("registration_cancel", anna), {"confirm": "yes"})
    assert response.status_code == 302 and response["Location"] == own_url(anna)
    anna.refresh_from_db()
    carla.refresh_from_db()
    assert anna.status == Registration.Status.WITHDRAWN and anna.entry_id is None
    assert carla.status == Registration.Status.REGISTERED
    logged = {(e.action, e.user) for e in changelog.entries(open_tournament)}
    assert {
        ("registration_withdrawn", "Anna (persönlicher Anmeldelink)"),
        ("registration_moved_up", "Anna (persönlicher Anmeldelink)"),
    } <= logged
    page = client.get(own_url(anna)).content.decode()
    assert "Anmeldung abgesagt" in page and "Ja, Anmeldung absagen" not in page
    with pytest.raises(UserError, match="schon abgesagt"):
        registration_links.cancel(registration=anna)


def test_cancelling_is_refused_once_round_1_is_drawn(director):
    tournament = make_tournament(players=8, director=director, slug="offen")
    checkin.set_registration(tournament=tournament, open=True, limit=0)
    anna = checkin.register(tournament=tournament, name="Anna Neu")
    seated_round(tournament, publish=False)
    client = Client()
    assert "Runde 1 ist ausgelost" in client.get(own_url(anna)).content.decode()
    response = client.post(action_url("registration_cancel", anna), {"confirm": "yes"}, follow=True)
    assert "Das Turnier hat begonnen (Runde 1 ist ausgelost)" in response.content.decode()
    anna.refresh_from_db()
    assert anna.status == Registration.Status.REGISTERED


# ---- 2: the deadline ---------------------------------------------------------------------------------


def test_after_the_deadline_the_page_says_since_when_and_refuses(open_tournament):
    url = reverse("tournament:registration", args=[open_tournament.slug])
    soon = timezone.now() + datetime.timedelta(days=2)
    checkin.set_registration(tournament=open_tournament, open=True, limit=2, deadline=soon)
    page = Client().get(url).content.decode()
    assert f"Anmeldung bis {checkin.deadline_text(soon)} Uhr." in page and 'id="registration-form"' in page
    past = timezone.make_aware(datetime.datetime(2026, 11, 20, 18, 0))
    checkin.set_registration(tournament=open_tournament, open=True, limit=2, deadline=past)
    page = Client().get(url).content.decode()
    assert "Die Anmeldung ist seit 20.11.2026 18:00 Uhr geschlossen (Anmeldeschluss)." in page
    assert 'id="registration-form"' not in page
    response = register(Client(), open_tournament, "Zu Spät")
    assert response.status_code == 400 and "seit 20.11.2026 18:00 Uhr geschlossen" in response.content.decode()
    with pytest.raises(UserError, match="Anmeldeschluss"):
        checkin.register(tournament=open_tournament, name="Zu Spät")
    assert not open_tournament.registrations.exists()


def test_the_director_sets_the_deadline_and_self_checkin(open_tournament, director):
    client = Client()
    client.force_login(director)
    url = reverse("tournament:registrations", args=[open_tournament.slug])
    response = client.post(url, {"open": "on", "limit": "2", "deadline": "2026-11-20T18:00", "self_checkin": "on"})
    assert response.status_code == 302
    open_tournament.refresh_from_db()
    assert timezone.localtime(open_tournament.registration_deadline).strftime("%d.%m.%Y %H:%M") == "20.11.2026 18:00"
    assert open_tournament.self_checkin
    assert 'value="2026-11-20T18:00"' in client.get(url).content.decode()
    client.post(url, {"open": "on", "limit": "2", "deadline": ""})
    open_tournament.refresh_from_db()
    assert open_tournament.registration_deadline is None and not open_tournament.self_checkin


# ---- 3: the e-mail -----------------------------------------------------------------------------------


def test_the_confirmation_is_mailed_with_the_link_when_the_site_sends_mail(open_tournament, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    client = Client()
    response = register(client, open_tournament, "Anna Alt", contact="anna@example.org")
    registration = Registration.objects.get(name="Anna Alt")
    assert response["Location"] == own_url(registration) + "?mail=1"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["anna@example.org"]
    assert "http://testserver" + own_url(registration) in mail.outbox[0].body
    assert "E-Mail-Adresse" in client.get(response["Location"]).content.decode()
    register(client, open_tournament, "Bernd Bach", contact="0171 2345678")  # a phone number: no mail
    assert len(mail.outbox) == 1


def test_no_mail_without_a_mail_server(open_tournament, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = ""
    response = register(Client(), open_tournament, "Anna Alt", contact="anna@example.org")
    assert "?mail=1" not in response["Location"] and len(mail.outbox) == 0
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    register(Client(), open_tournament, "Bernd Bach", contact="bernd@example.org")
    assert len(mail.outbox) == 0


# ---- 4: the QR code and the poster -------------------------------------------------------------------


def test_the_director_gets_the_qr_code_and_the_poster(open_tournament, director):
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:registrations", args=[open_tournament.slug])).content.decode()
    assert 'id="registration-qr"' in page and "<svg" in page and 'id="poster-link"' in page
    assert 'id="loopback-warning"' not in page  # testserver: not loopback
    local = client.get(
        reverse("tournament:registrations", args=[open_tournament.slug]), HTTP_HOST="127.0.0.1:8000"
    ).content.decode()
    assert 'id="loopback-warning"' in local and "make serve" in local
    response = client.get(reverse("tournament:registration_poster", args=[open_tournament.slug]))
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    text = reader.pages[0].extract_text()
    assert len(reader.pages) == 1
    assert "Herbstturnier" in text and "2 Plätze" in text and "http://testserver/t/offen/anmeldung/" in text
    assert Client().get(reverse("tournament:registration_poster", args=[open_tournament.slug])).status_code == 302


# ---- 5: self check-in --------------------------------------------------------------------------------


@pytest.fixture
def evening(director):
    """A tournament today, registration open, self check-in on."""
    tournament = make_tournament(players=0, director=director, slug="offen")
    tournament.date = timezone.localdate()
    tournament.save(update_fields=["date"])
    return checkin.set_registration(tournament=tournament, open=True, limit=0, self_checkin=True)


def test_a_player_checks_in_with_the_private_link(evening):
    anna = checkin.register(tournament=evening, name="Anna Alt")
    client = Client()
    page = client.get(own_url(anna)).content.decode()
    assert "Ich bin da: einchecken" in page
    response = client.post(action_url("registration_checkin", anna), follow=True)
    assert "Anna Alt ist eingecheckt" in response.content.decode() and 'id="checked-in"' in response.content.decode()
    anna.refresh_from_db()
    assert anna.entry.present
    assert ("checked_in", "Anna Alt (persönlicher Anmeldelink)") in {
        (e.action, e.user) for e in changelog.entries(evening)
    }


def test_self_checkin_only_when_on_on_the_day_and_before_the_draw(evening):
    anna = checkin.register(tournament=evening, name="Anna Alt")
    checkin.set_registration(tournament=evening, open=True, limit=0, self_checkin=False)
    response = Client().post(action_url("registration_checkin", anna), follow=True)
    assert "nicht eingeschaltet" in response.content.decode()
    checkin.set_registration(tournament=evening, open=True, limit=0, self_checkin=True)
    anna.refresh_from_db()
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    assert "nur am Turniertag" in registration_links.self_checkin_refusal(anna, today=tomorrow)
    for name in ("Bernd", "Carla", "Dieter"):
        checkin.register(tournament=evening, name=name)
    seated_round(evening, publish=False)
    with pytest.raises(UserError, match="Runde 1 ist schon ausgelost"):
        registration_links.check_in(registration=anna)
    anna.refresh_from_db()
    assert not anna.entry.present
    assert (
        registration_links.self_checkin_refusal(anna) == "Runde 1 ist schon ausgelost: bitte an der "
        "Turnierleitung melden."
    )


def test_a_waiting_registration_cannot_check_in(evening):
    checkin.set_registration(tournament=evening, open=True, limit=1, self_checkin=True)
    checkin.register(tournament=evening, name="Anna")
    bernd = checkin.register(tournament=evening, name="Bernd")
    with pytest.raises(UserError, match="Warteliste"):
        registration_links.check_in(registration=bernd)


def test_the_venue_qr_offers_the_registrations_this_phone_made(evening):
    phone = Client()
    register(phone, evening, "Anna Alt")
    phone.get(register(phone, evening, "Bernd Bach")["Location"])
    url = reverse("tournament:self_checkin", args=[evening.slug])
    page = phone.get(url).content.decode()
    assert "Ich bin da: Anna Alt einchecken" in page and "Ich bin da: Bernd Bach einchecken" in page
    stranger = Client().get(url).content.decode()
    assert "Anna Alt" not in stranger and "persönlichen Link aus Ihrer Anmeldebestätigung" in stranger
    evening.self_checkin = False
    evening.save(update_fields=["self_checkin"])
    assert 'id="self-checkin-off"' in phone.get(url).content.decode()


# ---- the rate limit of the private link's POSTs -------------------------------------------------------


def test_the_private_links_posts_are_rate_limited_per_link(evening, settings):
    settings.RATE_LIMIT_REGISTRATION_LINK = "1/10m"
    anna, bernd = (checkin.register(tournament=evening, name=n) for n in ("Anna", "Bernd"))
    client = Client(REMOTE_ADDR="203.0.113.20")
    client.post(action_url("registration_checkin", anna))
    client.post(action_url("registration_checkin", anna))  # over the limit: said, nothing done
    response = client.post(action_url("registration_cancel", anna), {"confirm": "yes"}, follow=True)
    assert "zu viele Anfragen" in response.content.decode()
    anna.refresh_from_db()
    assert anna.status == Registration.Status.REGISTERED and anna.entry.present
    client.post(action_url("registration_cancel", bernd), {"confirm": "yes"})  # another link: its own count
    bernd.refresh_from_db()
    assert bernd.status == Registration.Status.WITHDRAWN


# ---- 6: "Einloggen" for the director's login, "Anmeldung" for the registration ------------------------


def test_the_login_is_einloggen_beside_the_registration(open_tournament, director):
    page = Client().get(reverse("tournament:registration", args=[open_tournament.slug])).content.decode()
    login = re.search(r'<a href="/accounts/login/[^"]*">([^<]*)</a>', page)
    assert login and login.group(1) == "Einloggen"
    assert re.findall(r">\s*Anmelden\s*<", page) == [">Anmelden<"]  # the registration's button only
    login_page = Client().get(reverse("login")).content.decode()
    assert "<h1>Einloggen</h1>" in login_page and "Anmelden" not in login_page
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:registration", args=[open_tournament.slug])).content.decode()
    assert "Eingeloggt als leitung" in page and "Ausloggen" in page and "Angemeldet als" not in page
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("login")).content.decode()
    assert "<h1>Log in</h1>" in english
