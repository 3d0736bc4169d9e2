"""Pictures drawn from the engine at build time, as SVG files in the built site.

Nothing is drawn by hand: the winner of a trick is the engine's ``decide_trick``, the seats
and the order of dealing are the engine's ``Deal`` and ``seats_from``, the contest's marks
and outcome are the engine's ``contest_step``.  A change in the engine changes the picture.

```{turub-picture} trick
:cards: A♣ A♣ 6♣ K♣
:trump: ♥
:leader: N
```

Kinds: ``trick`` (``:cards:``, ``:trump:``, ``:leader:``, ``:direction:``), ``seating``
(``:dealer:``, ``:direction:``), ``contest`` (``:results:`` as ``20-16 19-17 22-14``, the
first number North-South's, with ``:sides:`` naming the two sides, e.g. ``A B``),
``deal-sequence`` (``:dealer:``, ``:direction:``: shuffle, cut, packets, the call, 36 tricks),
``rotation`` (``:direction:``: the next dealer after a win, a loss and a draw),
``worked-deal`` (the brief's 17-19 deal) and ``full-deal`` (``:seed:``, ``:dealer:``: a whole
deal of random legal play, trick by trick).

A picture drawn from the engine depends on the engine's files: the page showing it is read
again when they change (``note_dependency``).
"""

from __future__ import annotations

import hashlib
import math
import os
from html import escape

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

FONT = "font-family='DejaVu Sans, Arial, sans-serif'"
RED = "#c0392b"
INK = "#222"
WIN = "#f5b400"


def _card(x: float, y: float, card, label: str = "", winner: bool = False, w: int = 46,
          h: int = 64) -> str:
    colour = RED if card.suit.is_red else INK
    border = f"stroke='{WIN}' stroke-width='4'" if winner else "stroke='#555' stroke-width='1.2'"
    out = [f"<rect x='{x - w / 2}' y='{y - h / 2}' width='{w}' height='{h}' rx='6' fill='white' {border}/>",
           f"<text x='{x}' y='{y + 8}' text-anchor='middle' font-size='20' fill='{colour}' {FONT}>"
           f"{escape(str(card))}</text>"]
    if label:
        out.append(f"<circle cx='{x + w / 2 - 2}' cy='{y - h / 2 + 2}' r='10' fill='#2b5f8a'/>"
                   f"<text x='{x + w / 2 - 2}' y='{y - h / 2 + 6}' text-anchor='middle' font-size='12' "
                   f"fill='white' {FONT}>{label}</text>")
    return "".join(out)


_POS = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}  # N E S W on the page


def _svg(width: int, height: int, body: list[str], title: str) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}' role='img'><title>{escape(title)}</title>"
            f"<rect width='100%' height='100%' fill='#fbfbf8'/>" + "".join(body) + "</svg>")


def trick_svg(cards_text: str, trump_text: str, leader_text: str, direction_text: str) -> tuple[str, str]:
    from turub import Direction, parse_cards, parse_seat, parse_suit, seats_from
    from turub.rules import decide_trick

    cards = parse_cards(cards_text)
    trump = parse_suit(trump_text)
    leader = parse_seat(leader_text)
    direction = Direction.COUNTERCLOCKWISE if direction_text.startswith("counter") else Direction.CLOCKWISE
    decision = decide_trick(cards, trump, leader, direction)
    seats = seats_from(leader, direction)
    W, H, cx, cy = 420, 330, 210, 150
    body = [f"<rect x='{cx - 120}' y='{cy - 100}' width='240' height='200' rx='18' fill='#e3efe3' stroke='#9bb89b'/>"]
    for i, (seat, card) in enumerate(zip(seats, cards)):
        dx, dy = _POS[seat]
        x, y = cx + dx * 62, cy + dy * 52
        body.append(_card(x, y, card, str(i + 1), winner=(i == decision.position)))
        lx, ly = cx + dx * 165, cy + dy * 128 + 5
        body.append(f"<text x='{lx}' y='{ly}' text-anchor='middle' font-size='15' fill='{INK}' {FONT}>"
                    f"{seat}</text>")
    why = ", ".join(decision.clauses)
    body.append(f"<text x='{W / 2}' y='{H - 22}' text-anchor='middle' font-size='14' fill='{INK}' {FONT}>"
                f"{trump.symbol} trump · {leader} leads · {direction} · {decision.seat} wins with "
                f"card {decision.position + 1}</text>")
    body.append(f"<text x='{W / 2}' y='{H - 5}' text-anchor='middle' font-size='12' fill='#555' {FONT}>"
                f"{escape(why)}</text>")
    alt = (f"A trick with {trump.name.lower()} trump led by {leader}: "
           + ", ".join(f"{s} {c}" for s, c in zip(seats, cards))
           + f". {decision.seat} wins with card {decision.position + 1}, {decision.card} ({why}).")
    return _svg(W, H, body, alt), alt


