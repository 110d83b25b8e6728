"""``manage.py daily_bots``: the bots play closed days' daily challenges now, in this process."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.daily import day_is_open
from games.models import DailyChallenge
from results.services import daily_bots_play


class Command(BaseCommand):
    help = ("Have every bot play the daily challenge of each closed day that the bots have "
            "not played yet (what the periodic task queues), or of the given days.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", action="append", default=[], metavar="YYYY-MM-DD",
                            help="a closed day (repeatable); default: every day still pending")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["day"]:
            challenges = []
            for text in options["day"]:
                try:
                    day = date.fromisoformat(text)
                except ValueError:
                    raise CommandError(f"{text!r} is not a date (YYYY-MM-DD)") from None
                if day_is_open(day=day):
                    raise CommandError(f"the day {day} is not over yet")
                challenge = DailyChallenge.objects.filter(date=day).first()
                if challenge is None:
                    raise CommandError(f"no daily challenge was played on {day}")
                challenges.append(challenge)
        else:
            challenges = list(
                DailyChallenge.objects.filter(bots_played_at__isnull=True).order_by("date")
            )
        total = 0
        for challenge in challenges:
            if day_is_open(day=challenge.date):
                continue
            played = daily_bots_play(challenge_id=challenge.pk)
            total += played
            self.stdout.write(f"{challenge.date}: {played} bot games played")
        self.stdout.write(f"{total} bot games played in all")
