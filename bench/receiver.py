"""A real local HTTP receiver for webhook tests: it records every request, and can be
told to fail, redirect or stall for a while."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HANG_SECONDS = 240.0  # how long a held answer waits: the same patience as tests/patience.py's


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    fail_first: int = 0  # answer fail_status to this many requests first
    fail_status: int = 503
    redirect: bool = False  # answer every request with a 302
    stall: float = 0.0  # seconds to wait before answering
    hold: threading.Event | None = None  # answer nothing until this is set
    received: list[Received] = field(default_factory=list)
    refused: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> Receiver:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                if len(body) < length:  # the sender died mid-body (a kill -9): none arrived,
                    self.close_connection = True  # as a real receiver's framework would say
                    return
                if outer.stall:
                    time.sleep(outer.stall)
                if outer.hold is not None:
                    outer.hold.wait(HANG_SECONDS)
                with outer.lock:
                    if outer.redirect:
                        status = 302
                    elif outer.refused < outer.fail_first:
                        outer.refused += 1
                        status = outer.fail_status
                    else:
                        outer.received.append(Received(dict(self.headers.items()), body))
                        status = 204
                self.send_response(status)
                if status == 302:
                    self.send_header("location", "http://127.0.0.1:9/elsewhere")
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.hold is not None:
            self.hold.set()  # let a held request end, so the server can
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)

    def bodies(self) -> list[Received]:
        with self.lock:
            return list(self.received)
