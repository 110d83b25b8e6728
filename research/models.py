"""The research app's own records: requests for research access.

Research data itself is the games app's (``games.models``); the research
app only stores who asked to read it. A request reaches the admins as a row
listed in the admin (*Research data > Access requests*), where they mark it
handled once they have created the account (or declined).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class AccessRequest(models.Model):
    """Someone asking for a research account, from the public form on /research/access/."""

    class Status(models.TextChoices):
        NEW = "new", "New"
        GRANTED = "granted", "Access granted"
        DECLINED = "declined", "Declined"

    name = models.CharField(max_length=200)
    email = models.EmailField(max_length=254)
    institution = models.CharField(max_length=200)
    purpose = models.TextField(max_length=4000)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.NEW)
    # What the admins noted when handling it (never shown to the requester).
    admin_note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "access request"

    def __str__(self) -> str:
        return f"{self.name} ({self.institution}), {self.created_at:%Y-%m-%d}"
