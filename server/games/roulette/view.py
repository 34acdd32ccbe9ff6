"""What roulette looks like to one viewer: facts as lines, the table as a board.

Facts about a player's own money (accepted, refused, taken down, the
settlement) go to that player alone; the round (bets open, last call, no more
bets, the number called) goes to everyone at the table, watchers too. The
number is said in words, as a croupier calls it, and painted on its colour
where the client has colour. Every line fits the viewer's width: the board
lies across in 57 columns, or stands up in 31 for a narrower client.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from server.games.seam import Viewer, Views
from server.render.text import paint, sentence
from server.render.width import fit

from . import board
from .events import (
    BallDropped, BetAccepted, BetCancelled, BetRefused, BetRemoved, BetsOpen, BetsRide, LastCall,
    BetsSummary, Line, NoMoreBets, Outcome, Settlement, SpinRefused, UnbetRefused, Wager, WheelClosed,
)
from .kinds import KINDS, Kind
from .layout import RED, colour
from .rounds import Phase
from .snapshot import TableSnapshot

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_OUTSIDE = {Kind.RED: "red", Kind.BLACK: "black", Kind.ODD: "odd", Kind.EVEN: "even",
            Kind.LOW: "low", Kind.HIGH: "high"}


def _sentence(reason: str) -> str:
    return reason if reason.endswith((".", "!", "?")) else reason + "."


def pocket(n: int, color: bool) -> str:
    """A called number as the viewer sees it: on its colour, or with `*` when red."""
    if color:
        return f"\x1b[{board.STYLES[colour(n).value]}m {n} \x1b[0m"
    return f"{n}*" if n in RED else str(n)


# --- events ------------------------------------------------------------------
def event_lines(snap: TableSnapshot, event: object, viewer: Viewer) -> list[str]:
    c, me = viewer.prefs.color, viewer.key
    if isinstance(event, BetAccepted):
        w = event.wager
        if w.player != me or not snap.on_layout(w.handle):
            return []                      # not yours, or its hold was refused meanwhile
        return ([sentence(event.note)] if event.note else []) + [f"Bet accepted: {w.name} {w.bet.amount}."]
    if isinstance(event, (BetRefused, UnbetRefused, SpinRefused)):
        return [f"Refused: {_sentence(event.reason)}"] if event.player == me else []
    if isinstance(event, BetRemoved):
        w = event.wager
        return [f"Taken down: {w.name}, {w.bet.amount} back to your wallet."] if w.player == me else []
    if isinstance(event, BetCancelled):
        w = event.wager
        return [f"Wager refused: {w.name} {w.bet.amount} is off ({event.reason})."] if w.player == me else []
    if isinstance(event, BetsOpen):
        return [f"Place your bets: no more bets in {_secs(event.seconds)}."]
    if isinstance(event, LastCall):
        return [paint(f"Last call! {_secs(event.seconds)} to place your bets.", "bright_yellow", color=c)]
    if isinstance(event, NoMoreBets):
        then = f" The ball drops in {_secs(event.seconds)}." if event.seconds else ""
        return [paint("No more bets!", "bold", color=c) + " The ball is spinning." + then]
    if isinstance(event, BallDropped):
        number, rest = str(event.pocket), event.call[len(str(event.pocket)):]
        painted = c and not viewer.prefs.screenreader      # the colour is said in words anyway
        said = f"{pocket(event.pocket, c)}{paint(rest, 'bold', color=c)}" if painted else number + rest
        return [f"Spin {event.spin}: {said}."]
    if isinstance(event, Settlement):
        return [settlement_line(event, c)] if event.player == me else []      # one line, as at craps
    if isinstance(event, BetsRide):
        if event.player == me:
            return []
        n = len(event.wagers)
        how = "has gone" if event.disconnected else "left"
        return [f"{event.player} {how}; their {n} bet{'s' if n != 1 else ''} ride{'s' if n == 1 else ''} "
                "on the next spin."]
    if isinstance(event, WheelClosed):
        mine = [w for w in event.refunded if w.player == me]
        if not mine:
            return []
        return [f"Refunded to your wallet: {', '.join(f'{w.name} {w.bet.amount}' for w in mine)}."]
    if isinstance(event, BetsSummary):
        return [bets_line(snap.bets_of(me))] if event.player == me else []
    return []


def event_data(snap: TableSnapshot, event: object) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    """A fact as GMCP data (docs/gmcp.md): the number to everyone, a settlement to its player."""
    if isinstance(event, BallDropped):
        return [("Casino.Spin", {"spin": event.spin, "pocket": event.pocket, "colour": event.colour.value,
                                 "call": event.call}, None)]
    if isinstance(event, Settlement):
        return [("Casino.Settlement", {
            "player": event.player, "spin": event.spin, "pocket": event.pocket,
            "won": [{"bet": ln.wager.name, "amount": ln.net} for ln in event.won],
            "lost": [{"bet": ln.wager.name, "amount": -ln.net} for ln in event.lost],
            "net": event.net}, (event.player,))]
    return []


def table_data(snap: TableSnapshot) -> dict[str, object]:
    """What roulette adds to Casino.Table: the spin coming, its clock, the last numbers."""
    return {"spin": snap.spins + 1, "seconds_left": snap.seconds_left, "history": list(snap.history),
            "bets_on_layout": len(snap.wagers)}


def _secs(seconds: float) -> str:
    n = f"{seconds:g}"
    return f"{n} second" if n == "1" else f"{n} seconds"


def settlement_line(s: Settlement, color: bool) -> str:
    """One player's whole spin: what won, what lost and the net.

    It says nothing of the wallet: the line is shown as the spin is settled,
    before the ledger has written it, and if that write fails the player
    reads "pending recovery", so the line must not have said "paid". The
    net is the game's result; `balance` shows what the wallet holds."""
    parts = []
    if s.won:
        parts.append(paint(f"won {sum(ln.net for ln in s.won)}", "bright_green", color=color) + " ("
                     + ", ".join(f"{ln.wager.name} +{ln.net}" for ln in s.won) + ")")
    if s.lost:
        parts.append(paint(f"lost {-sum(ln.net for ln in s.lost)}", "bright_red", color=color) + " ("
                     + ", ".join(_lost(ln) for ln in s.lost) + ")")
    net = s.net
    parts.append(paint(f"net {net:+d}", "bold", "bright_green" if net > 0 else "bright_red" if net < 0
                       else "white", color=color))
    return f"Settlement, spin {s.spin}: " + "; ".join(parts) + "."


