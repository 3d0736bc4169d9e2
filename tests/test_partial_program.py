"""A partial program is told apart from a full one: the verdict names what was judged
(``CONFORMS (3 of 9 operations, 16 of 53 clauses)``) on the terminal, in the JSON report, the
HTML headline and JUnit; the exit status stays the documented one (0: all it supports conforms)."""

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from turub.conformance.resources import sample_path

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node runs the JavaScript sample")

#: The sample, declaring only three operations in its handshake (a score-sheet app).
PARTIAL = '''
import json, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    child.stdin.write(line); child.stdin.flush()
    answer = json.loads(child.stdout.readline())
    if isinstance(answer.get("result"), dict) and "operations" in answer["result"]:
        answer["result"]["operations"] = ["contest", "deal_result", "next_dealer"]
    sys.stdout.write(json.dumps(answer) + "\\n"); sys.stdout.flush()
'''


def test_a_program_answering_three_operations_says_so_in_every_report(tmp_path):
    (tmp_path / "partial.py").write_text(PARTIAL, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "turub.tools.cli", "check", "--quick", "--examples", "0", "--properties", "0",
         "--json", str(tmp_path / "r.json"), "--junit", str(tmp_path / "r.xml"), "--html", str(tmp_path / "html"),
         "--", sys.executable, str(tmp_path / "partial.py"), shutil.which("node"), str(sample_path())],
        capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert run.returncode == 0  # as documented: everything it supports conforms
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    # The protocol has nine operations (the schema's request arguments, one per operation).
    schema = json.loads((ROOT / "spec" / "protocol.schema.json").read_text(encoding="utf-8"))
    nine = len([d for d in schema["$defs"] if d.startswith("args_") and d != "args_hello"])
    judged_clauses = {cid for c in report["cases"] if c["status"] == "passed" for cid in c["clauses"]}
    text = f"CONFORMS (3 of {nine} operations, {len(judged_clauses)} of {len(report['clauses'])} clauses)"
    assert len(judged_clauses) < len(report["clauses"])
    # The existing fields keep their values; the new ones say what was judged.
    assert (report["verdict"], report["conforms"], report["exit_status"]) == ("CONFORMS", True, 0)
    assert report["verdict_text"] == text
    assert report["judged"] == {"operations": 3, "operations_of": nine, "clauses": len(judged_clauses),
                                "clauses_of": len(report["clauses"])}
    assert run.stdout.rstrip().splitlines()[-1] == text
    page = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<span class="verdict v-CONFORMS">' + re.escape(text.replace("(", "(")) + "</span>", page)
    props = {p.get("name"): p.get("value") for p in ET.parse(tmp_path / "r.xml").iter("property")}
    assert props["verdict"] == "CONFORMS" and props["verdict_text"] == text
