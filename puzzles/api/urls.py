"""Routes of the puzzles API, included under /api/v1/puzzles/."""

from django.urls import path

from puzzles.api import views

app_name = "puzzles-api"

urlpatterns = [
    path("", views.AttemptListCreateView.as_view(), name="attempts"),
    path("levels/", views.OfferedLevelsView.as_view(), name="levels"),
    path("check/", views.OwnPuzzleCheckView.as_view(), name="own-check"),
    path("own/", views.OwnPuzzleStartView.as_view(), name="own-start"),
    path("from-id/", views.PuzzleIdStartView.as_view(), name="from-id"),
    path("<uuid:attempt_id>/", views.AttemptDetailView.as_view(), name="attempt"),
    path("<uuid:attempt_id>/actions/", views.ActionCreateView.as_view(), name="actions"),
    path(
        "<uuid:attempt_id>/actions/batch/",
        views.ActionBatchCreateView.as_view(),
        name="actions-batch",
    ),
    path("<uuid:attempt_id>/finish/", views.AttemptFinishView.as_view(), name="finish"),
]
