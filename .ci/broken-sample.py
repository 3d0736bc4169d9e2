"""A broken implementation for the wheel check: the JavaScript sample, except that
legal_plays offers the whole hand (it breaks play.follow-suit).

    python broken-sample.py node /path/to/turub-sample.js

It passes each request line to the sample and each answer back, one at a time, changing
only the answers to legal_plays."""

import json
import subprocess
import sys

child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    child.stdin.write(line)
    child.stdin.flush()
    answer = child.stdout.readline()
    request = json.loads(line)
    if request.get("op") == "legal_plays":
        answer = json.dumps({"id": request["id"], "result": request["args"]["hand"]}) + "\n"
    sys.stdout.write(answer)
    sys.stdout.flush()
child.stdin.close()
sys.exit(child.wait())
