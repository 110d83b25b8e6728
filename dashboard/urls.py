"""Routes of the dashboard, included at /dashboard/."""

from django.urls import path

from . import views

app_name = "dashboard"

urlpatterns = [
    path("", views.page, name="page"),
    path("data/<slug:plot>/", views.data, name="data"),
]
