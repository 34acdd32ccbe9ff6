"""What blackjack looks like to one viewer: facts as lines, the table with its cards.

The round (bets open, last call, the deal, every decision, the dealer's play)
goes to everyone at the table, watchers too; a player's own money (a bet
accepted or refused, their settlement) and their turn's prompt go to them
alone. Cards are small tokens in the lines of facts and drawn as boxes in
`table` (art.py); the hole card stays face down until the dealer plays.
Totals read as players say them: "soft 17", "blackjack", "bust (23)".
"""
from __future__ import annotations

from server.games.seam import Viewer, Views
from server.render.text import paint
from server.render.width import fit

from . import art
from .events import (BetCancelled, BetPlaced, BetRefused, BetReturned, BetsOpen, Dealt, DealerPlayed, Did,
                     HandLine, HandView, InsuranceOffered, Insured, LastCall, Outcome, Peeked, Played,
                     Settlement, ShoeRetired, Shuffled, TableClosed, Turn)
from .hands import said
from .rounds import Phase
from .snapshot import TableSnapshot

_DID = {Did.HIT: "hits", Did.STAND: "stands", Did.DOUBLE: "doubles", Did.SPLIT: "splits",
        Did.SURRENDER: "surrenders", Did.TIMEOUT: "runs out of time and stands",
        Did.AWAY: "is away; the hand stands", Did.BLACKJACK: "has blackjack"}


def _secs(seconds: float) -> str:
    n = f"{seconds:g}"
    return f"{n} second" if n == "1" else f"{n} seconds"


def _hand(h: HandView, viewer: Viewer) -> str:
    return f"{art.tokens(h.cards, viewer.prefs)} ({h.said})"


def _no(n: int, of: int) -> str:
    return f" hand {n}" if of > 1 else ""


# --- events ------------------------------------------------------------------
def event_lines(snap: TableSnapshot, event: object, viewer: Viewer) -> list[str]:
    me, c = viewer.key, viewer.prefs.color
    if isinstance(event, BetPlaced):
        if event.player != me or event.handle in snap.cancelled:
            return []
        return ([f"{event.note[0].upper()}{event.note[1:]}."] if event.note else []) + \
            [f"Bet accepted: {event.amount}."]
    if isinstance(event, BetRefused):
        return [f"Refused: {event.reason}."] if event.player == me else []
    if isinstance(event, BetCancelled):
        return [f"Refused by the ledger: your {event.what} is off ({event.reason})."] if event.player == me else []
    if isinstance(event, BetReturned):
        return [f"Your bet of {event.amount} is back in your wallet: {event.why}."] if event.player == me else []
    if isinstance(event, BetsOpen):
        return [f"Place your bets: the cards come out in {_secs(event.seconds)}."]
    if isinstance(event, LastCall):
        return [paint(f"Last call! {_secs(event.seconds)} to bet.", "bright_yellow", color=c)]
    if isinstance(event, Shuffled):
        committed = f", committed to {event.commitment[:12]}... ('fair')" if event.commitment else ""
        return [f"A fresh shoe: {event.decks} deck{'s' if event.decks != 1 else ''} shuffled, the cut card "
                f"after {event.cut} cards{committed}."]
    if isinstance(event, Dealt):
        lines = [f"Round {event.round}: the dealer shows {art.token(event.up, viewer.prefs)} and a card "
                 "face down."]
        for player, h in event.hands:
            who = "You" if player == me else player
            lines.append(f"  {who}: {_hand(h, viewer)}")
        return lines
    if isinstance(event, InsuranceOffered):
        clock = f" ({_secs(event.seconds)})" if event.seconds else ""
        return ["The dealer shows an ace. Insurance? 'insurance' insures half your bet (even money on "
                f"a blackjack), 'insurance no' declines{clock}."] if me in event.players or not viewer.seated \
            else []
    if isinstance(event, Insured):
        if event.handle in snap.cancelled:
            return []
        who = "You" if event.player == me else event.player
        if not event.amount:
            return [f"{who} {'decline' if who == 'You' else 'declines'} insurance."]
        what = "take even money" if event.even_money else f"insure for {event.amount}"
        return [f"{who} {what if who == 'You' else what.replace('take', 'takes').replace('insure ', 'insures ')}."]
    if isinstance(event, Peeked):
        card = "ace" if event.up.ace else "ten"
        return [paint("The dealer peeks under the " + card + ": blackjack!", "bold", color=c)] if event.blackjack \
            else [f"The dealer peeks under the {card}: no blackjack."]
    if isinstance(event, Played):
        return played_lines(event, viewer)
    if isinstance(event, Turn):
        return turn_lines(event, viewer)
    if isinstance(event, DealerPlayed):
        cards = art.tokens(event.cards, viewer.prefs)
        total = said(event.cards)
        how = "draws to" if len(event.cards) > 2 else "has"
        if not event.drew and len(event.cards) == 2 and total != "blackjack":
            how = "turns up the hole card, no hand left to play against:"
        return [f"The dealer {how} {cards} ({total})."]
    if isinstance(event, Settlement):
        return [settlement_line(event, c)] if event.player == me else []
    if isinstance(event, ShoeRetired):
        return [f"The cut card is out: that was the last round of shoe {event.shoe}. Its seed is revealed "
                "('fair'), and a fresh shoe comes with the next round."]
    if isinstance(event, TableClosed):
        mine = sum(chips for p, chips in event.refunded if p == me)
        return [f"Refunded to your wallet: {mine} chips, the stakes of a round not settled."] if mine else []
    return []


