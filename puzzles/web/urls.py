"""Routes of the puzzle pages, included under /puzzles/."""

from django.urls import path

from puzzles.web import views

app_name = "puzzles"

urlpatterns = [
    path("", views.play, name="play"),
    path("stats/", views.stats, name="stats"),
    path("2mino/", views.twomino, name="twomino"),
]
