"""A room's inbox: first in, first out, one consumer woken by a put, a timeout as
``asyncio.wait_for`` gave."""

from __future__ import annotations

import asyncio

import pytest

from paiju.server.mailbox import Mailbox


async def test_items_come_out_in_the_order_put() -> None:
    box: Mailbox[int] = Mailbox()
    assert box.empty()
    box.put(1)
    box.put(2)
    assert not box.empty()
    assert await box.get() == 1
    assert box.get_nowait() == 2
    assert box.empty()
    with pytest.raises(IndexError):
        box.get_nowait()


async def test_a_waiting_consumer_is_woken_by_a_put() -> None:
    box: Mailbox[str] = Mailbox()
    waiting = asyncio.get_running_loop().create_task(box.get())
    await asyncio.sleep(0)  # the consumer now waits
    assert not waiting.done()
    box.put("job")
    assert await asyncio.wait_for(waiting, 5) == "job"


async def test_a_get_with_nothing_put_times_out_and_loses_nothing() -> None:
    box: Mailbox[str] = Mailbox()
    with pytest.raises(TimeoutError):
        await box.get(timeout=0.001)
    box.put("later")
    assert await box.get(timeout=5) == "later"


async def test_a_cancelled_consumer_leaves_the_box_usable() -> None:
    box: Mailbox[str] = Mailbox()
    waiting = asyncio.get_running_loop().create_task(box.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    box.put("next")
    assert await box.get(timeout=5) == "next"


async def test_a_timeout_already_due_goes_before_what_is_queued() -> None:
    box: Mailbox[str] = Mailbox()
    box.put("late act")
    with pytest.raises(TimeoutError):
        await box.get(timeout=0.0)
    assert await box.get(timeout=5) == "late act"
