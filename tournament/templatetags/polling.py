"""`{% data_version tournament as version %}`: what a cached part of a page depends on besides its own
arguments -- the tournament's change counter, the language and the release of the code -- for
Django's `{% cache %}` tag (tournament/web/caching.py: the cache is shared by every worker and machine,
and every write to the tournament changes the counter)."""

from django import template
from django.utils.translation import get_language

from ..web import caching

register = template.Library()


@register.simple_tag
def data_version(tournament) -> str:
    return f"{caching.change_counter(tournament)}-{get_language()}-{caching.release()}"
