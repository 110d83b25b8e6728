"""Content-Security-Policy and Permissions-Policy on every answer.

tests/browser/test_csp.py loads each page in Chromium and checks that none
triggers a violation. No page allows 'unsafe-inline', for scripts or styles:
ReDoc's run-time <style> elements carry the request's nonce instead."""

from __future__ import annotations

import pytest
from django.test import Client

PAGES = [
    "/",
    "/tutorial/",
    "/play/",
    "/dashboard/",
    "/research/login/",
    "/admin/login/",
    "/api/v1/docs/",
    "/api/v1/redoc/",
    "/api/v1/swagger/",
]

def _directives(header: str) -> dict[str, list[str]]:
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


@pytest.mark.django_db
@pytest.mark.parametrize("path", [*PAGES, "/api/v1/games/", "/healthz"])
def test_every_answer_carries_a_strict_policy(client: Client, path: str):
    response = client.get(path, follow=True)
    policy = _directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"][0] == "'self'"
    assert all(word.startswith("'nonce-") for word in policy["script-src"][1:])
    assert "'unsafe-inline'" not in policy["script-src"]
    # Styles too: the API documentation pages once allowed 'unsafe-inline' styles.
    assert policy["style-src"][0] == "'self'"
    assert all(word.startswith("'nonce-") for word in policy["style-src"][1:])
    assert policy["frame-ancestors"] == ["'none'"]
    assert not any("http" in word for words in policy.values() for word in words)
    assert "camera=()" in response["Permissions-Policy"]
