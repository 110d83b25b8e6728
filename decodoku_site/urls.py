"""URL routes of the whole site."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from decodoku_site.health import healthz

# Unexpected errors: the API's JSON error body under /api/, an HTML page elsewhere.
handler500 = "decodoku_site.errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("healthz", healthz, name="healthz"),
    path("research/", include("research.urls")),
    path("api/v1/puzzles/", include("puzzles.api.urls")),
    # After schema/docs: it ends with a JSON 404 for every other path under /api/v1/.
    path("api/v1/", include("games.api.urls")),
    path("dashboard/", include("dashboard.urls")),
    path("puzzles/", include("puzzles.web.urls")),
    path("", include("games.web.urls")),
]
