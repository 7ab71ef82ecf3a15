"""`manage.py publish [--once]`: the venue's sender (docs/publishing.md). Runs until stopped, sending
the outbox of every published tournament to its hub; with nothing to send it looks again every second
(one query). `--once`: one pass, for tests and cron."""

import time

from django.core.management.base import BaseCommand

from tournament.web import publish_sender


class Command(BaseCommand):
    help = "Sendet die Änderungen veröffentlichter Turniere an ihren Hub."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="einmal senden, was fällig ist, dann enden")
        parser.add_argument("--interval", type=float, default=1.0, help="Sekunden zwischen zwei Blicken ins Postfach")

    def handle(self, *args, once=False, interval=1.0, **options):
        while True:
            sent = publish_sender.send_due(report=self._line)
            if once:
                self.stdout.write(f"{sent} Sendung(en)")
                return
            if not sent:
                time.sleep(interval)

    def _line(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
