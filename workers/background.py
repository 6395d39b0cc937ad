"""Run workers on threads inside one process (the embedded `skald serve`)."""

from __future__ import annotations

import threading
from collections.abc import Callable


class Background:
    def __init__(self) -> None:
        self.stop_event = threading.Event()
        self.threads: list[threading.Thread] = []

    def start(self, name: str, target: Callable[[threading.Event], None]) -> None:
        thread = threading.Thread(target=target, args=(self.stop_event,), name=name, daemon=True)
        thread.start()
        self.threads.append(thread)

    def stop(self, timeout: float = 10.0) -> None:
        self.stop_event.set()
        for thread in self.threads:
            thread.join(timeout)
