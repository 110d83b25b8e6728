"""The context every page gets: one context processor, fed by the apps.

Core knows none of the apps. Each app that adds to every page's context says
so on its ``AppConfig``:

- ``js_modules``: the app's ES modules, as paths under its static folder
  (e.g. ``"games/js/api.js"``). The page's import map sends each plain module
  URL to the URL ``{% static %}`` gives it, so modules import each other by
  relative paths and still get the hashed, long-cached files in production.
- ``page_context(request)``: a method returning what the app adds (the games
  app: the consent text and whether the session has a player).

Views pass only what is particular to their page (``page``, the page's data).
"""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.http import HttpRequest
from django.templatetags.static import static


def js_modules() -> list[str]:
    """Every app's ES modules, in the order of INSTALLED_APPS."""
    modules: list[str] = []
    for config in apps.get_app_configs():
        modules.extend(getattr(config, "js_modules", ()))
    return modules


def import_map() -> str:
    """The JSON text of the pages' import map: each module's plain URL to its served URL."""
    imports = {}
    for path in js_modules():
        folder, _, name = path.rpartition("/")
        imports[static(f"{folder}/") + name] = static(path)
    # "</" can never occur in these URLs, but keep the script element closed safely anyway.
    return json.dumps({"imports": imports}, indent=1).replace("</", "<\\/")


def page(request: HttpRequest) -> dict[str, Any]:
    """``TEMPLATES`` context processor: the import map and what each app adds."""
    context: dict[str, Any] = {"import_map": import_map()}
    for config in apps.get_app_configs():
        contribute = getattr(config, "page_context", None)
        if contribute is not None:
            context.update(contribute(request))
    return context
