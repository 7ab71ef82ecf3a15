"""The shapes of the API's answers (pydantic, through django-ninja): the OpenAPI description at
/api/v1/openapi.json is made from them. The endpoints send JSON they build themselves
(`reading`); a test checks every answer against this description, so that they cannot drift apart.
No extra keys: each schema says `additionalProperties: false`."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from pydantic import ConfigDict, Field


class Closed(Schema):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(Closed):
    code: str = Field(description="stable, for programs: not_found, bad_paging, bad_round, bad_date, "
                                  "rate_limited, bad_request, server_error")
    message: str = Field(description="for people: German, or English with Accept-Language: en")


class Error(Closed):
    error: ErrorBody


class Organisation(Closed):
    slug: str
    name: str


class PublicPages(Closed):
    standings: bool
    seating: bool
    players: bool


class TournamentSummary(Closed):
    slug: str
    name: str
    date: str = Field(description="YYYY-MM-DD")
    place: str
    organisation: Organisation
    public: PublicPages = Field(description="which of its pages (and endpoints) the public may see")


class TournamentPage(Closed):
    count: int
    limit: int
    offset: int
    items: list[TournamentSummary]


class RoundSummary(Closed):
    number: int
    status: str = Field(description="published or closed (a draft is not out yet)")
    results_hidden: bool


class TournamentDetail(TournamentSummary):
    rounds_planned: int
    ranking: str = Field(description="points, table_points or average")
    players: int
    rounds: list[RoundSummary]


class SeatedPlayer(Closed):
    entry_id: int
    start_number: int
    name: str = Field(description="as the public sees it: the name, its initials or 'Spieler/in Nr. 12'")
    club: str


class SeatedTable(Closed):
    number: int
    players: list[SeatedPlayer] = Field(description="in seat order")


class RoundDetail(RoundSummary):
    tables: list[SeatedTable]


class TableGames(Closed):
    round: int
    results_hidden: bool
    number: int
    players: list[str] = Field(description="in seat order, as the rows name them")
    rows: list[dict[str, Any]] = Field(description="games and penalties as rows of the tournament file "
                                                   "(docs/tournament-file.md)")
    totals: dict[str, int] | None = None
    game_numbers: list[int] | None = None
    penalty_details: list[dict[str, Any]] | None = None
    ended: dict[str, Any] | None = None
    signed: dict[str, Any] | None = None
    approved: list[str] | None = None


class Placement(Closed):
    round: int
    table: int | None = None
    place: int
    of: int
    shared: int
    points: int
    table_points: int


class StandingRow(Closed):
    rank: int | None = Field(description="null: no place (withdrew or never came, without a result)")
    entry_id: int
    start_number: int
    name: str
    club: str
    points: int
    games: int
    won: int
    solos: int
    totals_only: bool
    withdrawn: bool
    movement: int | None = Field(description="places gained since the round before")
    per_round: list[int | None] = Field(description="points in each round of `rounds` (table points when "
                                                    "they rank); null: not played")
    table_points: int | None = None
    placements: list[Placement] | None = None
    average: float | None = None
    rounds: int | None = None


class Standings(Closed):
    ranking: str
    rounds: list[int]
    provisional: list[str] = Field(description="why the standings are not final yet (empty: final)")
    count: int
    limit: int
    offset: int
    items: list[StandingRow]


class GameFacts(Closed):
    type: str
    solo: str
    re_augen: int
    announce_re: str
    announce_kontra: str
    multiplier: int
    breakdown: list[Any]


class PlayerLine(Closed):
    kind: str = Field(description="game, penalty, total or sat_out")
    number: int | None
    points: int
    running: int
    party: str
    partners: list[str]
    won: bool
    game: GameFacts | None = None


class PlayerRound(Closed):
    number: int
    results_hidden: bool
    table: int | None = None
    position: int | None = None
    mates: list[str] | None = None
    total: int | None = None
    lines: list[PlayerLine] | None = None


class RankAfter(Closed):
    round: int
    rank: int


class PlayerRecord(Closed):
    entry_id: int
    start_number: int
    name: str
    club: str
    total: int
    rounds: list[PlayerRound]
    rank: int | None = None
    ranks: list[RankAfter] | None = None


class RanglisteSummary(Closed):
    slug: str
    name: str
    organisation: Organisation
    months: int
    minimum_rounds: int


class RanglistePage(Closed):
    count: int
    limit: int
    offset: int
    items: list[RanglisteSummary]


class Window(Closed):
    from_: str = Field(alias="from")
    until: str


class CutLine(Closed):
    place: int
    label: str


class RanglisteRow(Closed):
    place: int | None
    shared: int
    name: str
    club: str
    member_number: str
    rounds: int
    points: int
    average: float
    tournaments: int
    qualifies: str | None
    player: str = Field(description="the key of the player's history (the page's ?p=)")
    ranked: bool | None = Field(None, description="an association's stored Rangliste: false for a player "
                                                  "below the minimum of rounds (no place)")
    tracker: str | None = Field(None, description="an association's stored Rangliste: the qualification "
                                                  "tracker's sentence, as the page words it")


class RanglisteDetail(Closed):
    slug: str
    name: str
    organisation: Organisation
    stored: bool = Field(description="true: an association's Rangliste read as stored (computed after each "
                                     "tournament that arrives; its rows then include those below the minimum); "
                                     "false: computed for this answer")
    computed_on: str | None = Field(None, description="stored: the day it was computed for (null: not yet)")
    behind: bool | None = Field(None, description="stored: new results have arrived or the day has turned; a "
                                                  "new computation is under way (within a minute)")
    until: str
    window: Window | None = Field(description="null: a stored Rangliste not computed yet")
    minimum_rounds: int
    tournaments: int
    below_minimum: int
    refused: int | None = Field(None, description="stored: how many tournaments do not count "
                                                  "(/api/v1/ranglisten/{slug}/refused says which and why)")
    cut_lines: list[CutLine]
    count: int
    limit: int
    offset: int
    items: list[RanglisteRow]


class RefusedTournament(Closed):
    slug: str
    name: str
    date: str = Field(description="YYYY-MM-DD")
    organisation: Organisation
    reason: str = Field(description="players (too few), rounds (too few) or standings (not public)")
    players: int
    rounds: int
    sentence: str = Field(description="why, as the Rangliste's page says it")


class RefusedPage(Closed):
    slug: str
    minimum_players: int
    minimum_tournament_rounds: int
    count: int
    limit: int
    offset: int
    items: list[RefusedTournament]


class PersonTournament(Closed):
    slug: str
    name: str
    date: str = Field(description="YYYY-MM-DD")


class PersonRow(Closed):
    tournament: PersonTournament
    organisation: str = Field(description="the club that ran it")
    place: int | None = Field(description="by points, ties share a place; null: standings not public or "
                                          "nothing played")
    players: int | None
    rounds: int
    points: int | None
    average: float | None = Field(description="points per round")
    entry_id: int | None = Field(description="their record in the tournament (/api/v1/tournaments/{slug}/"
                                             "players/{entry_id}); null: its players' pages are not public")


class Person(Closed):
    record: int
    name: str
    club: str
    clubs: list[str] = Field(description="the clubs whose tournaments they played")
    rounds: int
    points: int
    average: float | None
    count: int
    limit: int
    offset: int
    items: list[PersonRow] = Field(description="their tournaments, newest first")


class TournamentFile(Schema):
    """The tournament file (schemas/tournament-file.v1.schema.json), as the public may see it."""

    model_config = ConfigDict(extra="allow")
    format_version: int
