"""What bank craps looks like to one viewer: events as lines, the table as art.

The table is a boxed half-layout, 80 columns: the numbers with the puck and the
viewer's own wagers on their spots, then the line bets, field, hardways,
one-roll bets and the Fire and Small/Tall/All trackers with filled numbers.
Colour and Unicode follow the viewer's `set` choices; the ASCII, colourless
rendering carries the same information (filled numbers in brackets).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from server.games.craps import events as ev
from server.games.craps.bets import Kind
from server.render.dice import dice_art
from server.render.text import paint, wrap
from server.games.seam import Viewer, render_note

if TYPE_CHECKING:
    from server.games.craps.dealer import BankCrapsDealer

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
NUMBERS = (4, 5, 6, 8, 9, 10)
NUMBER_TITLES = {4: "4", 5: "5", 6: "SIX", 8: "8", 9: "NINE", 10: "10"}
CALLS = {2: "Craps two, aces", 3: "Ace-deuce, three craps", 11: "Yo eleven", 12: "Boxcars, twelve craps",
         7: "Seven"}
REMINDER = ("bet <kind> [n] <amount> | bets | unbet <n|name|all> | roll | autoroll | stop | "
            "sitout | leave | help craps")


# --- events ------------------------------------------------------------------
def event_lines(table: "BankCrapsDealer", event: Any, viewer: Viewer) -> list[str]:
    from server.games.craps import dealer as t
    note = render_note(event, viewer)
    if note is not None:
        return note
    c = viewer.prefs.color
    me = viewer.key
    if isinstance(event, ev.BetAccepted):
        w = event.wager
        if w.handle not in table.state.wagers:
            return []                      # its hold was refused meanwhile
        if w.player != me:
            return []
        return ([event.note] if event.note else []) + [f"Bet accepted: {w.name} {w.bet.amount}."]
    if isinstance(event, (ev.BetRefused, ev.UnbetRefused)):
        return [f"Refused: {event.reason}."] if event.player == me else []
    if isinstance(event, ev.BetRemoved):
        return [f"Taken down: {event.wager.name}, {event.wager.bet.amount} back to your wallet."] \
            if event.wager.player == me else []
    if isinstance(event, ev.BetCancelled):
        return [f"{event.wager.name} is off: the stake could not be held."] if event.wager.player == me else []
    if isinstance(event, t.Throw):
        if event.dealer:
            return [f"The dealer rolls for {event.shooter}." if event.shooter else "The dealer rolls."]
        return [f"{'You roll' if event.shooter == me else f'{event.shooter} rolls'}:"]
    if isinstance(event, ev.Rolled):
        return [*dice_art(event.dice, viewer.prefs), paint(call(event), "bold", "bright_white", color=c)]
    if isinstance(event, ev.PointSet):
        return [f"The point is {event.number}: the puck goes ON {event.number}."]
    if isinstance(event, ev.PointMade):
        fire = ", ".join(map(str, event.fire))
        return [paint(f"Winner! The point {event.number} is made.", "bright_green", color=c)
                + f" Fire points: {fire}. The shooter keeps the dice."]
    if isinstance(event, ev.SevenOut):
        return [paint("Seven out! Line away.", "bright_red", "bold", color=c)
                + " The shooter hand is over; the dice move on."]
    if isinstance(event, ev.ComeOutSeven):
        return ["Seven on the come-out: pass wins, don't pass loses, Small/Tall/All reset."]
    if isinstance(event, ev.Travelled):
        w = event.wager
        if w.player != me or w.bet.kind not in (Kind.COME, Kind.DONT_COME):
            return []                      # line bets simply follow the puck
        what = "come" if w.bet.kind is Kind.COME else "don't come"
        return [f"Your {what} bet travels to the {event.number}."]
    if isinstance(event, t.RollSettlement):
        return [settlement_line(event, c)] if event.player == me else []
    if isinstance(event, t.BetsSummary):
        return [bets_line(table.state.bets_of(me))] if event.player == me else []
    if isinstance(event, t.ShooterUp):
        point = table.state.point
        if event.player != me:
            return [f"{event.player} has the dice." + (f" The point is {point}." if point else "")]
        if point:       # taking over a hand in progress: say where it stands
            return [f"You have the dice. The point is {point}: the hand goes on until {point} or a 7. "
                    "Pass and don't pass wait for the next come-out; come, don't come, place, "
                    "field and the rest are open. Bet, then 'roll'."]
        return ["You have the dice. Bet, then 'roll' (or 'autoroll')."]
    if isinstance(event, t.WindowClosed):
        if event.shooter == me:
            return [f"Bets are closed for the roll: you have {event.seconds} seconds to 'roll' "
                    "before the dealer rolls for you. Bets and removals stay open until the dice fly."]
        return [f"Waiting on {event.shooter} to roll."]
    if isinstance(event, t.LastCall):
        return [paint(f"Last call! {event.seconds} seconds to place your bets.", "bright_yellow", color=c)]
    return []


def call(rolled: ev.Rolled) -> str:
    d1, d2 = rolled.dice
    total = rolled.total
    words = CALLS.get(total)
    if words is None:
        words = f"{'Hard' if d1 == d2 else 'Easy'} {total}" if total in (4, 6, 8, 10) else str(total)
    if total == 7:
        words = "Seven out" if rolled.point else "Seven, front line winner"
    return f"{words}! ({d1} + {d2} = {total})"


def settlement_line(s: Any, color: bool) -> str:
    parts = []
    if s.won:
        parts.append(paint(f"won {sum(a for _, a in s.won)}", "bright_green", color=color) + " ("
                     + ", ".join(f"{n} +{a}" for n, a in s.won) + ")")
    if s.lost:
        parts.append(paint(f"lost {sum(a for _, a in s.lost)}", "bright_red", color=color) + " ("
                     + ", ".join(f"{n} -{a}" for n, a in s.lost) + ")")
    if s.pushed:
        parts.append("pushed " + ", ".join(f"{n} {a}" for n, a in s.pushed))
    if s.commission:
        parts.append(f"commission {s.commission}")
    net = s.net
    parts.append(paint(f"net {net:+d}", "bold", "bright_green" if net > 0 else "bright_red" if net < 0 else "white",
                       color=color))
    return "Settlement: " + "; ".join(parts) + "."


def bets_line(wagers: list[ev.Wager]) -> str:
    if not wagers:
        return "You have no bets down."
    return "Your bets: " + "  ".join(f"{i}) {w.name} {w.bet.amount}" for i, w in enumerate(wagers, 1))


# --- the layout ----------------------------------------------------------------
class _Box:
    def __init__(self, viewer: Viewer, width: int = 80) -> None:
        u = viewer.prefs.unicode
        self.h, self.v = ("─", "│") if u else ("-", "|")
        self.tl, self.tr, self.bl, self.br = ("┌", "┐", "└", "┘") if u else ("+", "+", "+", "+")
        self.lt, self.rt, self.cross, self.top_t, self.bot_t = ("├", "┤", "┼", "┬", "┴") if u else ("+",) * 5
        self.color = viewer.prefs.color
        self.inner = width - 2

    def felt(self, text: str) -> str:
        return paint(text, "bright_white", "on_dark_green", color=self.color)

    def line(self, text: str) -> str:
        return self.felt(self.v + text.ljust(self.inner)[: self.inner] + self.v)


def table_view(table: "BankCrapsDealer", viewer: Viewer) -> list[str]:
    box = _Box(viewer)
    me = viewer.key
    state = table.state
    mine = state.bets_of(me)
    point = state.point

    def stake(kinds: tuple[Kind, ...], number: int | None = None) -> int:
        return sum(w.bet.amount for w in mine if w.bet.kind in kinds
                   and (number is None or w.bet.number == number))

    cols = [10] + [8] * 6 + [13]
    title = f" {table.config.id} · bank craps " if viewer.prefs.unicode else f" {table.config.id} - bank craps "
    top = box.tl + title.center(78, box.h) + box.tr
    sep = box.lt + box.cross.join(box.h * w for w in cols) + box.rt

    def row(label: str, cells: list[str], right: str = "") -> str:
        body = label.ljust(cols[0]) + "".join(box.v + c.center(8) for c in cells) + box.v + right.ljust(cols[-1])
        return box.line(body)

    def amounts(kinds: tuple[Kind, ...]) -> list[str]:
        return [str(stake(kinds, n)) if stake(kinds, n) else "" for n in NUMBERS]

    def line_with_odds(base_kind: Kind, n: int) -> str:
        bases = [w for w in mine if w.bet.kind is base_kind and w.bet.number == n]
        if not bases:
            return ""
        handles = {w.handle for w in bases}
        odds = sum(w.bet.amount for w in mine if w.base in handles)
        flat = sum(w.bet.amount for w in bases)
        return f"{flat}+{odds}" if odds else str(flat)

    puck_cells = [("ON" if point == n else "") for n in NUMBERS]
    lines = [box.felt(top),
             row(" NUMBERS", [NUMBER_TITLES[n] for n in NUMBERS], " puck: " + (f"ON {point}" if point else "OFF")),
             row(" puck", puck_cells),
             row(" place/buy", [_join(stake((Kind.PLACE,), n), stake((Kind.BUY,), n), "b") for n in NUMBERS]),
             row(" lay", amounts((Kind.LAY,))),
             row(" come", [line_with_odds(Kind.COME, n) for n in NUMBERS]),
             row(" dont come", [line_with_odds(Kind.DONT_COME, n) for n in NUMBERS]),
             box.felt(sep)]

    def amt(kinds: tuple[Kind, ...], number: int | None = None) -> str:
        v = stake(kinds, number)
        return str(v) if v else "-"

    pass_odds = sum(w.bet.amount for w in mine if w.bet.kind is Kind.ODDS and w.base in
                    {x.handle for x in mine if x.bet.kind is Kind.PASS})
    dp_odds = sum(w.bet.amount for w in mine if w.bet.kind is Kind.LAY_ODDS and w.base in
                  {x.handle for x in mine if x.bet.kind is Kind.DONT_PASS})
    unmoved_come = sum(w.bet.amount for w in mine if w.bet.kind is Kind.COME and not w.bet.number)
    unmoved_dc = sum(w.bet.amount for w in mine if w.bet.kind is Kind.DONT_COME and not w.bet.number)
    f12 = table.config.options.field_12
    lines += [
        box.line(f" PASS LINE {amt((Kind.PASS,))}   odds {pass_odds or '-'}"
                 f"        DON'T PASS BAR 12  {amt((Kind.DONT_PASS,))}   odds {dp_odds or '-'}"),
        box.line(f" COME {unmoved_come or '-'}   DON'T COME {unmoved_dc or '-'}"
                 f"     FIELD {amt((Kind.FIELD,))}  2 3 4 9 10 11 12 (2 pays 2:1, 12 pays {f12}:1)"),
        box.line(" HARDWAYS " + "  ".join(f"{n}:{amt((Kind.HARD,), n)}" for n in (4, 6, 8, 10))
                 + f"     ANY 7 {amt((Kind.ANY7,))}  ANY CRAPS {amt((Kind.ANYCRAPS,))}  HORN {amt((Kind.HORN,))}"),
        box.line(" PROPS " + "  ".join(f"{n}:{amt((Kind.PROP,), n)}" for n in (2, 3, 11, 12))
                 + f"     HOPS {_hops(mine)}"),
    ]
    fire = state.view.fire
    hits = state.view.hits
    fire_marks = " ".join(_filled(n, bool(fire >> n & 1), box.color) for n in NUMBERS)
    small = " ".join(_filled(n, bool(hits >> n & 1), box.color) for n in (2, 3, 4, 5, 6))
    tall = " ".join(_filled(n, bool(hits >> n & 1), box.color) for n in (8, 9, 10, 11, 12))
    lines.append(_tracker_line(box, f" FIRE {amt((Kind.FIRE,))}: ", fire_marks))
    lines.append(_tracker_line(box, f" SMALL {amt((Kind.SMALL,))}: ", small,
                               f"   TALL {amt((Kind.TALL,))}: ", tall, f"   ALL {amt((Kind.ALL,))}"))
    lines.append(box.felt(box.bl + box.h * 78 + box.br))
    shooter = table.shooter()
    seats = ", ".join(s.player + (" (out)" if s.sitting_out else "") for s in table.seating.seats) or "nobody"
    width = min(viewer.prefs.width, 80)
    lines += wrap(f"Shooter: {shooter or 'none'}.  Seated: {seats}.  "
                  f"Bets {table.config.min_bet}-{table.config.max_bet}.", width)
    if table.last_dice:
        lines += ["Last roll:", *dice_art(table.last_dice, viewer.prefs)]
    lines += wrap(bets_line(mine), width)
    lines += wrap("Commands: " + REMINDER, width)
    return lines


def _join(place: int, buy: int, suffix: str) -> str:
    parts = [str(place)] if place else []
    if buy:
        parts.append(f"{buy}{suffix}")
    return "+".join(parts)


def _hops(mine: list[ev.Wager]) -> str:
    hops = [w for w in mine if w.bet.kind is Kind.HOP]
    if not hops:
        return "-"
    return " ".join(f"{w.bet.number // 10}-{w.bet.number % 10}:{w.bet.amount}" for w in hops)


def _filled(n: int, on: bool, color: bool) -> str:
    """A tracker number: [n] once filled; in colour also bold yellow, without a
    reset, so the felt behind it stays green."""
    if not on:
        return f" {n} "
    return f"\x1b[1;93m[{n}]\x1b[22;97m" if color else f"[{n}]"


def _tracker_line(box: _Box, *parts: str) -> str:
    """A line whose parts may carry colour: padded by its visible width."""
    text = "".join(parts)
    pad = max(0, box.inner - len(visible(text)))
    return box.felt(box.v + text + " " * pad + box.v)


def visible(text: str) -> str:
    return _ANSI.sub("", text)


def rules_text(table: "BankCrapsDealer") -> list[str]:
    o = table.config.options
    odds = ("3x on 4 and 10, 4x on 5 and 9, 5x on 6 and 8 taken; 6x the flat bet laid"
            if o.odds == 0 else f"{o.odds}x the flat bet on both sides")
    t = o.timing
    return [
        "Bank craps: everyone bets against the house; players take turns as shooter.",
        "Pass line: a come-out 7 or 11 wins, 2, 3 or 12 loses; any other total is the point,",
        "  which must come again before a 7. Don't pass is the reverse, with 12 a push (bar 12).",
        "Come and don't come work the same way from any roll after the point is set.",
        f"Odds behind line bets pay true odds (2:1, 3:2, 6:5), commission free: {odds}.",
        "Place 4/10 pays 9:5, 5/9 7:5, 6/8 7:6. Buy pays true odds less 5% of the stake;",
        "  lay pays true odds against less 5% of the win (commission rounded up, only on wins).",
        f"Hard 4/10 pay 7:1, hard 6/8 9:1. Field (one roll) 2,3,4,9,10,11,12: 2 pays 2:1, 12 pays {o.field_12}:1.",
        "Any 7 4:1, any craps 7:1, 2 and 12 30:1, 3 and 11 15:1, horn in fours, hop 15:1 (pairs 30:1).",
        "Fire: 4, 5 or 6 different points made in one hand pay 24, 249 or 999 to 1.",
        "Small (2-6) or Tall (8-12) all rolled before a 7 pay 34:1; All pays 175:1.",
        "Bonus bets only before the first roll of a hand. Place, buy and hardways are off on the come-out.",
        "Pass, come and bonus bets are contracts; anything else can be taken down with unbet.",
        f"With two or more players each roll has a {t.window} s betting window (last call at {t.last_call} s);",
        f"  then the shooter has {t.shooter} s before the dealer rolls. Solo play has no waiting.",
        f"Wagers from {table.config.min_bet} to {table.config.max_bet}, and each must pay whole chips.",
    ]
