from django.urls import path

from .views.home import home

app_name = "tournament"

urlpatterns = [
    path("", home, name="home"),
]