def seating_svg(dealer_text: str, direction_text: str) -> tuple[str, str]:
    from turub import Deal, Direction, Seat, parse_seat, seats_from
    from turub.options import Rules

    dealer = parse_seat(dealer_text)
    direction = Direction.COUNTERCLOCKWISE if direction_text.startswith("counter") else Direction.CLOCKWISE
    deal = Deal.from_seed(0, dealer, Rules(direction=direction))
    caller = deal.caller
    order = seats_from(caller, direction)
    W, H, cx, cy = 560, 400, 280, 200
    body = [f"<rect x='{cx - 70}' y='{cy - 55}' width='140' height='110' rx='16' fill='#e3efe3' stroke='#9bb89b'/>",
            "<defs><marker id='arr' markerWidth='10' markerHeight='10' refX='8' refY='3' orient='auto'>"
            "<path d='M0,0 L8,3 L0,6 z' fill='#2b5f8a'/></marker></defs>"]
    # the direction of play, as an arc of arrows around the table
    r = 100
    step = 1 if direction is Direction.CLOCKWISE else -1
    for k in range(4):
        a0 = math.radians(-90 + 90 * k * step + 18 * step)
        a1 = math.radians(-90 + 90 * (k + 1) * step - 18 * step)
        x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
        x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
        sweep = 1 if step == 1 else 0
        body.append(f"<path d='M{x0:.1f},{y0:.1f} A{r},{r} 0 0 {sweep} {x1:.1f},{y1:.1f}' fill='none' "
                    f"stroke='#2b5f8a' stroke-width='2' marker-end='url(#arr)'/>")
    for seat in Seat:
        dx, dy = _POS[seat]
        x, y = cx + dx * 200, cy + dy * 148 + (8 if dy > 0 else -8 if dy < 0 else 0)
        role = []
        if seat is dealer:
            role.append("dealer")
        if seat is caller:
            role.append("cuts, calls trump, leads")
        packets = [str(1 + i + 4 * j) for j in range(2) for i, s in enumerate(order) if s is seat]
        side = "NS" if seat.side == 0 else "EW"
        body.append(f"<text x='{x}' y='{y - 4}' text-anchor='middle' font-size='16' font-weight='bold' "
                    f"fill='{INK}' {FONT}>{seat} ({side})</text>")
        body.append(f"<text x='{x}' y='{y + 13}' text-anchor='middle' font-size='11' fill='#555' {FONT}>"
                    f"packets {', '.join(packets)}, …</text>")
        if role:
            body.append(f"<text x='{x}' y='{y + 28}' text-anchor='middle' font-size='11' fill='{RED}' "
                        f"{FONT}>{escape('; '.join(role))}</text>")
    body.append(f"<text x='{cx}' y='{cy - 6}' text-anchor='middle' font-size='13' fill='{INK}' {FONT}>"
                f"{direction}</text>")
    body.append(f"<text x='{cx}' y='{cy + 12}' text-anchor='middle' font-size='11' fill='#555' {FONT}>"
                f"pause after packet 1</text>")
    alt = (f"Seating, {direction}: {dealer} deals; {caller}, next in the direction of play, cuts, "
           f"receives packet 1, names trump and leads; packets go {', '.join(map(str, order))} in turn.")
    return _svg(W, H, body, alt), alt


