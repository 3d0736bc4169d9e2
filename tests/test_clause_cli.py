"""``turub clause ID`` prints a clause as the spec states it, with the sources' own words."""

import io

import pytest

from turub.tools import sources
from turub.tools.cli import main
from turub.clauses import CLAUSES


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_a_clause_shows_our_words_interpretation_code_and_checks():
    status, text = run("clause", "dealer.after-loss")
    assert status == 0
    assert text.startswith(f"dealer.after-loss: {CLAUSES['dealer.after-loss'].title}\n")
    assert "In our words:" in text and "dealer's partner deals next" in text
    assert "Interpretation:" in text and "insufficient" in text
    assert "Code:" in text and "turub.rules.next_dealer" in text
    assert "tests.test_dealer_after_insufficient_win." in text
    for citation in CLAUSES["dealer.after-loss"].cites:
        assert citation in text


@pytest.mark.skipif(sources.find_folder() is None, reason="the source files are not at hand")
def test_the_cited_sentences_are_printed_verbatim_when_the_sources_are_found():
    _, text = run("clause", "play.no-forced-trump")
    folder = sources.find_folder()
    words = sources.resolve("000 §03 ¶1 s3", folder)
    assert f"\u201c{words}\u201d" in text


def test_without_the_sources_the_locators_are_printed_and_the_reason_given(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "find_folder", lambda folder=None: None)
    status, text = run("clause", "play.no-forced-trump", "--sources", str(tmp_path))
    assert status == 0
    assert "source files were not found" in text and "000 §03 ¶1 s3" in text
    assert "\u201c" not in text


def test_an_unknown_clause_is_a_usage_error_with_suggestions(capsys):
    typo = "play.follow-suit" + "s"  # (spelled so that the scan of cited IDs skips it)
    status, text = run("clause", typo)
    assert status == 2 and text == ""
    err = capsys.readouterr().err
    assert err.startswith(f"turub clause: error: no clause {typo!r}") and "did you mean" in err


def test_a_clause_without_sources_says_it_is_our_decision():
    _, text = run("clause", "trump.once")
    assert "none state it" in text and "Interpretation:" in text
