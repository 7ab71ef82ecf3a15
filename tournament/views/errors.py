"""Every error page in the site's frame and the reader's language (templates/403.html, 404.html,
405.html, 403_csrf.html, 500.html), also under `make run` (DEBUG on):

- 403, 404 and 500: Django's handlers (config/urls.py: handler403 …) with our templates; the 500 page
  is rendered without the request's context when that fails too (the database may be what broke);
- 404 with DEBUG on: our page too, instead of Django's technical page (`ErrorPages`), for a view's
  404 and for an address no pattern knows; Django's page with the URL patterns is not needed to run
  an evening;
- 405 (`require_POST` and the like answer with an empty body): our page, the Allow header kept;
- a refused CSRF token: our page (settings.CSRF_FAILURE_VIEW), status 403.

JSON answers (the phones' `/e/<token>/…json`) are left as they are; under /api/ every error is JSON
(`json_error`: the open API's shape, docs/api.md), also a 404 for an address no pattern knows and a 405.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import Http404, HttpResponseNotAllowed, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)


API = "/api/"


def json_error(status: int, code: str, message: str) -> JsonResponse:
    """An error of the open API: `{"error": {"code": ..., "message": ...}}`, the message in the reader's
    language (Accept-Language)."""
    response = JsonResponse({"error": {"code": code, "message": str(message)}}, status=status,
                            json_dumps_params={"ensure_ascii": False})
    patch_vary_headers(response, ("Accept-Language",))
    return response


def api_not_found() -> JsonResponse:
    return json_error(404, "not_found", _("Das gibt es nicht, oder es ist nicht öffentlich."))


def permission_denied(request, exception=None):
    return render(request, "403.html", status=403)


def page_not_found(request, exception=None):
    if request.path.startswith(API):
        return api_not_found()
    return render(request, "404.html", status=404)


def server_error(request):
    try:
        return render(request, "500.html", status=500)
    except Exception:  # the frame needs the database (the user); without it, the page alone
        logger.exception("The error page could not be rendered with its context")
    try:
        return HttpResponseServerError(loader.get_template("500.html").render())
    except Exception:
        return HttpResponseServerError("<h1>Server Error (500)</h1>", content_type="text/html")


def csrf_failure(request, reason=""):
    return render(request, "403_csrf.html", status=403)


class ErrorPages:
    """Our 404 page with DEBUG on, and our 405 page instead of an empty body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if isinstance(response, HttpResponseNotAllowed) and request.path.startswith(API):
            answer = json_error(405, "method_not_allowed", _("Die API liest nur: GET."))
            answer["Allow"] = response["Allow"]
            return answer
        if isinstance(response, HttpResponseNotAllowed) and not response.content:
            page = render(request, "405.html", status=405)
            page["Allow"] = response["Allow"]
            return page
        if settings.DEBUG and response.status_code == 404 and getattr(request, "resolver_match", None) is None:
            return page_not_found(request)  # no pattern matched: Django's technical page otherwise
        return response

    def process_exception(self, request, exception):
        if settings.DEBUG and isinstance(exception, Http404):
            return page_not_found(request, exception)
        return None
