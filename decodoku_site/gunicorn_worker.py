"""gunicorn's threaded worker, with threads of its own for the health check.

gunicorn's ``gthread`` worker hands every connection to one pool of
``--threads`` threads. When every thread waits (on a locked table, a database
that does not answer, a slow client), a probe of ``/healthz`` waits in the same
queue, and the load balancer or Docker sees no answer at all, although the
process is alive and ``/healthz`` itself would answer within ``HEALTHZ_TIMEOUT``.

:class:`HealthzThreadWorker` (``--worker-class
decodoku_site.gunicorn_worker.HealthzThreadWorker``, as the Docker image runs
gunicorn) keeps two more threads for ``GET /healthz`` and ``HEAD /healthz``
alone: the main loop looks at the first bytes of each request without
reading them (``MSG_PEEK``) and hands a probe to those threads, everything
else to the usual pool. A new connection whose request has not arrived yet
waits in the main loop, not in a thread, until it is readable, so that its
first bytes can be looked at. Everything else is gunicorn's own worker.
"""

from __future__ import annotations

import re
import selectors
import socket
import time
from concurrent import futures
from functools import partial
from typing import Any

from gunicorn.workers.gthread import (  # type: ignore[import-untyped]
    DEFAULT_WORKER_DATA_TIMEOUT,
    TConn,
    ThreadWorker,
)

PROBE_THREADS = 2
PROBE_REQUEST = re.compile(rb"(?:GET|HEAD) /healthz(?:[ ?]|$)")
PEEK_BYTES = 16


class HealthzThreadWorker(ThreadWorker):
    """``gthread`` with a separate pool of threads for ``/healthz``."""

    probe_pool: futures.ThreadPoolExecutor

    def init_process(self) -> None:
        self.probe_pool = futures.ThreadPoolExecutor(
            max_workers=PROBE_THREADS, thread_name_prefix="healthz"
        )
        super().init_process()

    def run(self) -> None:
        try:
            super().run()
        finally:
            self.probe_pool.shutdown(wait=False)

    def enqueue_req(self, conn: TConn) -> None:
        if self.cfg.is_ssl:
            super().enqueue_req(conn)
            return
        first = self._first_bytes(conn)
        if not first and not conn.initialized and not conn.data_ready:
            self._wait_for_request(conn)
            return
        if PROBE_REQUEST.match(first):
            future = self.probe_pool.submit(self.handle, conn)
            future.add_done_callback(
                lambda done: self.method_queue.defer(self.finish_request, conn, done)
            )
            return
        super().enqueue_req(conn)

    @staticmethod
    def _first_bytes(conn: TConn) -> bytes:
        """The request's first bytes, left where they are (read ahead, or on the socket)."""
        buffer: Any = getattr(getattr(conn.parser, "unreader", None), "buf", None)
        if buffer is not None:
            buffered = buffer.getvalue()
            if buffered:
                return bytes(buffered[:PEEK_BYTES])
        try:
            return conn.sock.recv(PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            return b"\0"  # a broken socket: the usual pool finds out and closes it

    def _wait_for_request(self, conn: TConn) -> None:
        """Let the main loop wait for the first bytes of a new connection (no thread waits)."""
        conn.sock.setblocking(False)
        conn.timeout = time.monotonic() + max(self.cfg.keepalive, DEFAULT_WORKER_DATA_TIMEOUT)
        self.pending_conns.append(conn)
        self.poller.register(
            conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn)
        )
