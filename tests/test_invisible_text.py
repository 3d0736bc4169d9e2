"""Untrusted text that cannot pose (#30): every default-ignorable code point is shown as an
escape, as the bidi controls are, wherever a program's text reaches a person.

The list below is Unicode's own (DerivedCoreProperties.txt, ``Default_Ignorable_Code_Point``,
Unicode 15.1), written out here independently of the kit's table: zero-width spaces and
joiners, word joiners and invisible operators, the soft hyphen, Hangul fillers, Mongolian
free variation selectors, variation selectors, tag characters.  A name made with them can
read as "reference" on a terminal and in ``turub report``.
"""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from turub.conformance.programs.protocol import ProtocolTarget
from turub.conformance.text import needs_cleaning, safe_text, safe_value

DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]
IGNORABLE = [chr(c) for lo, hi in DEFAULT_IGNORABLE for c in range(lo, hi + 1)]


def test_every_default_ignorable_code_point_is_escaped():
    raw = [ch for ch in IGNORABLE if ch in safe_text(f"a{ch}b")]
    assert raw == [], [f"U+{ord(c):04X}" for c in raw[:10]]
    assert safe_text("ref\u200berence") == "ref\\u200berence"
    assert safe_text("x\U000e0041") == "x\\U000e0041"  # eight digits: never read as \ue004 then 1
    assert safe_text("soft\u00adhyphen") == "soft\\xadhyphen"


def test_a_raw_answer_line_with_one_is_always_cleaned():
    """The protocol client cleans a line only when its bytes may hold an unsafe character:
    every one of these, written raw in UTF-8, must be seen."""
    missed = [ch for ch in IGNORABLE
              if not needs_cleaning(json.dumps({"result": f"a{ch}"}, ensure_ascii=False).encode())]
    assert missed == [], [f"U+{ord(c):04X}" for c in missed[:10]]
    assert all(ch not in json.dumps(safe_value({f"k{ch}": [ch]}), ensure_ascii=False) for ch in IGNORABLE[::7])


def test_plain_text_is_left_alone():
    text = "Arba'a Turub — ♠♥♦♣ 10H, Ñandú, 日本語, عربى"
    assert safe_text(text) == text
    assert not needs_cleaning(json.dumps(text, ensure_ascii=False).encode())


@pytest.mark.parametrize("name", ["ref\u200berence", "refer\u2060ence\U000e0020", "re\u00adference\ufe0f"])
def test_a_program_cannot_pass_for_reference_by_its_name(tmp_path, name):
    prog = tmp_path / "poser.py"
    prog.write_text(textwrap.dedent(f"""
        import json, sys
        line = sys.stdin.readline()
        hello = {{"id": json.loads(line)["id"], "result": {{"protocol": 2, "name": {name!r},
                  "version": "1\u200d", "operations": ["trick_winner"]}}}}
        sys.stdout.write(json.dumps(hello, ensure_ascii=False) + "\\n"); sys.stdout.flush()
        sys.stdin.readline()
    """), encoding="utf-8")
    target = ProtocolTarget([sys.executable, str(prog)], timeout=60)
    try:
        assert target.start() is None
        assert target.name != "reference" and target.name.replace("\\", "").isascii()
        assert not any(ch in target.name + target.version for ch in IGNORABLE)
    finally:
        target.abort()
