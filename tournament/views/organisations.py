"""An organisation's own settings, for its organisers: the rating switched on or off for every one of
its tournaments, series and Ranglisten (docs/rating.md, "Players decide")."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..log.audit import Actor
from ..models import Organisation
from ..selectors import organisations_of
from ..services import organisations
from .access import organiser_required


class RatingSwitchForm(forms.Form):
    rating_enabled = forms.BooleanField(
        label=gettext_lazy("Wertungszahl zeigen"), required=False,
        help_text=gettext_lazy("Aus: kein Turnier, keine Serie und keine Rangliste dieser Organisation zeigt die "
                               "Wertungszahl, auch nicht in den Exporten. An: jedes Turnier entscheidet in seinen "
                               "Einstellungen selbst."))


@organiser_required
def organisation_settings(request, organisation_slug):
    organisation = get_object_or_404(Organisation, slug=organisation_slug)
    if not request.user.is_superuser and organisation not in organisations_of(request.user):
        raise PermissionDenied
    form = RatingSwitchForm(request.POST if request.method == "POST" else None,
                            initial={"rating_enabled": organisation.rating_enabled})
    if request.method == "POST" and form.is_valid():
        enabled = form.cleaned_data["rating_enabled"]
        changed = enabled != organisation.rating_enabled
        organisations.switch_rating(organisation=organisation, enabled=enabled, by=Actor.of(request))
        if changed:
            messages.success(request, _("Die Wertungszahl ist jetzt für alle Turniere von %(name)s eingeschaltet.")
                             % {"name": organisation.name} if enabled else
                             _("Die Wertungszahl ist jetzt für alle Turniere von %(name)s ausgeschaltet.")
                             % {"name": organisation.name})
        return redirect("tournament:organisation_settings", organisation.slug)
    return render(request, "tournament/organisation_settings.html", {"organisation": organisation, "form": form})
