"""The counted answers' types (harness/adapters/counted_answers.py) take only what spec/schemas/protocol takes, and a
walk a level at a time reads its leaves through them with the generic checks' verdicts and messages."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import harness.adapters.channel as channel
import harness.adapters.remote as remote
from harness.adapters.channel import batch_outcomes
from harness.adapters.counted_answers import Applied, Batch, Counted, Forked, Unread, counted_outcomes, unread_batch
from harness.adapters.protocol import AdapterError, decode, schema_problem
from harness.cli import main
from harness.perft.vectors import vectors
from harness.spec.paths import spec_dir

LIAR = [sys.executable, str(Path(__file__).parent / "lying_counter.py")]
KINDS = {"fork": Forked, "apply": Applied, "legal_actions": Counted}
WHAT = "the answer to batch (seq 9)"


def schema(name: str) -> dict[str, Any]:
    """spec/schemas/protocol/<name>.json."""
    return json.loads((spec_dir() / "schemas" / "protocol" / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("struct", "name"), [(Forked, "fork-response"), (Applied, "apply-response"),
                                              (Counted, "legal_actions-response"), (Batch, "batch-response")])
def test_each_type_has_the_schemas_keys_and_refuses_any_other(struct: Any, name: str) -> None:
    part = schema(name)
    fields = msgspec.structs.fields(struct)
    # an accepted apply has no reason: a refusal (which must have one) is left to the generic checks
    assert {f.name for f in fields} == set(part["properties"]) - ({"reason"} if struct is Applied else set())
    assert {f.name for f in fields if f.required} == set(part["required"])
    assert part["additionalProperties"] is False and struct.__struct_config__.forbid_unknown_fields


def one_verdict(kind: str, text: str) -> tuple[bool, bool]:
    """Whether the type of ``kind`` and its schema each take the answer ``text`` (to a request of seq 3)."""
    try:
        typed = msgspec.json.decode(text, type=KINDS[kind]).seq == 3
    except msgspec.DecodeError:
        typed = False
    try:
        value = json.loads(text)
    except ValueError:
        return typed, False
    return typed, isinstance(value, dict) and value.get("seq") == 3 and not schema_problem(f"{kind}-response", value)


SEQS = st.one_of(st.just(3), st.integers(-1, 4), st.just(2**70), st.sampled_from([3.0, 2.5, True, "3", None]))
SCALARS = st.one_of(st.integers(-3, 3), st.floats(allow_nan=True), st.text(max_size=3), st.booleans(), st.none())
OBJECTS = st.dictionaries(st.text(max_size=4), st.one_of(SCALARS, st.lists(SCALARS, max_size=2)), max_size=3)
ITEMS = st.one_of(OBJECTS, OBJECTS, SCALARS, st.lists(SCALARS, max_size=2))
REASONS = st.sampled_from(["not-your-turn", "Not-Your-Turn", "", "x y", 7])
KEPT = {  # each kind's answer as an engine keeping the protocol writes it (less its seq)
    "fork": st.fixed_dictionaries({"result": st.fixed_dictionaries({"game": st.integers(1, 2**40)})}),
    "apply": st.one_of(st.just({"accepted": True}), st.just({"accepted": False, "reason": "not-your-turn"})),
    "legal_actions": st.fixed_dictionaries({"result": st.lists(st.dictionaries(st.text(max_size=4), st.recursive(
        st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=3), st.none()),
        lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner, max_size=2)),
        max_size=3), max_size=4)}),
}
CORES = {
    "fork": st.fixed_dictionaries({"result": st.one_of(
        st.fixed_dictionaries({"game": st.one_of(st.integers(-1, 5), SCALARS)}), OBJECTS,
        st.fixed_dictionaries({"game": st.integers(1, 5)}, optional={"copy": SCALARS}), SCALARS)}),
    "apply": st.fixed_dictionaries({"accepted": st.one_of(st.booleans(), SCALARS)}, optional={"reason": REASONS}),
    "legal_actions": st.fixed_dictionaries({"result": st.one_of(st.lists(OBJECTS, max_size=4),
                                                                 st.lists(ITEMS, max_size=4), SCALARS, OBJECTS)}),
}


@st.composite
def answers(draw: Any, kind: str, seq: int) -> dict[str, Any]:
    """An answer to a request of ``kind`` and ``seq``: as the schema wants it, or broken in one or more ways."""
    answer = {"seq": draw(st.one_of(st.just(seq), st.just(seq), SEQS)), **draw(st.one_of(KEPT[kind], CORES[kind]))}
    if draw(st.integers(0, 5)) == 0:
        answer.pop(draw(st.sampled_from(sorted(answer))))
    if draw(st.integers(0, 5)) == 0:
        answer[draw(st.sampled_from(["error", "note", "result", "accepted", "seq"]))] = draw(SCALARS)
    return answer


@given(st.sampled_from(sorted(KINDS)).flatmap(lambda kind: st.tuples(st.just(kind), answers(kind, 3))))
@settings(max_examples=600, deadline=None)
def test_a_type_takes_an_answer_only_when_its_schema_does(example: tuple[str, dict[str, Any]]) -> None:
    kind, answer = example
    text = json.dumps(answer)
    typed, schema_says = one_verdict(kind, text)
    assert typed <= schema_says, text  # its yes is the schema's yes; its no goes to the generic checks


@given(st.sampled_from(sorted(KINDS)).flatmap(lambda kind: st.tuples(st.just(kind), KEPT[kind])))
@settings(max_examples=200, deadline=None)
def test_a_type_takes_what_an_engine_keeping_the_protocol_answers(example: tuple[str, dict[str, Any]]) -> None:
    kind, core = example
    accepted = core.get("accepted", True)  # a refusal is the generic checks' to read
    assert one_verdict(kind, json.dumps({"seq": 3, **core})) == (accepted, True)


def shown(outcomes: list[Any], fault: AdapterError | None) -> Any:
    """What the caller of ``batch_outcomes`` sees: each answer (a legal list as its length), error message or type."""
    def one(outcome: Any) -> Any:
        if isinstance(outcome, Exception):
            return type(outcome).__name__, str(outcome)
        if isinstance(outcome.get("result"), list):
            return {**outcome, "result": len(outcome["result"])}
        return outcome
    return [one(outcome) for outcome in outcomes], fault and (type(fault).__name__, str(fault))


def with_seq(seq: int, core: dict[str, Any]) -> dict[str, Any]:
    """An answer of ``core`` to the request of ``seq``."""
    return {"seq": seq, **core}


@st.composite
def batches(draw: Any) -> tuple[list[tuple[str, dict[str, Any]]], list[int], str]:
    """Requests of a batch (seqs 1, 2, ...; the batch's 9) and its answer's text, as an engine might write it."""
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=6))
    seqs = list(range(1, len(kinds) + 1))
    told = [draw(st.one_of(answers(kind, seq), KEPT[kind].map(partial(with_seq, seq)))) for kind, seq in zip(kinds, seqs)]
    if draw(st.integers(0, 6)) == 0:
        told = told[:-1] if draw(st.booleans()) else [*told, told[-1]]
    if told and draw(st.integers(0, 6)) == 0:
        told[draw(st.integers(0, len(told) - 1))] = draw(st.one_of(SCALARS, st.fixed_dictionaries(
            {"seq": st.integers(1, 6), "error": st.text(max_size=5)})))
    answer: dict[str, Any] = {"seq": draw(st.one_of(st.just(9), st.just(9), SEQS)), "answers": told}
    if draw(st.integers(0, 8)) == 0:
        answer[draw(st.sampled_from(["error", "note", "answers"]))] = draw(SCALARS)
    return [(kind, {}) for kind in kinds], seqs, json.dumps(answer)


@given(batches())
@settings(max_examples=800, deadline=None)
def test_a_batch_read_through_the_types_has_the_generic_outcomes_and_messages(
        batch: tuple[list[tuple[str, dict[str, Any]]], list[int], str]) -> None:
    calls, seqs, text = batch
    line = text.encode()
    try:
        generic = shown(*batch_outcomes(calls, seqs, 9, WHAT, decode(line, WHAT)))
    except AdapterError as error:  # not JSON: the channel's failure, whichever way it is read
        with pytest.raises(AdapterError, match=re.escape(str(error))):
            unread_batch(line, WHAT)
        return
    assert shown(*batch_outcomes(calls, seqs, 9, WHAT, unread_batch(line, WHAT))) == generic, text


def test_answers_that_keep_the_protocol_are_counted_without_a_dict_per_action() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [(cmd, {}) for cmd in ("fork", "apply", "legal_actions", "apply",
                                                                      "legal_actions")]
    told = [{"seq": 4, "result": {"game": 2}}, {"seq": 5, "accepted": True},
            {"seq": 6, "result": [{"draw": "stock"}, {"draw": "discard", "deep": [{"a": [1, {}]}]}]},
            {"seq": 7, "accepted": True}, {"seq": 8, "result": []}]
    unread = unread_batch(json.dumps({"seq": 9, "answers": told}).encode(), WHAT)
    assert unread["seq"] == 9 and type(unread["answers"]) is msgspec.Raw
    outcomes = counted_outcomes(calls, [4, 5, 6, 7, 8], unread["answers"])
    assert outcomes is not None and outcomes[:2] == told[:2] and outcomes[3] == told[3]
    assert outcomes[2]["result"] == [Unread(), Unread()] and outcomes[4] == told[4]
    assert counted_outcomes(calls, [4, 5, 6, 7, 9], unread["answers"]) is None  # another seq: the generic way
    assert counted_outcomes([*calls[:4], ("state", {})], [4, 5, 6, 7, 8], unread["answers"]) is None  # no type
    assert unread_batch(b'{"seq": 9, "error": "RuntimeError: no"}', WHAT) == {"seq": 9, "error": "RuntimeError: no"}


LEAF_LIES = [
    ("leaf-not-object", "does not follow spec/schemas/protocol/legal_actions-response.json: "
                        "$.result[0]: 7 is not of type 'object'"),
    ("leaf-no-seq", "does not follow spec/schemas/protocol/legal_actions-response.json: $: 'seq' is a required property"),
    ("leaf-wrong-seq", "carries seq "),
    ("leaf-error", "the engine answered legal_actions with an error: RuntimeError: lost the game"),
    ("leaf-extra-key", "does not follow spec/schemas/protocol/legal_actions-response.json: $: "
                       "Additional properties are not allowed ('note' was unexpected)"),
]


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per batch answer left unread, whether the types took it (else the generic checks read it)."""
    seen: list[bool] = []

    def spied(*args: Any) -> Any:
        outcomes = counted_outcomes(*args)
        seen.append(outcomes is not None)
        return outcomes

    monkeypatch.setattr(channel, "counted_outcomes", spied)
    return seen


def walked(lie: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The output of perft to depth 5 (its last level in waves of several batches) against the liar, less timings."""
    argv = ["perft", "--game", "gin-rummy", "--seed", "1", "--players", "2", "--depth", "5", "--engine-cmd",
            " ".join([*LIAR, lie])]
    assert main(argv) == 1
    return re.sub(r"in [0-9.]+ s \([0-9,]+ nodes/s\)", "", capsys.readouterr().out)


@pytest.mark.parametrize(("lie", "message"), LEAF_LIES)
def test_a_bad_leaf_answer_is_caught_with_the_generic_message(lie: str, message: str, read: list[bool],
                                                             capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    typed = walked(lie, capsys)
    assert True in read and False in read  # the leaves went through the types, and the lie past them
    error = typed.split("error: ", 1)[1]
    assert error.startswith("the engine failed legal_actions after ") and message in error
    monkeypatch.setattr(remote, "unread_batch", decode)  # every answer read the generic way, as before the types
    read.clear()
    assert walked(lie, capsys) == typed and not read


def test_a_refused_leaf_is_named_as_before_the_types(read: list[bool], capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An accepted apply is the only one the types take: a refusal is the generic checks' to read, and perft's to
    name (its last level goes out in waves, game 2000 in a later one)."""
    argv = ["perft", "--game", "gin-rummy", "--seed", "1", "--players", "2", "--depth", "7", "--engine-cmd",
            " ".join([*LIAR, "copy-2000-refuses"])]
    assert main(argv) == 1
    typed = capsys.readouterr().out.splitlines()[-1]
    assert "but apply() refused it (not-your-turn)" in typed and True in read and False in read
    monkeypatch.setattr(remote, "unread_batch", decode)  # every answer read the generic way, as before the types
    assert main(argv) == 1
    assert capsys.readouterr().out.splitlines()[-1] == typed


def test_over_http_the_leaves_are_read_through_the_types_and_counted_alike(read: list[bool],
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    server = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--http", "0", "--no-perft"],
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        url = server.stderr.readline().split(" on ")[1].split()[0]
        code = main(["perft", "--game", "gin-rummy", "--seed", "1", "--players", "2", "--depth", "5", "--engine-url", url])
    finally:
        server.terminate()
        server.wait()
        assert server.stderr is not None
        server.stderr.close()
    assert code == 0
    published = vectors("gin-rummy")[0]  # gin-rummy, seed 1, 2 players
    assert published.setup["seed"] == 1 and published.setup["players"] == 2
    assert capsys.readouterr().out.splitlines()[1:6] == [f"depth {depth}: {nodes}" for depth, nodes in
                                                         enumerate(published.counts[:5], 1)]
    assert read and all(read)
