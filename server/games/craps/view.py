"""What bank craps looks like to one viewer: events as lines, the table as art.

The table is a boxed half-layout, 80 columns: the numbers with the puck and the
viewer's own wagers on their spots, then the line bets, field, hardways,
one-roll bets and the Fire and Small/Tall/All trackers with filled numbers.
Below 80 columns (NAWS or `set width`), or when huge stakes overflow a cell,
the same facts come as a compact box (server.render.width.boxed) whose rows
wrap inside it; every line fits the viewer's width.
Colour and Unicode follow the viewer's `set` choices; the ASCII, colourless
rendering carries the same information (filled numbers in brackets).
"""
from __future__ import annotations

from server.games.craps import events as ev
from server.games.craps.bets import Bet, Kind
from server.games.craps.snapshot import CrapsSnapshot
from server.games.craps.variants import BANK, KIND_WORDS, Scheme, Variant
from server.dice.kinds import DICE, DrawKind
from server.render.text import paint, sentence
from server.render.width import NBSP, SEPARATOR, boxed, display_width, fit, glue
from server.games.seam import Event, Viewer, Views

NUMBERS = (4, 5, 6, 8, 9, 10)
NUMBER_TITLES = {4: "4", 5: "5", 6: "SIX", 8: "8", 9: "NINE", 10: "10"}
CALLS = {2: "Craps two, aces", 3: "Ace-deuce, three craps", 11: "Yo eleven", 12: "Boxcars, twelve craps",
         7: "Seven"}
