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
(``:dealer:``, ``:direction:``) and ``contest`` (``:results:`` as ``20-16 19-17 22-14``, the
first number North-South's, with ``:sides:`` naming the two sides, e.g. ``A B``).
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


class PictureDirective(SphinxDirective):
    required_arguments = 1
    option_spec = {
        "cards": directives.unchanged, "trump": directives.unchanged,
        "leader": directives.unchanged, "direction": directives.unchanged,
        "dealer": directives.unchanged, "results": directives.unchanged,
        "sides": directives.unchanged, "caption": directives.unchanged,
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
            else:
                raise ValueError(f"unknown picture kind {kind!r}: trick, seating or contest")
        except Exception as e:  # a bad option or an engine refusal: report it where it is written
            return [self.state.document.reporter.warning(f"turub-picture: {e}", line=self.lineno)]
        digest = hashlib.sha256(svg.encode()).hexdigest()[:12]
        node = picture(svg=svg, alt=alt, caption=o.get("caption", alt),
                       filename=f"{kind}-{digest}.svg")
        return [node]


def setup(app) -> dict:
    app.add_node(picture, html=(visit_picture_html, None), latex=(visit_picture_other, None),
                 text=(visit_picture_other, None))
    app.add_directive("turub-picture", PictureDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
