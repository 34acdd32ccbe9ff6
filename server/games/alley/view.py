"""What alley craps looks like to one viewer: the engine's facts in words.

The engine's events carry numbers only; here they become spec 000's phrases
("The action is covered, NO MORE BETS", "AND WE HAVE THE GAME WINNER!"),
addressed to "you" when the viewer is the one concerned. One small function
per event, looked up in a table. Dice are drawn with server.render.dice, so a
player's `set dice`, `set unicode` and `set color` hold here as everywhere.

Every function here reads a fact and the table's frozen AlleySnapshot (built
by the dealer, server.games.alley.snapshot), never the dealer itself.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TypeVar, cast

from server.games.alley import events as ev
from server.games.alley.rules import Decision
from server.games.alley.snapshot import AlleySnapshot
from server.games.alley.state import Phase
from server.games.alley.text import table_rules
from server.dice.kinds import DICE
from server.render.dice import dice_inline
from server.render.spoken import dice_words
from server.render.text import paint
from server.render.width import fit, fit_all, glue
from server.games.seam import Event, Viewer, Views


_ROLL_CALL = MappingProxyType({
    Decision.NATURAL: "a natural!",
    Decision.CRAPS: "craps!",
    Decision.POINT_MADE: "the point is made!",
    Decision.SEVEN_OUT: "seven out!",
})
_TIMED_OUT = MappingProxyType({
    ev.Waiting.BET: "{who} did not set the action in time.",
    ev.Waiting.FADE: "{who} did not answer in time and sits this pass out.",
    ev.Waiting.ROLL: "{who} did not roll in time: the dealer rolls.",
    ev.Waiting.CHOICE: "{who} did not choose in time.",
})
_BONES = MappingProxyType({
    ev.PassReason.CHOSE: "{frm_passes} the bones to {to}.",
    ev.PassReason.TIMEOUT: "The bones pass from {frm} to {to}.",
    ev.PassReason.CLEANED_OUT: "The bones pass to {to}.",
    ev.PassReason.LEFT: "{frm} has left: the bones pass to {to}.",
})


class _Ctx:
    """The viewer, the table's snapshot and a few helpers every event line needs."""

    def __init__(self, table: AlleySnapshot, viewer: Viewer) -> None:
        self.table, self.viewer, self.me = table, viewer, viewer.key
        self.color = viewer.prefs.color

    def name(self, player: str) -> str:
        return "you" if player == self.me else player

    def Name(self, player: str) -> str:
        """At the start of a sentence: "You", or the player's name as it is."""
        return "You" if player == self.me else player

    def verb(self, player: str, you: str, they: str) -> str:
        """`Name verb`: "You bet" / "ann bets"."""
        return f"{self.Name(player)} {you if player == self.me else they}"

    def paint(self, text: str, *styles: str) -> str:
        return paint(text, *styles, color=self.color)

    def seconds(self, phase: Phase) -> int:
        o = self.table.options
        return {Phase.BETTING: o.bet_window, Phase.FADING: o.fade_window,
                Phase.ROLLING: o.roll_window, Phase.CHOOSING: o.choice_window}[phase]


def _names(players: list[str] | tuple[str, ...]) -> str:
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def balances_line(bankrolls: tuple[tuple[str, int], ...]) -> str:
    return "Balances: " + ", ".join(f"{p} {a}" for p, a in bankrolls) + "."


# --- one function per event -------------------------------------------------------
def _started(c: _Ctx, e: ev.GameStarted) -> list[str]:
    return [f"We have {len(e.players)} players with {e.buy_in} each for total game money of {e.total}.",
            f"Welcome to the game, {_names(e.players)}! Each buy-in is held by the ledger while you play."]


def _shooter_up(c: _Ctx, e: ev.ShooterUp) -> list[str]:
    if e.shooter == c.me:
        return [c.paint(f"{e.shooter}, you are the shooter!", "bold", "bright_yellow")
                + f" You have {e.bankroll} in your bank roll and the minimum bet is {e.minimum}.",
                (f"Type: bet <amount> ({e.minimum} to {e.maximum}, in multiples of {e.minimum}), or 'pass' "
                f"to pass the bones. You have {c.seconds(Phase.BETTING)} seconds.")]
    return [f"{e.shooter} is the shooter, with {e.bankroll} in their bank roll."]


def _action_set(c: _Ctx, e: ev.ActionSet) -> list[str]:
    return [f"{c.verb(e.shooter, 'bet', 'bets')} {e.amount}."]