# A table that never craps (crapless, High Point) calls only the totals: a 2, 3
# or 12 is a craps only where the variant's come-out loses on it (Variant.craps).
TOTAL_CALLS = {2: "Two, aces", 3: "Three, ace-deuce", 11: "Yo eleven", 12: "Twelve, boxcars"}
DIE_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}
ORDINALS = {1: "come-out", 2: "second", 3: "third", 4: "fourth"}
def event_lines(snap: CrapsSnapshot, event: Event, viewer: Viewer) -> list[str]:
    c = viewer.prefs.color
    me = viewer.key
    if isinstance(event, ev.BetAccepted):
        w = event.wager
        if w.handle not in snap.handles:
            return []                      # its hold was refused meanwhile
        if w.player != me:
            return []
        return ([sentence(event.note)] if event.note else []) + [f"Bet accepted: {w.name} {w.bet.amount}."]
    if isinstance(event, ev.Charged):
        if event.wager.player != me or event.wager.handle not in snap.handles:
            return []
        return [f"Charge: {event.charge} to the house for {event.wager.name} "
                "(5%, taken now and never returned)."]
    if isinstance(event, (ev.BetRefused, ev.UnbetRefused)):
        return [f"Refused: {event.reason}."] if event.player == me else []
    if isinstance(event, ev.BetRemoved):
        return [f"Taken down: {_taken(event.wager)}, {event.wager.bet.amount} back to your wallet."] \
            if event.wager.player == me else []
    if isinstance(event, ev.BetCancelled):
        if event.wager.player != me:
            return []
        why = event.reason.rstrip(".") or "the stake could not be held"
        return [f"Refused: {event.wager.name} {event.wager.bet.amount}: {why}."]
    if isinstance(event, ev.Throw):
        roll = snap.variant.roll
        if event.dealer:
            whom = "you" if event.shooter == me else event.shooter     # a player reads of themselves as "you"
            return [f"The dealer {roll}s for {whom}." if whom else f"The dealer {roll}s."]
        return [f"{f'You {roll}' if event.shooter == me else f'{event.shooter} {roll}s'}:"]
    if isinstance(event, ev.Rolled):
        if viewer.prefs.screenreader:       # "Four and one, five." then the call, without its sum again
            said = call(event, snap.variant.draw, snap.variant).split(" (")[0]
            drawn = snap.variant.draw.art(event.dice, viewer.prefs)
            return drawn if said.rstrip("!") == str(event.total) else [*drawn, said]
        return [*snap.variant.draw.art(event.dice, viewer.prefs),
                paint(call(event, snap.variant.draw, snap.variant), "bold", "bright_white", color=c)]
    if isinstance(event, ev.PointSet):
        if snap.variant.scheme is not Scheme.POINT:
            return [f"The point is {event.number}: {snap.variant.point_rule.format(point=event.number)}."]
        return [f"The point is {event.number}: the puck goes ON {event.number}."]
    if isinstance(event, ev.HandWon):
        return [paint("Winner!", "bright_green", color=c) + " " + _hand_won(event, snap.variant)
                + f" The shooter keeps the {snap.variant.dice}."]
    if isinstance(event, ev.HandLost):
        moves = "The die moves on." if snap.variant.dice == "die" else f"The {snap.variant.dice} move on."
        # the snapshot is the table just after this roll, so its last dice are the losing throw's
        return [paint("Line away:", "bright_red", "bold", color=c) + " "
                + _hand_lost(event, snap.variant, sum(snap.last_dice or ())) + " " + moves]
    if isinstance(event, ev.PointMade):
        fire = ", ".join(map(str, event.fire))
        return [paint(f"Winner! The point {event.number} is made.", "bright_green", color=c)
                + f" Fire points: {fire}. The shooter keeps the dice."]
    if isinstance(event, ev.SevenOut):       # the call above already said "Seven out!"
        return [paint("Line away:", "bright_red", "bold", color=c)
                + " the shooter's hand is over and the dice move on."]
    if isinstance(event, ev.ComeOutSeven):
        if snap.variant.offers(Kind.DONT_PASS) and snap.variant.offers(Kind.SMALL):
            return ["Pass wins, don't pass loses; Small, Tall and All reset."]
        return ["Pass wins" + ("; don't pass loses." if snap.variant.offers(Kind.DONT_PASS) else ".")]
    if isinstance(event, ev.Travelled):
        w = event.wager
        if w.player != me or w.bet.kind not in (Kind.COME, Kind.DONT_COME):
            return []                      # line bets simply follow the puck
        what = "come" if w.bet.kind is Kind.COME else "don't come"
        return [f"Your {what} bet travels to the {event.number}."]
    if isinstance(event, ev.RollSettlement):
        return [settlement_line(event, c), *map(down_line, event.down)] if event.player == me else []
    if isinstance(event, ev.BetsSummary):
        if event.player != me or (event.after and event.after not in snap.handles):
            return []                      # not mine, or the bet it follows was refused
        if event.after is None and viewer.prefs.screenreader:
            return []                      # a reader's roll ends with what it did to them ('bets' lists)
        return [bets_line(snap.bets_of(me))]
    if isinstance(event, ev.ShooterUp):
        point = snap.point
        if event.player != me:
            return [f"{event.player} has the dice." + (f" The point is {point}." if point else "")]
        if point:       # taking over a hand in progress: say where it stands
            if snap.variant.scheme is not Scheme.POINT:
                return [f"You have the {snap.variant.dice}. The point is {point}: "
                        f"{snap.variant.point_rule.format(point=point)}. Bet, then 'roll'."]
            if snap.variant is not BANK:
                return [f"You have the {snap.variant.dice}. The point is {point}: the hand goes on until "
                        f"{point} or a 7. Pass waits for the next come-out. Bet, then 'roll'."]
            return [f"You have the dice. The point is {point}: the hand goes on until {point} or a 7. "
                    "Pass and don't pass wait for the next come-out; come, don't come, place, "
                    "field and the rest are open. Bet, then 'roll'."]
        return [f"You have the {snap.variant.dice}. Bet, then 'roll' (or 'autoroll')."]
    if isinstance(event, ev.WindowOpened):
        roll, opened = snap.variant.roll, f"Bets are open: {_seconds(event.seconds)}, then"
        if event.shooter != me:
            return [f"{opened} {event.shooter} {roll}s."]
        if event.autoroll:
            return [f"{opened} autoroll {roll}s for you."]
        return [f"{opened} you {roll}. A 'roll' typed now is kept for then."]
    if isinstance(event, ev.WindowClosed):
        if event.shooter == me:
            if event.autoroll:
                return ["The betting window is over: autoroll throws next."]
            return [f"You may roll now: 'roll' within {_seconds(event.seconds)}, "
                    "or the dealer rolls for you."]
        return [f"{event.shooter} may roll now; bets stay open until the dice fly."]
    if isinstance(event, ev.LastCall):
        return [paint(f"Last call! {_seconds(event.seconds)} to place your bets.", "bright_yellow", color=c)]
    return []


