"""turub.tools: the tooling around the rules, apart from them.

* :mod:`~turub.tools.cli`: the ``turub`` command line (``play``, ``simulate``, ``explain``;
  the kit adds its own commands through :func:`turub.tools.cli.register`);
* :mod:`~turub.tools.clause_cli`: ``turub clause ID``, one clause at the terminal;
* :mod:`~turub.tools.sources`: the sources' own words, read from their files by a citation;
* :mod:`~turub.tools.progress`: the progress bar of long commands.

The rules never import from here.
"""
