"""The site's JSON request parser: what Python's ``json`` module lets through, refused.

DRF's ``JSONParser`` hands the body to ``json.load``. Two kinds of body that
it accepts broke requests with a 500:

* **Lone surrogates.** ``"\\ud800"`` is a valid JSON escape, but it decodes to
  a Python string that cannot be written as UTF-8: any answer that named
  the value (an unknown field, a wrong choice) failed while being encoded.
* **Deep nesting.** The decoder recurses once per ``[`` or ``{``; about 950
  levels (under 2 KB of body) raised ``RecursionError``.

:class:`StrictJSONParser` refuses both with 400, before anything else reads
the body: the depth is counted on the text, before it is decoded, so no
recursion runs on a deep body (``nesting_too_deep``, with ``limit``); a string
that is not valid Unicode is ``parse_error``. It is the API's default JSON
parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``); the play API's
size-limited parser builds on it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json as drf_json

from core.errors import InvalidInput

# No request of the site nests deeper than a few levels.
MAX_JSON_DEPTH = 32

# A JSON string, or an unterminated one up to the end of the text. It never
# fails to match at a quote, so the scan stays linear whatever the body.
_STRING = re.compile(r'"(?:[^"\\]|\\[\s\S]?)*"?')
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class NestingTooDeep(InvalidInput):
    code = "nesting_too_deep"
    default_message = f"The JSON body is nested deeper than {MAX_JSON_DEPTH} levels."


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in the JSON ``text`` (brackets in strings do not count)."""
    if text.count("[") + text.count("{") == 0:
        return 0
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def is_valid_unicode(data: Any) -> bool:
    """False when a string of the decoded ``data`` (a key or a value) holds a lone surrogate."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, refusing deep nesting and strings that are not valid Unicode."""

    max_depth = MAX_JSON_DEPTH

    def read_body(self, stream: IO[bytes] | None) -> bytes:
        return stream.read() if stream is not None else b""

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        body = self.read_body(stream)
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            # bytes.decode refuses codecs that are not text encodings (zlib, base64)
            # before running them.
            text = body.decode(encoding)
        except (LookupError, ValueError) as exc:
            raise ParseError("JSON parse error - the body is not text in its charset.") from exc
        if json_depth(text) > self.max_depth:
            raise NestingTooDeep(
                f"The JSON body is nested deeper than {self.max_depth} levels.",
                limit=self.max_depth,
            )
        try:
            data = drf_json.loads(
                text, parse_constant=drf_json.strict_constant if self.strict else None
            )
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        if not is_valid_unicode(data):
            raise ParseError(
                "JSON parse error - a string holds a lone surrogate (such as \\ud800): "
                "text must be valid Unicode."
            )
        return data