def _hand_won(event: ev.HandWon, variant: Variant) -> str:
    bet = "high" if variant.line is Kind.HIGH else "pass"
    if not event.point:
        return f"{bet.capitalize()} wins {event.pays}:1 on the come-out."
    if variant.scheme is Scheme.HIGH:
        return f"Higher than the point {event.point}: {bet} wins {event.pays}:1."
    return f"The point {event.point} on the {ORDINALS.get(event.roll, str(event.roll))} roll: {bet} pays {event.pays}:1."


def _hand_lost(event: ev.HandLost, variant: Variant, total: int) -> str:
    """Why the line bet lost: Die Rich's 1 loses at once, on any roll of the
    hand, so a 1 is named; "No 4 ..." is only a last roll that missed."""
    bet = "high" if variant.line is Kind.HIGH else "pass"
    nth = ORDINALS.get(event.roll, str(event.roll))
    if total in variant.craps and event.point:
        return f"A {total} on the {nth} roll loses at once: {bet} loses (the point was {event.point})."
    if not event.point:
        return f"{bet.capitalize()} loses on the come-out."
    if variant.scheme is Scheme.HIGH:
        return f"Not higher than the point {event.point}: {bet} loses."
    return f"No {event.point} by the {nth} roll: {bet} loses."


def _taken(w: ev.Wager) -> str:
    """A wager as `unbet` took it down: a bare "12" is said as the bet it is."""
    if w.bet.kind is Kind.PROP:
        return f"your one-roll bet on {w.bet.number} ({w.name})"
    return w.name


def _seconds(n: int) -> str:
    return f"{n} second" if n == 1 else f"{n} seconds"


def call(rolled: ev.Rolled, draw: DrawKind = DICE, variant: Variant = BANK) -> str:
    if draw.count == 1:                   # one die: "Four! (the die shows 4)"
        return f"{DIE_WORDS[rolled.total]}! (the {draw.name} shows {rolled.total})"
    d1, d2 = rolled.dice[0], rolled.dice[1]
    total = rolled.total
    if variant.scheme is Scheme.HIGH:
        return f"{TOTAL_CALLS.get(total, str(total))}! ({d1} + {d2} = {total})"
    words = TOTAL_CALLS[total] if total in TOTAL_CALLS and total not in variant.craps else CALLS.get(total)
    if words is None:
        words = f"{'Hard' if d1 == d2 else 'Easy'} {total}" if total in (4, 6, 8, 10) else str(total)
    if total == 7:
        words = "Seven out" if rolled.point else "Seven, front line winner"
    if draw is not DICE:                  # cards: "(A-h + 5-s = 6)"
        first, second = draw.say((d1, d2)).split()[:2]
        return f"{words}! ({first} + {second} = {total})"
    return f"{words}! ({d1} + {d2} = {total})"


def settlement_line(s: ev.RollSettlement, color: bool) -> str:
    parts: list[str] = []
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


def down_line(down: tuple[Bet, int]) -> str:
    """A won number bet that came down, and the words that put it back up:
    "Place 8 paid 7 and is down; 'bet place 8 6' puts it back up."."""
    bet, win = down
    what = f"{KIND_WORDS[bet.kind]} {bet.number}"
    return f"{what.capitalize()} paid {win} and is down; 'bet {what} {bet.amount}' puts it back up."


