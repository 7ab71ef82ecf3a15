"""The publishing pages (docs/publishing.md): the director's "Online veröffentlichen" on the venue, and an
organisation's publishing keys on the hub ("Veröffentlichungsschlüssel", only with DJANGO_HUB=1)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import UserError
from ..log.audit import Actor
from ..models import Organisation
from ..selectors import organisations_of
from ..selectors.publishing import keys_of, publication_state
from ..services import outbox, publishing_keys
from .access import director_required, organiser_required


class PublishForm(forms.Form):
    hub_url = forms.URLField(label=gettext_lazy("Adresse des Hubs"), max_length=300, assume_scheme="https",
                             help_text=gettext_lazy("z. B. https://turniere.example.de"))
    key = forms.CharField(label=gettext_lazy("Veröffentlichungsschlüssel"), max_length=200,
                          help_text=gettext_lazy("Den Schlüssel gibt die Organisation auf dem Hub aus; er wird "
                                                 "hier gespeichert, damit der Laptop senden kann."))


@director_required
def publishing_page(request, tournament):
    state = publication_state(tournament)
    initial = {"hub_url": state.publication.hub_url} if state.publication else None
    form = PublishForm(request.POST if request.POST.get("action") == "start" else None, initial=initial)
    if request.method == "POST":
        if request.POST.get("action") == "stop":
            outbox.stop_publication(tournament=tournament, by=Actor.of(request))
            messages.success(request, _("Die Online-Veröffentlichung ist beendet."))
            return redirect("tournament:publishing", tournament.slug)
        if form.is_valid():
            try:
                outbox.start_publication(tournament=tournament, hub_url=form.cleaned_data["hub_url"],
                                         key=form.cleaned_data["key"], by=Actor.of(request))
            except UserError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                messages.success(request, _("Das Turnier wird jetzt online veröffentlicht."))
                return redirect("tournament:publishing", tournament.slug)
    return render(request, "tournament/publishing.html", {
        "tournament": tournament, "form": form, "state": state})


class KeyForm(forms.Form):
    label = forms.CharField(label=gettext_lazy("Turnierort"), max_length=200,
                            help_text=gettext_lazy("z. B. „Vereinsheim am Markt“: woran Sie den Schlüssel erkennen"))


@organiser_required
def publishing_keys_page(request, organisation_slug):
    if not settings.DOKO_HUB:
        raise Http404
    organisation = get_object_or_404(Organisation, slug=organisation_slug)
    if not request.user.is_superuser and organisation not in organisations_of(request.user):
        raise PermissionDenied
    form = KeyForm(request.POST if request.POST.get("action") == "issue" else None)
    secret = None
    if request.method == "POST" and request.POST.get("action") == "revoke":
        chosen = str(request.POST.get("key", "")).strip()
        key = organisation.publishing_keys.filter(pk=int(chosen)).first() if chosen.isdigit() and len(chosen) < 18 \
            else None
        if key is None:
            messages.error(request, _("Diesen Schlüssel gibt es nicht (mehr)."))
        else:
            publishing_keys.revoke_key(key=key)
            messages.success(request, _("Der Schlüssel „%(label)s“ ist widerrufen.") % {"label": key.label})
        return redirect("tournament:publishing_keys", organisation.slug)
    if request.method == "POST" and form.is_valid():
        try:
            _key, secret = publishing_keys.issue_key(organisation=organisation, label=form.cleaned_data["label"],
                                                     user=request.user)
        except UserError as error:
            form.add_error("label", error.message)
        else:
            form = KeyForm()
    return render(request, "tournament/publishing_keys.html", {
        "organisation": organisation, "form": form, "secret": secret, "keys": keys_of(organisation)})