def contest_svg(results_text: str, sides_text: str) -> tuple[str, str]:
    from turub import Side
    from turub.contest import Contest
    from turub.rules import deal_result

    names = (sides_text or "North-South East-West").split()
    name = {Side.NORTH_SOUTH: names[0], Side.EAST_WEST: names[1]}
    results = []
    for item in results_text.split():
        ns, ew = (int(n) for n in item.replace("–", "-").split("-"))
        results.append(deal_result(ns, ew))
    contest = Contest()
    steps = []
    for result in results:
        contest = contest.record(result)
        steps.append((result, contest))
        if contest.is_decided:
            break
    W = 200 * len(steps) + 60
    H = 230
    body = [f"<line x1='30' y1='100' x2='{W - 30}' y2='100' stroke='#999' stroke-width='2'/>"]
    for i, (result, state) in enumerate(steps):
        x = 130 + 200 * i
        ns, ew = result.tricks
        winner = result.winner
        label = "draw" if winner is None else f"{name[winner]} wins"
        fill = "#eeeeee" if winner is None else ("#d6e4f0" if winner is Side.NORTH_SOUTH else "#f0e0d6")
        body.append(f"<rect x='{x - 58}' y='70' width='116' height='60' rx='8' fill='{fill}' stroke='#777'/>")
        body.append(f"<text x='{x}' y='94' text-anchor='middle' font-size='15' fill='{INK}' {FONT}>"
                    f"deal {i + 1}: {ns}–{ew}</text>")
        body.append(f"<text x='{x}' y='115' text-anchor='middle' font-size='13' fill='{INK}' {FONT}>"
                    f"{escape(label)}</text>")
        if state.is_decided:
            after = f"{name[state.winner]} wins the contest"
        elif state.holder is None:
            after = "no sequence yet"
        else:
            after = f"mark: {name[state.holder]} {state.mark}"
        body.append(f"<text x='{x}' y='152' text-anchor='middle' font-size='12' "
                    f"fill='{RED if state.is_decided else INK}' {FONT}>{escape(after)}</text>")
        for j, c in enumerate(state.clauses):
            body.append(f"<text x='{x}' y='{172 + 14 * j}' text-anchor='middle' font-size='10' fill='#555' "
                        f"{FONT}>{escape(c)}</text>")
    body.append(f"<text x='30' y='40' font-size='13' fill='{INK}' {FONT}>first number: {names[0]}'s "
                f"tricks; second: {names[1]}'s</text>")
    alt = "Contest timeline: " + "; ".join(
        f"deal {i + 1} {r.tricks[0]}–{r.tricks[1]} ({', '.join(s.clauses)})" for i, (r, s) in enumerate(steps))
    return _svg(W, H, body, alt), alt


def _text(x: float, y: float, text: str, size: int = 13, fill: str = INK, anchor: str = "middle",
          weight: str = "normal") -> str:
    return (f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' font-size='{size}' "
            f"font-weight='{weight}' fill='{fill}' {FONT}>{escape(text)}</text>")


def _direction(text: str):
    from turub import Direction

    return Direction.COUNTERCLOCKWISE if text.startswith("counter") else Direction.CLOCKWISE


