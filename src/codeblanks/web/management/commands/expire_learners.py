"""``codeblanks manage expire_learners``: delete the anonymous learners who will not come back
(docs/deploy.md, "Anonymous learners"). Run it daily, next to ``clearsessions``."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from codeblanks.web.learner import expiry


class Command(BaseCommand):
    help = (
        "Delete anonymous learners with no progress and nothing written for "
        "CODEBLANKS_IDLE_LEARNER_DAYS, and those whose session has expired."
    )

    def handle(self, *args, **options):
        ages = expiry.expiry_ages()
        total, batch = 0, 1000
        while (gone := expiry.learners_expire(**ages, batch=batch)) > 0:
            total += gone
            if gone < batch:
                break
        self.stdout.write(
            f"{total} anonymous learners deleted (no progress and idle {ages['idle_days']} "
            f"days, or unseen {ages['forgotten_days']} days)."
        )
