"""`{% data_version tournament as version %}`: what a cached part of a page depends on besides its own
arguments -- the tournament's change counter, the language and the release of the code -- for
Django's `{% cache %}` tag (tournament/web/caching.py: the cache is shared by every worker and machine,
and every write to the tournament changes the counter)."""

from django import template

from ..web import cache_keys, caching

register = template.Library()


@register.simple_tag
def data_version(tournament) -> str:
    return cache_keys.round_tables_version(caching.change_counter(tournament))