def bets_line(wagers: tuple[ev.Wager, ...]) -> str:
    """The numbered wagers; each "7) come9 10" is glued, so it never breaks."""
    if not wagers:
        return "You have no bets down."
    return "Your bets: " + "  ".join(glue(f"{i})", w.name, str(w.bet.amount)) for i, w in enumerate(wagers, 1))


# --- the layout ----------------------------------------------------------------
FULL_WIDTH = 80           # the boxed half-layout needs 80 columns; below, the compact one


class _Box:
    def __init__(self, viewer: Viewer, width: int = FULL_WIDTH) -> None:
        u = viewer.prefs.unicode
        self.h, self.v = ("─", "│") if u else ("-", "|")
        self.tl, self.tr, self.bl, self.br = ("┌", "┐", "└", "┘") if u else ("+", "+", "+", "+")
        self.lt, self.rt, self.cross, self.top_t, self.bot_t = ("├", "┤", "┼", "┬", "┴") if u else ("+",) * 5
        self.color = viewer.prefs.color
        self.inner = width - 2

    def felt(self, text: str) -> str:
        return paint(text, "bright_white", "on_dark_green", color=self.color)

    def line(self, text: str) -> str:
        """A row of the box, padded by what shows (never cut: a row too long
        for the box makes the view fall back to the compact layout)."""
        pad = max(0, self.inner - display_width(text))
        return self.felt(self.v + text + " " * pad + self.v)


class _Mine:
    """The viewer's wagers, summed the ways both layouts show them."""

    def __init__(self, wagers: tuple[ev.Wager, ...]) -> None:
        self.wagers = wagers

    def stake(self, kinds: tuple[Kind, ...], number: int | None = None) -> int:
        return sum(w.bet.amount for w in self.wagers if w.bet.kind in kinds
                   and (number is None or w.bet.number == number))

    def amt(self, kinds: tuple[Kind, ...], number: int | None = None) -> str:
        v = self.stake(kinds, number)
        return str(v) if v else "-"

    def with_odds(self, base_kind: Kind, n: int) -> str:
        bases = [w for w in self.wagers if w.bet.kind is base_kind and w.bet.number == n]
        if not bases:
            return ""
        handles = {w.handle for w in bases}
        odds = sum(w.bet.amount for w in self.wagers if w.base in handles)
        flat = sum(w.bet.amount for w in bases)
        return f"{flat}+{odds}" if odds else str(flat)

    def line_odds(self, base_kind: Kind, odds_kind: Kind) -> int:
        bases = {x.handle for x in self.wagers if x.bet.kind is base_kind}
        return sum(w.bet.amount for w in self.wagers if w.bet.kind is odds_kind and w.base in bases)

    def unmoved(self, kind: Kind) -> int:
        return sum(w.bet.amount for w in self.wagers if w.bet.kind is kind and not w.bet.number)

    def place_buy(self, n: int) -> str:
        return _join(self.stake((Kind.PLACE,), n), self.stake((Kind.BUY,), n), "b")


def table_view(snap: CrapsSnapshot, viewer: Viewer) -> list[str]:
    """The table for one viewer: the boxed 80-column layout when the viewer's
    width allows it and every row fits, the compact boxed layout otherwise.
    Every line fits `viewer.prefs.width`."""
    width = viewer.prefs.width
    mine = _Mine(snap.bets_of(viewer.key))
    if viewer.prefs.screenreader:
        return spoken_table(snap, viewer, mine)
    art = None
    if width >= FULL_WIDTH and snap.variant.points == NUMBERS:
        art = _full_layout(snap, viewer, mine)
        if any(display_width(line) > FULL_WIDTH for line in art):
            art = None                   # huge stakes: the compact rows wrap instead
    if art is None:
        art = _compact_layout(snap, viewer, mine, min(width, FULL_WIDTH))
    width = min(width, FULL_WIDTH)
    shooter = snap.shooter
    seats = ", ".join(s.player + (" (out)" if s.sitting_out else "") for s in snap.seats) or "nobody"
    lines = art + fit(f"Shooter: {shooter or 'none'}. Seated: {seats}. "
                      f"Bets {snap.min_bet}-{snap.max_bet}.", width)
    if snap.last_dice:
        lines += [f"Last {snap.variant.roll}:", *snap.variant.draw.art(snap.last_dice, viewer.prefs)]
    lines += fit(bets_line(mine.wagers), width)
    lines += fit(snap.commands, width)
    return lines


