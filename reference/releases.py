"""The releases of the specification: one statement of the contract, release by release (#28).

A release states what changed in the clauses' texts (``added``, ``changed``, ``withdrawn``)
and in the conformance cases (``cases``: one :class:`CaseChange` per clause whose cases'
expected answers changed, with what used to conform, what conforms now and what to change
in a program that conformed to the previous release).

A *frozen* release can no longer change: its clause texts are recorded as digests
(``spec/digests/VERSION.json``, ``VERSION.texts.json``) and its cases as the committed case
vectors (``conformance/releases/VERSION.jsonl.gz``, digest in ``spec/digests/cases.json``).
Only the last release may be open; it is the release a change lands in.  Tests refuse a
clause text or an expected answer that differs from the last frozen release without an
entry here (``tests/test_spec_clauses.py``, ``tests/test_releases.py``).

>>> RELEASES[0].version, RELEASES[0].frozen
('1.0.0', True)
>>> OPEN_RELEASE is None or not OPEN_RELEASE.frozen
True
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["CaseChange", "Release", "RELEASES", "SPEC_VERSION", "SPEC_DATE", "OPEN_RELEASE",
           "FROZEN_RELEASES", "release_named", "releases_after"]


class CaseChange(NamedTuple):
    """A change of the expected answers of one clause's cases in a release.

    ``clause`` is the clause whose cases changed; ``before`` what used to conform (at the
    previous release), ``after`` what conforms now, ``upgrade`` what to change in a program
    that conformed to the previous release."""

    clause: str
    before: str
    after: str
    upgrade: str


class Release(NamedTuple):
    """One release of the specification: the clauses it added, changed (each with what
    changed) and withdrawn (each with why, and the clause that replaces it, if any), and
    the clauses whose cases changed (:class:`CaseChange`).

    A clause's text is its item in ``spec/*.md`` with its registry entry; a test compares
    each clause with its digest at the last frozen release (``spec/digests/VERSION.json``)
    and refuses a clause that changed without an entry here."""

    version: str
    date: str
    summary: str
    added: tuple[str, ...] = ()
    changed: tuple[tuple[str, str], ...] = ()  # (clause ID, what changed)
    withdrawn: tuple[tuple[str, str], ...] = ()  # (clause ID, why and what replaces it)
    cases: tuple[CaseChange, ...] = ()  # the clauses whose cases' expected answers changed
    frozen: bool = False  # its texts and its cases are recorded and can no longer change


#: Every release of the specification, oldest first.  The last one is the current version.
#: To change a clause: edit its text, then add ``(ID, "what changed")`` to ``changed`` of the
#: last release if that release is not frozen, else start a new release here.  To change an
#: expected answer: add a :class:`CaseChange` to ``cases`` of the open release.  A withdrawn
#: ID stays in ``withdrawn`` for good (a tombstone).  Freeze a release with
#: ``python -m turub.conformance.questions.releases freeze`` and set ``frozen=True``.
RELEASES: Final = (
    Release("1.0.0", "2026-12-01", frozen=True, summary="The first release: every clause of the three sources, "
            "with its code and checks."),
    Release(
        "1.1.0", "2026-12-01", frozen=True,
        summary="Clause addresses, the changelog, and the audit's faithfulness fixes.",
        added=("play.refusal-changes-nothing", "play.malformed-action"),
        changed=(
            ("pack.suits-equal", "The guide's words quoted exactly: \"highest dealing\" (was "
                                 "\"highest deals\")."),
            ("table.direction", "The guide's words quoted exactly: \"next eligible player "
                                "clockwise\" (was \"next clockwise\")."),
            ("table.left-of-dealer", "Title and text quote each source's own phrase (\"left of dealer\", "
                                     "\"the dealer's left\", \"a la izquierda\") instead of "
                                     "\"left of the dealer\", which none of them says."),
            ("deal.cut", "The Spanish guide quoted in Spanish (002 §02 ¶1 s3); "
                         "our translation marked as ours."),
            ("deal.dealer-check", "States the sources' rule (the dealer's last packet) as theirs "
                                  "and marks the judging of every packet as the project's "
                                  "addition; the sources' own check is no longer called a "
                                  "common mistake (only a program judging a recorded deal "
                                  "that stops at the last packet is); rule option: none."),
            ("trump.any-suit", "'no trump' marked as our phrase, not a quotation."),
            ("play.refusal-order", "The refusal 'card not held' marked as our phrase; a second "
                                   "trump call is refused as trump.once also after the deal is "
                                   "closed."),
            ("result.tricks-add-up", "The title agrees with the text: a closed deal's counts add "
                                     "up to fewer than 36 (the title said 'at most 36')."),
            ("result.closed-early", "A decision stated: under early-close=known-result a closed "
                                    "deal's partial trick count is the win's count, and so the "
                                    "mark it sets or must beat (with an example)."),
            ("dealer.after-win", "'in the direction of play' marked as our reading, not the "
                                 "guide's words."),
            ("contest.draw-keeps-sequence", "A deal closed early is a draw only under the "
                                            "default early-close=draw."),
            ("contest.unbeatable-mark", "'a second 36 wins' marked as our phrase."),
            ("contest.decided-is-final", "Our own phrases no longer in double quotes."),
            ("sheet.any-player-closes", "Names the known-result option: a side past 18 wins a "
                                        "closed deal under early-close=known-result."),
            ("context.name", "Title and text quote the brief exactly: \"four [packs of] cards\"."),
            ("term:draw", "Also a deal closed early, by default."),
        ),
        cases=(
            CaseChange(
                "deal.dealer-check",
                before="A check_packets deal whose 48 packets go round the table against the "
                       "direction of play (the dealer's last) stood: {\"stands\": true}.",
                after="The packets go round in the direction of play, the player after the "
                      "dealer first and the dealer last; dealt round the other way the deal "
                      "does not stand ({\"stands\": false}, a redeal: deal.redeal).",
                upgrade="Judge the order of the packets, not only their sizes and the last "
                        "one's seat: the k-th packet goes to the k-th seat in the direction of "
                        "play counted from the dealer (the dealer's own packets last)."),
        ),
    ),
    Release(
        "1.2.0", "2026-12-02",
        summary="Every word in its sense: glossary links that mean what the sentence means, no source "
        "sentence stored, every addition marked; the pages' prose and the glossary versioned "
        "with the clauses (#34). Under a house-rule variant (no standard case changes): the expected "
        "answer of a question follows the house rule in its whole situation, as the rule sees it (a "
        "legal-play rule reading the game is asked with the game, a deal_result question with its "
        "dealer, a contest question with its first dealer); a program that conformed to a variant "
        "only because the kit left these out may now fail on the house clause, where it should (#31).",
        added=("term:trick winner", "term:dealing", "term:card draw", "term:void deal",
               "page:changelog", "page:clause-index"),
        changed=(
            ("pack.suits-equal", "The card draw for the first dealer marked as such "
                                 "({sense}), not linked to a deal's draw."),
            ("pack.card-notation", "'draw' (to picture) no longer linked to a deal's draw."),
            ("table.rule-options", "'closed list' no longer linked to closing a deal."),
            ("table.left-of-dealer", "'the physical side' no longer linked to a partnership."),
            ("dealer.first-draw", "'deals' (the verb) linked to dealing, not to a deal."),
            ("dealer.first-draw-ties", "The card draw linked to its own entry, not to a deal's draw."),
            ("deal.cut", "The Spanish sentence cited by locator (002 §02 ¶1 s3), read from the "
                         "source at build time instead of stored; how the cut is made (the top "
                         "part under the rest) marked as the project's addition in a note of "
                         "its own."),
            ("trick.highest-trump", "A card that wins the trick linked to 'trick winner', not "
                                    "to a deal's win."),
            ("trick.highest-led", "A card that wins the trick linked to 'trick winner'."),
            ("trick.earliest-identical", "A card that wins the trick linked to 'trick winner'; "
                                         "the translation of \"gana\" in single quotes (ours), "
                                         "no longer in double quotes as if the sources' word."),
            ("signal.kinds", "'closed list' no longer linked to closing a deal."),
            ("stake.traditional", "'winning the match' linked to the contest, not to a deal's "
                                  "win."),
            ("sheet.one-deal-per-row", "Sources: agree (the brief states it); the engine's "
                                       "extra columns stay marked as the project's addition."),
            ("advice.whole-deal", "A trick 'won' linked to 'trick winner'."),
            ("result.tricks-add-up", "A trick 'won' by a side linked to 'trick winner'."),
            ("advice.lead-twins-first", "The first of two twins 'is the higher' (the sources: "
                                        "\"ranks higher\"), no longer 'wins'."),
            ("advice.agree-beforehand", "'how the stake is won' no longer linked to a deal's "
                                        "win."),
            ("context.vocabulary", "Our own words in single quotes (‘deal’, ‘contest’, "
                                   "‘sitting’), the sources' in double."),
            ("page:index", "The quotation convention stated (double quotes: the sources' words; "
                           "single: ours); the changelog and the clause index listed (1.1.0)."),
            ("page:open-questions", "The table at the end lists every clause that goes beyond "
                                    "the sources, generated from the registry (it listed only "
                                    "those where the sources are silent or disagree, and missed "
                                    "the every-packet dealer check); the Spanish \"gana\" "
                                    "translated in single quotes; the cutter in our words."),
            ("page:sources", "The Spanish guide's §05 sentence cited by locator instead of "
                             "stored; \"gana\" translated in single quotes; the audit's "
                             "faithfulness fixes (1.1.0)."),
            ("page:table", "No 'square table': the sources give the table no shape."),
            ("play.refusal-order", "The action's form stated as the first step of the order "
                                   "(an unknown act or a missing field, then a seat not one of "
                                   "the four, whatever the moment), as the referee has always "
                                   "judged it; the implementers' guide says the same (#28)."),
        ),
        cases=(
            CaseChange(
                "table.partnerships",
                before="A refereed action's seat was read from its initial or its name, in "
                       "either case, with spaces around: 'n', 'North', 'NORTH', 'north' and ' N ' "
                       "were seats.",
                after="A seat in an action is one of the letters N E S W, written just so; "
                      "'n', 'north', 'North', 'NORTH', ' N ' are refused for table.partnerships "
                      "(the schema's seat, as everywhere else in the protocol).",
                upgrade="Read an action's seat by exact comparison with N, E, S, W; refuse "
                        "anything else (a name, lower case, spaces) for table.partnerships."),
            CaseChange(
                "trump.any-suit",
                before="The suit of a trump call was read from a letter in either case, a "
                       "symbol (♥ or ♡) or a suit's name.",
                after="The suit of a trump call is one of the letters S H D C, written just "
                      "so; 'h', '♥', '♡', 'hearts', ' H ' are refused for trump.any-suit, "
                      "after the moment and the caller are judged (play.refusal-order).",
                upgrade="Compare the trump call's suit exactly with S, H, D, C; refuse anything "
                        "else for trump.any-suit in the same place of the refusal order as a "
                        "no-trump call."),
            CaseChange(
                "pack.card-notation",
                before="Card texts with the outline suit symbols (♤♡♢♧) and with spaces around "
                       "them were promised (the schema) but never asked.",
                after="Directed cases ask both: a trick, a hand and a refereed deal written "
                      "with outline symbols, and with spaces around every card.",
                upgrade="Read ♤ ♡ ♢ ♧ as ♠ ♥ ♦ ♣ and strip spaces around a card text, as the "
                        "schema's card pattern allows."),
            CaseChange(
                "signal.kinds",
                before="Under signal-kinds=documented the sources' words for the two signals' "
                       "meaning ('strong', 'weak') were never sent as kinds.",
                after="Directed cases send 'strong', 'weak', 'Knock' and 'wink' as kinds under "
                      "signal-kinds=documented: each refused for signal.kinds (the kinds are "
                      "'knock' and 'click').",
                upgrade="Under signal-kinds=documented accept exactly 'knock' and 'click'; the "
                        "words for what they mean are not kinds."),
            CaseChange(
                "deal.packets",
                before="A check_packets deal with a packet of 0 cards (a size the schema "
                       "allows) among its 48 good packets was never asked.",
                after="Directed cases ask it (early, midway, before the dealer's last packet, "
                      "under each dealer): it does not stand ({\"stands\": false}).",
                upgrade="Judge the packets as given: 49 packets, one of them empty, are not a "
                        "deal of 48 packets of three; do not drop empty packets first."),
        ),
    ),
)


#: The specification's version: the last release's (shown on every page of the site, by
#: ``turub clause`` and in the kit's reports).
SPEC_VERSION: Final = RELEASES[-1].version
SPEC_DATE: Final = RELEASES[-1].date

#: The frozen releases, oldest first, and the release changes land in (None: all frozen).
FROZEN_RELEASES: Final = tuple(r for r in RELEASES if r.frozen)
OPEN_RELEASE: Final = None if RELEASES[-1].frozen else RELEASES[-1]


def release_named(version: str) -> Release:
    """The release ``version`` (a ValueError naming the known releases if there is none)."""
    for release in RELEASES:
        if release.version == version:
            return release
    raise ValueError(f"no release {version!r} of the specification (releases: "
                     f"{', '.join(r.version for r in RELEASES)})")


def releases_after(version: str) -> tuple[Release, ...]:
    """The releases after ``version``, oldest first."""
    versions = [r.version for r in RELEASES]
    return RELEASES[versions.index(release_named(version).version) + 1:]
