"""Backups: the director downloads the tournament file with its change log; an organiser (access.py)
restores (imports) such a file as a new tournament, which they then direct."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import UserError
from ..forms.common import add_organisation_field, chosen_organisation
from ..log.audit import Actor
from ..selectors import organisations_of
from ..services.backups import backup_name, backup_text
from ..services.file_checks import ImportProblems
from ..services.importing import import_tournament
from .access import director_required, organiser_required

MOST_BYTES = 50 * 1024 * 1024


@director_required
def backup_download(request, tournament):
    response = HttpResponse(backup_text(tournament), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{backup_name(tournament, "sicherung")}"'
    return response


class RestoreForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Turnierdatei oder Sicherung (JSON)"))
    slug = forms.SlugField(label=gettext_lazy("Kurzname (leer: der aus der Datei)"), max_length=80, required=False,
                           help_text=gettext_lazy("Ein anderer Kurzname legt eine Kopie neben dem Original an."))


def read_json(upload) -> object:
    """The uploaded file as JSON, or a UserError-like message (ValueError) saying what is wrong."""
    if upload.size > MOST_BYTES:
        raise ValueError(_("Die Datei ist zu groß (höchstens 50 MB)."))
    try:
        return json.loads(upload.read().decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(_("Die Datei ist nicht in UTF-8 geschrieben.")) from None
    except json.JSONDecodeError as error:
        raise ValueError(_("Die Datei ist kein gültiges JSON (Zeile %(line)s, Zeichen %(column)s).")
                         % {"line": error.lineno, "column": error.colno}) from None
    except RecursionError:
        raise ValueError(_("Die Datei ist zu tief verschachtelt.")) from None


@organiser_required
def restore_page(request) -> HttpResponse:
    form = RestoreForm(request.POST or None, request.FILES or None)
    organisations = list(organisations_of(request.user))
    add_organisation_field(form, organisations)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            data = read_json(form.cleaned_data["file"])
            notes: list[str] = []
            tournament = import_tournament(data, director=request.user, slug=form.cleaned_data["slug"] or None,
                                           organisation=chosen_organisation(form, organisations),
                                           by=Actor.of(request), notes=notes)
        except ValueError as error:
            form.add_error("file", str(error))
        except ImportProblems as error:
            problems = error.lines
        except UserError as error:
            form.add_error("slug", error.message)
        else:
            messages.success(request, _("„%(name)s“ ist eingespielt.") % {"name": tournament.name})
            for note in notes:
                messages.warning(request, note)
            return redirect("tournament:overview", slug=tournament.slug)
    return render(request, "tournament/restore.html", {"form": form, "problems": problems[:200],
                                                       "more_problems": max(len(problems) - 200, 0)})
