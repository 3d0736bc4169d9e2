"""The clause registry: every clause of the sources, defined once, by a stable slug.

Every decision the engine makes and every refusal it raises cites one or more of these
IDs.  The literate specification (``spec/``) renders one entry per clause from here, the
property suites and the conformance kit tag their checks with them, and a test fails if
any of them cites an ID that is not defined below.

IDs are never renumbered or reused: a clause that is withdrawn keeps its entry with the
kind ``withdrawn``.

Sources (see ``SOURCES``):

* ``000`` the illustrated guide in English, sections §01-§07;
* ``001`` the score-sheet app's rules page (it calls one deal a "match"), cited by heading;
* ``002`` the same guide in Spanish, sections §01-§07 and three FAQ answers.

Each citation is a precise locator: source, section, paragraph and sentences, e.g.
``000 §03 ¶2 s1`` or ``001 The deal ¶2 s1-2`` (the grammar is in :mod:`turub.tools.sources`,
whose ``resolve`` returns the cited words from the source file).  A citation points at the
sentence or two that state the clause, never at a whole section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

__all__ = ["Clause", "CLAUSES", "KINDS", "SOURCES", "Term", "VOCABULARY", "clause", "is_clause", "cite",
           "Part", "PARTS", "part_of", "Release", "RELEASES", "SPEC_VERSION", "SPEC_DATE", "WITHDRAWN"]

#: The kinds of clause, as the spec classifies them.
KINDS: Final = (
    "rule",  # normative: the engine implements it and checks prove it
    "convention",  # normative by the guide's own practical choice
    "option",  # normative, with a choice a table may make (see turub.options)
    "interpretation",  # normative: our decision where the sources are silent or disagree
    "score-sheet",  # normative for the score sheet (the sitting)
    "advice",  # strategy advice: not a rule, may rest on one
    "context",  # history, naming, scope: not a rule
)

#: Kinds the engine must implement and the checks must cover.
NORMATIVE_KINDS: Final = frozenset({"rule", "convention", "option", "interpretation", "score-sheet"})

#: The source documents, by the short name used in citations.
SOURCES: Final = {
    "000": "000_942ee48b37753174.txt",
    "001": "001_336f227c8f80c15c.txt",
    "002": "002_1a872fdaba8b8e7d.txt",
}


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause: its slug, kind, a short title and where the sources state it."""

    id: str
    kind: str
    title: str
    cites: tuple[str, ...] = ()

    @property
    def is_normative(self) -> bool:
        return self.kind in NORMATIVE_KINDS


def _c(id: str, kind: str, title: str, *cites: str) -> Clause:
    assert kind in KINDS, kind
    return Clause(id, kind, title, cites)


