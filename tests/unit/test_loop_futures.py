"""A writer's future awaited on the event loop (api/loop_futures.py): its result and its
error cross to the loop, and an awaiting side that gave up is left alone."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future

import pytest

from skald_campaign.api.loop_futures import on_this_loop


def finish_later(action: str, value: object) -> Future[object]:
    """A future another thread finishes shortly after (as the writer does)."""
    done: Future[object] = Future()
    done.set_running_or_notify_cancel()

    def finish() -> None:
        if action == "result":
            done.set_result(value)
        else:
            assert isinstance(value, BaseException)
            done.set_exception(value)

    threading.Timer(0.05, finish).start()
    return done


def test_the_result_crosses_to_the_loop() -> None:
    async def main() -> object:
        return await on_this_loop(finish_later("result", (201, b"{}")))

    assert asyncio.run(main()) == (201, b"{}")


def test_the_error_crosses_to_the_loop() -> None:
    async def main() -> object:
        return await on_this_loop(finish_later("error", LookupError("no such encounter")))

    with pytest.raises(LookupError, match="no such encounter"):
        asyncio.run(main())


def test_an_awaiting_side_that_gave_up_is_left_alone() -> None:
    problems: list[dict[str, object]] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _, context: problems.append(context)
        )
        done = finish_later("result", "answered")
        waiting = on_this_loop(done)
        waiting.cancel()  # the client went away
        await asyncio.sleep(0.2)  # the writer finishes meanwhile
        assert done.result() == "answered"
        assert waiting.cancelled()

    asyncio.run(main())
    assert problems == []  # no InvalidStateError from setting a cancelled future
