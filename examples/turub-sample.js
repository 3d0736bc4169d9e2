#!/usr/bin/env node
// A small implementation of Arba'a Turub in JavaScript, speaking the conformance kit's
// JSON-lines protocol (spec/protocol.schema.json).  Node.js 20, no dependencies.
//
//   turub check -- node examples/turub-sample.js
//
// Written from the rules (the spec pages), not translated from the reference engine: it is
// the proof that the protocol is language-neutral and that the kit is usable from outside
// Python.  One request per line on stdin, one answer per line on stdout; nothing else is
// ever written to stdout.
"use strict";

const PROTOCOLS = [1, 2]; // the versions this program speaks
const SEATS = ["N", "E", "S", "W"];
const SUIT_LETTERS = "SHDC";
const SUIT_TEXT = { "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3,
                    S: 0, H: 1, D: 2, C: 3 };
const SUIT_NAMES = ["SPADES", "HEARTS", "DIAMONDS", "CLUBS"];
const RANK_TEXT = { A: 14, K: 13, Q: 12, J: 11, "10": 10, T: 10, "9": 9, "8": 8, "7": 7, "6": 6 };
const RANK_NAME = { 14: "A", 13: "K", 12: "Q", 11: "J", 10: "10", 9: "9", 8: "8", 7: "7", 6: "6" };
const SIGNALS = new Set(["knock", "click"]);  // the documented signals (signal.kinds)
const TRICKS = 36;

// A refusal names the clause the action breaks.
class Refusal extends Error {
  constructor(clause, message) { super(message || clause); this.clause = clause; }
}

// --- values -----------------------------------------------------------------------------

// pack.card-notation: rank then suit, "A♣", "10H", "th".
function parseCard(text) {
  if (typeof text !== "string") throw new Refusal("pack.card-notation");
  const t = text.trim().toUpperCase();
  const chars = Array.from(t);
  const suit = SUIT_TEXT[chars[chars.length - 1]];
  const rank = RANK_TEXT[chars.slice(0, -1).join("")];
  if (suit === undefined || rank === undefined) throw new Refusal("pack.card-notation");
  return suit * 9 + (14 - rank); // 0..35, suit-major, highest rank first
}
const suitOf = (c) => Math.floor(c / 9);
const rankOf = (c) => 14 - (c % 9);
const cardName = (c) => RANK_NAME[rankOf(c)] + SUIT_LETTERS[suitOf(c)];

function parseSuit(text) {
  if (typeof text === "string") {
    const t = text.trim().toUpperCase();
    if (t in SUIT_TEXT) return SUIT_TEXT[t];
    for (let s = 0; s < 4; s++) if (t === SUIT_NAMES[s] || t === SUIT_NAMES[s].slice(0, -1)) return s;
  }
  throw new Refusal("pack.card-notation");
}

// table.partnerships: a seat is one of the letters N E S W, written just so.
function parseSeat(text) {
  const i = typeof text === "string" && text.length === 1 ? SEATS.indexOf(text) : -1;
  if (i >= 0) return i;
  throw new Refusal("table.partnerships");
}

// table.direction: clockwise is N E S W.
const step = (rules) => ((rules && rules.direction) === "counterclockwise" ? 3 : 1);
const nextSeat = (seat, rules) => (seat + step(rules)) % 4;
const sideOf = (seat) => seat % 2; // 0 north-south, 1 east-west
const SIDE_NAMES = ["NS", "EW"];

// --- pure rules --------------------------------------------------------------------------

// trick.highest-trump, trick.highest-led, trick.earliest-identical: a later card takes the
// trick only if strictly higher in the suit of the best so far, or a trump over a non-trump.
function trickWinner(cards, trump) {
  let best = cards[0], at = 0;
  for (let i = 1; i < cards.length; i++) {
    const c = cards[i];
    if (suitOf(c) === suitOf(best)) { if (rankOf(c) > rankOf(best)) { best = c; at = i; } }
    else if (suitOf(c) === trump) { best = c; at = i; }
  }
  return at;
}

// play.follow-suit, play.void-any-card.
function legalPlays(hand, led) {
  const distinct = [...new Set(hand)];
  if (led === null) return distinct;
  const following = distinct.filter((c) => suitOf(c) === led);
  return following.length ? following : distinct;
}