_ALL = (
    # --- the pack ------------------------------------------------------------------
    _c("pack.composition", "rule", "The pack is 144 cards: four copies of each of 36",
       "000 §01 ¶1 s2-4", "001 Players and equipment ¶2 s1-2", "001 FAQ How many cards ¶0-1",
       "002 §01 ¶1 s2-4"),
    _c("pack.rank-order", "rule", "Ranks from the top: A K Q J 10 9 8 7 6",
       "000 §01 ¶1 s3", "001 Players and equipment ¶2 s3", "002 §01 ¶1 s3"),
    _c("pack.suits-equal", "interpretation", "Suits have no order among themselves",
       "000 §02 ¶1 s1-2", "001 The deal ¶1 s1", "002 §02 ¶1 s1-2"),
    _c("pack.tricks-only", "rule", "Cards carry no points; each trick counts one",
       "000 §01 ¶1 s5", "002 §01 ¶1 s5"),
    _c("pack.card-notation", "interpretation", "Cards are written rank then suit: A♣, 10♥, AC, 10H"),
    _c("pack.sort-hand", "convention", "A hand is sorted by suit, red and black alternating",
       "000 §02 ¶2 s2", "001 The deal ¶3 s3", "002 §02 ¶2 s2"),
    # --- the table -----------------------------------------------------------------
    _c("table.partnerships", "rule", "Four players, two fixed partnerships, partners opposite",
       "000 §01 ¶1 s1", "001 Players and equipment ¶1 s1-2", "002 §01 ¶1 s1"),
    _c("table.direction", "option", "Play and deal run clockwise unless the table agrees otherwise",
       "001 The deal ¶4 s1-2", "001 Playing counter-clockwise ¶1 s1-2", "000 §05 ¶1 s4",
       "002 §05 ¶1 s4"),
    _c("table.left-of-dealer", "interpretation", "\"Left of dealer\" is the next seat in the direction of play",
       "000 §02 ¶1 s3", "000 §02 ¶1 s5", "000 §03 ¶1 s1", "001 The deal ¶2 s1",
       "001 The deal ¶2 s3", "002 §02 ¶1 s3", "002 §02 ¶1 s5", "002 §03 ¶1 s1"),
    _c("table.rule-options", "interpretation",
       "A table's choices are the documented rule options, each with its documented values"),
    # --- choosing the first dealer ---------------------------------------------------
    _c("dealer.first-draw", "rule", "Each player is shown one card; the highest rank deals first",
       "000 §02 ¶1 s1", "001 The deal ¶1 s1", "002 §02 ¶1 s1"),
    _c("dealer.first-draw-ties", "convention", "Players tied for highest draw again among themselves",
       "000 §02 ¶1 s2", "002 §02 ¶1 s2"),
    # --- the deal -------------------------------------------------------------------
    _c("deal.shuffle", "rule", "The dealer shuffles the whole pack",
       "001 The deal ¶2 s1"),
    _c("deal.cut", "rule", "The player after the dealer cuts",
       "000 §02 ¶1 s3", "001 The deal ¶2 s1", "002 §02 ¶1 s3"),
    _c("deal.packets", "rule", "Cards are dealt in packets of three, from the player after the dealer",
       "000 §02 ¶1 s4", "001 The deal ¶2 s2", "002 §02 ¶1 s4"),
    _c("deal.pause-for-trump", "rule", "Dealing pauses once the player after the dealer has one packet",
       "000 §02 ¶1 s5", "001 The deal ¶2 s3", "001 FAQ Who calls trumps ¶1 s2", "002 §02 ¶1 s5"),
    _c("deal.full-hands", "rule", "Dealing resumes until each player holds 36 cards",
       "000 §02 ¶1 s6", "001 The deal ¶2 s5", "002 §02 ¶1 s6"),
    _c("deal.dealer-check", "rule", "The dealer's final packet must hold exactly three, or the deal is void",
       "000 §02 ¶2 s1", "000 §02 ¶2 s3", "001 The deal ¶3 s1-2", "002 §02 ¶2 s1", "002 §02 ¶2 s3"),
    _c("deal.redeal", "interpretation", "A void deal is dealt again from scratch by the same dealer",
       "000 §02 ¶2 s1", "001 The deal ¶3 s2", "002 §02 ¶2 s1"),
    # --- trump ----------------------------------------------------------------------
    _c("trump.caller", "rule", "The player after the dealer names trump",
       "000 §02 ¶1 s5", "001 The deal ¶2 s4", "001 FAQ Who calls trumps ¶0-1",
       "001 Calling trumps on a sixth of your hand ¶1 s1", "002 §02 ¶1 s5"),
    _c("trump.three-cards", "rule", "Trump is named having seen only the caller's first three cards",
       "000 §02 ¶1 s5", "001 The deal ¶2 s4", "001 Calling trumps on a sixth of your hand ¶1 s1",
       "002 §02 ¶1 s5", "002 FAQ 2 ¶0-1"),
    _c("trump.any-suit", "interpretation", "Any of the four suits may be named trump",
       "000 §02 ¶1 s5", "001 The deal ¶2 s4", "001 Calling trumps on a sixth of your hand ¶1 s2",
       "002 §02 ¶1 s5"),
    _c("trump.once", "interpretation", "Trump is named once per deal and cannot be changed"),
    # --- play -----------------------------------------------------------------------
    _c("play.first-lead", "rule", "The trump caller leads the first trick",
       "000 §03 ¶1 s1", "001 The deal ¶2 s3", "001 Play ¶1 s1", "002 §03 ¶1 s1"),
    _c("play.turn", "rule", "Each trick goes round once in the direction of play, one card a seat",
       "000 §06 ¶1 s2-4", "001 The deal ¶4 s1", "002 §06 ¶1 s2-4"),
    _c("play.order-of-actions", "interpretation", "Nothing is played before trump is named, nor after the deal ends"),
    _c("play.refusal-order", "interpretation",
       "An action that breaks several rules is refused for the first of them in a fixed order"),
    _c("play.refusal-changes-nothing", "interpretation",
       "A refused action changes nothing: the turn, the trick, the signal window and the hands stay as they were"),
    _c("play.malformed-action", "interpretation",
       "An action that is not well formed (an unknown act, a missing field, a seat not at the table) is refused"),
    _c("play.card-in-hand", "rule", "A player can play only a card held",
       "000 §03 ¶1 s7", "002 §03 ¶1 s7"),
    _c("play.follow-suit", "rule", "A player holding the led suit must play it",
       "000 §03 ¶1 s2", "001 Play ¶1 s2", "002 §03 ¶1 s2"),
    _c("play.void-any-card", "rule", "A player void in the led suit may play any card",
       "000 §03 ¶1 s2", "001 Play ¶1 s3", "002 §03 ¶1 s2"),
    _c("play.no-forced-trump", "rule", "There is no obligation to trump or to overtake",
       "000 §03 ¶1 s3", "001 Play ¶1 s3", "002 §03 ¶1 s3"),
    _c("trick.highest-trump", "rule", "A trick with a trump in it goes to the highest trump",
       "000 §03 ¶1 s4", "000 §06 ¶1 s4", "001 Play ¶2 s1", "002 §03 ¶1 s4", "002 §06 ¶1 s4"),
    _c("trick.highest-led", "rule", "A trick without trump goes to the highest card of the led suit",
       "000 §03 ¶1 s4", "001 Play ¶2 s1", "002 §03 ¶1 s4"),
    _c("trick.earliest-identical", "rule", "Among identical cards the one played first ranks higher",
       "000 §03 ¶1 s5", "000 §06 ¶1 s1-3", "000 §06 ¶1 s5", "001 Players and equipment ¶2 s4",
       "001 Play ¶2 s2", "001 FAQ What happens when two identical cards ¶0-1", "002 §03 ¶1 s5",
       "002 §06 ¶1 s1-3", "002 §06 ¶1 s5", "002 FAQ 1 ¶0-1"),
    _c("play.winner-leads", "rule", "The winner of a trick leads the next",
       "000 §03 ¶1 s6", "001 Play ¶1 s1", "002 §03 ¶1 s6"),
    _c("play.all-tricks", "rule", "There is no drawing: all 36 tricks are played",
       "000 §03 ¶1 s7", "001 Scoring ¶1 s1", "001 Ending ¶1 s1",
       "001 FAQ How do you win a game ¶1 s2", "002 §03 ¶1 s7"),
    # --- signals --------------------------------------------------------------------
    _c("signal.leader-only", "rule", "Only the player who led the current trick may signal",
       "000 §03 ¶2 s1", "000 §03 ¶2 s3", "001 Play ¶3 s1-2", "001 Read your partner's knock ¶1 s3",
       "002 §03 ¶2 s1", "002 §03 ¶2 s3"),
    _c("signal.kinds", "convention", "A knock (strong) and a click (weak) are the documented signals; a table may use others",
       "000 §03 ¶2 s2", "001 Play ¶3 s2", "001 Read your partner's knock ¶1 s1", "002 §03 ¶2 s2"),
    _c("signal.timing", "interpretation", "A signal comes after the lead and before the next card",
       "000 §03 ¶2 s2", "002 §03 ¶2 s2", "001 Read your partner's knock ¶1 s3"),
    _c("signal.once-per-trick", "interpretation", "At most one signal per trick",
       "001 Play ¶3 s2"),
    # --- the deal's result ------------------------------------------------------------
    _c("result.more-tricks-wins", "rule", "The side with more tricks wins the deal",
       "000 §04 ¶1 s1", "001 Scoring ¶1 s3", "001 A worked deal ¶1 s1-2", "001 A worked deal ¶2-7",
       "001 A worked deal ¶8 s1", "001 FAQ How do you win a game ¶0-1", "002 §04 ¶1 s1"),
    _c("result.draw-18", "rule", "Eighteen tricks each is a draw",
       "000 §04 ¶1 s1", "001 A worked deal ¶9 s1", "002 §04 ¶1 s1"),
    _c("result.tricks-add-up", "interpretation", "A complete deal's tricks add to 36; a closed deal's to fewer than 36"),
    _c("result.closed-early", "score-sheet", "A deal closed before its last trick is banked as a draw",
       "001 Ending ¶3 s1-2", "000 §03 ¶1 s7", "001 Ending ¶1 s1"),
    # --- the next dealer ------------------------------------------------------------
    _c("dealer.after-win", "option", "After the dealer's side wins, the next opponent in the direction deals",
       "000 §05 ¶1 s1", "000 §05 ¶1 s4", "001 The deal ¶5 s2", "002 §05 ¶1 s1", "002 §05 ¶1 s4"),
    _c("dealer.after-loss", "rule", "After the dealer's side loses, the dealer's partner deals",
       "000 §05 ¶1 s2", "001 The deal ¶5 s3", "002 §05 ¶1 s2"),
    _c("dealer.after-draw", "rule", "After a draw the same dealer deals again",
       "000 §05 ¶1 s3", "001 The deal ¶5 s1", "001 The deal ¶5 s4", "002 §05 ¶1 s3"),
    # --- the contest (the traditional stake) ------------------------------------------
    _c("contest.first-win-sets-mark", "rule", "A side's first win sets the mark its next win must beat",
       "000 §04 ¶1 s2", "000 §04 ¶2 s1-2", "001 Ending ¶2 s2",
       "001 FAQ How do you win the stake ¶1 s1", "002 §04 ¶1 s2", "002 §04 ¶2 s1-2"),
    _c("contest.second-win-beats-mark", "rule", "A second win with more tricks than the mark, with no loss between, wins the contest",
       "000 §04 ¶1 s2", "000 §04 ¶2 s3", "001 Ending ¶2 s2",
       "001 FAQ How do you win the stake ¶0-1", "002 §04 ¶1 s2", "002 §04 ¶2 s3", "002 FAQ 3 ¶0-1"),
    _c("contest.insufficient-win", "rule", "A win that does not beat the mark counts as a draw",
       "000 §04 ¶1 s3", "000 §04 ¶2 s2", "001 Ending ¶2 s3", "002 §04 ¶1 s3", "002 §04 ¶2 s2"),
    _c("contest.draw-keeps-sequence", "rule", "Draws never break a sequence nor move the mark",
       "000 §04 ¶2 s5", "001 Ending ¶2 s2-3", "001 FAQ How do you win the stake ¶1 s1",
       "002 §04 ¶2 s5"),
    _c("contest.other-side-resets", "rule", "A win by the other side ends the sequence and sets that side's own mark",
       "000 §04 ¶2 s4", "001 Ending ¶2 s2", "002 §04 ¶2 s4"),
    _c("contest.unbeatable-mark", "interpretation", "A first win of 36 can never be beaten: only the other side can then end the sequence"),
    _c("contest.decided-is-final", "interpretation", "A decided contest takes no more results; a new stake starts a new contest"),
    _c("stake.traditional", "context", "The game is traditionally played for a stake agreed beforehand",
       "001 Ending ¶2 s1", "001 Settling the stake deal by deal ¶1 s1", "000 §07 ¶1 s4",
       "002 §07 ¶1 s4"),
    _c("stake.per-deal", "option", "House option: settle the stake on each deal on its own",
       "001 Settling the stake deal by deal ¶1 s1-3"),
    # --- the score sheet --------------------------------------------------------------
    _c("sheet.one-deal-per-row", "score-sheet", "The sheet files each deal as one entry, with the side that won it",
       "001 Scoring ¶1 s1", "001 Scoring ¶1 s3", "001 Ending ¶2 s4",
       "001 FAQ How do you win the stake ¶1 s2"),
    _c("sheet.tap-winner", "score-sheet", "After the last trick, the side with more tricks is marked as winner",
       "001 Scoring ¶1 s2-3", "001 Ending ¶1 s2", "001 A worked deal ¶8 s1"),
    _c("sheet.end-match-draw", "score-sheet", "Ending a deal with no side marked banks it as a draw",
       "001 A worked deal ¶9 s2", "001 Ending ¶3 s1"),
    _c("sheet.any-player-closes", "score-sheet", "Any player may close the deal",
       "001 Ending ¶3 s1"),
    _c("sheet.open-ended", "score-sheet", "A sitting has no fixed number of deals",
       "001 Ending ¶1 s2", "001 Ending ¶3 s2"),
    _c("sheet.contest-derived", "score-sheet", "The sheet tracks only who won each deal; the contest is kept beside it",
       "001 Ending ¶2 s4-5", "001 FAQ How do you win the stake ¶1 s2"),
    # --- advice (not rules) -----------------------------------------------------------
    _c("advice.call-on-three", "advice", "Call the suit your three cards best support",
       "001 Calling trumps on a sixth of your hand ¶1 s2"),
    _c("advice.count-duplicates", "advice", "Count how many copies of a card have been played",
       "001 Count the duplicates, not just the cards ¶1 s1-3"),
    _c("advice.read-signals", "advice", "Lead into a suit your partner signalled strong",
       "001 Read your partner's knock ¶1 s2"),
    _c("advice.whole-deal", "advice", "Save strength for the late tricks",
       "001 Play for the whole deal, not just the trick in front of you ¶1 s1-2"),
    _c("advice.lead-twins-first", "advice", "Lead a card whose twin is still out; the tie favours you",
       "001 Watch who leads a duplicate first ¶1 s1-2"),
    _c("advice.agree-beforehand", "advice", "Agree direction and stake rule before the first deal",
       "001 Playing counter-clockwise ¶1 s2", "001 Settling the stake deal by deal ¶1 s2-3"),
    # --- context ----------------------------------------------------------------------
    _c("context.origin", "context", "A Somali game, documented through a Mogadishu informant",
       "000 §07 ¶1 s1", "001 Players and equipment ¶1 s3", "002 §07 ¶1 s1"),
    _c("context.name", "context", "The name means \"four [packs of] cards\"; Arpaa Turup is another spelling",
       "000 head ¶1", "000 §07 ¶1 s3", "001 head ¶1", "001 Players and equipment ¶1 s3",
       "002 §07 ¶1 s3"),
    _c("context.adults", "context", "An adults' game",
       "001 Players and equipment ¶1 s3"),
    _c("context.turup", "context", "A four-pack expansion of the one-pack game Turup",
       "001 The deal ¶4 s1", "001 Playing counter-clockwise ¶1 s1",
       "001 FAQ Is Arba'a Turub related ¶0-1"),
    _c("context.limits", "context", "No invention date nor uniform national rules are established",
       "000 §07 ¶1 s1-2", "002 §07 ¶1 s1-2"),
    _c("context.no-money", "context", "The game works without money stakes",
       "000 §07 ¶1 s4", "002 §07 ¶1 s4"),
    _c("context.sheet-never-deals", "context", "The score-sheet app deals no cards and sees no tricks",
       "001 Scoring ¶1 s2"),
    _c("context.vocabulary", "interpretation", "One vocabulary: deal, trick, sitting, contest (see the glossary)",
       "000 §04 ¶1 s1-2", "001 Scoring ¶1 s1", "001 Ending ¶1 s1", "002 §04 ¶1 s1-2"),
    _c("context.page-furniture", "context", "Scrolling hints and an empty questions heading are page furniture, not rules",
       "002 head ¶1", "000 §06 ¶2", "000 Common questions ¶0", "002 §06 ¶2",
       "002 Preguntas frecuentes ¶0"),
)

