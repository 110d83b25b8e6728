"""Routes of the research area, included under /research/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

app_name = "research"

urlpatterns = [
    path("", views.index, name="index"),
    path("cite/", views.cite, name="cite"),
    path("cite/decodoku-lab.<slug:fmt>", views.cite_download, name="cite-download"),
    path("access/", views.access_request, name="access"),
    path("access/sent/", views.access_request_sent, name="access-sent"),
    path("codebook/", views.codebook_page, name="codebook"),
    path("codebook.json", views.codebook_json, name="codebook-json"),
    path("export/<slug:table>.csv", views.export_csv, name="export"),
    path("export/<slug:table>.parquet", views.export_parquet, name="export-parquet"),
    path("games/", views.games_page, name="games"),
    path("games/<str:game_id>/", views.game_page, name="game"),
    path("games/<str:game_id>/save.txt", views.game_save, name="game-save"),
    path("login/", views.ResearchLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="research:login"), name="logout"),
]