function checkPack(pack) {
  if (!Array.isArray(pack) || pack.length !== 144) throw new Refusal("pack.composition");
  const cards = pack.map(parseCard);
  const counts = new Array(36).fill(0);
  for (const c of cards) counts[c]++;
  if (counts.some((n) => n !== 4)) throw new Refusal("pack.composition");
  return cards;
}

// deal.cut, deal.packets, deal.pause-for-trump, deal.full-hands, trump.caller.
function dealOut(pack, dealer, cut, rules) {
  const cards = checkPack(pack);
  if (!Number.isInteger(cut) || cut < 0 || cut >= 144) throw new Refusal("deal.cut");
  const stock = cards.slice(cut).concat(cards.slice(0, cut));
  const caller = nextSeat(dealer, rules);
  const hands = [[], [], [], []];
  let seat = caller;
  for (let p = 0; p < 48; p++) {
    hands[seat].push(...stock.slice(3 * p, 3 * p + 3));
    seat = nextSeat(seat, rules);
  }
  return { caller, saw: stock.slice(0, 3), hands };
}

// result.*: more tricks wins, 18-18 draws, a deal closed early is a draw; under
// early-close=known-result a deal closed with a side already past 18 tricks is its win.
function dealResult(ns, ew, closed, rules) {
  const ok = (n) => Number.isInteger(n) && n >= 0;
  if (!ok(ns) || !ok(ew)) throw new Refusal("result.tricks-add-up");
  if (closed && ns + ew >= TRICKS) throw new Refusal("result.tricks-add-up");
  if (!closed && ns + ew !== TRICKS) throw new Refusal("result.tricks-add-up");
  const known = (rules && rules["early-close"]) === "known-result" && Math.max(ns, ew) > TRICKS / 2;
  if ((closed && !known) || ns === ew) return null;
  return ns > ew ? 0 : 1;
}

// --- the deal as a state machine, for the referee ------------------------------------------

class Deal {
  constructor(pack, dealer, cut, rules) {
    const d = dealOut(pack, dealer, cut, rules);
    this.rules = rules;
    this.caller = d.caller;
    this.full = d.hands;                       // dealt in full once trump is named
    this.hands = [[], [], [], []];
    this.hands[this.caller] = d.saw.slice();
    this.phase = "calling";
    this.trump = null;
    this.toAct = this.caller;
    this.leader = this.caller;
    this.trick = [];
    this.signalled = false;
    this.winners = [];
    this.won = [0, 0];
    this.outcome = null;
  }

  nameTrump(seat, suitText) {
    if (this.phase !== "calling") throw new Refusal(this.trump !== null ? "trump.once" : "play.order-of-actions");
    if (seat !== this.caller) throw new Refusal("trump.caller");
    // trump.any-suit: one of the four suits by its letter S H D C, nothing else (no no-trump call)
    const trump = typeof suitText === "string" && suitText.length === 1 ? "SHDC".indexOf(suitText) : -1;
    if (trump < 0) throw new Refusal("trump.any-suit");
    this.trump = trump;
    this.hands = this.full.map((h) => h.slice());
    this.phase = "playing";
    this.toAct = this.caller;
  }

  play(seat, cardText) {
    if (this.phase !== "playing") throw new Refusal("play.order-of-actions");
    if (seat !== this.toAct) throw new Refusal("play.turn");
    const card = parseCard(cardText);
    const hand = this.hands[seat];
    const at = hand.indexOf(card);
    if (at < 0) throw new Refusal("play.card-in-hand");
    if (this.trick.length) {
      const led = suitOf(this.trick[0]);
      if (suitOf(card) !== led && hand.some((c) => suitOf(c) === led)) throw new Refusal("play.follow-suit");
    }
    hand.splice(at, 1);
    this.trick.push(card);
    if (this.trick.length < 4) { this.toAct = nextSeat(seat, this.rules); return; }
    let winner = this.leader;
    for (let k = 0; k < trickWinner(this.trick, this.trump); k++) winner = nextSeat(winner, this.rules);
    this.winners.push(winner);
    this.won[sideOf(winner)]++;
    this.trick = [];
    this.signalled = false;
    this.leader = this.toAct = winner;                    // play.winner-leads
    if (this.winners.length === TRICKS) this.finish(dealResult(this.won[0], this.won[1], false));
  }