def played_lines(e: Played, viewer: Viewer) -> list[str]:
    who = "You" if e.player == viewer.key else e.player
    verb = _DID[e.did]
    if who == "You":
        verb = {"hits": "hit", "stands": "stand", "doubles": "double", "splits": "split",
                "surrenders": "surrender", "runs out of time and stands": "ran out of time; the hand stands",
                "is away; the hand stands": "are away; the hand stands"}.get(verb, verb)
    where = f" (hand {e.hand})" if e.other is not None or e.hand > 1 else ""
    if e.did is Did.SPLIT and e.other is not None:
        return [f"{who} {verb}{where}: {_hand(e.after, viewer)} and {_hand(e.other, viewer)}."]
    if e.did is Did.SURRENDER:
        return [f"{who} {verb}{where}: half the bet back."]
    return [f"{who} {verb}{where}: {_hand(e.after, viewer)}."]


def turn_lines(e: Turn, viewer: Viewer) -> list[str]:
    clock = f" ({_secs(e.seconds)})" if e.seconds else ""
    if e.player != viewer.key:
        return [f"{e.player} to play{_no(e.hand, e.of)}{clock}."] if not e.now.cards or e.seconds else []
    moves = ", ".join(e.moves[:-1]) + f" or {e.moves[-1]}" if len(e.moves) > 1 else e.moves[0]
    return [paint(f"Your turn{_no(e.hand, e.of)}: ", "bold", color=viewer.prefs.color)
            + f"{_hand(e.now, viewer)} against the dealer's {art.token(e.up, viewer.prefs)}. "
            + f"{moves[0].upper()}{moves[1:]}?{clock}"]


def line_text(ln: HandLine, many: bool, n: int) -> str:
    """One hand's part: what it won or lost in words and whole chips, then the
    hand ("won 10 (18)", "lost 10, bust (25)", "surrendered, lost 5 (16)", "push (19)");
    a word says the sign, so no "+" or "-" is read out with it."""
    name = f"hand {n} " if many else ""
    net = ln.net
    money = "push" if net == 0 else f"{'won' if net > 0 else 'lost'} {abs(net)}"
    given_up = "surrendered, " if ln.outcome is Outcome.SURRENDERED else ""
    said = ln.hand.said
    hand = f", {said}" if ln.outcome in (Outcome.BLACKJACK, Outcome.BUST) else f" ({said})"
    return f"{name}{given_up}{money}{hand}"


def settlement_line(s: Settlement, color: bool) -> str:
    """One player's whole round: a part for each hand, insurance, and the net.

    It says nothing of the wallet: the line is shown as the round is settled,
    before the ledger has written it (as at roulette and craps)."""
    many = len(s.lines) > 1
    parts = [line_text(ln, many, i) for i, ln in enumerate(s.lines, 1)]
    if s.insurance:
        parts.append(f"insurance {s.insurance_back - s.insurance:+d}")
    net = s.net
    parts.append(paint(f"net {net:+d}", "bold", "bright_green" if net > 0 else "bright_red" if net < 0
                       else "white", color=color))
    return f"Settlement, round {s.round}: dealer {said(s.dealer)}; " + "; ".join(parts) + "."


def away_text(table_id: str, s: Settlement) -> str:
    """The notice for a player whose hands stood after they left (shown at their next login)."""
    return (f"Your hands at {table_id} stood after you left and were settled in round {s.round}: "
            f"staked {s.staked}, paid {s.paid} to your wallet (net {s.net:+d}).")


