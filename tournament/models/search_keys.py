"""A column that holds a folded copy of other columns, for the search in the database (the hub's
calendar and search, docs/hub.md): `collation.search_key` of the fields it is made from.

It is filled wherever Django writes the row, `save()` and `bulk_create()` alike (`pre_save`), so no
service has to remember it; a `QuerySet.update()` of a name must set it too (personal_data's
erasure does)."""

from __future__ import annotations

from django.db import models

from ..collation import search_key


class SearchKeyField(models.CharField):
    def __init__(self, *args, sources: tuple[str, ...] = ("name",), **kwargs):
        self.sources = tuple(sources)
        kwargs.setdefault("max_length", 1000)
        kwargs.setdefault("editable", False)
        kwargs.setdefault("blank", True)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["sources"] = self.sources
        for key, value in (("max_length", 1000), ("editable", False), ("blank", True), ("default", "")):
            if kwargs.get(key) == value:
                del kwargs[key]
        return name, path, args, kwargs

    def pre_save(self, model_instance, add):
        value = search_key(*(str(getattr(model_instance, source) or "") for source in self.sources))
        setattr(model_instance, self.attname, value)
        return value