def _lost(line: Line) -> str:
    if line.outcome is Outcome.HALF:
        stake = line.wager.bet.amount
        back = stake + line.net                  # half the stake, rounded down
        if back * 2 == stake:
            return f"{line.wager.name} -{-line.net} (la partage: half back)"
        return f"{line.wager.name} -{-line.net} (la partage: {back} of {stake} back, half rounded down)"
    return f"{line.wager.name} -{line.wager.bet.amount}"


def away_text(table_id: str, s: Settlement, call: str) -> str:
    """The notice for a player whose bets rode after they left (shown at their next login)."""
    return (f"Your bets at {table_id} rode on spin {s.spin} after you left: {call}. "
            f"Staked {s.staked}, paid {s.paid} to your wallet (net {s.net:+d}).")


def refund_text(table_id: str, wagers: tuple[Wager, ...]) -> str:
    total = sum(w.bet.amount for w in wagers)
    return (f"Your bets at {table_id} that rode after you left were refunded when the table "
            f"closed: {total} chips back to your wallet.")


def bets_line(wagers: Sequence[Wager]) -> str:
    if not wagers:
        return "You have no bets on the layout."
    return "Your bets: " + "  ".join(f"{i}) {w.name} {w.bet.amount}" for i, w in enumerate(wagers, 1))