def event_data(snap: TableSnapshot, event: object) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    """A fact as GMCP data (docs/gmcp.md): the dealer's play to everyone, a settlement to its player."""
    if isinstance(event, DealerPlayed):
        return [("Casino.Dealer", {"cards": [c.name for c in event.cards], "total": said(event.cards)}, None)]
    if isinstance(event, Settlement):
        return [("Casino.Settlement", {
            "player": event.player, "round": event.round,
            "hands": [{"cards": [c.name for c in ln.hand.cards], "total": ln.hand.said,
                       "outcome": ln.outcome.value, "amount": ln.net} for ln in event.lines],
            "insurance": event.insurance_back - event.insurance, "net": event.net}, (event.player,))]
    return []


def _hand_data(h: HandView) -> dict[str, object]:
    return {"cards": [c.name for c in h.cards], "total": h.said, "bet": h.staked, "doubled": h.doubled,
            "surrendered": h.surrendered, "done": h.done}


def table_data(snap: TableSnapshot) -> dict[str, object]:
    """What blackjack adds to Casino.Table: the hands and totals as data, the hole card as null."""
    shown = snap.dealer_shown()
    return {"round": snap.round, "seconds_left": snap.seconds_left,
            "dealer": {"cards": [c.name if c else None for c in shown],
                       "total": said(snap.dealer) if snap.hole_shown else None},
            "hands": {p: [_hand_data(h) for h in hands] for p, hands in snap.hands},
            "bets": dict(snap.bets), "turn": ({"player": snap.turn[0], "hand": snap.turn[1]} if snap.turn else None),
            "shoe": {"number": snap.shoe, "dealt": snap.dealt, "cards": snap.size, "cut": snap.cut}}


# --- the table ---------------------------------------------------------------
def status(snap: TableSnapshot, me: str | None = None) -> str:
    """The round's state in one line; `me` (the viewer) reads their own turn as "your turn"."""
    n = snap.round
    if snap.phase is Phase.CLOSED:
        return "The table is closed."
    if snap.phase is Phase.BETTING:
        left = f", the cards come out in {snap.seconds_left} s" if snap.seconds_left is not None else ""
        return f"Round {n}: bets are down{left}."
    if snap.phase is Phase.INSURANCE:
        return f"Round {n}: insurance is offered (the dealer shows an ace)."
    if snap.phase is Phase.PLAYING and snap.turn:
        left = f", {snap.seconds_left} s left" if snap.seconds_left is not None else ""
        whose = "your" if snap.turn[0] == me else f"{snap.turn[0]}'s"
        return f"Round {n}: {whose} turn (hand {snap.turn[1]}){left}."
    return f"Round {n}: place your bets; the first bet starts the round." if not snap.hands \
        else f"Round {n - 1} is over; place your bets for round {n}."


def table_view(snap: TableSnapshot, viewer: Viewer) -> list[str]:
    prefs, me = viewer.prefs, viewer.key
    width = min(prefs.width, 80)
    big = width >= 60 and not prefs.screenreader      # a reader hears each hand on one line
    o = snap.options
    dot = " · " if prefs.unicode else " - "
    title = f"Table: {snap.table_id}, blackjack." if prefs.screenreader else f"{snap.table_id}{dot}Blackjack"
    lines = [paint(title, "bold", color=prefs.color)]
    lines += fit(f"{o.decks} deck{'s' if o.decks != 1 else ''}, blackjack pays {o.blackjack_pays}, dealer "
                 f"{'hits' if o.hits_soft_17 else 'stands on'} soft 17. Bets {o.min_bet} to {o.max_bet} "
                 f"in {o.bet_unit}s.", width)
    if snap.dealer:
        shown = snap.dealer_shown()
        total = said(snap.dealer) if snap.hole_shown else f"shows {said(snap.dealer[:1])}"
        lines.append(f"Dealer ({total}):" if big else f"Dealer: {art.tokens(shown, prefs)} ({total})")
        if big:
            lines += art.boxes(shown, prefs, width)
    for player, hands in snap.hands:
        mine = player == me
        who = "You" if mine else player
        for i, h in enumerate(hands, 1):
            arrow = ", " if prefs.screenreader else " <- "      # a reader hears no arrow
            turn = f"{arrow}your turn" if snap.turn == (player, i) and mine else \
                f"{arrow}to play" if snap.turn == (player, i) else ""
            label = f"{who}{_no(i, len(hands))}, bet {h.staked}{' (doubled)' if h.doubled else ''}"
            if mine and big:
                lines.append(f"{label}: {h.said}{turn}")
                lines += art.boxes(h.cards, prefs, width)
            else:
                lines += fit(f"{label}: {art.tokens(h.cards, prefs)} ({h.said}){turn}", width)
    if snap.bets:
        lines += fit("Bets down: " + ", ".join(f"{p} {chips}" for p, chips in snap.bets), width)
    lines += fit(status(snap, me), width)
    if snap.turn and snap.turn[0] == me and snap.moves:
        lines += fit("You may: " + ", ".join(snap.moves) + ".", width)
    lines += fit(f"Seated: {', '.join(snap.seated) or 'nobody'}.", width)
    if snap.shoe:
        lines += fit(f"Shoe {snap.shoe}: {snap.dealt} of {snap.size} cards dealt, the cut card after {snap.cut}.",
                     width)
    if snap.commitment:
        which = "this shoe was" if snap.shoe else "the first shoe is"
        lines += fit(f"Fair: {which} committed to {snap.commitment[:12]}... ('fair').", width)
    lines += fit(snap.commands, width)
    return lines