def _fade_asked(c: _Ctx, e: ev.FadeAsked) -> list[str]:
    part = f"the {e.uncovered} action" if e.uncovered == e.action else f"the {e.uncovered} still uncovered"
    if e.player == c.me:
        return [c.paint(f"{e.player}, {e.shooter} has bet {e.action}.", "bold")
                + f" How much of {part} do you want?",
                (f"Type: fade <amount> ({e.minimum} to {e.maximum}), or 'fade' to decline. "
                f"You have {c.seconds(Phase.FADING)} seconds.")]
    return [f"{e.player} is asked to fade {part}."]


def _faded(c: _Ctx, e: ev.Faded) -> list[str]:
    rest = f" ({e.uncovered} still uncovered)" if e.uncovered else ""
    return [f"{c.verb(e.player, 'take', 'takes')} {e.amount} of the action{rest}."]


def _declined(c: _Ctx, e: ev.FadeDeclined) -> list[str]:
    return [f"{c.verb(e.player, 'decline', 'declines')} this pass."]


def _covered(c: _Ctx, e: ev.ActionCovered) -> list[str]:
    return [c.paint("The action is covered, NO MORE BETS.", "bold")]


def _partly(c: _Ctx, e: ev.ActionPartlyCovered) -> list[str]:
    return [f"Only {e.covered} of the {e.action} action is covered: {e.covered} is at risk."]


def _no_action(c: _Ctx, e: ev.NoAction) -> list[str]:
    return [f"Nobody fades {e.shooter}'s {e.action}: the action is returned."]


def _called_off(c: _Ctx, e: ev.PassCalledOff) -> list[str]:
    return [f"The pass is called off: {e.shooter} is gone before the dice flew. Nothing was at risk."]


def _roll_asked(c: _Ctx, e: ev.RollAsked) -> list[str]:
    if e.shooter != c.me:
        return []
    what = "the come-out roll" if e.point is None else f"your point of {e.point}"
    return [f"Type 'roll' for {what} ({c.seconds(Phase.ROLLING)} seconds)."]


def _rolled(c: _Ctx, e: ev.Rolled) -> list[str]:
    who = f"The dealer rolls for {c.name(e.shooter)}" if e.by_dealer else c.verb(e.shooter, "roll", "rolls")
    d1, d2 = e.dice
    call = _ROLL_CALL.get(e.decision)
    if e.decision is Decision.POINT_SET:
        call = f"the point is {e.total}."
    elif e.decision is Decision.NO_DECISION:
        call = f"no decision; the point is still {e.point}."
    if c.viewer.prefs.screenreader:     # "You roll: four and three, seven; the point is 7."
        said = dice_words(e.dice).rstrip(".")
        return [f"{who}: {said[0].lower()}{said[1:]}" + (f"; {c.paint(call, 'bold')}" if call else ".")]
    head = f"{who}: {dice_inline(e.dice, c.viewer.prefs)} {d1} + {d2} = {e.total}: "
    return [*DICE.art(e.dice, c.viewer.prefs), head + c.paint(call or "", "bold")]


def _resolved(c: _Ctx, e: ev.PassResolved) -> list[str]:
    others = [(p, -d) for p, d in e.results if p != e.shooter]
    if e.shooter_won:
        pays = "; ".join(f"{c.name(p)} {'pay' if p == c.me else 'pays'} {a}" for p, a in others)
        head = c.paint(f"{c.verb(e.shooter, 'win', 'wins')} {e.covered}", "bright_green", "bold")
    else:
        pays = "; ".join(f"{c.name(p)} {'win' if p == c.me else 'wins'} {-a}" for p, a in others)
        head = c.paint(f"{c.verb(e.shooter, 'lose', 'loses')} {e.covered}", "bright_red", "bold")
    return [f"{head}: {pays}." if pays else f"{head}."]


def _balances(c: _Ctx, e: ev.Balances) -> list[str]:
    return [balances_line(e.bankrolls)]


def _cleaned_out(c: _Ctx, e: ev.CleanedOut) -> list[str]:
    return [f"{c.verb(e.player, 'are', 'is')} cleaned out."]


def _choice(c: _Ctx, e: ev.ChoiceAsked) -> list[str]:
    # Also after nobody faded, when the shooter has not rolled at all: no "roll again".
    if e.shooter == c.me:
        return [(f"You keep the bones: type 'roll' (or bet <amount>) to shoot a pass, or 'pass' "
                 f"to pass the bones. You have {c.seconds(Phase.CHOOSING)} seconds.")]
    return [f"{e.shooter} chooses: shoot a pass or pass the bones."]


def _bones(c: _Ctx, e: ev.BonesPassed) -> list[str]:
    return [_BONES[e.reason].format(frm=e.from_shooter, to=e.to_shooter,
                                    frm_passes=c.verb(e.from_shooter, "pass", "passes"))]


def _timed_out(c: _Ctx, e: ev.TimedOut) -> list[str]:
    return [_TIMED_OUT[e.waiting].format(who=e.player)]


