"""API tokens of players: how they are made and how they are stored (hashed)."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32
TOKEN_PREFIX_LENGTH = 8
TOKEN_MAX_LENGTH = 200


def new_token() -> str:
    """A random URL-safe token (32 bytes of entropy)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The SHA-256 of a token, as stored: the token itself is never stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_prefix(token: str) -> str:
    """The first characters of a token: not secret, used to find and show it."""
    return token[:TOKEN_PREFIX_LENGTH]