def spoken_table(snap: CrapsSnapshot, viewer: Viewer, mine: _Mine) -> list[str]:
    """The table for a screen reader: one "label: value" line each, most
    important first, and only what is so (no empty boxes to listen through)."""
    variant = snap.variant
    width = viewer.prefs.width
    seats = ", ".join(s.player + (" (sitting out)" if s.sitting_out else "") for s in snap.seats) or "nobody"
    lines = [f"Table: {snap.table_id}, {variant.phrase}, bets {snap.min_bet} to {snap.max_bet}.",
             f"Point: {snap.point or 'off'}." if variant.offers(Kind.PASS) or snap.point else "",
             f"Shooter: {snap.shooter or 'none'}. Seated: {seats}."]
    if variant.scheme is Scheme.DIE and snap.point:
        lines.append(f"Next: the hand's {ORDINALS[snap.hand.step + 2]} roll of up to 4.")
    if snap.stage == "window" and snap.seconds_left is not None:
        lines.append(f"Bets open: {_seconds(snap.seconds_left)} left.")
    lines.append(bets_line(mine.wagers).replace(NBSP, " ").replace("  ", ", "))
    fire, hits = snap.hand.fire, snap.hand.hits
    if mine.stake((Kind.FIRE,)):
        made = [str(n) for n in NUMBERS if fire >> n & 1]
        lines.append(f"Fire bet points made: {', '.join(made) or 'none yet'}.")
    if mine.stake((Kind.SMALL, Kind.TALL, Kind.ALL)):
        small = [str(n) for n in (2, 3, 4, 5, 6) if hits >> n & 1]
        tall = [str(n) for n in (8, 9, 10, 11, 12) if hits >> n & 1]
        lines.append(f"Small rolled: {', '.join(small) or 'none'}. Tall rolled: {', '.join(tall) or 'none'}.")
    if snap.last_dice:
        lines.append(f"Last {variant.roll}: {variant.draw.art(snap.last_dice, viewer.prefs)[0]}")
    return [part for line in lines if line for part in fit(line, width)]


