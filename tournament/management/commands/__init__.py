"""One module per `manage.py` command; the list is in `tournament/management/__init__.py`."""