#: Every clause by its ID.
CLAUSES: Final[dict[str, Clause]] = {c.id: c for c in _ALL}
assert len(CLAUSES) == len(_ALL), "duplicate clause ID"


class Term(NamedTuple):
    """One entry of the vocabulary: our word and the sources' words for the same thing."""

    word: str  # our word, used everywhere in the project
    meaning: str  # what it means, in our words
    guide: str  # the English guide's word (000), "" where it has none
    spanish: str  # the Spanish guide's word (002), "" where it has none
    brief: str  # the score-sheet brief's word (001), "" where it has none
    core: bool = False  # one of the words the sources use in different senses
    forms: tuple[str, ...] = ()  # its inflected forms and phrases in this sense ("won", "led")


#: The one vocabulary (``context.vocabulary``): our word for each thing, what it means, and the
#: words the English guide (000), the Spanish guide (002) and the score-sheet brief (001) use
#: for it.  The first five (``core``) are the words the sources use in clashing senses ("game",
#: "match"); the engine names its types with our words (``Trick``, ``Deal``, ``Sitting``,
#: ``Contest``).  The spec's glossary is rendered from this table.
VOCABULARY: Final = (
    Term("trick", "four cards, one from each player, won by one of them", "trick", "baza",
         "trick", True),
    Term("trick winner", "the player whose card takes the trick: the highest trump in it, else "
         "the highest card of the led suit", "trick winner", "el ganador", "whoever wins a trick",
         forms=("wins the trick", "won the trick", "win the trick", "wins a trick", "won a trick",
                "win a trick", "winning the trick", "winner of the trick", "winner of a trick",
                "takes the trick", "took the trick", "take the trick", "winning card")),
    Term("deal", "a shuffle, the deal, the trump call and 36 tricks", "game", "juego",
         "match (on the sheet), deal", True),
    Term("dealing", "giving out the pack, a packet at a time, in the direction of play",
         "deal", "reparte", "dealing", forms=("dealt", "to deal")),
    Term("sitting", "the deals played in one session, on one score sheet", "", "", "sitting",
         True),
    Term("contest", "the deals that decide the traditional stake", "match", "encuentro",
         "contest, stake", True, forms=("wins the contest", "won the contest",
                                        "win the contest", "winning the contest")),
    Term("mark", "the trick count a side's next win must beat in the contest", "benchmark",
         "referencia", "mark, bar", True),
    Term("pack", "the 144 cards played with: four packs stripped below the six", "decks",
         "barajas", "pack, decks"),
    Term("suit", "spades, hearts, diamonds or clubs; no suit ranks above another", "suit",
         "palo", "suit"),
    Term("rank", "a card's place in A K Q J 10 9 8 7 6", "rank", "valor", "rank"),
    Term("twins", "identical cards: same suit and rank", "identical cards, duplicate",
         "cartas idénticas, copias", "twin, copy, duplicate", forms=("twin",)),
    Term("side", "a partnership: North-South or East-West", "partnership", "pareja",
         "side, partnership"),
    Term("partner", "the other player of one's side, sitting opposite", "partner",
         "compañero", "partner"),
    Term("dealer", "the player who shuffles and deals this deal", "dealer", "repartidor",
         "dealer"),
    Term("cut", "the cut of the shuffled pack, by the player after the dealer", "cuts",
         "corta", "cuts", forms=("cutting", "cutter")),
    Term("packet", "three cards dealt to one player at once", "packet", "paquete, tanda",
         "batch"),
    Term("redeal", "the same deal dealt again from scratch after a miscount", "redeal",
         "repartir otra vez", "dealt again from scratch", forms=("redealt", "dealt again")),
    Term("void deal", "a deal thrown in after a miscount (the dealer's last packet does not "
         "hold three), to be dealt again", "redeal", "repartir otra vez", "thrown in",
         forms=("deal is void", "deal void", "deals are void")),
    Term("direction of play", "the way deal and play go round: clockwise by default",
         "clockwise", "sentido horario", "clockwise, counter-clockwise"),
    Term("caller", "the player after the dealer, who names trump and leads first",
         "the player left of dealer", "quien está a la izquierda", "trump-caller"),
    Term("trump", "the suit named by the caller, which beats every other suit", "trump",
         "triunfo", "trump, trumps"),
    Term("lead", "the first card of a trick; the player who plays it leads", "lead", "salir",
         "lead", forms=("led", "leading", "leader")),
    Term("led suit", "the suit of a trick's first card", "led suit", "palo de salida",
         "suit led", forms=("suit led",)),
    Term("follow suit", "play a card of the led suit", "follow suit", "asistir",
         "follow the suit led", forms=("follows suit", "followed suit", "following suit")),
    Term("void", "holding no card of the led suit", "void", "sin palo", "holding none of it"),
    Term("discard", "play a card of another suit, not trump, when void", "discard", "descartar",
         "throw away", forms=("discarded", "discarding")),
    Term("signal", "a knock or a click by a trick's leader, about the led suit", "signal",
         "señal", "signal", forms=("signalled", "signalling", "signaller")),
    Term("knock", "the documented signal for a strong suit", "table knock",
         "golpe en la mesa", "knock, a single knock", forms=("knocked", "knocking")),
    Term("click", "the documented signal for a weak suit", "finger click", "chasquido",
         "click of the fingers, finger-click", forms=("clicked", "clicking")),
    Term("win", "a deal in which one side took more tricks than the other", "win", "victoria",
         "win", forms=("won", "winning", "winner")),
    Term("draw", "a deal with no winner: 18-18, or closed early (by default)", "draw", "empate",
         "draw", forms=("drawn",)),
    Term("card draw", "one card shown to each player to choose the first dealer: the highest "
         "rank deals", "expose one card per person", "descubre una por persona",
         "deals one card face up", forms=("draw for the first dealer",)),
    Term("sequence", "a side's wins in the contest with no loss between them", "sequence",
         "serie", "without losing one in between"),
    Term("insufficient win", "a later win that does not beat the mark: a draw for the contest",
         "insufficient win", "victoria insuficiente", "a win without clearing that bar"),
    Term("stake", "what the contest (or each deal, by the house option) is played for",
         "monetary stakes", "apuestas monetarias", "stake"),
    Term("score sheet", "the record of a sitting, one row per deal", "", "",
         "the sheet, the match table", forms=("sheet",)),
    Term("close", "end a deal on the sheet, also before its last trick", "", "",
         "End match", forms=("closed", "closing", "closes")),
)


