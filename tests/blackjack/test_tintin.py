"""Blackjack in a real TinTin++ at 40 columns, in tmux (docs/running.md "Connecting"):
a new player goes up to the card room, sits, bets, asks for a hint and plays a hand to
its settlement;
no line the client shows is wider than the window (none the terminal had to wrap),
and the cards read as cards: the dealer's up card and the player's own, as the table
dealt them, the hole card face down until the dealer plays, then shown.

TinTin++ and tmux are Debian packages (tintin++, tmux) that .ci/run and `make
test-packages` install; without them this skips only when not root. The screen is
polled (a real process draws in its own time); game time moves only with the clock.
"""
from __future__ import annotations


from support.screen import CLIENTS, Screen, require_tools, until

from server.games.blackjack.rounds import Phase
from server.render.width import display_width

FAST = {"commands_per_second": 1000}
WIDTH = 40



async def test_a_hand_of_blackjack_in_tintin_at_40_columns(casino_factory):
    require_tools("tmux", "tt++")
    app = await casino_factory(seed=43, limits=FAST)   # 3 and 4 against a 2: hands to play
    host = app.tables["blackjack"]
    screen = Screen(CLIENTS["tintin"](app.port), width=WIDTH)
    try:
        await screen.create_account("tia")
        await until(lambda: "tia" in app.online and app.online["tia"].width == WIDTH)
        unicode = app.online["tia"].prefs.unicode

        screen.type("up")
        await screen.wait_for(r"^Exits: down")
        screen.type("play blackjack")
        await screen.wait_for(r"^Welcome to blackjack")
        screen.type("bet 10")
        await screen.wait_for(r"^Bet accepted: 10\.")
        app.manager.tick_elapsed(app.manager.seconds(0.1))     # alone: the cards come at the next tick
        await host.idle()
        await screen.wait_for(r"Round 1: the dealer")
        game = host.dealer.game
        round_ = game.round if game.round.hands else game.last
        up, hole = round_.dealer[0], round_.dealer[1]
        mine = list(round_.hands["tia"][0].cards)
        assert game.phase is Phase.PLAYING, "the seed's first hand is not one to play: pick another"
        if game.phase is Phase.PLAYING:                        # the hole card face down while hands play
            screen.type("table")
            await screen.wait_for(r"^Commands: ")
            drawn = screen.text(joined=True).split("> table")[-1]
            dealer_line = next(line for line in drawn.splitlines() if line.startswith("Dealer"))
            assert "[##]" in dealer_line and f"[{hole.shown(unicode)}]" not in dealer_line, dealer_line
            assert f"[{up.shown(unicode)}]" in dealer_line, dealer_line
            screen.type("hint")                                # wrapped to the window, like all text
            await screen.wait_for(r"^Basic strategy: hard 7 against a 2: hit")
        typed = 0
        while game.phase is not Phase.IDLE:                    # decline insurance, hit below 12, stand
            assert typed < 12, "the round never ended"
            if game.phase is Phase.INSURANCE:
                screen.type("insurance no")
                await screen.wait_for(r"You decline insurance\.")
            elif game.phase is Phase.PLAYING and game.round.pending is None:
                word = "hit" if game.round.hand().total < 12 else "stand"
                screen.type(word)
                await screen.wait_for(rf"^You {'stand' if word == 'stand' else 'hit'}", count=1)
            typed += 1
            app.manager.tick_elapsed(app.manager.seconds(0.1))
            await host.idle()
        assert typed >= 2                                     # at least a hit, then a stand
        await screen.wait_for(r"Settlement, round 1: dealer")
        mine = list(game.last.hands["tia"][0].cards)
        text = screen.text(joined=True)
        for card in (up, *mine):                               # cards read as cards: [K♠] or [K-s]
            assert f"[{card.shown(unicode)}]" in text, (card, text)
        assert f"{hole.shown(unicode)}" in text.split("Round 1: the dealer")[1]   # shown once it played
        # Nothing wider than the window, and nothing the terminal had to wrap.
        assert all(display_width(line) <= WIDTH for line in screen.lines(joined=True)), [
            line for line in screen.lines(joined=True) if display_width(line) > WIDTH]
        assert "net " in text.split("Settlement, round 1")[1]
    finally:
        screen.close()
