"""Request body parsers with a size limit.

DRF's JSON parser reads a body of any size; the play API's bodies are tiny,
so anything over ``JSON_BODY_LIMIT`` bytes is refused before it is parsed
(and then parsed as the site's strict parser does: ``core.parsers``).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any

from core.errors import PayloadTooLarge
from core.parsers import StrictJSONParser

JSON_BODY_LIMIT = 64 * 1024


class LimitedJSONParser(StrictJSONParser):
    limit = JSON_BODY_LIMIT

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        body = stream.read(self.limit + 1) if stream is not None else b""
        if len(body) > self.limit:
            raise PayloadTooLarge(
                f"A JSON body may have at most {self.limit} bytes.", code="request_too_large"
            )
        return super().parse(io.BytesIO(body), media_type, parser_context)
