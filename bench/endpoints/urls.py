"""Routed under /api/v1/bench/ only when the app is installed (DECODOKU_BENCH_ENDPOINTS=1)."""

from django.urls import path

from bench.endpoints.views import BaselineMoveView

app_name = "bench"

urlpatterns = [
    path("baseline/<uuid:game_id>/", BaselineMoveView.as_view(), name="baseline"),
]
