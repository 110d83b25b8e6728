"""URL routes of the whole site."""

from csp.constants import NONCE as CSP_NONCE
from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from decodoku_site.health import healthz

# Unexpected errors: the API's JSON error body under /api/, an HTML page elsewhere.
handler500 = "decodoku_site.errors.server_error"



def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    return HttpResponsePermanentRedirect(static("core/favicon.svg"))


redoc_view = csp_update({"style-src": [CSP_NONCE]})(
    SpectacularRedocView.as_view(url_name="api-schema", template_name="games/api_docs/redoc.html")
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The documentation pages load nothing from another host and run no inline
    # script: Swagger UI's set-up is served as a script of its own (?script).
    # ReDoc writes its styles into <style> elements at run time: its page admits
    # <style> elements that carry the request's nonce (given to ReDoc by
    # redoc-init.js), never 'unsafe-inline' and never style attributes.
    # The default documentation page is ReDoc: about 1.1 MB of script against Swagger UI's
    # 1.9 MB, and no serious accessibility violation (Swagger UI nests its controls).
    path("api/v1/docs/", redoc_view, name="api-docs"),
    path("api/v1/redoc/", redoc_view, name="api-redoc"),
    # Swagger UI, to try the endpoints from the browser.
    path(
        "api/v1/swagger/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="games/api_docs/swagger_ui.html"
        ),
        name="api-swagger",
    ),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin).
    path("favicon.ico", favicon, name="favicon"),
    path("research/", include("research.urls")),
    path("api/v1/puzzles/", include("puzzles.api.urls")),
    # After schema/docs: it ends with a JSON 404 for every other path under /api/v1/.
    path("api/v1/", include("games.api.urls")),
    path("dashboard/", include("dashboard.urls")),
    path("compare/", include("results.urls")),
    path("puzzles/", include("puzzles.web.urls")),
    path("", include("games.web.urls")),
]

if settings.DECODOKU_BENCH_ENDPOINTS:
    # Before the play API's routes, whose last one answers every other path with a 404.
    urlpatterns.insert(0, path("api/v1/bench/", include("bench.endpoints.urls")))
