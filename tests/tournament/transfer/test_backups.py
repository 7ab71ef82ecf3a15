"""Backups: the lossless export with the change log, written when a round is closed, downloaded by
the director, and restored into an empty database with the same standings and the same log."""

from __future__ import annotations

import json
import os
import stat

import pytest
from django.urls import reverse

from tournament.log import changelog
from tournament.log.audit import Actor
from tournament.models import Entry, Game, Penalty, Player, Tournament
from tournament.selectors import standings
from tournament.services import penalties, results, seating, sheet_state, tournaments
from tournament.services.backups import write_backup
from tournament.services.exporting import export_tournament
from tournament.services.importing import import_tournament

from ..factories import make_director, make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def busy_tournament(director):
    """Everything the log records: edits, deletes, restores, penalties, totals, seating changes,
    signatures, hidden results, a closed round and a draft."""
    by = Actor(user=director)
    tournament = make_tournament(players=9, director=director, slug="sicher")
    tournaments.update_tournament(tournament=tournament, fields={"place": "Vereinsheim"}, rules="turnier", by=by)
    round = seating.create_round(tournament=tournament, by=by)
    seating.seat_round(round=round, seed="eins", by=by)
    a, b = seat_ids(round.tables.get(number=1))[0], seat_ids(round.tables.get(number=2))[0]
    seating.swap_players(round=round, first_id=a, second_id=b, by=by)
    seating.publish_round(round=round, by=by)
    table = round.tables.get(number=1)
    for number in (1, 2, 3):
        results.save_game(table=table, number=number, data=normal_game(table, number), version=0, by=by)
    results.save_game(table=table, number=2, data=normal_game(table, 2, re_augen=100), version=1, by=by)
    results.delete_game(table=table, number=3, by=by)
    penalty = penalties.add_penalty(table=table, offender_id=seat_ids(table)[2], game_number=2, note="zu früh", by=by)
    penalties.delete_penalty(table=table, penalty_id=penalty.pk, by=by)
    penalties.add_penalty(table=table, offender_id=seat_ids(table)[1], game_number=1, by=by)
    sheet_state.sign_table(table=table, note="alle", by=by)
    other = round.tables.get(number=2)
    ids = seat_ids(other)
    sheet_state.enter_totals(table=other, totals={ids[0]: 12, ids[1]: -12, **{e: 0 for e in ids[2:]}}, by=by)
    seating.hide_results(round=round, by=by)
    seating.close_round(round=round, by=by, backup=False)
    entry = tournament.entries.get(start_number=4)
    tournaments.withdraw_player(entry=entry, by=by)
    second = seating.create_round(tournament=tournament, by=by)
    seating.seat_round(round=second, seed="zwei", by=by)
    return tournament


def log_lines(tournament):
    return [(e.at, e.user, e.kind, e.label, e.subject, e.round, e.table, e.before_text, e.after_text, e.deleted)
            for e in changelog.entries(tournament, limit=10_000)]


def standing_lines(tournament):
    return [(r.rank, r.name, r.club, r.points, r.games, r.won, r.solos, r.totals_only, r.withdrawn)
            for r in standings(tournament)]


def test_backup_restored_into_an_empty_database_has_the_same_standings_and_log(director):
    tournament = busy_tournament(director)
    backup = json.loads(json.dumps(export_tournament(tournament)))  # as written to and read from a file
    expected_log, expected_standings = log_lines(tournament), standing_lines(tournament)
    assert len(expected_log) >= 30
    # an empty database: no tournament, no player, no change log left
    for model in (Game, Penalty, Tournament):  # games and penalties keep their players (PROTECT)
        model.objects.all().delete()
    Player.objects.all().delete()
    for kind in changelog.KINDS:
        changelog.history_model(kind).objects.all().delete()
    restored = import_tournament(backup, director=make_director("neu"))
    assert standing_lines(restored) == expected_standings
    assert log_lines(restored) == expected_log
    assert export_tournament(restored) == backup


def test_a_restored_log_still_restores_games(client, director):
    tournament = busy_tournament(director)
    copy = import_tournament(export_tournament(tournament), director=director, slug="kopie")
    deleted = next(e for e in changelog.entries(copy, limit=1000) if e.kind == "game" and e.deleted)
    path = reverse("tournament:restore", args=["kopie", 1, 1, "game", deleted.record.history_id])
    client.force_login(director)
    response = client.post(path, follow=True)  # round 1 is closed: refused, with the reason
    assert "abgeschlossen" in response.content.decode()
    seating.reopen_round(round=copy.rounds.get(number=1))
    sheet_state.unlock_table(table=copy.rounds.get(number=1).tables.get(number=1))
    client.post(path)
    restored = copy.rounds.get(number=1).tables.get(number=1).games.get(number=3)
    assert restored.re_augen == 130


