"""Who is the same person across clubs (docs/hub.md, "Players across clubs"): the one place that says
it, for the hub's player page, the directors' suggestions and the association's Rangliste.

Every club has its own record of a person (`Player`). Two records are one person when
- they carry the same member number (`member_key`: spaces dropped, case folded), or
- a director of the organisation of a guest record (no member number) confirmed that it is the same
  person as another record (`IdentityDecision.same`); confirmations chain (a guest confirmed as
  another guest who was confirmed as a member is that member).

A person's key is `member_key(number)` when one of their records has a number, else "g<lowest record
id>". Publication levels do not change who is who; the pages decide what they show of whom
(`selectors/people.py` shows records at the full name's level only).

Reads: the confirmations (one query: they are made by hand, a few thousand at most), then the records.
The association's Rangliste asks `confirmed_keys` (one query: the confirmations with the member numbers
of their two records) for the records that a confirmation joins; every other record is who its member
number, or its name and club, says (`selectors.rangliste.identity`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..models import IdentityDecision, Player


def member_key(number: str) -> str:
    """Who a player with a member number is, in every tournament: the number, spaces dropped, case folded."""
    return "#" + "".join(number.split()).casefold()


@dataclass(frozen=True)
class Record:
    id: int
    organisation_id: int
    name: str
    club: str
    member_number: str
    publication: str


FIELDS = ("id", "organisation_id", "name", "club", "member_number", "publication")


def _joined(pairs: Iterable[tuple[int, int]]) -> dict[int, int]:
    """Each record of `pairs` -> the lowest record id of the group the pairs join it to (union-find)."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {x: root(x) for x in list(parent)}


def confirmed_groups() -> dict[int, int]:
    """Each record that takes part in a confirmation -> the lowest record id of its group (one query)."""
    return _joined(IdentityDecision.objects.filter(same=True).values_list("player_id", "other_id"))


def confirmed_keys() -> dict[int, str]:
    """Each record that a confirmation joins to another -> the key of its person (`key_of`: the member
    key of the group's lowest member number, else "g" and the group's lowest record id). One query: the
    confirmations with the member numbers of both records. A record without a confirmation is missing:
    who it is, its own member number says, else its name and club (`selectors.rangliste.identity`)."""
    numbers: dict[int, str] = {}
    pairs = []
    for a, b, number_a, number_b in IdentityDecision.objects.filter(same=True).values_list(
        "player_id", "other_id", "player__member_number", "other__member_number"
    ):
        numbers[a], numbers[b] = number_a, number_b
        pairs.append((a, b))
    groups = _members(_joined(pairs))
    keys = {}
    for lowest, records in groups.items():
        found = sorted(member_key(numbers[r]) for r in records if numbers[r].strip())
        key = found[0] if found else f"g{lowest}"
        keys.update(dict.fromkeys(records, key))
    return keys


def _members(groups: dict[int, int]) -> dict[int, set[int]]:
    members: dict[int, set[int]] = {}
    for record, group in groups.items():
        members.setdefault(group, set()).add(record)
    return members


def _number_forms(numbers: Iterable[str]) -> set[str]:
    """The stored spellings a member number is looked up by (the index is exact; `member_key` decides)."""
    return {form for number in numbers for form in (number, number.upper(), number.lower())}


def key_of(records: Iterable[Record]) -> str:
    """The key of a person from their records: the lowest member key, else "g" and the lowest id."""
    records = list(records)
    numbers = sorted(member_key(r.member_number) for r in records if r.member_number.strip())
    return numbers[0] if numbers else f"g{min(r.id for r in records)}"


def identity_keys(player_ids: Iterable[int]) -> dict[int, str]:
    """Who each record is: record id -> the person's key (two queries: the confirmations, the records
    and those of their groups). Two records with the same key are the same person."""
    ids = set(player_ids)
    groups = confirmed_groups()
    members = _members(groups)
    wanted = ids | {other for record in ids if record in groups for other in members[groups[record]]}
    records = {r["id"]: Record(**r) for r in Player.objects.filter(id__in=wanted).values(*FIELDS)}
    keys = {}
    for record in ids:
        if record not in records:
            continue
        group = members[groups[record]] if record in groups else {record}
        keys[record] = key_of(records[other] for other in group if other in records)
    return keys