def rules_text(snap: TableSnapshot) -> list[str]:
    """Every rule of this table, one paragraph a line (`table rules` wraps them)."""
    o = snap.options
    surrender = ("Late surrender: on your first two cards, after the dealer has checked for blackjack, "
                 "'surrender' gives up the hand for half the bet back." if o.surrender == "late"
                 else "No surrender.")
    resplit = "may be split again" if o.resplit_aces else "may not be split again"
    das = "You may double after a split." if o.double_after_split else "No doubling after a split."
    last = f", with a last call at {o.last_call:g} s left" if o.last_call else ""
    return [
        f"Blackjack, American rules: a shoe of {o.decks} deck{'s' if o.decks != 1 else ''}, shuffled by a "
        f"provably fair Fisher-Yates; the cut card stands at {o.penetration}% of the shoe, and when it comes out "
        "the round finishes and the shoe is shuffled before the next.",
        "Cards count as marked, J Q K 10, an ace 1 or 11; a hand with an ace counted 11 is soft (soft 17). "
        "A blackjack is an ace and a ten-value card as a hand's first two cards, never after a split.",
        f"A blackjack pays {o.blackjack_pays}; every other win pays 1:1, equal totals push, and a hand that "
        "busts loses even if the dealer busts too.",
        f"Bets are {o.min_bet} to {o.max_bet} chips in multiples of {o.bet_unit}, so every payout is whole chips.",
        "Each player gets two cards face up, the dealer one up and one face down. With an ace or a ten up the "
        "dealer peeks: a dealer blackjack ends the round at once (a player blackjack pushes, every other hand "
        "loses its bet only).",
        "With an ace up, before the peek, you may insure for up to half your bet: 'insurance' (or "
        "'insurance <n>'; 'insurance no' declines). It pays 2:1 if the dealer has blackjack. On your own "
        "blackjack that is even money.",
        "Then in seat order, one hand at a time: 'hit', 'stand', 'double' (your first two cards only, for "
        f"exactly your bet, one card more), 'split' (two cards of the same rank, up to {o.max_hands} hands). "
        f"{das} Split aces get one card each and {resplit}. {surrender} A double or split your wallet does "
        "not cover is refused and the hand goes on.",
        f"The dealer draws to 17 and {'hits' if o.hits_soft_17 else 'stands on'} soft 17, but only if some "
        "hand is still live (not bust, surrendered or paid as a blackjack).",
        f"With others at the table the first bet opens a {o.bet_window:g} s betting window{last}; then the "
        f"deal, and each decision has {o.decision_seconds:g} s: when it runs out the hand stands. Alone, the "
        "cards come as soon as you bet and nobody hurries you.",
        "One settlement per player per round, with a line for each hand. Leaving or losing your connection "
        "mid-round: your hands stand and are settled to your wallet (told at your next login); a bet not yet "
        "dealt is refunded. A shutdown refunds every bet of a round not yet settled.",
        "'fair' shows the commitment of the next shoe and reveals each retired shoe's seed; 'casino verify "
        f"--draw shoe --decks {o.decks}' rebuilds the whole shoe from it, card k of the shoe on line k.",
    ]


VIEWS = Views(event_lines, table_view, rules_text, table_data, event_data)