# --- the table ---------------------------------------------------------------
def stakes_of(wagers: Sequence[Wager]) -> tuple[board.Stakes, list[Wager]]:
    """The viewer's chips on the board's spots, and the inside combinations listed apart."""
    s, apart = board.Stakes(), list[Wager]()
    for w in wagers:
        kind, n, amount = w.bet.kind, min(w.bet.numbers), w.bet.amount
        if kind is Kind.STRAIGHT:
            s.straight[n] = s.straight.get(n, 0) + amount
        elif kind is Kind.DOZEN:
            d = (n - 1) // 12 + 1
            s.dozen[d] = s.dozen.get(d, 0) + amount
        elif kind is Kind.COLUMN:
            col = (n - 1) % 3 + 1
            s.column[col] = s.column.get(col, 0) + amount
        elif kind in _OUTSIDE:
            s.even_money[_OUTSIDE[kind]] = s.even_money.get(_OUTSIDE[kind], 0) + amount
        else:
            apart.append(w)
    return s, apart


def spoken_table(snap: TableSnapshot, viewer: Viewer) -> list[str]:
    """The wheel for a screen reader: "label: value" lines, most important
    first; the layout is said as the bets the player has, each pocket with its colour."""
    mine = snap.bets_of(viewer.key)
    partage = ", la partage" if snap.options.la_partage else ""
    spins = [f"{n} {colour(n).value}" for n in snap.history[:5]]
    riding = sum(1 for w in snap.wagers if w.player in snap.away)
    lines = [f"Table: {snap.table_id}, single-zero roulette{partage}, bets {snap.min_bet} to {snap.max_bet} a wager.",
             status(snap, alone=len(snap.seated) <= 1),
             f"Your bets: {', '.join(f'{w.name} {w.bet.amount}' for w in mine)}." if mine else bets_line(mine),
             f"Last spins, newest first: {', '.join(spins)}." if spins else "Last spins: none yet.",
             f"Seated: {', '.join(snap.seated) or 'nobody'}."
             + (f" Riding for players who left: {riding} bets." if riding else "")]
    return [part for line in lines for part in fit(line, viewer.prefs.width)]


def table_view(snap: TableSnapshot, viewer: Viewer) -> list[str]:
    if viewer.prefs.screenreader:
        return spoken_table(snap, viewer)
    prefs, me = viewer.prefs, viewer.key
    width = min(prefs.width, 80)
    c = prefs.color
    mine = snap.bets_of(me)
    dot = " · " if prefs.unicode else " - "
    partage = ", la partage" if snap.options.la_partage else ""
    lines = [paint(f"{snap.table_id}{dot}single-zero roulette{partage}", "bold", color=c)]
    stakes, apart = stakes_of(mine)
    draw = board.draw if width >= board.WIDTH else board.draw_narrow
    lines += draw(stakes, c, prefs.unicode)
    if not c:
        lines.append("    (* is red, 0 green, the rest black)")
    shown = [pocket(n, c) for n in snap.history] or ["none yet"]
    lines += wrap_tokens("Last 20:", shown, width)
    lines += fit(status(snap, alone=len(snap.seated) <= 1), width)
    seated = ", ".join(snap.seated) or "nobody"
    riding = sum(1 for w in snap.wagers if w.player in snap.away)
    lines += fit(f"Seated: {seated}. Bets {snap.min_bet}-{snap.max_bet} a wager."
                  + (f" Riding for players who left: {riding} bets." if riding else ""), width)
    if apart:
        lines += fit("Also on the layout: " + ", ".join(f"{w.name} {w.bet.amount}" for w in apart), width)
    if mine:
        lines += wrap_tokens("Your bets:", [f"{i}) {w.name} {w.bet.amount}" for i, w in enumerate(mine, 1)],
                             width, gap="  ")
    else:
        lines.append(bets_line(mine))
    commitment = snap.commitment
    if commitment:
        lines += fit(f"Fair: next spin committed to {commitment[:12]}... ('fair').", width)
    lines += fit(snap.commands, width)
    return lines