def _left(c: _Ctx, e: ev.PlayerLeft) -> list[str]:
    if e.at_risk:
        return [f"{e.player} leaves the game; their {e.at_risk} stays in the pass in play."]
    return [f"{e.player} leaves the game."]


def _paid_out(c: _Ctx, e: ev.PaidOut) -> list[str]:
    return [f"{e.player}'s table bankroll of {e.amount} goes back to their wallet."]


def _refused_buy_in(c: _Ctx, e: ev.BuyInRefused) -> list[str]:
    return [f"{e.player}'s chips could not be held: {e.player} is out of this game."]


def _game_over(c: _Ctx, e: ev.GameOver) -> list[str]:
    if e.reason is ev.GameEnd.CANCELLED:
        return ["The game is called off before any pass was decided: every buy-in goes back."]
    if e.winner is None:
        return ["Everyone with money has left: the game is over."]
    you = e.winner == c.me
    has = "You have" if you else f"{e.winner} has"
    if e.net > 0:
        won = f"{has} won the total pot of {e.pot} ({e.net:+d} on the buy-in)"
    elif e.net == 0:          # others left with their money: nothing won, nothing lost
        won = f"{'You end' if you else f'{e.winner} ends'} with {e.pot}, even on the buy-in"
    else:
        won = f"{'You end' if you else f'{e.winner} ends'} with {e.pot}, {-e.net} down on the buy-in"
    if e.reason is ev.GameEnd.CLEANED_HOUSE:
        head = c.paint("AND WE HAVE THE GAME WINNER!", "bold", "bright_yellow")
        return [f"{head} Congratulations, {e.winner}! {won}" + ("!" if e.net > 0 else ".")]
    return [c.paint(f"{e.winner} is the last player with money.", "bold") + f" {won}."]


def last_game(e: ev.GameOver) -> str:
    """`table` between games: "bob won the pot of 190 (+90 on the buy-in)";
    a winner who ended below the buy-in (others left with their money) did not win a pot."""
    if e.net > 0:
        return f"{e.winner} won the pot of {e.pot} ({e.net:+d} on the buy-in)"
    if e.net == 0:
        return f"{e.winner} ended with {e.pot}, even on the buy-in"
    return f"{e.winner} ended with {e.pot}, {-e.net} down on the buy-in"


def _closed(c: _Ctx, e: ev.GameClosed) -> list[str]:
    return [(f"The game is closed ({e.reason}): any pass in play is called off and every table "
            "bankroll goes back to its wallet."), balances_line(e.bankrolls)]


def _refused(c: _Ctx, e: ev.Refused) -> list[str]:
    if e.player != c.me:
        return []
    return [e.reason[:1].upper() + e.reason[1:] + "."]


F = TypeVar("F")
Line = Callable[["_Ctx", object], list[str]]


def _row(kind: type[F], lines: Callable[[_Ctx, F], list[str]]) -> tuple[type, Line]:
    """One entry of LINES: mypy checks that `lines` takes a `kind`; the
    lookup by the fact's exact type makes the cast true."""
    def call(c: _Ctx, event: object) -> list[str]:
        return lines(c, cast(F, event))
    return kind, call


LINES: Mapping[type, Line] = MappingProxyType(dict((
    _row(ev.GameStarted, _started),
    _row(ev.ShooterUp, _shooter_up),
    _row(ev.ActionSet, _action_set),
    _row(ev.FadeAsked, _fade_asked),
    _row(ev.Faded, _faded),
    _row(ev.FadeDeclined, _declined),
    _row(ev.ActionCovered, _covered),
    _row(ev.ActionPartlyCovered, _partly),
    _row(ev.NoAction, _no_action),
    _row(ev.PassCalledOff, _called_off),
    _row(ev.RollAsked, _roll_asked),
    _row(ev.Rolled, _rolled),
    _row(ev.PassResolved, _resolved),
    _row(ev.Balances, _balances),
    _row(ev.CleanedOut, _cleaned_out),
    _row(ev.ChoiceAsked, _choice),
    _row(ev.BonesPassed, _bones),
    _row(ev.TimedOut, _timed_out),
    _row(ev.PlayerLeft, _left),
    _row(ev.PaidOut, _paid_out),
    _row(ev.BuyInRefused, _refused_buy_in),
    _row(ev.GameOver, _game_over),
    _row(ev.GameClosed, _closed),
    _row(ev.Refused, _refused),
)))


def event_lines(table: AlleySnapshot, event: Event, viewer: Viewer) -> list[str]:
    fn = LINES.get(type(event))
    return fn(_Ctx(table, viewer), event) if fn else []


# --- `table` -----------------------------------------------------------------------
_WAITING = MappingProxyType({
    Phase.BETTING: "{shooter} to set the action (bet <amount>) or pass",
    Phase.FADING: "{who} to fade",
    Phase.ROLLING: "{shooter} to roll",
    Phase.CHOOSING: "{shooter} to shoot a pass or pass the bones",
})