def _full_layout(snap: CrapsSnapshot, viewer: Viewer, mine: _Mine) -> list[str]:
    box = _Box(viewer)
    point = snap.point
    cols = [10] + [8] * 6 + [13]
    phrase = snap.variant.phrase
    title = f" {snap.table_id} · {phrase} " if viewer.prefs.unicode else f" {snap.table_id} - {phrase} "
    top = box.tl + title.center(box.inner, box.h) + box.tr
    # the number columns end here: nothing continues below their rule (┴, not ┼)
    sep = box.lt + box.bot_t.join(box.h * w for w in cols) + box.rt

    def row(label: str, cells: list[str], right: str = "") -> str:
        body = label.ljust(cols[0]) + "".join(box.v + c.center(8) for c in cells) + box.v + right.ljust(cols[-1])
        return box.line(body)

    def amounts(kinds: tuple[Kind, ...]) -> list[str]:
        return [str(mine.stake(kinds, n)) if mine.stake(kinds, n) else "" for n in NUMBERS]

    amt = mine.amt
    lines = [box.felt(top),
             row(" NUMBERS", [NUMBER_TITLES[n] for n in NUMBERS], " puck: " + (f"ON {point}" if point else "OFF")),
             row(" puck", [("ON" if point == n else "") for n in NUMBERS]),
             row(" place/buy", [mine.place_buy(n) for n in NUMBERS]),
             row(" lay", amounts((Kind.LAY,))),
             row(" come", [mine.with_odds(Kind.COME, n) for n in NUMBERS]),
             row(" dont come", [mine.with_odds(Kind.DONT_COME, n) for n in NUMBERS]),
             box.felt(sep)]
    pass_odds = mine.line_odds(Kind.PASS, Kind.ODDS)
    dp_odds = mine.line_odds(Kind.DONT_PASS, Kind.LAY_ODDS)
    f12 = snap.options.field_12
    lines += [
        box.line(f" PASS LINE {amt((Kind.PASS,))}   odds {pass_odds or '-'}"
                 f"        DON'T PASS BAR 12  {amt((Kind.DONT_PASS,))}   odds {dp_odds or '-'}"),
        box.line(f" COME {mine.unmoved(Kind.COME) or '-'}   DON'T COME {mine.unmoved(Kind.DONT_COME) or '-'}"
                 f"   FIELD {amt((Kind.FIELD,))}  2 3 4 9 10 11 12 (2 pays 2:1, 12 pays {f12}:1)"),
        box.line(" HARDWAYS " + "  ".join(f"{n}:{amt((Kind.HARD,), n)}" for n in (4, 6, 8, 10))
                 + f"     ANY 7 {amt((Kind.ANY7,))}  ANY CRAPS {amt((Kind.ANYCRAPS,))}  HORN {amt((Kind.HORN,))}"),
        box.line(" PROPS " + "  ".join(f"{n}:{amt((Kind.PROP,), n)}" for n in (2, 3, 11, 12))
                 + f"     HOPS {_hops(mine.wagers)}"),
    ]
    fire_marks, small, tall = _trackers(snap, box.color)
    lines.append(box.line(f" FIRE {amt((Kind.FIRE,))}: {fire_marks}"))
    lines.append(box.line(f" SMALL {amt((Kind.SMALL,))}: {small}   TALL {amt((Kind.TALL,))}: {tall}"
                          f"   ALL {amt((Kind.ALL,))}"))
    lines.append(box.felt(box.bl + box.h * box.inner + box.br))
    return lines


def _trackers(snap: CrapsSnapshot, color: bool) -> tuple[str, str, str]:
    fire, hits = snap.hand.fire, snap.hand.hits
    return (" ".join(_filled(n, bool(fire >> n & 1), color) for n in NUMBERS),
            " ".join(_filled(n, bool(hits >> n & 1), color) for n in (2, 3, 4, 5, 6)),
            " ".join(_filled(n, bool(hits >> n & 1), color) for n in (8, 9, 10, 11, 12)))


def tight(text: str) -> str:
    """`text` as one unbreakable group (every space a no-break space)."""
    return text.replace(" ", NBSP)