  signal(seat, kind) {
    if (this.phase !== "playing") throw new Refusal("play.order-of-actions");
    // signal.kinds: any kind named by a non-empty word; only the knock and the click under
    // signal-kinds=documented.
    const documentedOnly = (this.rules && this.rules["signal-kinds"]) === "documented";
    if (typeof kind !== "string" || kind.trim() === "" || (documentedOnly && !SIGNALS.has(kind))) {
      throw new Refusal("signal.kinds");
    }
    if (seat !== this.leader) throw new Refusal("signal.leader-only");
    if (this.trick.length !== 1) throw new Refusal("signal.timing");
    if (this.signalled) throw new Refusal("signal.once-per-trick");
    this.signalled = true;
  }

  close() {
    if (this.phase === "finished") throw new Refusal("play.order-of-actions");
    this.finish(dealResult(this.won[0], this.won[1], true, this.rules));  // result.closed-early
  }

  finish(winnerSide) {
    this.phase = "finished";
    this.toAct = null;
    this.outcome = winnerSide === null ? "draw" : SIDE_NAMES[winnerSide];
  }

  apply(action) {
    if (action === null || typeof action !== "object" || Array.isArray(action)) throw new Refusal("play.order-of-actions");
    const need = (key) => { if (!(key in action)) throw new Refusal("play.order-of-actions"); return action[key]; };
    switch (action.act) {
      case "trump": { const seat = parseSeat(need("seat")); return this.nameTrump(seat, need("suit")); }
      case "play": { const seat = parseSeat(need("seat")); return this.play(seat, need("card")); }
      case "signal": { const seat = parseSeat(need("seat")); return this.signal(seat, need("signal")); }
      case "close": { parseSeat(need("seat")); return this.close(); }
      default: throw new Refusal("play.order-of-actions");
    }
  }
}

// --- the operations ------------------------------------------------------------------------

const OPS = {
  trick_winner({ cards, trump }) {
    return trickWinner(cards.map(parseCard), parseSuit(trump));
  },

  // protocol 2 also sends `trump`: it changes nothing here (play.no-forced-trump: no duty to trump)
  legal_plays({ hand, trick }) {
    const led = trick.length ? suitOf(parseCard(trick[0])) : null;
    return legalPlays(hand.map(parseCard), led).map(cardName);
  },

  deal({ pack, dealer, cut, rules }) {
    const d = dealOut(pack, parseSeat(dealer), cut, rules);
    const hands = {};
    SEATS.forEach((s, i) => { hands[s] = d.hands[i].map(cardName); });
    return { caller: SEATS[d.caller], caller_saw: d.saw.map(cardName), hands };
  },

  // deal.dealer-check: the dealer's last packet must hold three cards, else deal.redeal.
  check_packets({ packets, dealer }) {
    // deal.dealer-check: every packet is judged: 48 packets of three, round and round the
    // table in one order, the first round ending with the dealer's own packet.
    const d = parseSeat(dealer);
    const seats = packets.map(([seat]) => parseSeat(seat));
    const sizes = packets.map(([, n]) => (Array.isArray(n) ? n.length : n));
    const stands = packets.length === 48 && sizes.every((n) => n === 3) && seats[3] === d &&
      seats.every((s, k) => s === (d + (k % 4) + 1) % 4); // deal.packets: clockwise from the dealer's left
    return { stands };
  },

  referee({ pack, dealer, cut, rules, actions }) {
    const deal = new Deal(pack, parseSeat(dealer), cut, rules);
    const responses = actions.map((a) => {
      try { deal.apply(a); return { ok: true }; }
      catch (e) { if (e instanceof Refusal) return { refused: e.clause }; throw e; }
    });
    return { responses, winners: deal.winners.map((s) => SEATS[s]), tricks: deal.won.slice(), outcome: deal.outcome };
  },

  // protocol 2 also sends `dealer`: it changes nothing (result.draw-18: 18-18 is a draw, whoever dealt)
  deal_result({ ns, ew, closed_early }) {
    try {
      const w = dealResult(ns, ew, closed_early);
      return { outcome: w === null ? "draw" : SIDE_NAMES[w] };
    } catch (e) { if (e instanceof Refusal) return { refused: e.clause }; throw e; }
  },

  // dealer.after-draw, dealer.after-loss, dealer.after-win (opponent-dealer option).
  next_dealer({ dealer, outcome, rules }) {
    const d = parseSeat(dealer);
    if (outcome === "draw") return SEATS[d];
    if (outcome !== SIDE_NAMES[sideOf(d)]) return SEATS[(d + 2) % 4];
    const next = nextSeat(d, rules);
    return SEATS[rules && rules["opponent-dealer"] === "previous" ? (next + 2) % 4 : next];
  },

  // dealer.first-draw, dealer.first-draw-ties, pack.suits-equal.
  first_dealer({ rounds }) {
    try {
      let contenders = [0, 1, 2, 3];
      for (const round of rounds) {
        const shown = new Map();
        for (const [s, c] of Object.entries(round)) shown.set(parseSeat(s), rankOf(parseCard(c)));
        const keys = [...shown.keys()].sort();
        if (keys.length !== contenders.length || keys.some((k, i) => k !== contenders[i])) throw new Refusal("dealer.first-draw-ties");
        const top = Math.max(...shown.values());
        contenders = keys.filter((k) => shown.get(k) === top);
        if (contenders.length === 1) {
          // nobody draws once the draw is decided: a later round is refused
          if (round !== rounds[rounds.length - 1]) throw new Refusal("dealer.first-draw-ties");
          return { dealer: SEATS[contenders[0]] };
        }
      }
      throw new Refusal("dealer.first-draw-ties");
    } catch (e) { if (e instanceof Refusal) return { refused: e.clause }; throw e; }
  },

  // contest.*: two wins with no loss between, the second beating the first's tricks (the mark).
  // protocol 2 also sends `dealer` (who dealt the first deal): the contest does not depend on it
  contest({ results, rules }) {
    let holder = null, mark = null, winner = null;
    const perDeal = rules && rules.stake === "per-deal";
    return results.map(([ns, ew, closed]) => {
      let side;
      try { side = dealResult(ns, ew, Boolean(closed), rules); }
      catch (e) { if (e instanceof Refusal) return { refused: e.clause }; throw e; }
      // contest.decided-is-final: a decided contest takes no more results; the next result
      // opens a new contest.  stake=per-deal: each won deal settles a stake, no sequence, no mark.
      if (winner !== null || perDeal) { holder = null; mark = null; winner = null; }
      if (side !== null) {
        const tricks = side === 0 ? ns : ew;
        const name = SIDE_NAMES[side];
        if (perDeal) { winner = name; }
        else if (holder !== name) { holder = name; mark = tricks; }
        else if (tricks > mark) { winner = name; }
      }
      return { holder, mark, winner };
    });
  },
};

