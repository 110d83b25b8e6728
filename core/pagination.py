"""Page-number pagination that refuses what it cannot read, as the schema says it does.

DRF's ``PageNumberPagination`` silently ignores a ``page_size`` it cannot read
(``?page_size=null``) and reads the last of repeated parameters
(``?page_size=1&page_size=100``), and reads an empty ``page`` as the first,
so requests that the schema calls invalid were answered as if they were fine.
Here a ``page`` that is not a whole number from 1, a ``page_size`` that is not
one from 1 to ``max_page_size``, or either given more than once, is a 400
(``invalid_request``, naming the parameter); the schema declares the same
bounds. A page past the last one stays DRF's 404.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

# A longer page size is refused before it is converted.
MAX_DIGITS = 9


def _whole_number(text: str) -> int | None:
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None


class StrictPageNumberPagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None
    ) -> list[Any] | None:
        for name in (self.page_query_param, self.page_size_query_param):
            if name and len(request.query_params.getlist(name)) > 1:
                raise ValidationError({name: ["Give this parameter at most once."]})
        page = request.query_params.get(self.page_query_param)
        if page is not None and not (page.isascii() and page.isdigit() and page.strip("0")):
            raise ValidationError({self.page_query_param: ["A whole number from 1 is required."]})
        return super().paginate_queryset(queryset, request, view)

    def get_page_size(self, request: Request) -> int | None:
        name = self.page_size_query_param
        if not name or name not in request.query_params:
            return self.page_size
        maximum = self.max_page_size or self.page_size or 1
        size = _whole_number(request.query_params[name])
        if size is None or not 1 <= size <= maximum:
            raise ValidationError({name: [f"A whole number from 1 to {maximum} is required."]})
        return size

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            schema = parameter.setdefault("schema", {})
            if parameter["name"] == self.page_query_param:
                schema["minimum"] = 1
            elif parameter["name"] == self.page_size_query_param:
                schema.update(minimum=1, maximum=self.max_page_size or self.page_size)
        return parameters


class ListPagination(StrictPageNumberPagination):
    """The players' lists (their games, their puzzle attempts): ``?page=`` and
    ``?page_size=`` (1 to 100), 20 a page; anything else in them is a 400."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