#: The clauses of the rule variants loaded so far (``turub.variants``), by ID: namespaced
#: (``club.must-trump``), never a standard ID.  Filled by :func:`register` only.
VARIANT_CLAUSES: Final[dict[str, object]] = {}


def register(variant_clauses) -> None:
    """Make a variant's clauses citable (``turub.variants.Variant`` calls this)."""
    for c in variant_clauses:
        if c.id in CLAUSES:
            raise ValueError(f"{c.id!r} is a standard clause: a variant's clause has its own ID")
        VARIANT_CLAUSES[c.id] = c


def is_clause(clause_id: str) -> bool:
    """True if ``clause_id`` is defined in the registry or by a loaded variant."""
    return clause_id in CLAUSES or clause_id in VARIANT_CLAUSES


def clause(clause_id: str) -> Clause:
    """The clause with this ID (a standard one, or a loaded variant's); ``KeyError`` names
    the unknown ID."""
    try:
        return CLAUSES[clause_id]
    except KeyError:
        pass
    try:
        return VARIANT_CLAUSES[clause_id]  # type: ignore[return-value]
    except KeyError:
        raise KeyError(f"no clause {clause_id!r} in the registry") from None


def cite(*clause_ids: str) -> tuple[str, ...]:
    """Validate and return clause IDs, for use in decisions and errors."""
    for cid in clause_ids:
        clause(cid)
    return clause_ids