// --- the protocol loop ------------------------------------------------------------------------

function answer(request) {
  const { id, op, args } = request;
  if (op === "hello") {
    // Protocol 2 when the kit offers it: the context a rule needs comes with the request
    // (trump for legal_plays, dealer for deal_result and contest, the variant's name).
    const offered = (args && Array.isArray(args.protocols)) ? args.protocols : [args && args.protocol];
    const protocol = Math.max(...PROTOCOLS.filter((v) => offered.includes(v)), 1);
    return { id, result: { protocol, name: "turub-sample-js", version: "2.0.0",
      operations: Object.keys(OPS),
      rules: { direction: ["clockwise", "counterclockwise"], stake: ["contest", "per-deal"],
               "opponent-dealer": ["next", "previous"], "signal-kinds": ["any", "documented"],
               "early-close": ["draw", "known-result"] } } };
  }
  if (op === "bye") return { id, result: null };
  if (!Object.prototype.hasOwnProperty.call(OPS, op)) {
    return { id, error: { message: `unknown operation ${op}`, unsupported: true } };
  }
  try {
    return { id, result: OPS[op](args || {}) };
  } catch (e) {
    return { id, error: { message: e instanceof Refusal ? `refused: ${e.clause}` : String(e && e.stack || e) } };
  }
}

let pending = "";
let closing = false;
process.stdin.on("data", (chunk) => {
  pending += chunk.toString("utf8");
  const lines = pending.split("\n");
  pending = lines.pop();
  const out = [];
  for (const line of lines) {
    if (!line.trim() || closing) continue;
    let request;
    try { request = JSON.parse(line); } catch (e) { process.stderr.write(`not JSON: ${line.slice(0, 80)}\n`); continue; }
    out.push(JSON.stringify(answer(request)));
    if (request.op === "bye") closing = true;
  }
  if (out.length) process.stdout.write(out.join("\n") + "\n");
  if (closing) process.stdin.destroy();
});
process.stdin.on("end", () => {});