def _compact_layout(snap: CrapsSnapshot, viewer: Viewer, mine: _Mine, width: int) -> list[str]:
    """The same facts for 40 to 79 columns: one box, rows of glued
    "label amount" groups that wrap inside it, and one row per number the
    viewer has money on."""
    point = snap.point
    color = viewer.prefs.color
    amt = mine.amt
    variant = snap.variant
    puck = " ".join(_filled(n, n == point, color) for n in variant.points)
    # one space after the label (each number has its own): "Puck ON 10:" and
    # the six numbers fill the 36 columns inside a 40-column box, [10] included
    rows: list[str | None] = [f"Puck {'ON ' + str(point) if point else 'OFF'}: {puck}"]
    if variant.scheme is Scheme.DIE and point:          # which roll of the hand is next
        rows.append(tight(f"Next: the hand's {ORDINALS[snap.hand.step + 2]} roll") + " " + tight("of up to 4"))
    for n in variant.points:
        parts = [tight(f"{what} {value}") for what, value in (
            ("place/buy", mine.place_buy(n)), ("lay", str(mine.stake((Kind.LAY,), n) or "")),
            ("come", mine.with_odds(Kind.COME, n)), ("dont come", mine.with_odds(Kind.DONT_COME, n)))
            if value]
        if parts:
            rows.append(f"  {n:>2}: " + ", ".join(parts))
    f12 = snap.options.field_12
    pass_odds = mine.line_odds(Kind.PASS, Kind.ODDS) or "-"
    dp_odds = mine.line_odds(Kind.DONT_PASS, Kind.LAY_ODDS) or "-"
    fire_marks, small, tall = _trackers(snap, color)
    offered: list[tuple[tuple[Kind, ...], str]] = [
        ((Kind.HIGH,), tight(f"HIGH {amt((Kind.HIGH,))}") + "  " + tight("2 3: roll again,") + " "
         + tight("11 12: win 1:1,") + " " + tight("4-10: the point,") + " " + tight("then higher wins")),
        ((Kind.PASS,), tight(f"PASS LINE {amt((Kind.PASS,))}")
         + ("  " + tight(f"odds {pass_odds}") if variant.offers(Kind.ODDS) else "")),
        ((Kind.DONT_PASS,), tight(f"DON'T PASS BAR 12 {amt((Kind.DONT_PASS,))}") + "  " + tight(f"odds {dp_odds}")),
        ((Kind.COME, Kind.DONT_COME), "  ".join(
            tight(f"{what} {mine.unmoved(k) or '-'}") for k, what in
            ((Kind.COME, "COME"), (Kind.DONT_COME, "DON'T COME")) if variant.offers(k))),
        ((Kind.FIELD,), tight(f"FIELD {amt((Kind.FIELD,))}") + "  " + tight("2 3 4 9 10 11 12") + " "
         + tight("(2 pays 2:1,") + " " + tight(f"12 pays {f12}:1)")),
        ((Kind.HARD,), "HARDWAYS " + "  ".join(f"{n}:{amt((Kind.HARD,), n)}" for n in (4, 6, 8, 10))),
        ((Kind.ANY7, Kind.ANYCRAPS, Kind.HORN), "  ".join([
            tight(f"ANY 7 {amt((Kind.ANY7,))}"), tight(f"ANY CRAPS {amt((Kind.ANYCRAPS,))}"),
            tight(f"HORN {amt((Kind.HORN,))}")])),
        ((Kind.FACE,), "FACES " + "  ".join(f"{n}:{amt((Kind.FACE,), n)}" for n in range(1, 7))
         + "  " + tight("(one roll, 4:1)")),
        ((Kind.PROP, Kind.HOP), "PROPS " + "  ".join(f"{n}:{amt((Kind.PROP,), n)}" for n in (2, 3, 11, 12))
         + "  " + tight(f"HOPS {_hops(mine.wagers)}")),
        ((Kind.FIRE,), tight(f"FIRE {amt((Kind.FIRE,))}: {fire_marks}")),
        ((Kind.SMALL,), tight(f"SMALL {amt((Kind.SMALL,))}: {small}")),
        ((Kind.TALL, Kind.ALL), tight(f"TALL {amt((Kind.TALL,))}: {tall}") + "  " + tight(f"ALL {amt((Kind.ALL,))}")),
    ]
    rows += [SEPARATOR, *(text for kinds, text in offered if any(variant.offers(k) for k in kinds))]
    title = (f"{snap.table_id} · {variant.phrase}" if viewer.prefs.unicode
             else f"{snap.table_id} - {variant.phrase}")

    def felt(text: str) -> str:
        return paint(text, "bright_white", "on_dark_green", color=color)
    return boxed(title, rows, width, viewer.prefs.unicode, felt)


def _join(place: int, buy: int, suffix: str) -> str:
    parts = [str(place)] if place else []
    if buy:
        parts.append(f"{buy}{suffix}")
    return "+".join(parts)


def _hops(mine: tuple[ev.Wager, ...]) -> str:
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


# Every decided wager comes down; a place bet's doing so surprises a craps player.
WIN_COMES_DOWN = ("A place, buy, lay or hardway bet that wins is paid and comes down (no automatic "
                  "renewal): bet it again to keep it up.")


