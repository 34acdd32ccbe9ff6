"""What Pig looks like to one viewer: the spec's sample lines, with the dice drawn.

Spec 003's "Sample Text Output" is the model: the player and their score when a
turn starts (`Amanda: 0`), each roll with the round score (`2, 4 Current Round
Score: 6`), the score after the turn (`Amanda: 19`), then `Amanda wins!` and
`10 rounds`. Each roll is also drawn as dice the way every table draws them
(server.render.dice), so the viewer's `set dice/unicode/color` choices hold.
Lines that only guide the player on turn (what to type, the deadline) go to
that player alone.

Every function reads a fact and a PigSnapshot (server.games.pig.snapshot),
which the dealer builds and hands in; the view never sees the dealer.
"""
from __future__ import annotations

from server.games.pig import events as ev
from server.games.pig.rules import COMPUTER_HOLDS_AT, RollOutcome
from server.games.pig.snapshot import PigSnapshot
from server.dice.kinds import DICE
from server.render.text import paint
from server.render.width import fit_all
from server.games.seam import Event, Viewer, Views
from server.render.spoken import dice_words



def _rounds(n: int) -> str:
    return f"{n} round" if n == 1 else f"{n} rounds"


def _sentence(reason: str) -> str:
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith((".", "!", "?")) else ".")


# --- events ------------------------------------------------------------------
def event_lines(table: PigSnapshot, event: Event, viewer: Viewer) -> list[str]:
    c = viewer.prefs.color
    me = viewer.key
    if isinstance(event, ev.GameStarted):
        lines = [paint(f"Welcome to the game of Pig. First to {event.target} wins.", "bold", color=c),
                 "Turn order: " + ", ".join(event.players) + "."]
        if event.stake:
            lines.append(f"Each player antes {event.stake} chips: the pot is {event.pot}, "
                         "and the winner takes it all.")
        return lines
    if isinstance(event, ev.TurnStarted):
        lines = [paint(f"{event.player}: {event.score}", "bold", "bright_white", color=c)]
        if event.player == me:
            options = table.game.options if table.game else table.options
            lines.append(f"Your turn: 'roll' or 'hold'. After {options.turn_deadline} s "
                         "without a move you hold.")
        return lines
    if isinstance(event, ev.Rolled):
        return roll_lines(event, viewer)
    if isinstance(event, ev.TurnEnded):
        lines = []
        who = "you hold" if event.player == me else f"{event.player} holds"
        if event.reason is ev.TurnEnd.TIMEOUT:
            lines.append(f"Time is up: {who}.")
        elif event.reason is ev.TurnEnd.HOLD:     # every hold says whose it is, the computer's too
            lines.append(("You hold" if event.player == me else who) + f", banking {event.banked}.")
        return lines + [paint(f"{event.player}: {event.score}", "bold", "bright_white", color=c)]
    if isinstance(event, ev.PlayerLeft):
        return [f"{event.player} has left the game."]
    if isinstance(event, ev.AnteRefused):
        return [f"{event.player}'s ante could not be held: {event.player} is out of this game."]
    if isinstance(event, ev.GameOver):
        return game_over_lines(event, viewer)
    if isinstance(event, ev.GameClosed):
        game = table.game
        staked = game is not None and not game.vs_computer and game.options.stake > 0
        return ["The game of Pig is stopped" + ("; every ante is refunded." if staked else ".")]
    if isinstance(event, ev.Refused):
        return [_sentence(event.reason)] if event.player == me else []
    return []


def roll_lines(event: ev.Rolled, viewer: Viewer) -> list[str]:
    c = viewer.prefs.color
    d1, d2 = event.dice
    mine = event.player == viewer.key
    # whose roll it is, as the other tables say it ("You roll:", "computer rolls:")
    roller = "You roll:" if mine else f"{event.player} rolls:"
    if viewer.prefs.screenreader:          # "You roll: four and three, seven. Round score 12."
        said = dice_words(event.dice)
        lines = [f"{roller} {said[0].lower()}{said[1:]} Round score: {event.round_score}."]
    else:
        lines = [roller, *DICE.art(event.dice, viewer.prefs), f"{d1}, {d2} Current Round Score: {event.round_score}"]
    who = "you lose" if mine else f"{event.player} loses"
    if event.outcome is RollOutcome.ONE:
        lines.append(paint(f"A one: {who} the round score.", "bright_red", color=c))
    elif event.outcome is RollOutcome.SNAKE_EYES:
        lines.append(paint(f"Snake eyes: {who} the round score and the whole score.",
                           "bright_red", "bold", color=c))
    return lines


