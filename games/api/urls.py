"""Routes of the play API, included under /api/v1/ by the site's urls."""

from django.urls import path, re_path

from core.api import api_not_found
from games.api import views

app_name = "api"

urlpatterns = [
    path("players/", views.PlayerCreateView.as_view(), name="players"),
    path("players/restore/", views.RestoreView.as_view(), name="players-restore"),
    path("me/games/", views.MyGamesView.as_view(), name="me-games"),
    path("me/recovery-code/", views.RecoveryCodeView.as_view(), name="me-recovery-code"),
    path("me/consent/", views.ConsentView.as_view(), name="me-consent"),
    path("me/display-name/", views.DisplayNameView.as_view(), name="me-display-name"),
    path("daily/", views.DailyView.as_view(), name="daily"),
    path("daily/days/", views.DailyDaysView.as_view(), name="daily-days"),
    path("daily/<str:day>/", views.DailyDayView.as_view(), name="daily-day"),
    path("games/", views.GameListCreateView.as_view(), name="games"),
    path("games/<uuid:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<uuid:game_id>/moves/", views.MoveCreateView.as_view(), name="moves"),
    path(
        "games/<uuid:game_id>/moves/<int:index>/note/",
        views.MoveNoteView.as_view(),
        name="move-note",
    ),
    path("games/<uuid:game_id>/abandon/", views.GameAbandonView.as_view(), name="abandon"),
    path("games/<uuid:game_id>/history/", views.GameHistoryView.as_view(), name="history"),
    path("games/<uuid:game_id>/share/", views.GameShareView.as_view(), name="share"),
    # Share tokens are URL-safe base64 (games.services.sharing); anything else is a 404 below.
    re_path(
        r"^shared/(?P<token>[A-Za-z0-9_-]{16,32})/$", views.SharedGameView.as_view(), name="shared"
    ),
    path("imports/", views.ImportView.as_view(), name="imports"),
]

# Last: any other path under /api/v1/ answers with the API's JSON 404 ("[\s\S]", not
# ".", so that a path with an encoded line break matches too).
urlpatterns.append(re_path(r"^(?P<path>[\s\S]*)$", api_not_found, name="not-found"))
