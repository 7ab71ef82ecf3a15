"""Director pages live under /t/<slug>/…; the public pages (issue 4) will share these URLs."""

from django.urls import path

from .views import home, players, printing, public, rounds, standings, tables, tournaments

app_name = "tournament"

T = "t/<slug:slug>/"
ROUND = T + "rounds/<int:round_number>/"
TABLE = ROUND + "tables/<int:table_number>/"

urlpatterns = [
    path("", home.home, name="home"),
    path("t/new/", tournaments.tournament_create, name="tournament_create"),
    path(T, tournaments.tournament_overview, name="overview"),
    path(T + "settings/", tournaments.tournament_settings, name="settings"),
    path(T + "players/", players.player_list, name="players"),
    path(T + "players/<int:entry_id>/withdraw/", players.player_withdraw, name="player_withdraw"),
    path(T + "players/<int:entry_id>/return/", players.player_return, name="player_return"),
    path(T + "rounds/new/", rounds.round_create, name="round_create"),
    path(ROUND, rounds.round_detail, name="round"),
    path(ROUND + "draw/", rounds.round_draw, name="round_draw"),
    path(ROUND + "swap/", rounds.round_swap, name="round_swap"),
    path(ROUND + "move/", rounds.round_move, name="round_move"),
    path(ROUND + "status/", rounds.round_status, name="round_status"),
    path(TABLE, tables.table_sheet, name="table"),
    path(TABLE + "games/new/", tables.game_form, name="game_new"),
    path(TABLE + "games/<int:number>/", tables.game_form, name="game_edit"),
    path(TABLE + "games/<int:number>/delete/", tables.game_delete, name="game_delete"),
    path(TABLE + "penalties/", tables.penalty_add, name="penalty_add"),
    path(TABLE + "penalties/<int:penalty_id>/delete/", tables.penalty_delete, name="penalty_delete"),
    path(TABLE + "totals/", tables.table_totals, name="table_totals"),
    path(TABLE + "sign/", tables.table_sign, name="table_sign"),
    path(T + "standings/", standings.standings_page, name="standings"),
    path(T + "standings.csv", standings.standings_csv, name="standings_csv"),
    path(T + "standings.json", standings.standings_json, name="standings_json"),
    path(T + "players/<int:entry_id>/", public.player_page, name="player"),
    # printouts (PDF)
    path(TABLE + "sheet.pdf", printing.table_sheet_pdf, name="table_pdf"),
    path(ROUND + "sheets.pdf", printing.round_sheets_pdf, name="round_sheets_pdf"),
    path(ROUND + "seating.pdf", printing.round_seating_pdf, name="round_seating_pdf"),
    path(T + "standings.pdf", printing.standings_pdf, name="standings_pdf"),
]