def game_over_lines(event: ev.GameOver, viewer: Viewer) -> list[str]:
    c = viewer.prefs.color
    lines: list[str] = []
    if event.reason is ev.GameEnd.TARGET:
        lines.append(paint(f"{event.winner} wins!", "bright_green", "bold", color=c))
    elif event.reason is ev.GameEnd.WALKOVER:
        lines.append(paint(f"{event.winner} wins!", "bright_green", "bold", color=c)
                     + " Everyone else has left the game.")
    elif event.reason is ev.GameEnd.ABANDONED:
        lines.append("The game against the computer is over: its player has left.")
    else:
        lines.append("The game is called off: too few players could ante. Every ante is returned.")
    if event.winner and event.pot:
        lines.append(f"{event.winner} takes the pot of {event.pot} chips.")
    lines.append(_rounds(event.rounds))
    if viewer.seated:
        lines.append("Type 'start' for a new game, 'ready' to join the next one, or 'leave'.")
    return lines


# --- the table ---------------------------------------------------------------
def table_view(table: PigSnapshot, viewer: Viewer) -> list[str]:
    o = table.options
    stake = f"ante {o.stake} chips in games among players" if o.stake else "no stake"
    names = table.seated
    seated = ", ".join(p + ("" if p in table.ready or table.in_game(p) else " (not ready)")
                       for p in names) or "nobody"
    lines = [f"Pig table {table.table_id}: first to {o.target} wins, {stake}. "
             + f"Seated ({len(names)}/{table.max_players}): {seated}."]
    game = table.playing
    if game is None:
        lines.append("No game is running: 'start' plays the computer alone, or everyone ready together; "
                     "'ready' joins the next game.")
        if table.last is not None:
            last = table.last
            how = f"{last.winner} won with {last.score}" if last.winner else "nobody won"
            lines.append(f"Last game: {how}, {_rounds(last.rounds)}.")
        return fit_all(lines, viewer.prefs.width)
    current = game.current
    if game.options != o:
        lines.append(f"This game plays to {game.options.target}; new settings apply from the next game.")
    lines.append(f"Game {game.number}, round {game.rounds}" + (f", pot {game.pot} chips" if game.pot else "") + ":")
    width = max(len(p) for p in game.players)
    scores = dict(game.scores)
    for p in game.players:
        if viewer.prefs.screenreader:       # a score a line, with no marks or padding to hear
            turn = f", on turn, round score {game.round_score}" if p == current else ""
            lines.append(f"{p}: {scores[p]}{turn}.")
            continue
        mark = ">" if p == current else " "
        turn = f"  on turn, round score {game.round_score}" if p == current else ""
        lines.append(f"  {mark} {p:<{width}}  {scores[p]:>3}{turn}")
    waiting = [p for p in names if p not in game.players]
    if waiting:
        lines.append(f"Waiting for the next game: {', '.join(waiting)}.")
    if viewer.seated and table.commands:
        lines.append(table.commands)
    return fit_all(lines, viewer.prefs.width)


def rules_text(table: PigSnapshot) -> list[str]:
    o = table.options
    lines = [
        f"Pig: two dice, and the first player to reach {o.target} points on a hold wins.",
        "On your turn, 'roll' as often as you like: each roll adds both dice to your round score.",
        "A single 1 loses the round score and ends your turn.",
        "Double 1s (snake eyes) lose the round score and your whole score, and end your turn.",
        "'hold' adds the round score to your score and passes the dice to the next player.",
        f"If you make no move for {o.turn_deadline} seconds on your turn, you hold.",
        "Alone at the table you play the computer, and you go first.",
        (f"The computer keeps rolling while its round score is below {COMPUTER_HOLDS_AT} and holding "
         "would not yet win, then holds."),
        (f"It rolls once every {o.computer_pace:g} second{'' if o.computer_pace == 1 else 's'}, so you "
         "can follow its turn. Games against the computer have no stake."),
        f"Two to {table.max_players} seated players can play each other instead; type 'start' to begin.",
        ("'start' takes everyone who is ready: you are ready when you sit down at a table with no game "
         "running; after a game, or if you sat down during one, type 'ready' (or 'start') to play in the next."),
    ]
    if o.stake:
        lines.append(f"Games among players have a stake: each player antes {o.stake} chips "
                     "and the winner takes the whole pot. The house takes nothing.")
    lines += [
        "If you leave, you are out; if only one player is left, that player wins.",
        "A round is one player's turn: the end of a game names the winner and the rounds played.",
    ]
    return lines


# --- data for client scripts (GMCP Casino.*, docs/gmcp.md) ---------------------
def event_data(table: PigSnapshot, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    if isinstance(event, ev.Rolled):
        return [("Casino.Roll", {"player": event.player, "dice": list(event.dice),
                                 "total": sum(event.dice), "round_score": event.round_score,
                                 "outcome": event.outcome.value}, None)]
    if isinstance(event, ev.GameOver):
        return [("Casino.GameOver", {"winner": event.winner, "score": event.score,
                                     "rounds": event.rounds, "pot": event.pot}, None)]
    return []


def table_data(table: PigSnapshot) -> dict[str, object]:
    game = table.playing
    return {"target": table.options.target, "turn": game.current if game else None,
            "scores": dict(game.scores) if game else {}, "round_score": game.round_score if game else 0,
            "ready": sorted(table.ready)}


VIEWS = Views(event_lines, table_view, rules_text, table_data, event_data)
