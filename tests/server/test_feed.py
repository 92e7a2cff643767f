"""The spectator feed: messages held by time and by actions, in order, never early."""

from __future__ import annotations

from paiju.server.feed import SpectatorFeed


def state(n: int) -> dict[str, object]:
    return {"type": "state", "version": n}


def event(n: int) -> dict[str, object]:
    return {"type": "event", "version": n}


def test_no_delay_holds_nothing() -> None:
    assert not SpectatorFeed().delayed


def test_seconds_hold_each_message_until_its_time_in_order() -> None:
    feed = SpectatorFeed(delay=10.0)
    feed.push(event(1), 0.0)
    feed.push(state(1), 0.0)
    feed.push(state(2), 4.0)
    assert feed.due(9.999) == [] and feed.latest_state is None
    assert feed.next_release() == 10.0
    assert feed.due(10.0) == [event(1), state(1)]
    assert feed.latest_state == state(1)
    assert feed.next_release() == 14.0
    assert feed.due(13.0) == [] and feed.due(20.0) == [state(2)]
    assert feed.next_release() is None and len(feed) == 0


def test_actions_hold_until_that_many_more_actions() -> None:
    feed = SpectatorFeed(actions=2)
    feed.push(state(1), 0.0)
    feed.action()
    feed.push(state(2), 0.0)
    assert feed.due(100.0) == [] and feed.next_release() is None
    feed.action()
    assert feed.due(0.0) == [state(1)]  # two actions after it
    assert feed.due(0.0) == []  # one after state 2
    feed.action()
    assert feed.due(0.0) == [state(2)]


def test_the_end_of_play_lets_the_held_messages_go_by_actions_not_by_time() -> None:
    feed = SpectatorFeed(delay=5.0, actions=3)
    feed.push(state(1), 0.0)
    feed.push(state(2), 1.0)
    feed.end_of_play()
    assert feed.due(4.0) == []
    assert feed.next_release() == 5.0
    assert feed.due(6.0) == [state(1), state(2)]


def test_a_message_never_overtakes_an_older_one() -> None:
    feed = SpectatorFeed(delay=1.0, actions=1)
    feed.push(state(1), 0.0)
    feed.action()
    feed.push(state(2), 0.0)
    feed.end_of_play()  # state 2 is now free by actions; state 1 was already
    assert feed.due(0.5) == []
    assert feed.due(1.0) == [state(1), state(2)]
