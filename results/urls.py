"""Routes of the comparison pages, included at /compare/."""

from django.urls import path

from . import views

app_name = "results"

urlpatterns = [
    path("", views.compare, name="compare"),
    path("<uuid:game_id>/", views.compare_game, name="compare-game"),
]