def rules_text(snap: CrapsSnapshot) -> list[str]:
    o = snap.options
    t = o.timing
    if snap.variant.rules:                 # a variant's own words, then the table's timing
        odds = snap.variant.odds_rule if o.odds == 0 else f"{o.odds}x the flat bet"
        return [*(line.format(odds=odds, field_12=o.field_12) for line in snap.variant.rules),
                f"With two or more players each {snap.variant.roll} has a {t.window} s betting window "
                f"(last call at {t.last_call} s);",
                f"  then the shooter has {t.shooter} s before the dealer {snap.variant.roll}s. "
                "Solo play has no waiting.",
                f"Wagers from {snap.min_bet} to {snap.max_bet}, and each must pay whole chips."]
    odds = ("3x on 4 and 10, 4x on 5 and 9, 5x on 6 and 8 taken; 6x the flat bet laid"
            if o.odds == 0 else f"{o.odds}x the flat bet on both sides")
    return [*snap.variant.preface,
        "Bank craps: everyone bets against the house; players take turns as shooter.",
        "Pass line: a come-out 7 or 11 wins, 2, 3 or 12 loses; any other total is the point,",
        "  which must come again before a 7. Don't pass is the reverse, with 12 a push (bar 12).",
        "Come and don't come work the same way from any roll after the point is set.",
        f"Odds behind line bets pay true odds (2:1, 3:2, 6:5), commission free: {odds}.",
        "Place 4/10 pays 9:5, 5/9 7:5, 6/8 7:6. Buy pays true odds less 5% of the stake;",
        "  lay pays true odds against less 5% of the win (commission rounded up, only on wins).",
        WIN_COMES_DOWN,
        f"Hard 4/10 pay 7:1, hard 6/8 9:1. Field (one roll) 2,3,4,9,10,11,12: 2 pays 2:1, 12 pays {o.field_12}:1.",
        "Any 7 4:1, any craps 7:1, 2 and 12 30:1, 3 and 11 15:1, horn in fours, hop 15:1 (pairs 30:1).",
        "Fire: 4, 5 or 6 different points made in one hand pay 24, 249 or 999 to 1.",
        "Small (2-6) or Tall (8-12) all rolled before a 7 pay 34:1; All pays 175:1.",
        "Bonus bets only before the first roll of a hand. Place, buy and hardways are off on the come-out.",
        "Pass, come and bonus bets are contracts; anything else can be taken down with unbet.",
        f"With two or more players each roll has a {t.window} s betting window (last call at {t.last_call} s);",
        f"  then the shooter has {t.shooter} s before the dealer rolls. Solo play has no waiting.",
        f"Wagers from {snap.min_bet} to {snap.max_bet}, and each must pay whole chips.",
    ]


# --- data for client scripts (GMCP Casino.*, docs/gmcp.md) ---------------------
def event_data(snap: CrapsSnapshot, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    """A fact as data: (package, payload, to whom or None for every viewer)."""
    if isinstance(event, ev.Rolled):
        data: dict[str, object] = {"dice": list(event.dice), "total": event.total,
                                   "call": call(event, snap.variant.draw, snap.variant), "point_before": event.point or None,
                                   "point": snap.point or None}
        if snap.variant.draw.count == 1:        # one die: its face
            data[snap.variant.draw.name] = event.dice[0]
        elif snap.variant.draw is not DICE:     # the cards as dealt: ["A-h", "5-s"]
            data[snap.variant.draw.name] = snap.variant.draw.say(event.dice).split()[:2]
        return [("Casino.Roll", data, None)]
    if isinstance(event, ev.RollSettlement):
        return [("Casino.Settlement", {
            "player": event.player,
            "won": [{"bet": n, "amount": a} for n, a in event.won],
            "lost": [{"bet": n, "amount": a} for n, a in event.lost],
            "pushed": [{"bet": n, "amount": a} for n, a in event.pushed],
            "commission": event.commission, "net": event.net}, (event.player,))]
    return []


def table_data(snap: CrapsSnapshot) -> dict[str, object]:
    """What bank craps adds to the table's state: the puck and the clock."""
    return {"shooter": snap.shooter, "point": snap.point or None, "hand_rolls": snap.hand.rolls,
            "stage": snap.stage, "seconds_left": snap.seconds_left}


VIEWS = Views(event_lines, table_view, rules_text, table_data, event_data)