def deal_sequence_svg(dealer_text: str, direction_text: str) -> tuple[str, str]:
    """The steps of one deal, each read off a real deal of the engine."""
    from turub import Deal, Seat, Suit, parse_seat
    from turub.options import Rules

    dealer = parse_seat(dealer_text)
    direction = _direction(direction_text)
    deal = Deal.from_seed(0, dealer, Rules(direction=direction))
    cutter = getattr(deal, "cutter", None)
    caller = deal.caller
    first_packet = len(deal.view(caller).hand)
    waiting = len(deal.stock)
    others = sum(len(deal.view(s).hand) for s in Seat if s is not caller)
    deal.name_trump(caller, Suit.HEARTS)
    full = [len(deal.view(s).hand) for s in Seat]
    steps = [
        ("1. shuffle", f"{dealer} shuffles", f"{len(deal.pack)} cards"),
        ("2. cut", f"{cutter} cuts" if cutter else "the next seat cuts", "deal.cut"),
        ("3. first packet", f"{caller} gets {first_packet}", f"others {others}, {waiting} wait"),
        ("4. the call", f"{caller} names trump", "from 3 cards"),
        ("5. packets of 3", f"{' '.join(str(n) for n in full)} each", f"{dealer} checks last 3"),
        ("6. 36 tricks", f"{caller} leads first", "winner leads next"),
    ]
    W, H = 780, 150
    body = []
    box_w, gap = 118, 12
    for i, (head, line1, line2) in enumerate(steps):
        x = 10 + i * (box_w + gap)
        body.append(f"<rect x='{x}' y='30' width='{box_w}' height='92' rx='8' fill='#eef4fa' "
                    f"stroke='#2b5f8a'/>")
        body.append(_text(x + box_w / 2, 52, head, 13, INK, weight="bold"))
        body.append(_text(x + box_w / 2, 78, line1, 12))
        body.append(_text(x + box_w / 2, 98, line2, 11, "#555"))
        if i < len(steps) - 1:
            ax = x + box_w
            body.append(f"<path d='M{ax + 1},76 L{ax + gap - 1},76' stroke='#2b5f8a' stroke-width='2'/>")
    body.append(_text(W / 2, 18, f"One deal, {direction}: {dealer} deals", 13, INK))
    body.append(_text(W / 2, 142, "each step read from the engine's Deal; counts are cards", 11, "#555"))
    alt = (f"The deal in six steps, {direction}: {dealer} shuffles {len(deal.pack)} cards; "
           f"{cutter or 'the next seat'} cuts; {caller} receives the first packet of "
           f"{first_packet} and names trump from those cards while {waiting} wait; dealing "
           f"resumes in packets of three until each holds {full[0]}, the dealer checking the "
           f"last packet; then 36 tricks, {caller} leading first.")
    return _svg(W, H, body, alt), alt


def rotation_svg(direction_text: str) -> tuple[str, str]:
    """Who deals next after the dealer's side wins, loses and draws: the engine's next_dealer."""
    from turub import Seat
    from turub.options import Rules
    from turub.rules import next_dealer

    direction = _direction(direction_text)
    rules = Rules(direction=direction)
    dealer = Seat.NORTH
    cases = [("dealer's side wins", dealer.side), ("dealer's side loses", 1 - dealer.side),
             ("draw (18-18)", None)]
    from turub import Side

    W, H = 780, 280
    body = [_text(W / 2, 20, f"Who deals next, {direction}: North dealt", 14, INK, weight="bold")]
    alt_parts = []
    for i, (label, winner) in enumerate(cases):
        side = None if winner is None else Side(winner)
        nxt = next_dealer(dealer, side, rules)
        cx, cy = 130 + i * 260, 140
        body.append(f"<rect x='{cx - 60}' y='{cy - 45}' width='120' height='90' rx='14' fill='#e3efe3' "
                    f"stroke='#9bb89b'/>")
        for seat in Seat:
            dx, dy = _POS[seat]
            x, y = cx + dx * 92, cy + dy * 68 + 5
            is_next = seat is nxt.seat
            is_dealer = seat is dealer
            if is_next:
                body.append(f"<circle cx='{x}' cy='{y - 5}' r='17' fill='{WIN}' opacity='0.8'/>")
            body.append(_text(x, y, seat.letter, 15, INK, weight="bold" if is_dealer else "normal"))
        body.append(_text(cx, cy - 4, label, 11, INK))
        body.append(_text(cx, cy + 13, f"next: {nxt.seat}", 12, RED))
        body.append(_text(cx, cy + 112, ", ".join(nxt.clauses), 11, "#555"))
        alt_parts.append(f"{label}: {nxt.seat} deals ({', '.join(nxt.clauses)})")
    alt = f"Who deals after North's deal, {direction}: " + "; ".join(alt_parts) + "."
    return _svg(W, H, body, alt), alt


