"""Answers hello once, crashes at its first request, and from then on exits before any hello.

Run as ``python gone_after_a_crash.py MARKER``: the file MARKER says the first session is over.
"""

import os
import sys

from _fake import serve

marker = sys.argv[1]
if os.path.exists(marker):
    sys.stderr.write("cannot start: the first session left the engine broken\n")
    sys.exit(4)
open(marker, "w").close()


def hook(message, answer):
    if message.get("cmd") != "hello":
        sys.exit(3)
    return answer


serve(hook)
