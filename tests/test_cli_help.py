"""Every `turub` help shows the defaults, and asking for help runs nothing."""

from __future__ import annotations

import argparse
import io
import re
from contextlib import redirect_stdout

import pytest

from turub import __version__
from turub.tools.cli import _load_extensions, build_parser, main


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    _load_extensions("*")  # every module that adds sub-commands
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_help_shows_every_default_and_runs_nothing(name, capsys):
    parser = _subcommands()[name]
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    text = re.sub(r"\s+", " ", capsys.readouterr().out).split("options:", 1)[1]
    for action in parser._actions:
        if action.option_strings and action.help != argparse.SUPPRESS and \
                action.default not in (None, False, [], argparse.SUPPRESS):
            assert "default" in text.split(action.option_strings[-1], 1)[1][:400], (
                f"turub {name} --help: {action.option_strings[-1]} does not show its default")


def test_version():
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and out.getvalue().strip() == f"turub {__version__}"