def wrap_tokens(label: str, tokens: Sequence[str], width: int, gap: str = " ") -> list[str]:
    """`label` then tokens, never split, wrapped by their visible width (colour aside)."""
    out, line, seen = [], label, len(label)
    for token in tokens:
        shown = len(_ANSI.sub("", token))
        sep = " " if seen == len(label) else gap
        if seen + len(sep) + shown > width - 1 and seen > len(label):
            out.append(line)
            line, seen, sep = " " * len(label), len(label), " "
        line, seen = f"{line}{sep}{token}", seen + len(sep) + shown
    return out + [line]


def status(snap: TableSnapshot, alone: bool) -> str:
    spin = snap.spins + 1
    if snap.phase is Phase.BETTING:
        return f"Spin {spin}: bets are open, no more bets in {snap.seconds_left} s."
    if snap.phase is Phase.SPINNING:
        return f"Spin {spin}: no more bets, the ball is spinning."
    if snap.phase is Phase.CLOSED:
        return "The wheel is closed."
    if snap.wagers and alone:
        return f"Spin {spin}: bets are open. Alone at the wheel, 'spin' when you are ready."
    if snap.wagers:
        return f"Spin {spin}: bets are open."
    return f"Spin {spin}: place your bets; the first bet starts the round."


def rules_text(snap: TableSnapshot) -> list[str]:
    o = snap.options
    pays = {k: KINDS[k].pays for k in KINDS}
    zero = ("Zero loses every outside bet, except that with la partage (this table) an even-money bet "
            "gets half its stake back, rounded down." if o.la_partage else "Zero loses every outside bet.")
    edge = ("Every bet's house edge is 1/37 (2.70%); with la partage the even-money bets' is 1/74 "
            "(1.35%) on an even stake." if o.la_partage else "Every bet's house edge is exactly 1/37 (2.70%).")
    last_call = f", a last call at {o.last_call:g} s left" if o.last_call else ""
    return [      # one paragraph a line: `table rules` wraps them to the reader's width
        "Single-zero roulette: a European wheel of 37 pockets, 0 (green) and 1-36, red and black; "
        "everyone bets against the house.",
        f"Inside bets: straight (one number) {pays[Kind.STRAIGHT]}:1, split (two side by side) "
        f"{pays[Kind.SPLIT]}:1, street (a row of three) {pays[Kind.STREET]}:1, corner (four that meet) "
        f"{pays[Kind.CORNER]}:1, six line (two rows) {pays[Kind.SIXLINE]}:1.",
        f"With zero: splits 0-1, 0-2, 0-3 {pays[Kind.SPLIT]}:1, trios 0-1-2 and 0-2-3 {pays[Kind.TRIO]}:1, "
        f"first four 0-1-2-3 {pays[Kind.FIRSTFOUR]}:1.",
        "Outside bets: red or black, odd or even, low (1-18) or high (19-36) pay 1:1; a dozen or a "
        f"column pays 2:1. {zero}",
        "A win returns the stake plus the payout, and the bet leaves the layout.",
        f"With others at the wheel the first bet opens a {o.bet_window:g} s betting window{last_call}; "
        f"then No more bets, and the ball drops {o.spin_seconds:g} s later. Alone at the wheel nobody "
        "hurries you: bet, then 'spin'.",
        "Bets are not contracts: 'unbet' takes any of yours down until No more bets.",
        "Leaving or losing your connection forfeits nothing: your bets ride on the next spin, are paid "
        "to your wallet, and you are told at your next login. A shutdown refunds bets not yet spun.",
        f"Wagers from {snap.min_bet} to {snap.max_bet} chips each, in whole chips. {edge}",
        "Each spin is one provably fair draw of 0-36: 'fair' shows the commitment before you bet and "
        "the seed revealed after the spin; 'casino verify --draw 37' recomputes it.",
    ]


VIEWS = Views(event_lines, table_view, rules_text, table_data, event_data)
