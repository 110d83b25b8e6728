"""API tokens and recovery codes of players: how they are made and stored (hashed)."""

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


# Recovery codes: 20 characters of Crockford's base32 alphabet (100 random
# bits), shown in groups of four. Letters are read case-insensitively, and
# spaces and dashes are ignored, so a code copied by hand still works.
RECOVERY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
RECOVERY_LENGTH = 20
RECOVERY_GROUP = 4
RECOVERY_INPUT_MAX_LENGTH = 64


def new_recovery_code() -> str:
    """A random recovery code, such as ``7QK2-M9XD-...`` (100 bits of entropy)."""
    chars = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_LENGTH))
    return "-".join(
        chars[i : i + RECOVERY_GROUP] for i in range(0, RECOVERY_LENGTH, RECOVERY_GROUP)
    )


def normalize_recovery_code(code: str) -> str | None:
    """The code's 20 characters in upper case, or None when it cannot be a recovery code."""
    if len(code) > RECOVERY_INPUT_MAX_LENGTH:
        return None
    chars = "".join(code.split()).replace("-", "").upper()
    if len(chars) != RECOVERY_LENGTH or any(char not in RECOVERY_ALPHABET for char in chars):
        return None
    return chars


def hash_recovery_code(normalized: str) -> str:
    """The SHA-256 of a normalized recovery code, as stored."""
    return hash_token(normalized)