def worked_deal_svg() -> tuple[str, str]:
    """The brief's worked deal: 14-4 at the halfway mark, then East-West take over; 17-19."""
    from turub import deal_result

    # The brief's story as stretches of tricks: (tricks, to North-South, to East-West).
    stretches = [(18, 14, 4), (10, 1, 9), (8, 2, 6)]
    ns = ew = 0
    points = [(0, 0, 0)]
    played = 0
    for count, to_ns, to_ew in stretches:
        # within a stretch, tricks are spread evenly (the brief gives only the counts)
        for k in range(1, count + 1):
            points.append((played + k, ns + round(to_ns * k / count), ew + round(to_ew * k / count)))
        played += count
        ns, ew = ns + to_ns, ew + to_ew
    result = deal_result(ns, ew)
    W, H, x0, y0, sx, sy = 780, 320, 50, 250, 17, 10
    body = [f"<line x1='{x0}' y1='{y0}' x2='{x0 + 36 * sx}' y2='{y0}' stroke='#999'/>",
            f"<line x1='{x0}' y1='{y0}' x2='{x0}' y2='{y0 - 20 * sy}' stroke='#999'/>",
            f"<line x1='{x0}' y1='{y0 - 18 * sy}' x2='{x0 + 36 * sx}' y2='{y0 - 18 * sy}' "
            f"stroke='#bbb' stroke-dasharray='4 3'/>",
            _text(x0 - 8, y0 - 18 * sy + 4, "18", 11, "#555", "end")]
    for side, colour, idx in (("North-South", "#2b5f8a", 1), ("East-West", RED, 2)):
        path = " ".join(f"{x0 + p[0] * sx:.0f},{y0 - p[idx] * sy:.0f}" for p in points)
        body.append(f"<polyline points='{path}' fill='none' stroke='{colour}' stroke-width='2.5'/>")
        last = points[-1]
        body.append(_text(x0 + 36 * sx + 6, y0 - last[idx] * sy + (8 if idx == 1 else 0),
                          f"{side} {last[idx]}", 12, colour, "start"))
    start = 0
    for count, to_ns, to_ew in stretches:
        a, b = x0 + start * sx, x0 + (start + count) * sx
        body.append(f"<path d='M{a + 2},{y0 + 8} L{a + 2},{y0 + 14} L{b - 2},{y0 + 14} L{b - 2},{y0 + 8}' "
                    f"fill='none' stroke='#555'/>")
        body.append(_text((a + b) / 2, y0 + 32, f"tricks {start + 1}–{start + count}", 11, "#555"))
        body.append(_text((a + b) / 2, y0 + 50, f"{to_ns}–{to_ew}", 13, INK, weight="bold"))
        start += count
    body.append(_text(W / 2, 18, f"The brief's worked deal: {result}", 14, INK, weight="bold"))
    alt = (f"The brief's worked deal: North-South lead 14-4 after 18 tricks, East-West take 9 "
           f"of the next 10 and 6 of the last 8; the engine's result: {result}.")
    return _svg(W, H, body, alt), alt


def full_deal_svg(seed: int, dealer_text: str) -> tuple[str, str]:
    """One whole deal of random legal play from the engine, trick by trick."""
    from turub import parse_seat
    from turub.deal import play_random_deal

    deal = play_random_deal(seed, parse_seat(dealer_text))
    tricks = deal.tricks
    row_h, top = 21, 66
    W, H = 780, top + row_h * len(tricks) + 40
    cols = [28, 62, 115, 180, 245, 310, 370, 425, 470]
    heads = ["#", "leads", "1st", "2nd", "3rd", "4th", "won by", "score", "decided by"]
    body = [_text(W / 2, 18, f"A whole deal (seed {seed}): {deal.dealer} deals, {deal.caller} "
                  f"names {deal.trump.name.lower()}, random legal play", 13, INK, weight="bold")]
    for x, h in zip(cols, heads):
        body.append(_text(x, top - 22, h, 11, "#555", "start" if h == "decided by" else "middle"))
    won = [0, 0]
    for i, t in enumerate(tricks):
        y = top + i * row_h
        if i % 2 == 0:
            body.append(f"<rect x='10' y='{y - 14}' width='{W - 20}' height='{row_h}' fill='#f1f1ec'/>")
        won[t.winner.side] += 1
        body.append(_text(cols[0], y, str(i + 1), 11))
        body.append(_text(cols[1], y, t.leader.letter, 12))
        for k, card in enumerate(t.cards):
            colour = RED if card.suit.is_red else INK
            mark = k == t.decision.position
            if mark:
                body.append(f"<rect x='{cols[2 + k] - 28}' y='{y - 14}' width='56' height='19' rx='4' "
                            f"fill='none' stroke='{WIN}' stroke-width='2.5'/>")
            body.append(_text(cols[2 + k], y, f"{t.seats[k].letter} {card}", 12, colour))
        body.append(_text(cols[6], y, t.winner.letter, 12, INK, weight="bold"))
        body.append(_text(cols[7], y, f"{won[0]}–{won[1]}", 12))
        body.append(_text(cols[8], y, ", ".join(t.decision.clauses), 10, "#555", "start"))
    body.append(_text(W / 2, H - 14, f"Result: {deal.result} (score: North-South first)", 13, INK,
                      weight="bold"))
    alt = (f"A whole deal of random legal play, seed {seed}: {deal.dealer} deals, trump "
           f"{deal.trump.name.lower()}; " + "; ".join(
               f"trick {i + 1} led by {t.leader.letter}: {' '.join(map(str, t.cards))}, "
               f"won by {t.winner.letter}" for i, t in enumerate(tricks)) + f". {deal.result}.")
    return _svg(W, H, body, alt), alt


