"""Routes of the web pages, included at the site root."""

from django.urls import path

from . import uploads, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("tutorial/", views.tutorial, name="tutorial"),
    path("consent/", views.consent, name="consent"),
    path("play/", views.play, name="play"),
    path("play/daily-planar/", views.play_daily_planar, name="play-daily-planar"),
    path("me/", views.me, name="me"),
    path("me/recovery-code/", views.me_recovery_code, name="me-recovery-code"),
    path("me/display-name/", views.me_display_name, name="me-display-name"),
    path("me/uploads/", uploads.uploads, name="uploads"),
    path("daily/", views.daily, name="daily"),
    path("daily/<str:day>/", views.daily_day, name="daily-day"),
    path("restore/", views.restore, name="restore"),
    path("shared/<str:token>/", views.shared, name="shared"),
    path("shared/<str:token>/image.png", views.shared_image, name="shared-image"),
]
