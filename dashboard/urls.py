"""Routes of the dashboard, included at /dashboard/."""

from django.urls import path

from . import views

app_name = "dashboard"

urlpatterns = [
    path("", views.page, name="page"),
    path("players/", views.players, name="players"),
    # Before the plots: "mine" is the session player's games, not a plot.
    path("data/mine/", views.mine, name="mine"),
    path("data/<slug:plot>/", views.data, name="data"),
]
