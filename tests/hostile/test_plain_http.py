"""The documented trial mode without TLS: SECURE_SSL_REDIRECT=0 alone must give
cookies a browser keeps over plain HTTP, or session play breaks."""

from __future__ import annotations

import json

import pytest

from tests.test_settings import PRODUCTION_KEY, SETUP, last_line, run_python

PRINT = SETUP + (
    "; from django.conf import settings; import json; "
    "print(json.dumps([settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE]))"
)


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({"SECURE_SSL_REDIRECT": "0"}, [False, False]),
        ({}, [True, True]),
        ({"SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "1"}, [True, False]),
        ({"CSRF_COOKIE_SECURE": "0"}, [True, False]),
    ],
)
def test_secure_cookies_follow_the_https_redirect_unless_set(variables, expected):
    result = run_python(PRINT, DEBUG="0", SECRET_KEY=PRODUCTION_KEY, **variables)
    assert result.returncode == 0, result.stderr
    assert json.loads(last_line(result.stdout)) == expected
