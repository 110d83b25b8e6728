from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces every app builds on; core itself imports none of the apps."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Site"