def table_view(table: AlleySnapshot, viewer: Viewer) -> list[str]:
    o, width = table.options, viewer.prefs.width
    lines = fit(f"Alley craps at {table.table_id}: {max(2, o.min_players)} to {table.max_players} "
                 f"players, buy-in {o.buy_in}, bets in multiples of {o.bet_unit}. The house takes nothing.",
                 width)
    v = table.game
    if v is None:
        lines += fit(f"No game is running. Seated: {', '.join(table.seats) or 'nobody'}. "
                      "Anyone seated can type 'start' once enough players are seated.", width)
        if isinstance(table.last_result, ev.GameOver) and table.last_result.winner:
            r = table.last_result
            lines.append(f"Last game: {last_game(r)}.")
        return fit_all(lines + fit(table.commands, width), width)
    fades = dict(v.fades)
    covered = sum(fades.values())
    lines.append(f"Game {table.games}. Shooter: {v.shooter}.")
    if v.action:
        detail = ", ".join(f"{p} {a}" for p, a in v.fades)
        lines.append(f"Action: {v.action}; covered {covered}" + (f" ({detail})" if detail else "")
                     + f", {v.action - covered} uncovered."
                     + (f" Point: {v.point}." if v.point else ""))
    if v.waiting_for is not None:
        left = -(-v.ticks_left // table.tick_hz)
        what = _WAITING[v.phase].format(shooter=v.shooter, who=v.waiting_for)
        lines.append(f"Waiting for {what} ({glue(str(left), 's', 'left')}).")
    spoken = viewer.prefs.screenreader          # a bankroll a line, no column heads or padding
    if not spoken:
        lines.append(f"  {'Player':<16}{'Bankroll':>9}")
    playing = set(table.playing)
    for player, bankroll in v.bankrolls:
        marks = []
        if player == v.shooter:
            marks.append("shooter")
        if player in fades:
            marks.append(f"faded {fades[player]}")
        if player not in playing:
            marks.append("left: paid when this pass ends")
        elif bankroll == 0:
            marks.append("cleaned out")
        if spoken:
            lines.append(f"{player}: bankroll {bankroll}" + "".join(f", {m}" for m in marks) + ".")
            continue
        lines.append(f"  {player:<16}{bankroll:>9}  {', '.join(marks)}".rstrip())
    if table.waiting:
        lines += fit("Waiting for the next game: " + ", ".join(table.waiting) + ".", width)
    if table.last_dice:
        lines.append(f"Last roll: {dice_inline(table.last_dice, viewer.prefs)}, {sum(table.last_dice)}."
                     if spoken else f"Last roll: {dice_inline(table.last_dice, viewer.prefs)} = {sum(table.last_dice)}")
    return fit_all(lines + fit(table.commands, width), width)


def table_rules_extra(table: AlleySnapshot) -> list[str]:
    o = table.options
    return [
        (f"At this table: 'play alley' takes a seat; the game starts when someone seated types 'start' "
        f"(at least {max(2, o.min_players)} seated) or when all {table.max_players} seats are "
        "taken. Who sits down during a game plays in the next one."),
        f"The buy-in of {o.buy_in} is held from your wallet by the ledger when the game starts.",
        (f"Time limits: {o.bet_window} s to set the action (then the bones pass), {o.fade_window} s to "
        f"fade (then you sit the pass out), {o.roll_window} s per roll (then the dealer rolls), "
        f"{o.choice_window} s to roll again or pass (then the bones pass)."),
        ("Leaving (or losing your connection): your fade in a pass in play is settled with that pass, "
        "and the rest of your table bankroll goes back to your wallet."),
    ]


# --- data for client scripts (GMCP Casino.*, docs/gmcp.md) ---------------------
def table_data(table: AlleySnapshot) -> dict[str, object]:
    """The game's part of GMCP Casino.Table."""
    v = table.game
    return {"shooter": v.shooter if v is not None else None, "playing": list(table.playing),
            "waiting": list(table.waiting), "bankrolls": dict(v.bankrolls) if v is not None else {},
            "point": v.point if v is not None else None}


def event_data(table: AlleySnapshot, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    if isinstance(event, ev.Rolled):
        return [("Casino.Roll", {"shooter": event.shooter, "dice": list(event.dice), "total": event.total,
                                 "point_before": event.point, "decision": event.decision.value,
                                 "by_dealer": event.by_dealer}, None)]
    return []


def rules_text(table: AlleySnapshot) -> list[str]:
    return table_rules(table.options, table.max_players) + table_rules_extra(table)


VIEWS = Views(event_lines, table_view, rules_text, table_data, event_data)
