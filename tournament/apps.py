from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournament"
    verbose_name = _("Turniere")

    def ready(self):
        # audit: connects audit.fill_record to django-simple-history's signal; outside_writes: counts
        # up the change counter for writes outside the services; outbox: queues the changes of a
        # published tournament (DataChange.objects.append calls it); rangliste_refresh: marks the
        # association's Ranglisten stale when a change of a tournament they take is done (audit.recording
        # calls it)
        from .log import audit  # noqa: F401
        from .services import outbox, rangliste_refresh  # noqa: F401
        from .web import outside_writes  # noqa: F401
