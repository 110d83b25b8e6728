"""The site's accounts in the admin: Django's user page, with the sign-in times read-only.

``last_login`` and ``date_joined`` are kept by Django itself; shown as read-only text they
need no date and time boxes (whose inputs Django leaves without a label of their own).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User


class SiteUserAdmin(UserAdmin):
    readonly_fields = ("last_login", "date_joined")


admin.site.unregister(User)
admin.site.register(User, SiteUserAdmin)
