"""Heavy requests take turns, so that they never take every request thread.

A web process serves a few requests at once (gunicorn's threads). Requests
that cost processor seconds (reading an uploaded workbook, generating or
checking a large puzzle, streaming an export) would, a dozen at a time, hold
every thread while cheap requests (a move, the game list) wait in the queue.
Each named kind of heavy work (:data:`HEAVY_KINDS`) therefore has its own
bounded number of slots per process (``DECODOKU_HEAVY_REQUESTS``). A heavy
request waits briefly for a slot (``DECODOKU_HEAVY_WAIT_SECONDS``) and is
otherwise refused with :class:`Busy` (503 and ``Retry-After``): the client
retries, and the threads stay free for everyone else.

Use :func:`heavy_request` on a view (function or method), or
:func:`acquire_heavy_slot` when the work outlives the view, as a streamed
response does (:func:`release_when_closed`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.http import HttpResponseBase, StreamingHttpResponse

from core.errors import DomainError

UPLOAD = "upload"
PUZZLE = "puzzle"
EXPORT = "export"
HEAVY_KINDS = (UPLOAD, PUZZLE, EXPORT)
# What a refused request is told to wait before it tries again (the Retry-After header).
BUSY_RETRY_AFTER_SECONDS = 2

P = ParamSpec("P")
R = TypeVar("R")


class Busy(DomainError):
    """Every slot of a kind of heavy work is taken in this process: try again shortly."""

    code = "busy"
    default_message = "The server is busy with other requests of this kind; try again shortly."


_slots: dict[tuple[str, int], threading.BoundedSemaphore] = {}
_slots_lock = threading.Lock()


def _semaphore(kind: str) -> threading.BoundedSemaphore:
    # Keyed by the size too, so that a changed setting (tests override it) gets a
    # semaphore of its own; a slot is always given back to the one it came from.
    size = int(settings.DECODOKU_HEAVY_REQUESTS)
    with _slots_lock:
        semaphore = _slots.get((kind, size))
        if semaphore is None:
            semaphore = _slots[(kind, size)] = threading.BoundedSemaphore(size)
        return semaphore


def acquire_heavy_slot(*, kind: str) -> Callable[[], None]:
    """Take a slot of ``kind``, waiting at most ``DECODOKU_HEAVY_WAIT_SECONDS``; ``Busy`` if
    none came free. Returns the function that gives the slot back (calling it again does
    nothing)."""
    if kind not in HEAVY_KINDS:
        raise ValueError(f"unknown kind of heavy work {kind!r}")
    semaphore = _semaphore(kind)
    if not semaphore.acquire(timeout=float(settings.DECODOKU_HEAVY_WAIT_SECONDS)):
        raise Busy(kind=kind, retry_after=BUSY_RETRY_AFTER_SECONDS)
    released = threading.Event()
    release_lock = threading.Lock()

    def release() -> None:
        with release_lock:
            if not released.is_set():
                released.set()
                semaphore.release()

    return release


class _ReleasingStream:
    """A response's chunks; closing it (the server does, at the end or on a broken
    connection) gives the slot back."""

    def __init__(self, chunks: Iterator[bytes], release: Callable[[], None]) -> None:
        self._chunks = chunks
        self._release = release

    def __iter__(self) -> _ReleasingStream:
        return self

    def __next__(self) -> bytes:
        return next(self._chunks)

    def close(self) -> None:
        self._release()

    def __del__(self) -> None:
        # A response dropped without being closed (a test client that reads only the
        # status, a server loop that failed) must not keep its slot for good.
        self._release()


def release_when_closed(
    response: HttpResponseBase, release: Callable[[], None]
) -> HttpResponseBase:
    """Give the slot back when ``response`` is closed (a streamed one: once it has been
    sent, or the client went away), or now for a response that is already complete."""
    if isinstance(response, StreamingHttpResponse):
        chunks = response.streaming_content
        if isinstance(chunks, Iterator):  # served by WSGI (gunicorn); not an async stream
            # The setter registers the stream's close() with the response's own.
            response.streaming_content = _ReleasingStream(chunks, release)
            return response
    release()
    return response


def heavy_request(
    kind: str, *, methods: tuple[str, ...] | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A view (function, or method of a class-based view) that holds a slot of ``kind``
    while it runs (a streamed response: until it is closed); only for ``methods`` if given.
    ``Busy`` when no slot comes free."""
    if kind not in HEAVY_KINDS:
        raise ValueError(f"unknown kind of heavy work {kind!r}")

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @wraps(view)
        def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
            if methods is not None and _method(args) not in methods:
                return view(*args, **kwargs)
            release = acquire_heavy_slot(kind=kind)
            try:
                response = view(*args, **kwargs)
            except BaseException:
                release()
                raise
            if isinstance(response, HttpResponseBase):
                release_when_closed(response, release)
            else:
                release()
            return response

        return wrapped

    return decorate


def _method(args: tuple[Any, ...]) -> str | None:
    """The HTTP method of the request among a view's arguments (after ``self`` for a method)."""
    for arg in args[:2]:
        method = getattr(arg, "method", None)
        if isinstance(method, str):
            return method
    return None
