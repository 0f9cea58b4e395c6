"""Never answers request SEQ (sleeps until killed)."""

import sys
import time

from _fake import at, serve


def hook(message, answer):
    if message.get("seq") == at():
        sys.stderr.write(f"hanging on purpose at seq {at()}\n")
        sys.stderr.flush()
        time.sleep(3600)
    return answer


serve(hook)
