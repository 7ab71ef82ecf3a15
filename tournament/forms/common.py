"""Fields every form that changes something carries: what it was loaded from, and a one-time key."""

import re
import uuid

from django import forms
from django.utils.translation import gettext_lazy as _


class VersionField(forms.IntegerField):
    """The version a form was loaded from (hidden): 0 for something new."""

    def __init__(self, **kwargs):
        super().__init__(widget=forms.HiddenInput, min_value=0, max_value=2**31 - 1, required=False, **kwargs)


KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


class KeyField(forms.CharField):
    """A form's one-time key (hidden), so that the same form sent twice is carried out once."""

    def __init__(self, **kwargs):
        super().__init__(widget=forms.HiddenInput, max_length=64, required=False, **kwargs)

    def clean(self, value):
        return clean_key(super().clean(value))


def clean_key(raw) -> str | None:
    """A one-time key as our forms and phones make them (letters, digits, - and _, at most 64), or
    None for anything else: a request without a usable key is carried out, just not recognised
    when it comes twice."""
    return raw if isinstance(raw, str) and KEY.fullmatch(raw) else None


def choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    """A form's choice field, to set its choices (typed, so that mypy knows it has choices)."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


def new_key() -> str:
    """A fresh one-time key for a form that creates something."""
    return uuid.uuid4().hex


def add_organisation_field(form: forms.Form, organisations) -> None:
    """The organisation something new is created in (docs/security.md, "Organisations"): a choice of
    the reader's own organisations, the first field of the form; hidden, and taken when missing, when
    there is only one."""
    choices = [(str(o.pk), o.name) for o in organisations]
    field = forms.TypedChoiceField(label=_("Organisation"), choices=choices, coerce=int,
                                   initial=choices[0][0] if choices else None, required=len(choices) != 1,
                                   empty_value=organisations[0].pk if len(choices) == 1 else None)
    if len(choices) == 1:
        field.widget = forms.HiddenInput()
    form.fields = {"organisation": field, **form.fields}


def chosen_organisation(form: forms.Form, organisations):
    """The organisation the valid form chose, of `organisations` (the ones `add_organisation_field` offered)."""
    return next(o for o in organisations if o.pk == form.cleaned_data["organisation"])
