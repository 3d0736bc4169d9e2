"""The published protocol schema (spec/protocol.schema.json) describes what is really sent.

Every request the kit makes from the vectors, every answer the reference gives, and the
JavaScript sample's handshake and answers are validated against it with a small validator
of the keywords the schema uses (no third-party package needed)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from turub.conformance.cases import OPTION_SETS, answer, ask_args
from turub.conformance.kit import vector_cases

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "spec" / "protocol.schema.json").read_text(encoding="utf-8"))


def errors(value, schema, path="$"):
    """Why ``value`` does not match ``schema`` (empty when it does)."""
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return errors(value, SCHEMA["$defs"][name], path)
    out = []
    types = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
    t = schema.get("type")
    if t == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{path}: not an integer"]
    elif t is not None and not isinstance(value, types[t]):
        return [f"{path}: not {t}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} not in {schema['enum']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{path}: below minimum")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{path}: above maximum")
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        out.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, dict):
        for k in schema.get("required", []):
            if k not in value:
                out.append(f"{path}: lacks {k}")
        props = schema.get("properties", {})
        for k, v in value.items():
            if k in props:
                out += errors(v, props[k], f"{path}.{k}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{path}: unexpected {k}")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += errors(v, schema["additionalProperties"], f"{path}.{k}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 10**9):
            out.append(f"{path}: {len(value)} items")
        prefix = schema.get("prefixItems", [])
        for i, v in enumerate(value):
            if i < len(prefix):
                out += errors(v, prefix[i], f"{path}[{i}]")
            elif "items" in schema:
                out += errors(v, schema["items"], f"{path}[{i}]")
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not errors(value, s, path)]
        if len(matching) != 1:
            out.append(f"{path}: matches {len(matching)} of oneOf")
    if "not" in schema and not errors(value, schema["not"], path):
        out.append(f"{path}: matches 'not'")
    return out


def test_the_validator_rejects_what_the_schema_forbids():
    good = {"id": 3, "op": "trick_winner", "args": {"cards": ["AC", "10♥"], "trump": "H"}}
    assert errors(good, SCHEMA) == []
    assert errors({**good, "args": {"cards": ["ZZ"], "trump": "H"}}, SCHEMA)
    assert errors({"id": 3, "result": 1, "error": {"message": "x"}}, SCHEMA)
    assert errors({"id": 3, "error": {}}, SCHEMA)
    assert errors(5, SCHEMA["$defs"]["result_trick_winner"])


@pytest.mark.parametrize("rules", ["standard", "counterclockwise"])
def test_every_request_and_reference_answer_of_the_vectors_fits_the_schema(rules):
    r = OPTION_SETS[rules]
    for rid, case in enumerate(vector_cases(r)):
        request = {"id": rid, "op": case["op"], "args": ask_args(case["op"], case["args"], r)}
        assert errors(request, SCHEMA) == [], case["id"]
        result = answer(case["op"], case["args"], r)
        assert errors(result, {"$ref": f"#/$defs/result_{case['op']}"}) == [], case["id"]
        assert errors({"id": rid, "result": result}, SCHEMA) == []


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_javascript_sample_speaks_the_schema():
    cases = vector_cases(OPTION_SETS["standard"])[::7]
    lines = [{"id": 0, "op": "hello", "args": {"protocol": 1}}]
    lines += [{"id": i + 1, "op": c["op"], "args": ask_args(c["op"], c["args"], OPTION_SETS["standard"])}
              for i, c in enumerate(cases)]
    lines.append({"id": len(lines), "op": "bye", "args": {}})
    text = "".join(json.dumps(x) + "\n" for x in lines)
    done = subprocess.run([shutil.which("node"), str(ROOT / "examples" / "turub-sample.js")], input=text,
                          capture_output=True, text=True, timeout=30)
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert done.returncode == 0 and len(answers) == len(lines)
    ops = {x["id"]: x["op"] for x in lines}
    for a in answers:
        assert errors(a, SCHEMA) == [], a
        assert errors(a["result"], {"$ref": f"#/$defs/result_{ops[a['id']]}"}) == [], a
