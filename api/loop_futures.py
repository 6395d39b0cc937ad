"""A writer's future, awaited on the event loop.

`asyncio.wrap_future` chains the two futures both ways in pure Python (cancellation
passed back, states copied through three helpers): under bench/http.py (a)'s load that
bridge was ~8% of the event loop's Python time per action request (cProfile of the ASGI
app driven in process). A command handed to the writer cannot be cancelled once queued
(application/group_commit.py), so only one way is needed: when the writer's future is
done, its outcome is handed to the loop in one call, and set unless the awaiting side
gave up (a client that went away cancels its task, and with it this future).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")


def on_this_loop(done_later: Future[T]) -> asyncio.Future[T]:
    """An asyncio future of the running loop that gets ``done_later``'s outcome."""
    loop = asyncio.get_running_loop()
    waiting: asyncio.Future[T] = loop.create_future()

    def hand_over(finished: Future[T]) -> None:  # on the thread that finished it
        if not loop.is_closed():  # a server shutting down: nobody is waiting any more
            loop.call_soon_threadsafe(_settle, finished, waiting)

    done_later.add_done_callback(hand_over)
    return waiting


def _settle(finished: Future[T], waiting: asyncio.Future[T]) -> None:
    if waiting.done():  # cancelled while the writer worked
        return
    if finished.cancelled():
        waiting.cancel()
        return
    error = finished.exception()
    if error is not None:
        waiting.set_exception(error)
    else:
        waiting.set_result(finished.result())
