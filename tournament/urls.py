"""Every page of a tournament lives under /t/<slug>/…: the director's pages, the helpers' and the public ones;
a series of tournaments under /s/<slug>/."""

from django.urls import path

from .views import (
    backups,
    board,
    checkin,
    help,
    home,
    log,
    players,
    printing,
    projector,
    public,
    round_clock,
    rounds,
    series,
    standings,
    tables,
    tournaments,
)

app_name = "tournament"

T = "t/<slug:slug>/"
ROUND = T + "rounds/<int:round_number>/"
TABLE = ROUND + "tables/<int:table_number>/"
SERIES = "s/<slug:slug>/"

urlpatterns = [
    path("", home.home, name="home"),
    path("hilfe/", help.help_page, name="help"),
    path("t/new/", tournaments.tournament_create, name="tournament_create"),
    path(T, tournaments.tournament_overview, name="overview"),
    path(T + "settings/", tournaments.tournament_settings, name="settings"),
    path(T + "players/", players.player_list, name="players"),
    path(T + "players/<int:entry_id>/edit/", players.player_edit, name="player_edit"),
    path(T + "players/<int:entry_id>/withdraw/", players.player_withdraw, name="player_withdraw"),
    path(T + "players/<int:entry_id>/return/", players.player_return, name="player_return"),
    path(T + "anmeldung/", checkin.registration_page, name="registration"),
    path(T + "anmeldungen/", checkin.registrations_page, name="registrations"),
    path(T + "anmeldungen/<int:registration_id>/", checkin.registration_edit, name="registration_edit"),
    path(T + "anmeldungen/<int:registration_id>/withdraw/", checkin.registration_withdraw,
         name="registration_withdraw"),
    path(T + "checkin/", checkin.checkin_page, name="checkin"),
    path(T + "checkin/<int:entry_id>/", checkin.checkin_mark, name="checkin_mark"),
    path(T + "rounds/new/", rounds.round_create, name="round_create"),
    path(ROUND, rounds.round_detail, name="round"),
    path(ROUND + "draw/", rounds.round_draw, name="round_draw"),
    path(ROUND + "swap/", rounds.round_swap, name="round_swap"),
    path(ROUND + "move/", rounds.round_move, name="round_move"),
    path(ROUND + "status/", rounds.round_status, name="round_status"),
    path(ROUND + "clock/", round_clock.clock_action, name="round_clock"),
    path(ROUND + "board/", board.board_page, name="board"),
    path(ROUND + "links/", board.links_page, name="links"),
    path(ROUND + "links/change/", board.links_action, name="links_action"),
    path(TABLE + "drafts/<int:draft_id>/decide/", board.board_decide, name="board_decide"),
    path(TABLE, tables.table_sheet, name="table"),
    path(TABLE + "zettel/", public.table_page, name="table_public"),
    path(TABLE + "games/new/", tables.game_new, name="game_new"),
    path(TABLE + "games/<int:number>/", tables.game_form, name="game_edit"),
    path(TABLE + "games/<int:number>/delete/", tables.game_delete, name="game_delete"),
    path(TABLE + "games/<int:number>/preview/", tables.game_preview, name="game_preview"),
    path(TABLE + "penalties/", tables.penalty_add, name="penalty_add"),
    path(TABLE + "penalties/<int:penalty_id>/delete/", tables.penalty_delete, name="penalty_delete"),
    path(TABLE + "totals/", tables.table_totals, name="table_totals"),
    path(TABLE + "sign/", tables.table_sign, name="table_sign"),
    path(TABLE + "end/", tables.table_end, name="table_end"),
    path(TABLE + "log/<str:kind>/<int:history_id>/restore/", tables.restore, name="restore"),
    path(T + "log/", log.log_page, name="log"),
    path(T + "roles/", tournaments.tournament_roles, name="roles"),
    path(T + "backup.json", backups.backup_download, name="backup"),
    path("restore/", backups.restore_page, name="restore_backup"),
    path(T + "standings/", standings.standings_page, name="standings"),
    path(T + "beamer/", projector.projector_page, name="projector"),
    path(T + "standings.csv", standings.standings_csv, name="standings_csv"),
    path(T + "standings.json", standings.standings_json, name="standings_json"),
    path(T + "players/<int:entry_id>/", public.player_page, name="player"),
    # printouts (PDF)
    path(TABLE + "sheet.pdf", printing.table_sheet_pdf, name="table_pdf"),
    path(ROUND + "sheets.pdf", printing.round_sheets_pdf, name="round_sheets_pdf"),
    path(ROUND + "seating.pdf", printing.round_seating_pdf, name="round_seating_pdf"),
    path(T + "standings.pdf", printing.standings_pdf, name="standings_pdf"),
    # series of tournaments (docs/series.md)
    path("s/new/", series.series_create, name="series_create"),
    path(SERIES, series.series_page, name="series"),
    path(SERIES + "standings.csv", series.series_csv, name="series_csv"),
    path(SERIES + "standings.pdf", series.series_pdf, name="series_pdf"),
    path(SERIES + "manage/", series.series_manage, name="series_manage"),
    path(SERIES + "tournaments/add/", series.series_tournament_add, name="series_tournament_add"),
    path(SERIES + "tournaments/<int:tournament_id>/remove/", series.series_tournament_remove,
         name="series_tournament_remove"),
    path(SERIES + "merges/", series.series_merge, name="series_merge"),
    path(SERIES + "merges/<int:merge_id>/undo/", series.series_unmerge, name="series_unmerge"),
]