def test_closing_a_round_writes_a_backup(director, settings, tmp_path, django_capture_on_commit_callbacks):
    settings.BACKUP_DIR = tmp_path
    tournament = make_tournament(players=8, director=director, slug="abend")
    round = seated_round(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        seating.close_round(round=round)
    files = list(tmp_path.glob("abend-*-runde-1-abgeschlossen.json"))
    assert len(files) == 1
    data = json.loads(files[0].read_text(encoding="utf-8"))
    assert data["rounds"][0]["status"] == "closed" and data["log"][-1]["action"] == "round_closed"


def test_a_backup_that_cannot_be_written_does_not_undo_the_closing(director, settings, tmp_path,
                                                                  django_capture_on_commit_callbacks, caplog):
    blocked = tmp_path / "datei"
    blocked.write_text("kein Ordner")
    settings.BACKUP_DIR = blocked  # a file where the folder should be
    tournament = make_tournament(players=8, director=director)
    round = seated_round(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        seating.close_round(round=round)
    round.refresh_from_db()
    assert round.status == "closed" and "could not be written" in caplog.text


def test_the_director_downloads_a_backup(client, director):
    tournament = make_tournament(players=8, director=director, slug="laden")
    seated_round(tournament)
    client.force_login(director)
    response = client.get(reverse("tournament:backup", args=["laden"]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"] and "laden-" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["slug"] == "laden" and data["log"]
    assert "Sicherung herunterladen" in client.get(reverse("tournament:settings", args=["laden"])).content.decode()


def test_the_restore_page(client, director, tmp_path):
    tournament = make_tournament(players=8, director=director, slug="original")
    seated_round(tournament)
    backup = json.dumps(export_tournament(tournament)).encode()
    user = make_director("gast")
    client.force_login(user)
    page = client.get(reverse("tournament:restore_backup")).content.decode()
    assert "Sicherung einspielen" in page
    upload = tmp_path / "sicherung.json"
    upload.write_bytes(backup)
    with upload.open("rb") as handle:
        response = client.post(reverse("tournament:restore_backup"), {"file": handle, "slug": "kopie"})
    assert response.status_code == 302 and response["Location"] == "/t/kopie/"
    copy = Tournament.objects.get(slug="kopie")
    assert list(copy.directors.all()) == [user] and copy.entries.count() == 8
    # a file with problems: every problem listed, nothing written
    entries = Entry.objects.count()
    upload.write_text(json.dumps({"name": "X", "date": "2026-01-01", "players": [], "rounds": [{"number": 5}]}))
    with upload.open("rb") as handle:
        response = client.post(reverse("tournament:restore_backup"), {"file": handle})
    page = response.content.decode()
    assert response.status_code == 200 and "Nichts eingespielt" in page and "tables" in page
    assert Entry.objects.count() == entries and Tournament.objects.count() == 2
    upload.write_text("[" * 100_000)
    with upload.open("rb") as handle:
        response = client.post(reverse("tournament:restore_backup"), {"file": handle})
    assert response.status_code == 200 and "zu tief verschachtelt" in response.content.decode()


def test_restore_needs_a_login(client):
    response = client.get(reverse("tournament:restore_backup"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_write_backup_names_the_file_by_tournament_and_time(director, settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "neu"
    tournament = make_tournament(players=8, director=director, slug="name")
    path = write_backup(tournament, reason="Von Hand!")
    assert path.parent == tmp_path / "neu" and path.name.startswith("name-") and path.name.endswith("-von-hand.json")
    assert not list(path.parent.glob("*.part"))


def test_backups_are_readable_by_their_owner_only(director, settings, tmp_path):
    """Found by a tester: backups (with the tables' entry links) were written 0644. Now 0600, whatever
    the umask, in a folder of 0700; the same for `export_tournament --output`."""
    from django.core.management import call_command

    settings.BACKUP_DIR = tmp_path / "sicherungen"
    tournament = make_tournament(players=8, director=director, slug="privat")
    seated_round(tournament)
    previous = os.umask(0o022)
    try:
        path = write_backup(tournament, reason="test")
        exported = tmp_path / "export.json"
        exported.write_text("alt")
        os.chmod(exported, 0o644)
        call_command("export_tournament", "privat", output=str(exported))
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(exported.stat().st_mode) == 0o600
    assert json.loads(exported.read_text(encoding="utf-8"))["slug"] == "privat"
    token = tournament.rounds.get().tables.get(number=1).link_token
    assert token and token in path.read_text(encoding="utf-8")  # why: the links are in it


def test_what_the_phones_hold_survives_a_backup(client, director):
    """Entry links (so the printed QR codes keep working), entries waiting or rejected, and "stimmt"."""
    from tournament.models import DraftGame, Table
    from tournament.services import table_links

    from ..services.test_table_links import game

    tournament = make_tournament(players=8, director=director, slug="handys")
    round = seated_round(tournament)
    table = round.tables.get(number=1)
    link = Table.objects.get(pk=table.pk).link_token
    first_player = tournament.entries.get(pk=seat_ids(table)[0]).player.name
    table_links.enter_game(token=link, number=1, data=game(table, 1), key="warte", device="a",
                           player_id=seat_ids(table)[0])
    table_links.enter_game(token=link, number=1, data=game(table, 1, re_augen=100), key="nein", device="b")
    table_links.decide_on_link(token=link, draft_id=DraftGame.objects.get(key="nein").pk, confirm=False, device="c",
                               reason="Augen falsch")
    backup = json.loads(json.dumps(export_tournament(tournament)))
    expected_log = log_lines(tournament)
    for model in (DraftGame, Game, Penalty, Tournament):
        model.objects.all().delete()
    Player.objects.all().delete()
    for kind in changelog.KINDS:
        changelog.history_model(kind).objects.all().delete()
    restored = import_tournament(backup, director=director)
    assert export_tournament(restored) == backup
    assert log_lines(restored) == expected_log
    drafts = {d.key: (d.status, d.reason, d.entered_by.player.name if d.entered_by else None)
              for d in DraftGame.objects.all()}
    assert drafts == {"warte": ("waiting", "", first_player), "nein": ("rejected", "Augen falsch", None)}
    assert client.get(reverse("table_link", args=[link])).status_code == 200  # the printed QR code still works
