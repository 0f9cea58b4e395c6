"""The poll before sleeping on a pipe: on only with a second core, and only while it pays."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from harness.adapters import polling
from harness.adapters.polling import Poller, cores_to_spare


@pytest.fixture(autouse=True)
def _a_core_to_spare(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(polling, "cores_to_spare", lambda cores: True)  # whatever else the machine runs now


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read, write = os.pipe()
    yield read, write
    os.close(read)
    os.close(write)


def test_a_poll_sees_input_that_is_there(pipe: tuple[int, int]) -> None:
    read, write = pipe
    poller = Poller(0.01)
    os.write(write, b"{}\n")
    assert poller.seconds == 0.01 or polling.usable_cores() == 1
    assert poller.ready(read) is (polling.usable_cores() > 1)


def test_a_poll_that_runs_out_stops_polling_until_a_sleep_is_short(pipe: tuple[int, int],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(polling, "usable_cores", lambda: 2)
    read, _ = pipe
    poller = Poller(0.002)
    assert not poller.ready(read)  # nothing came: the caller sleeps
    assert not poller.paying
    poller.slept(0.5)  # a slow engine: no polling for it
    assert not poller.ready(read) and not poller.paying
    poller.slept(0.0005)  # it answers fast again
    assert poller.paying


def test_one_core_never_polls(pipe: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(polling, "usable_cores", lambda: 1)
    read, write = pipe
    os.write(write, b"{}\n")
    poller = Poller()
    assert poller.seconds == 0.0 and not poller.ready(read)


def test_a_descriptor_select_cannot_poll_turns_polling_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(polling, "usable_cores", lambda: 2)
    poller = Poller()
    assert not poller.ready(-1)
    assert poller.seconds == 0.0


def test_no_poll_while_processes_wait_for_a_core(pipe: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(polling, "usable_cores", lambda: 2)
    busy = [True]
    monkeypatch.setattr(polling, "cores_to_spare", lambda cores: not busy[0])
    read, write = pipe
    os.write(write, b"{}\n")
    poller = Poller(0.01)
    assert not poller.ready(read) and poller.paying  # a loaded machine: sleep at once, and look again later
    busy[0] = False
    assert not poller.ready(read)  # looked at most every LOOK_EVERY seconds
    poller.looked -= polling.LOOK_EVERY
    assert poller.ready(read)


def test_a_core_to_spare_is_read_from_the_tasks_running_now() -> None:
    assert cores_to_spare(10_000)
    assert not cores_to_spare(0) or not os.path.exists("/proc/loadavg")  # this test itself is running
