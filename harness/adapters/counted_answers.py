"""Batch answers whose legal lists are only counted, decoded straight into checked types: no dict per action.

The leaves of a perft walk are counted, never read, yet decoding their legal lists into dicts and
checking those against the schemas is most of the kit's work there. Here each answer is decoded
into a msgspec type that says what its schema in spec/schemas/protocol says, an action into an
empty placeholder. The types' no is not the last word: anything they refuse (an error answer, a
refusal, a float seq, NaN) goes the generic way, whose checks word what is wrong.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Annotated, Any, Literal

import msgspec
from msgspec.structs import asdict

from harness.adapters.protocol import STDIO_ADVICE, decode
from harness.host.text import has_lone_surrogate

Seq = Annotated[int, msgspec.Meta(ge=1)]  # "integer", "minimum": 1 (a float such as 1.0 goes the generic way)
SEQ, CMD = attrgetter("seq"), itemgetter(0)


class Unread(msgspec.Struct, gc=False):
    """An action of a counted legal list: a JSON object, read past without building it (its keys are not looked at)."""


class Forked(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """fork-response.json: the number of the copy."""

    seq: Seq
    result: Annotated[dict[Literal["game"], Seq], msgspec.Meta(min_length=1)]


class Applied(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """apply-response.json, accepted (a refusal, with its reason, goes the generic way)."""

    seq: Seq
    accepted: Literal[True]


class Counted(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """legal_actions-response.json, each action unread."""

    seq: Seq
    result: list[Unread]


class Batch(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """batch-response.json, its answers left as JSON text until the requests they answer are known."""

    seq: Seq
    answers: msgspec.Raw


TYPES: dict[str, type[msgspec.Struct]] = {"fork": Forked, "apply": Applied, "legal_actions": Counted}
_BATCH = msgspec.json.Decoder(Batch)


def unread_batch(data: bytes, what: str, advice: str = STDIO_ADVICE) -> Any:
    """A line as ``decode`` gives it, but a batch answer of the right shape as ``{"seq": n, "answers": Raw}``:
    its answers unread until ``counted_outcomes`` (or ``decode``, when they are not as expected) reads them."""
    try:
        if has_lone_surrogate(data):
            return decode(data, what, advice)  # which says so
        batch = _BATCH.decode(data)
    except (msgspec.DecodeError, RecursionError):  # a ValidationError is a DecodeError too
        return decode(data, what, advice)
    return {"seq": batch.seq, "answers": batch.answers}


@lru_cache(maxsize=512)
def _decoder(kinds: tuple[str, ...]) -> msgspec.json.Decoder[Any] | None:
    """The decoder of a batch's answers to requests of ``kinds``, in order; None if one has no type here.

    A batch of a wave is forks, then applies and legal_actions by turns: a walk needs some tens of patterns
    (a few hundred at most: where a wave's forks end in a batch, how long its last batch is), each built in
    a tenth of a millisecond."""
    if not set(kinds) <= TYPES.keys():
        return None
    return msgspec.json.Decoder(tuple[tuple(TYPES[kind] for kind in kinds)])  # type: ignore[misc]


def counted_outcomes(calls: list[tuple[str, dict[str, Any]]], seqs: list[int],
                     answers: msgspec.Raw) -> list[dict[str, Any]] | None:
    """Each request's answer as a dict (a legal list's actions ``Unread``) when every answer follows its schema,
    echoes its request's seq and is no error, one per request; else None (the generic checks say what is wrong)."""
    decoder = _decoder(tuple(map(CMD, calls)))
    if decoder is None:
        return None
    try:
        typed = decoder.decode(answers)
    except (msgspec.DecodeError, RecursionError):
        return None
    if list(map(SEQ, typed)) != seqs:
        return None
    return list(map(asdict, typed))
