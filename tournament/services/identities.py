"""A club's director decides who is the same person across clubs (docs/hub.md, "Players across
clubs"): their guest record (no member number) is, or is not, another record shown to them as a
suggestion (`selectors.people.identity_page`). Each decision is a row of `IdentityDecision` with its own
history (who, when, what: the change log of the organisation's identities), and can be undone; undoing
deletes the row, its history keeps it. Who is the same person is read by `selectors/identities.py`.
A confirmation, or taking one back, queues a refresh of the association Ranglisten that hold the
person (`rangliste_refresh.identities_changed`), as a batch of a Ranglistenturnier does.

Scope: a director decides only about their organisation's own records, and only about another record
the public may see by name (the full name's level, an entry in a tournament whose player pages are
public): never another club's private data."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from .. import privacy
from ..errors import UserError
from ..log import audit
from ..log.audit import SYSTEM, Actor
from ..models import Entry, IdentityDecision, Organisation, Player
from ..selectors import identities
from . import rangliste_refresh
from .locking import lock, lock_players


def _suggestible(organisation: Organisation, other_id: int) -> bool:
    public = Entry.objects.filter(
        player=OuterRef("pk"), tournament__public_overview=True, tournament__public_players=True
    )
    return Player.objects.filter(
        Q(organisation=organisation) | (Q(publication=privacy.FULL) & Exists(public)), pk=other_id
    ).exists()


def decide_identity(
    *, organisation: Organisation, player_id: int, other_id: int, same: bool, by: Actor = SYSTEM
) -> IdentityDecision:
    """Records that the organisation's guest `player_id` is (`same`) or is not the same person as
    `other_id`. A decision about the same two records is replaced. Refused: a record of another
    organisation as the guest, a record with a member number as the guest (the number says who it is),
    another organisation's record the public may not see by name, a confirmation that would make
    two different member numbers one person, and a rejection of two records that other confirmations
    already make one person (the message names the confirmations to take back first)."""
    if player_id == other_id:
        raise UserError(_("Ein Spieler ist immer dieselbe Person wie er selbst."))
    with transaction.atomic():
        locked = {p.pk: p for p in lock_players([player_id, other_id])}
        guest, other = locked.get(player_id), locked.get(other_id)
        if guest is None or other is None or guest.organisation_id != organisation.pk:
            raise UserError(_("Diesen Spieler gibt es in Ihrer Organisation nicht (mehr)."))
        if guest.member_number.strip():
            raise UserError(
                _("%(name)s hat eine Mitgliedsnummer: wer das ist, sagt die Nummer.") % {"name": guest.name}
            )
        if not _suggestible(organisation, other_id):
            raise UserError(_("Diesen Spieler gibt es nicht (mehr) oder er ist nicht mit Namen veröffentlicht."))
        if same:
            keys = identities.identity_keys([player_id, other_id])
            numbers = {key for key in keys.values() if key.startswith("#")}
            if len(numbers) > 1:
                raise UserError(
                    _("%(name)s gehört schon zu einer anderen Mitgliedsnummer; zwei Nummern sind nicht eine Person.")
                    % {"name": guest.name}
                )
        if not same:
            _refuse_contradiction(organisation, guest, other)
        action = "identity_confirmed" if same else "identity_rejected"
        with audit.recording(action, by=by, tournament=None):
            decision = IdentityDecision.objects.filter(player=guest, other=other).first()
            if same or (decision is not None and decision.same):  # who is who changes: the Ranglisten anew
                rangliste_refresh.identities_changed(player_ids=[guest.pk, other.pk])
            if decision is None:
                decision = IdentityDecision(organisation=organisation, player=guest, other=other, same=same)
            decision.same = same
            decision.save()
        return decision


def _refuse_contradiction(organisation: Organisation, guest: Player, other: Player) -> None:
    """A choice of "Eine andere Person" for two records that other confirmations already make one person would
    contradict them: refused, naming the confirmations to take back first."""
    links = identities.joining(guest.pk, other.pk, {guest.pk: guest.member_number, other.pk: other.member_number})
    if not links:
        return
    lines = []
    others = []  # the organisations whose confirmations only they can take back
    for link in links:
        line = f"„{link.player} = {link.other}“"
        if link.organisation != organisation.name:
            line += " " + _("(bestätigt von %(club)s)") % {"club": link.organisation}
            others.append(link.organisation)
        lines.append(line)
    if others:
        undo = _(
            "Wenn das nicht stimmt, bitten Sie %(clubs)s, die Bestätigung zurückzunehmen (eine eigene nehmen Sie "
            "unter „Entschieden“ zurück), und wählen dann „Eine andere Person“."
        ) % {"clubs": ", ".join(dict.fromkeys(others))}
    else:
        undo = _(
            "Wenn das nicht stimmt, nehmen Sie zuerst diese Bestätigung unter „Entschieden“ zurück "
            "und wählen dann „Eine andere Person“."
        )
    raise UserError(
        _("%(guest)s und %(other)s sind schon dieselbe Person, weil bestätigt ist: %(links)s.")
        % {"guest": guest.name, "other": other.name, "links": "; ".join(lines)}
        + " "
        + undo
    )


def undo_identity(*, organisation: Organisation, decision_id: int, by: Actor = SYSTEM) -> None:
    """Takes a decision back (a confirmation or a rejection): the two records are suggested again.
    Only the organisation's own decisions."""
    with transaction.atomic():
        found = lock(IdentityDecision.objects.filter(pk=decision_id, organisation=organisation))
        if not found:
            raise UserError(_("Diese Entscheidung gibt es nicht (mehr)."))
        with audit.recording("identity_undone", by=by, tournament=None):
            if found[0].same:  # the group splits: the association's Ranglisten anew
                rangliste_refresh.identities_changed(player_ids=[found[0].player_id, found[0].other_id])
            found[0].delete()
