"""An engine reached through the protocol: the Engine/Game interface on top of any transport.

It owns the session logic (handshake, seq numbers, one game at a time, batches, checking every
message); a transport (``Channel``) only moves one message and its answer, and restarts when told to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harness.adapters.channel import Channel, Exchanged, batch_outcomes, batch_refused, once, retried
from harness.adapters.counted_answers import unread_batch
from harness.adapters.protocol import (
    AdapterError,
    EngineError,
    GroupFailure,
    PartialAnswers,
    StrayOutput,
    check_answer,
    check_hello,
    request,
)
from harness.adapters.remote_game import RemoteGame

__all__ = ["Channel", "Exchanged", "RemoteEngine"]


class RemoteEngine:
    """The in-process Engine interface for an engine behind a ``Channel``."""

    pipelines = True  # the runner may prepare the next scenarios while it judges one
    holds_one_game = True  # a start ends the game in progress and every copy fork made of it

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.seq = 0
        self.session = 0
        self.description: dict[str, Any] | None = None
        self.batches = self.counting = False  # whether the engine declared batch, and perft (protocol 1.1)
        self.pipelining = False  # whether the channel can have several messages in flight in this session
        self.current: RemoteGame | None = None
        self.indictment: str | None = None  # a fault found now that belongs to the exchange before
        self.fence_due = False
        self.ahead: list[tuple[list[Any], list[dict[str, Any]], list[list[int]], int]] = []  # see send_ahead
        self.missed_hellos = 0  # starts in a row whose hello went unanswered (a run stops after a few)

    def describe(self) -> dict[str, Any]:
        """The engine's description, from the handshake."""
        self._ensure_session()
        assert self.description is not None
        return dict(self.description)

    def start(self, setup: dict[str, Any]) -> RemoteGame:
        """A new game; it replaces any game in progress (one game at a time per engine).

        The start request goes out with the game's first request, saving a round trip.
        """
        self._ensure_session()
        self.current = RemoteGame(self, self.session, setup)
        return self.current

    def call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its checked answer; any protocol failure ends the session."""
        try:
            return self._call_one(cmd, fields)
        except StrayOutput as stray:
            raise self._abandon(stray) from None

    def _call_one(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        """``call``, leaving stray output to the caller (whose fault it is depends on what came before)."""
        self._forget_unread()
        self._ensure_session()
        self.seq += 1
        return self._exchange(cmd, self.seq, request(cmd, self.seq, **fields))

    def call_many(self, calls: list[tuple[str, dict[str, Any]]], fresh: bool = False,
                  meanwhile: Callable[[], None] | None = None) -> list[Any]:
        """Several requests at once: each checked answer or its exception, stopping after a protocol failure.

        One batch message when the engine declared batches, else pipelined when the transport can,
        else one at a time. ``fresh``: the calls start a game of their own, so when the engine's
        first answer shows stray output from before them, the fault is the previous exchange's
        (kept in ``indictment``) and the calls are sent again to a restarted engine. ``meanwhile``:
        work of the caller's, run at most once while the engine answers (or not at all).
        """
        owed = self.fence_due and self.channel.is_open()  # this session's last exchange was a scenario's
        meanwhile = once(meanwhile) if meanwhile is not None else None  # the calls may be sent twice
        try:
            return self._call_many(calls, meanwhile)
        except StrayOutput as stray:
            if not (fresh and owed):
                raise self._abandon(stray) from None
            self.indictment = str(self._abandon(stray))
            return self._call_many(calls, meanwhile)

    def _call_many(self, calls: list[tuple[str, dict[str, Any]]], meanwhile: Callable[[], None] | None = None) -> list[Any]:
        self._forget_unread()
        self._ensure_session()
        if not self.batches and not self.pipelining:  # one at a time, up to the first protocol failure
            outcomes: list[Any] = []
            for cmd, fields in calls:
                try:
                    outcomes.append(self._call_one(cmd, fields))
                except StrayOutput as stray:
                    if not outcomes:
                        raise  # before the first answer: the caller decides whose it is
                    outcomes.append(self._abandon(stray))
                    break
                except (AdapterError, EngineError) as error:
                    outcomes.append(error)
                    if isinstance(error, AdapterError):
                        break
            return outcomes
        seqs = list(range(self.seq + 1, self.seq + 1 + len(calls)))
        self.seq += len(calls)
        whats = [f"the answer to {cmd} (seq {seq})" for (cmd, _), seq in zip(calls, seqs)]
        messages = [request(cmd, seq, **fields) for (cmd, fields), seq in zip(calls, seqs)]
        self.fence_due = True
        failure: AdapterError | None = None
        try:
            many = self.channel.exchange_many  # type: ignore[attr-defined]
            answers = self._batch(messages, meanwhile) if self.batches else many(messages, whats, meanwhile=meanwhile)
        except PartialAnswers as partial:
            if isinstance(partial.error, StrayOutput) and not partial.answers:
                raise partial.error from None
            answers, failure = partial.answers, partial.error
            if isinstance(failure, GroupFailure):  # one scenario's requests: whatever failed is its own
                failure = AdapterError(failure.reason)
        except StrayOutput:
            raise
        except AdapterError as error:
            answers, failure = [], error
        outcomes = []
        for (cmd, _), seq, what, answer in zip(calls, seqs, whats, answers):
            try:
                outcomes.append(check_answer(cmd, seq, answer, what))
            except EngineError as error:
                outcomes.append(error)
            except AdapterError as error:
                failure = error
                break
        if failure is None and len(answers) < len(calls):
            failure = AdapterError(f"the answer to batch (seq {self.seq}) holds {len(answers)} answers for "
                                   f"{len(calls)} requests: answer every request of a batch, in order")
        if failure is not None:
            outcomes.append(self._abandon(failure))
        return outcomes

    @property
    def pipelines_batches(self) -> bool:
        """Whether several batches can be in flight at once (``call_exchanges`` saves round trips)."""
        return self.batches and self.pipelining

    def call_exchanges(self, exchanges: list[list[tuple[str, dict[str, Any]]]],
                       meanwhile: Callable[[], None] = lambda: None, counted: bool = False) -> list[Exchanged]:
        """Several exchanges, each one batch needing no game from before it (a plan from its start, or
        players' questions), so that any of them can be sent again.

        The batches go out together, pipelined, each answered on a line of its own, so that stray
        output between two answers is the fault of the exchange before, exactly as when sent one by
        one. Per exchange: its outcomes (as ``call_many`` gives them) and the fault found for the
        exchange before it. After a failure the engine is restarted and the rest sent again; after a
        failure of a write as a whole (an HTTP POST), its exchanges are sent again one per write.
        ``meanwhile`` is called once, while the engine works on the first write (or before it).
        Exchanges written by ``send_ahead`` in this session are read, not written again. ``counted``: their
        legal lists are only counted, so their actions may be left unbuilt (see ``counted_answers``).
        """
        self.current = None  # the games these start are the harness's replays, not a RemoteGame
        done: list[Exchanged] = []
        blame: str | None = None
        meanwhile = once(meanwhile)
        while len(done) < len(exchanges):
            rounds = self._pipelined(exchanges[len(done):] if done else exchanges, meanwhile, counted) or [
                ([AdapterError("the engine gave no answer to a batch: answer every request, in order")], None)]
            meanwhile()
            for outcomes, found in rounds:
                if outcomes is None:  # stray output before this exchange's answer: it is sent again
                    blame = found
                    continue
                done.append((outcomes, blame or found))
                blame = None
        return done

    def send_ahead(self, exchanges: list[list[tuple[str, dict[str, Any]]]]) -> bool:
        """Write ``exchanges`` now (as ``call_exchanges`` would), if the channel can, so that a later
        ``call_exchanges(exchanges)`` only reads their answers: the engine finds them waiting when it
        has answered what came before, instead of idling while the harness works on that.

        Whether they were sent. Until they are read, only the exchanges sent before them may be;
        any other request first ends the session (see ``_forget_unread``).
        """
        send = getattr(self.channel, "send_ahead", None)
        if send is None or len(exchanges) < 2 or not self.pipelines_batches or not self.channel.is_open():
            return False
        self.current = None
        batches, seqs = self._batches(exchanges)
        send(batches)
        self.ahead.append((exchanges, batches, seqs, self.session))
        return True

    def _batches(self, exchanges: list[list[tuple[str, dict[str, Any]]]]) -> tuple[list[dict[str, Any]], list[list[int]]]:
        """Each exchange as one batch message, with its seqs (the requests', then the batch's own)."""
        batches: list[dict[str, Any]] = []
        seqs: list[list[int]] = []
        for calls in exchanges:
            first = self.seq + 1
            self.seq += len(calls) + 1
            seqs.append(list(range(first, self.seq)))
            # built unchecked: the hot path, and serve checks every request it gets in the kit's tests
            inner = [{"seq": seq, "cmd": cmd, **fields} for (cmd, fields), seq in zip(calls, seqs[-1])]
            batches.append({"seq": self.seq, "cmd": "batch", "requests": inner})
        self.fence_due = True
        return batches, seqs

    def _sent_ahead(self, exchanges: list[list[tuple[str, dict[str, Any]]]]
                    ) -> tuple[list[dict[str, Any]], list[list[int]]] | None:
        """The batches and seqs ``exchanges`` were sent ahead with, in this session; else None."""
        self._forget_unread(exchanges)
        if self.ahead:
            _, batches, seqs, _ = self.ahead.pop(0)
            return batches, seqs
        return None

    def _forget_unread(self, reading: list[Any] | None = None) -> None:
        """Before reading anything but the next write sent ahead (``reading``): writes sent ahead that
        nobody reads (a run stopped early) would have their answers taken for the next request's,
        so their session ends quietly and the next request opens another."""
        if not self.ahead:  # the common case, on every request
            return
        live = [entry for entry in self.ahead if entry[3] == self.session]  # the rest went with their session
        if live and live[0][0] is not reading:
            self.channel.abandon()
            live = []
        self.ahead = live

    def _pipelined(self, exchanges: list[list[tuple[str, dict[str, Any]]]], meanwhile: Callable[[], None],
                   counted: bool) -> list[tuple[list[Any] | None, str | None]]:
        """One pipelined round of ``call_exchanges``: the exchanges answered before the session ended, if it did."""
        sent = self._sent_ahead(exchanges)
        owed = self.fence_due and self.channel.is_open()
        try:
            self._ensure_session()
        except AdapterError as error:  # no handshake, no session: the first exchange has the failure
            return [([error], None)]
        if sent is None and (not self.pipelines_batches or len(exchanges) == 1):
            try:
                outcomes = self.call_many(exchanges[0], fresh=True)
            except AdapterError as error:
                outcomes = [error]
            return [(outcomes, self.take_indictment())]
        batches, seqs = sent or self._batches(exchanges)
        whats = [f"the answer to batch (seq {batch['seq']})" for batch in batches]
        failure: AdapterError | None = None
        read = {"decoder": unread_batch} if counted and getattr(self.channel, "takes_decoder", False) else {}
        try:
            answers = self.channel.exchange_many(batches, whats, fenced=True,  # type: ignore[attr-defined]
                                                 meanwhile=meanwhile, **read)
        except PartialAnswers as partial:
            answers, failure = partial.answers, partial.error
        done: list[tuple[list[Any] | None, str | None]] = []
        for calls, seq_list, batch, what, answer in zip(exchanges, seqs, batches, whats, answers):
            outcomes, broken = self._batch_outcomes(calls, seq_list, int(batch["seq"]), what, answer)
            done.append((outcomes, None))
            if broken:
                return done  # the session is gone: the later answers came from it, and are sent again
        if isinstance(failure, GroupFailure):  # each exchange left is asked alone; if none fails, it struck once
            self._abandon(failure)
            first = len(done)
            for calls, seq_list, batch, what in list(zip(exchanges, seqs, batches, whats))[first:]:
                done.append((self._alone(calls, seq_list, batch, what), None))
            if not any(isinstance(outcome, AdapterError) for outcomes, _ in done[first:] for outcome in outcomes or []):
                done[first] = ([retried(failure.reason, len(done) - first)], None)
        elif failure is not None:
            if isinstance(failure, StrayOutput) and (done or owed):
                done.append((None, str(self._abandon(failure))))  # the fault of the exchange before
            else:
                done.append(([self._abandon(failure)], None))
        return done

    def _alone(self, calls: list[tuple[str, dict[str, Any]]], seqs: list[int], batch: dict[str, Any],
               what: str) -> list[Any]:
        """One exchange's batch sent again on its own, with its seqs, in a new session if the last one ended."""
        try:
            self._ensure_session()
        except AdapterError as error:
            return [error]
        try:
            answer = self.channel.exchange(batch, what)
        except AdapterError as error:
            return [self._abandon(error)]
        return self._batch_outcomes(calls, seqs, int(batch["seq"]), what, answer)[0]

    def _batch_outcomes(self, calls: list[tuple[str, dict[str, Any]]], seqs: list[int], seq: int, what: str,
                        answer: Any) -> tuple[list[Any], bool]:
        """Each request's checked answer (or its exception) from one batch answer; whether the session ended."""
        outcomes, ended = batch_outcomes(calls, seqs, seq, what, answer)
        if ended is None:
            return outcomes, False
        return outcomes + [self._abandon(ended)], True

    def _batch(self, messages: list[dict[str, Any]], meanwhile: Callable[[], None] | None = None) -> list[Any]:
        """The answers to ``messages`` sent as one batch request (not yet checked one by one);
        ``meanwhile`` runs while the engine works on it, when the transport can do that."""
        self.seq += 1
        batch = request("batch", self.seq, requests=messages)
        what = f"the answer to batch (seq {self.seq})"
        try:
            answer = check_answer("batch", self.seq, self._send(batch, what, meanwhile), what)
        except EngineError as error:
            raise batch_refused(error) from None
        answers = list(answer["answers"])
        if len(answers) > len(messages):
            raise AdapterError(f"the answer to batch (seq {self.seq}) holds {len(answers)} answers for "
                               f"{len(messages)} requests: answer every request of a batch once, in order")
        return answers

    def _send(self, message: dict[str, Any], what: str, meanwhile: Callable[[], None] | None) -> Any:
        """One message's answer (decoded, unchecked); ``meanwhile`` runs once it is sent, if the channel can."""
        many = getattr(self.channel, "exchange_many", None)
        if meanwhile is None or many is None or not self.pipelining:
            return self.channel.exchange(message, what)
        try:
            return many([message], [what], fenced=True, meanwhile=meanwhile)[0]
        except PartialAnswers as partial:  # one message: no answer before the failure
            raise partial.error from None

    def settle(self) -> str | None:
        """After the last scenario: a fault of the last exchange only visible now (stray output), or None.

        A cheap request (state) fences the stream: whatever comes before its answer came after the
        last one. Framed transports (HTTP) cannot carry stray output and skip it.
        """
        if not (self.fence_due and self.channel.is_open() and getattr(self.channel, "strays", False)):
            return self.indictment
        self.fence_due = False
        try:
            self._call_one("state", {})
        except StrayOutput as stray:
            self.indictment = str(self._abandon(stray))
        except (AdapterError, EngineError):
            pass  # not the last scenario's fault: its answers were all in
        return self.take_indictment()

    def take_indictment(self) -> str | None:
        """The fault found for the previous exchange, once."""
        found, self.indictment = self.indictment, None
        return found

    def close(self) -> str | None:
        """Say stop and end the session; what went wrong with the answer to stop, if anything. Safe to call twice."""
        self._forget_unread()  # writes sent ahead and never read (a run stopped early): stop's answer would be theirs
        farewell = request("stop", self.seq + 1) if self.channel.is_open() else None
        self.seq += farewell is not None
        problem = self.channel.close(farewell)  # without a session too: a transport may hold more (a page's browser)
        self.current = None
        return problem

    def __enter__(self) -> RemoteEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ensure_session(self) -> None:
        """Open a session and shake hands if none is live (first use, or after a failure)."""
        if self.channel.is_open():
            return
        self.missed_hellos += 1  # until the hello is answered: starts in a row that never got that far
        self.channel.open()
        self.session += 1
        self.fence_due = False
        answer = self._exchange("hello", None, request("hello", 0))
        try:
            self.description = check_hello(answer)
        except AdapterError as error:
            raise self._abandon(error) from None
        self.missed_hellos = 0
        self.batches = answer.get("batch") is True
        self.counting = answer.get("perft") is True
        self.pipelining = self.channel.pipelines(answer)

    def _abandon(self, error: AdapterError) -> AdapterError:
        """End the session after ``error``; the error to raise, with the channel's context."""
        return type(error)(error.reason + self.channel.abandon())

    def _exchange(self, cmd: str, seq: int | None, message: dict[str, Any]) -> dict[str, Any]:
        """One round trip; on a protocol failure the session is abandoned and the error says so."""
        what = f"the answer to {cmd}" + (f" (seq {seq})" if seq is not None else "")
        try:
            return check_answer(cmd, seq, self.channel.exchange(message, what), what)
        except StrayOutput:
            raise  # the caller knows whose fault it is
        except AdapterError as error:
            raise self._abandon(error) from None
        except EngineError as error:
            if cmd != "hello":
                raise
            # without a handshake there is no session to go on with
            raise self._abandon(AdapterError(f"{error}; the handshake must succeed")) from None