class picture(nodes.General, nodes.Element):
    """An SVG drawn at build time; written to ``_pictures/`` by the HTML writer."""


def visit_picture_html(self, node: picture) -> None:
    outdir = os.path.join(self.builder.outdir, "_pictures")
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, node["filename"])
    with open(path, "w", encoding="utf-8") as f:
        f.write(node["svg"])
    here = os.path.dirname(os.path.join(self.builder.outdir, self.builder.current_docname))
    src = os.path.relpath(path, here).replace(os.sep, "/")
    self.body.append(f"<figure class='turub-picture'><img src='{escape(src)}' alt='{escape(node['alt'])}'/>"
                     f"<figcaption>{escape(node['caption'])}</figcaption></figure>")
    raise nodes.SkipNode


def visit_picture_other(self, node: picture) -> None:
    raise nodes.SkipNode


def _engine_files():
    from pathlib import Path

    import turub

    return sorted(Path(turub.__file__).parent.glob("*.py"))


class PictureDirective(SphinxDirective):
    required_arguments = 1
    option_spec = {
        "cards": directives.unchanged, "trump": directives.unchanged,
        "leader": directives.unchanged, "direction": directives.unchanged,
        "dealer": directives.unchanged, "results": directives.unchanged,
        "sides": directives.unchanged, "caption": directives.unchanged,
        "seed": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        kind = self.arguments[0]
        o = self.options
        try:
            if kind == "trick":
                svg, alt = trick_svg(o["cards"], o.get("trump", "♥"), o.get("leader", "N"),
                                     o.get("direction", "clockwise"))
            elif kind == "seating":
                svg, alt = seating_svg(o.get("dealer", "N"), o.get("direction", "clockwise"))
            elif kind == "contest":
                svg, alt = contest_svg(o["results"], o.get("sides", ""))
            elif kind == "deal-sequence":
                svg, alt = deal_sequence_svg(o.get("dealer", "N"), o.get("direction", "clockwise"))
            elif kind == "rotation":
                svg, alt = rotation_svg(o.get("direction", "clockwise"))
            elif kind == "worked-deal":
                svg, alt = worked_deal_svg()
            elif kind == "full-deal":
                svg, alt = full_deal_svg(o.get("seed", 1), o.get("dealer", "N"))
            else:
                raise ValueError(f"unknown picture kind {kind!r}: trick, seating, contest, "
                                 "deal-sequence, rotation, worked-deal or full-deal")
        except Exception as e:  # a bad option or an engine refusal: report it where it is written
            return [self.state.document.reporter.warning(f"turub-picture: {e}", line=self.lineno)]
        for path in _engine_files():
            self.env.note_dependency(str(path))
        digest = hashlib.sha256(svg.encode()).hexdigest()[:12]
        node = picture(svg=svg, alt=alt, caption=o.get("caption", alt),
                       filename=f"{kind}-{digest}.svg")
        return [node]


def setup(app) -> dict:
    app.add_node(picture, html=(visit_picture_html, None), latex=(visit_picture_other, None),
                 text=(visit_picture_other, None))
    app.add_directive("turub-picture", PictureDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
