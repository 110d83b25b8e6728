"""Routes of the puzzle pages, included under /puzzles/."""

from django.urls import path

from puzzles.web import decodoku, views

app_name = "puzzles"

urlpatterns = [
    path("", views.play, name="play"),
    path("stats/", views.stats, name="stats"),
    path("2mino/", views.twomino, name="twomino"),
    path("decodoku/", decodoku.index, name="decodoku"),
    path("decodoku/new/", decodoku.play_generated, name="decodoku-new"),
    path("decodoku/<int:number>/", decodoku.play_published, name="decodoku-play"),
    path("decodoku/compare/<uuid:puzzle_id>/", decodoku.compare, name="decodoku-compare"),
    path(
        "decodoku/attempt/<uuid:attempt_id>/compare/",
        decodoku.compare_attempt,
        name="decodoku-compare-attempt",
    ),
]