class Part(NamedTuple):
    """One part of the game: a page of the specification (``spec/PAGE.md``, built as
    ``spec/PAGE.html``), its title, and the ID prefixes of the clauses it holds."""

    page: str
    title: str
    prefixes: tuple[str, ...]


#: The parts of the game in the specification's order, each with its page and title (a test
#: checks them against the pages of ``spec/``).  A clause belongs to the part with the
#: longest prefix of its ID: ``dealer.first-draw`` to the table, ``dealer.after-win`` to the
#: result.
PARTS: Final = (
    Part("pack", "The pack and the cards", ("pack.",)),
    Part("table", "The table and the first dealer", ("table.", "dealer.first-")),
    Part("dealing", "Dealing and the trump call", ("deal.", "trump.")),
    Part("play", "Playing the tricks", ("play.", "trick.")),
    Part("signals", "Signals", ("signal.",)),
    Part("result", "The result of a deal and the next dealer", ("result.", "dealer.")),
    Part("contest", "The contest and the stake", ("contest.", "stake.")),
    Part("score-sheet", "The score sheet", ("sheet.",)),
    Part("advice", "Advice", ("advice.",)),
    Part("context", "Context", ("context.",)),
)


def part_of(clause_id: str) -> Part | None:
    """The part of the game a standard clause belongs to (None: not a standard clause).

    >>> part_of("dealer.first-draw").title
    'The table and the first dealer'
    """
    if clause_id not in CLAUSES:
        return None
    best = max(((len(p), part) for part in PARTS for p in part.prefixes if clause_id.startswith(p)),
               default=None, key=lambda x: x[0])
    return best[1] if best else None


# --- the specification's version and its changelog ---------------------------------------

# The releases are stated once, in turub.releases (their changelog by clause, their case changes).
from .releases import RELEASES, SPEC_DATE, SPEC_VERSION, Release  # noqa: E402

#: Withdrawn clause IDs (tombstones: never reused, still resolve on the changelog page),
#: with the release that withdrew each and why.
WITHDRAWN: Final[dict[str, tuple[str, str]]] = {
    cid: (r.version, why) for r in RELEASES for cid, why in r.withdrawn}