def same_person(record_id: int) -> tuple[str, list[Record]] | None:
    """The person record `record_id` is, and every record of them at every club (None: no such record).
    Queries: the confirmations, the record with its confirmed group, and where they have a member
    number the records with that number and their confirmed groups (two more)."""
    groups = confirmed_groups()
    members = _members(groups)

    def group_of(record: int) -> set[int]:
        return members[groups[record]] if record in groups else {record}

    found = {r["id"]: Record(**r) for r in Player.objects.filter(id__in=group_of(record_id)).values(*FIELDS)}
    if record_id not in found:
        return None
    numbers = {r.member_number for r in found.values() if r.member_number.strip()}
    if numbers:
        keys = {member_key(n) for n in numbers}
        for r in Player.objects.filter(member_number__in=_number_forms(numbers)).values(*FIELDS):
            if member_key(r["member_number"]) in keys:
                found[r["id"]] = Record(**r)
        linked = {other for record in list(found) for other in group_of(record)} - set(found)
        if linked:
            found.update({r["id"]: Record(**r) for r in Player.objects.filter(id__in=linked).values(*FIELDS)})
    return key_of(found.values()), sorted(found.values(), key=lambda r: r.id)


@dataclass(frozen=True)
class Link:
    """A confirmation on the way from one record to another: `player` = `other` (names with their club)."""

    player: str
    other: str
    organisation: str  # whose director confirmed it: only they can take it back


# what names both records of a decision (`label` of each: name, club, organisation), in that order
BOTH_LABELS = (
    "player__name",
    "player__club",
    "player__organisation__name",
    "other__name",
    "other__club",
    "other__organisation__name",
)


def label(name: str, club: str, organisation: str) -> str:
    """A record as a director tells it from another: its name and its club (else its organisation)."""
    return f"{name} ({club.strip() or organisation})"


def joining(record_id: int, other_id: int, numbers: dict[int, str]) -> list[Link]:
    """The confirmations that make `record_id` and `other_id` one person, leaving out a decision about
    these two records themselves (empty: nothing else joins them). `numbers`: the member numbers of
    the two records (records with the same member key are one person without a confirmation). One
    query: the confirmations with the names, clubs and member numbers of their records."""
    edges: dict[object, list[tuple[object, Link | None]]] = {}

    def add(a: object, b: object, link: Link | None) -> None:
        edges.setdefault(a, []).append((b, link))
        edges.setdefault(b, []).append((a, link))

    def by_number(record: int, number: str) -> None:
        if number.strip():
            add(record, member_key(number), None)

    for record, number in numbers.items():
        by_number(record, number)
    rows = IdentityDecision.objects.filter(same=True).values_list(
        "player_id",
        "other_id",
        *BOTH_LABELS,
        "player__member_number",
        "other__member_number",
        "organisation__name",
    )
    for a, b, a_name, a_club, a_org, b_name, b_club, b_org, a_number, b_number, by in rows:
        if {a, b} == {record_id, other_id}:
            continue
        add(a, b, Link(label(a_name, a_club, a_org), label(b_name, b_club, b_org), by))
        by_number(a, a_number)
        by_number(b, b_number)
    came: dict[object, tuple[object, Link | None]] = {record_id: (record_id, None)}
    queue: list[object] = [record_id]
    while queue and other_id not in came:
        here = queue.pop(0)
        for there, link in edges.get(here, []):
            if there not in came:
                came[there] = (here, link)
                queue.append(there)
    if other_id not in came:
        return []
    path: list[Link] = []
    step: object = other_id
    while step != record_id:
        step, link = came[step]
        if link is not None:
            path.append(link)
    return path[::-1]
