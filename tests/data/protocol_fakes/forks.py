"""Starts a child process (its pid written to the file given second), then hangs at SEQ."""

import subprocess
import sys
import time

from _fake import at, serve

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
with open(sys.argv[2], "w") as handle:
    handle.write(str(child.pid))


def hook(message, answer):
    if message.get("seq") == at():
        time.sleep(3600)
    return answer


serve(hook)
