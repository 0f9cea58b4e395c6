"""A stdio engine (the reference behind serve) that lies in its perft answers, its numbers of copies or its applies, in one way.

    python lying_counter.py LIE

LIE is one of LIES below; every other request is answered as serve answers it.
"""

from __future__ import annotations

import sys
from typing import Any

from harness.serve.serve import HANDLERS, ProtocolServer, serve_stdio
from reference_engine import ReferenceEngine

LIES = {
    "wrong-total": "adds one position to the last count, and to the first action's count so that the divide sums",
    "unsummed-divide": "adds one position to the first action's count only: the divide does not sum to the total",
    "miscounted-child": "moves one position from the first action's count to the second's: the sums hold",
    "copies-numbered-otherwise": "declares no perft, and numbers its copies from 2 (game 1 is never made)",
    "copy-3-refuses": "declares no perft, and refuses whatever is played in game 3 (the second copy of level 2)",
    "copy-2000-refuses": "declares no perft, and refuses whatever is played in game 2000 (made in a later wave)",
    "leaf-not-object": "declares no perft, and lists a number among the legal actions of game 100",
    "leaf-no-seq": "declares no perft, and answers legal_actions in game 100 without its seq",
    "leaf-wrong-seq": "declares no perft, and answers legal_actions in game 100 with the seq after its own",
    "leaf-error": "declares no perft, and answers legal_actions in game 100 with an error",
    "leaf-extra-key": "declares no perft, and adds a key the schema does not allow to its answer to legal_actions in game 100",
}
LEAF = 100  # a copy of the last level of a walk to depth 5 from gin-rummy's first vector (its fourth level: 31 to 240)


def lying(lie: str) -> Any:
    """A perft handler that answers as serve does, then tells ``lie``."""

    def perft(server: ProtocolServer, message: dict[str, Any]) -> dict[str, Any]:
        answer = ProtocolServer.perft(server, message)
        counts, divide = answer["result"]["counts"], answer["result"]["divide"]
        if lie == "wrong-total":
            counts[-1] += 1
            if divide:
                divide[0]["nodes"] += 1
        elif lie == "unsummed-divide" and divide:
            divide[0]["nodes"] += 1
        elif lie == "miscounted-child" and len(divide) > 1 and divide[0]["nodes"] > 0 and message["depth"] > 1:
            divide[0]["nodes"] -= 1
            divide[1]["nodes"] += 1
        return answer

    return perft


def skipping_one(server: ProtocolServer, message: dict[str, Any]) -> dict[str, Any]:
    """fork, with a copy that nobody asked for made first when the game has none (so the first copy is game 2)."""
    if len(server.games) == 1:
        ProtocolServer.fork(server, message)
    return ProtocolServer.fork(server, message)


def refusing_in_copy(number: int) -> Any:
    """apply, refusing every action played in game ``number`` as not the seat's turn."""

    def apply(server: ProtocolServer, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("game") == number:
            return {"accepted": False, "reason": "not-your-turn"}
        return ProtocolServer.apply(server, message)

    return apply


def lying_about_leaf(lie: str) -> Any:
    """batch, answering as serve does, then telling ``lie`` in the answer to legal_actions in game ``LEAF``."""

    def batch(server: ProtocolServer, message: dict[str, Any]) -> dict[str, Any]:
        answer = ProtocolServer.batch(server, message)
        for inner, told in zip(message["requests"], answer["answers"]):
            if inner["cmd"] == "legal_actions" and inner.get("game") == LEAF:
                if lie == "leaf-not-object":
                    told["result"][0] = 7
                elif lie == "leaf-no-seq":
                    del told["seq"]
                elif lie == "leaf-wrong-seq":
                    told["seq"] += 1
                elif lie == "leaf-error":
                    told.pop("result")
                    told["error"] = "RuntimeError: lost the game"
                else:
                    told["note"] = "unasked"
        return answer

    return batch


def main() -> int:
    lie = sys.argv[1]
    if lie not in LIES:
        sys.stderr.write(f"give one of {', '.join(LIES)}\n")
        return 2
    if lie == "copies-numbered-otherwise":
        HANDLERS["fork"] = skipping_one
        return serve_stdio(ReferenceEngine(), declares={"perft": False})
    if lie.startswith("copy-"):
        HANDLERS["apply"] = refusing_in_copy(int(lie.split("-")[1]))
        return serve_stdio(ReferenceEngine(), declares={"perft": False})
    if lie.startswith("leaf-"):
        HANDLERS["batch"] = lying_about_leaf(lie)
        return serve_stdio(ReferenceEngine(), declares={"perft": False})
    HANDLERS["perft"] = lying(lie)  # this process only
    return serve_stdio(ReferenceEngine())


if __name__ == "__main__":
    sys.exit(main())
