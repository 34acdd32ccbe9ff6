"""The casino in a real browser (issue 18): headless Chromium, driven by
selenium, plays bank craps on the page while a telnet player watches.

Chromium and its driver are Debian packages (`chromium`, `chromium-driver`),
installed by `make test` and .ci/run when run as root; without them (and not
root) the test is skipped with that reason. Selenium blocks, so every browser
call runs in a worker thread while the casino serves in the test's loop; the
browser's waits are selenium's explicit waits, their timeout only a guard.
The dice are seeded and game time is moved with the manager's clock.
"""
from __future__ import annotations

import asyncio
import itertools
import os
import re
import shutil
from pathlib import Path

import pytest
from support.telnet import Client, login, plain

from server.games.blackjack.hands import said
from server.games.blackjack.rounds import Phase

CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
GUARD = 10.0          # seconds: a browser wait that takes this long has failed
SEED = 4242

webdriver = pytest.importorskip("selenium.webdriver")
if not (os.path.exists(CHROMEDRIVER) and os.path.exists(CHROMIUM)):
    if os.geteuid() == 0:
        raise RuntimeError("chromium and chromium-driver are missing: `make test` installs them as root")
    pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By            # noqa: E402
from selenium.webdriver.common.keys import Keys        # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


class Browser:
    """A headless Chromium on the casino's page; each call runs off the loop."""

    def __init__(self, driver) -> None:
        self.driver = driver

    @classmethod
    async def open(cls, url: str, size: tuple[int, int] = (1100, 900), phone: bool = False) -> "Browser":
        """A desktop window of `size`, or (phone) a phone's screen of that size:
        Chromium's mobile emulation (headless windows are at least 500 wide)."""
        os.environ.setdefault("SE_AVOID_STATS", "true")   # selenium must not try the internet

        def start():
            from selenium.webdriver.chrome.service import Service
            options = webdriver.ChromeOptions()
            options.binary_location = CHROMIUM
            for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                        "--disable-gpu", f"--window-size={size[0]},{size[1]}", "--lang=en-US"):
                options.add_argument(arg)
            if phone:
                options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
                    "width": size[0], "height": size[1], "pixelRatio": 3, "touch": True, "mobile": True}})
            driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
            driver.get(url)
            return driver

        return cls(await asyncio.to_thread(start))

    async def run(self, fn, *args):
        return await asyncio.to_thread(fn, *args)

    def _pane(self) -> str:
        return self.driver.find_element(By.ID, "pane").text

    async def wait_for(self, text: str, after: int = 0) -> str:
        """The pane's text once `text` shows in it past character `after`."""
        def wait():
            try:
                WebDriverWait(self.driver, GUARD).until(lambda d: text in self._pane()[after:])
            except TimeoutException:
                raise AssertionError(f"{text!r} not shown; the pane ends:\n{self._pane()[-1500:]}") from None
            return self._pane()
        return await self.run(wait)

    async def type(self, line: str, expect: str) -> str:
        """Type a line into the command box and wait for `expect` in what follows."""
        before = len(await self.run(self._pane))
        box = await self.run(self.driver.find_element, By.ID, "cmd")
        await self.run(box.send_keys, line + Keys.ENTER)
        return (await self.wait_for(expect, before))[before:]

    async def close(self) -> None:
        await self.run(self.driver.quit)


@pytest.fixture
async def browser_on(casino_factory):
    opened: list[Browser] = []

    async def start(app, path: str = "/", **screen) -> Browser:
        b = await Browser.open(f"http://127.0.0.1:{app.web_port}{path}", **screen)
        opened.append(b)
        return b

    yield start
    for b in opened:
        await b.close()


async def test_a_browser_player_plays_craps_while_telnet_watches(casino_factory, browser_on, tmp_path):
    app = await casino_factory(seed=SEED, web=True)
    host = app.tables["bank_craps"]
    page = await browser_on(app)
    await page.wait_for("create <name> <password>")
    driver = page.driver
    # The command line has focus as the page opens, and the pane's width is the player's.
    assert await page.run(lambda: driver.switch_to.active_element.get_attribute("id")) == "cmd"

    # A new account, in two steps: the password is typed into a masked box.
    await page.type("Rosa", "password")
    assert await page.run(lambda: driver.find_element(By.ID, "cmd").get_attribute("type")) == "password"
    await page.type("secret123", "again")
    await page.type("secret123", "The Lobby")
    assert await page.run(lambda: driver.find_element(By.ID, "cmd").get_attribute("type")) == "text"
    cols = int(await page.run(lambda: driver.find_element(By.ID, "pane").get_attribute("data-cols")))
    assert app.online["rosa"].width == cols and cols >= 80

    # A telnet player watches the craps table in 6185.
    spy = await Client.open(app.port, ttype="dumb")
    await login(spy, "Tess")
    await spy.cmd("north")
    assert "You watch bank_craps" in await spy.cmd("watch craps")

    await page.type("north", "Exits:")
    seated = await page.type("play craps", "joins the table")
    assert "You have the dice" in seated
    # The table is drawn in colour: green cloth spans around the box art.
    art = await page.type("table", "PASS LINE")
    assert "┌" in art or "╔" in art
    greens = await page.run(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#pane span')]"
        ".filter(s => /rgb\\(0, 95, 0\\)|rgb\\(13, 188, 121\\)/.test(s.style.backgroundColor + s.style.color))"
        ".length"))
    assert greens > 0
    await page.type("bet field 10", "Your bets")
    rolled = await page.type("roll", "Settlement")
    assert "You roll" in rolled and "┌───────┐" in rolled        # the dice, as box art
    assert re.search(r"Settlement: .*net [+-]\d+", rolled)
    # Won in green, lost in red, as telnet's ANSI colours.
    outcome = await page.run(lambda: driver.execute_script(
        "const s = [...document.querySelectorAll('#pane span')]"
        ".filter(s => /^(won|lost) \\d/.test(s.textContent)).pop();"
        "return s && [s.textContent.split(' ')[0], s.style.color];"))
    assert outcome in (["won", "rgb(35, 209, 139)"], ["lost", "rgb(241, 76, 76)"]), outcome  # bright green, red
    await host.idle()
    # The watcher sees the browser player's roll.
    assert "Rosa rolls" in plain(await spy.expect("Rosa rolls"))

    # History: up brings back the last command.
    box = await page.run(driver.find_element, By.ID, "cmd")
    await page.run(box.send_keys, Keys.ARROW_UP)
    assert await page.run(box.get_attribute, "value") == "roll"
    await page.run(box.clear)

    shot = Path(os.environ.get("CASINO_SCREENSHOT", tmp_path / "browser.png"))
    assert await page.run(driver.save_screenshot, str(shot))

    # `stats`: the same figures as text and, from Char.Stats, in the page's stats view.
    net = re.search(r"Settlement: .*net ([+-]\d+)", rolled)[1]
    await page.type("stats", "Total")
    rows = await page.run(lambda: driver.execute_script(
        "return [...document.querySelectorAll('#stats tr')].map(r => [...r.cells].map(c => c.textContent))"))
    assert rows[0][:2] == ["game", "rounds"] and rows[-1][0] == "Total"
    assert rows[1][:3] == ["Bank craps", "1", "10"] and rows[1][5] == (net if net != "+0" else "0")
    await spy.close()


async def test_player_text_is_shown_as_text_never_markup(casino_factory, browser_on):
    app = await casino_factory(web=True)
    page = await browser_on(app)
    await page.wait_for("create <name> <password>")
    await page.type("create Viewer secret123", "The Lobby")
    mallory = await Client.open(app.port)
    await login(mallory, "Mallory")
    attack = "<img src=x onerror=alert(1)><script>window.pwned=1</script>"
    await mallory.cmd(f"say {attack}")
    said = await page.wait_for("Mallory says")
    assert attack in said                                  # shown, as text
    driver = page.driver
    found = await page.run(lambda: driver.execute_script(
        "return [document.querySelectorAll('#pane img, #pane script').length,"
        " window.pwned === undefined]"))
    assert found == [0, True]
    await mallory.close()


async def test_the_page_sends_its_width_on_resize_and_reconnects_when_dropped(casino_factory, browser_on):
    app = await casino_factory(web=True)
    page = await browser_on(app)
    driver = page.driver
    await page.wait_for("create <name> <password>")
    await page.type("create Wendy secret123", "The Lobby")
    wide = app.online["wendy"].width
    await page.run(driver.set_window_size, 640, 800)

    def narrower(d):
        return int(d.find_element(By.ID, "pane").get_attribute("data-cols")) < wide
    await page.run(WebDriverWait(driver, GUARD).until, narrower)
    cols = int(await page.run(lambda: driver.find_element(By.ID, "pane").get_attribute("data-cols")))
    await page.type("look", "Exits:")          # the width frame went before this line
    assert app.online["wendy"].width == cols < wide

    # The server drops the connection: the page says so and comes back by itself.
    app.online["wendy"].abort()
    await page.wait_for("Disconnected")
    pane = await page.wait_for("Reconnecting")
    await page.wait_for("create <name> <password>", after=len(pane) - 200)
    back = await page.type("connect Wendy secret123", "Exits:")
    assert "You have" in back


# Where text lands on the screen: the line boxes ("rows") of the last (or
# first) place `needle` is shown in the pane, the pane's text area inside its
# padding and scrollbar, and one character's width, measured here and not by
# the page. Rows are [left, right] in CSS pixels, top to bottom.
BOXES = """
const [needle, first] = arguments;
const pane = document.getElementById("pane");
const walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
const nodes = [];
let all = "";
for (let n = walker.nextNode(); n; n = walker.nextNode()) { nodes.push([n, all.length]); all += n.data; }
const probe = document.createElement("span");
probe.textContent = "0".repeat(200);
probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre";
pane.appendChild(probe);
const cw = probe.getBoundingClientRect().width / 200;
probe.remove();
const box = pane.getBoundingClientRect();
const cs = getComputedStyle(pane);
const left = box.left + pane.clientLeft + parseFloat(cs.paddingLeft);
const right = box.left + pane.clientLeft + pane.clientWidth - parseFloat(cs.paddingRight);
const at = needle === null ? -1 : first ? all.indexOf(needle) : all.lastIndexOf(needle);
if (at < 0) return {rows: null, left, right, cw};
const where = (i) => { const k = nodes.findLastIndex(([, start]) => start <= i); return [nodes[k][0], i - nodes[k][1]]; };
const range = document.createRange();
range.setStart(...where(at));
const [end, off] = where(at + needle.length - 1);
range.setEnd(end, off + 1);
const rows = new Map();
for (const r of range.getClientRects()) {
  if (r.width === 0) continue;
  const top = Math.round(r.top / 4);
  const row = rows.get(top);
  rows.set(top, row ? [Math.min(row[0], r.left), Math.max(row[1], r.right)] : [r.left, r.right]);
}
return {rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row), left, right, cw};
"""
SLACK = 0.5           # CSS pixels of rounding allowed in a comparison


async def rows_of(page: Browser, needle: str, first: bool = False) -> dict:
    found = await page.run(page.driver.execute_script, BOXES, needle, first)
    assert found["rows"], f"{needle!r} is not in the pane"
    return found


async def fits_its_columns(page: Browser, app, name: str) -> int:
    """The width the page reports is the columns that fit its text area, and
    the server has it: a line of that many characters fits, one more would not."""
    def reported(d):
        n = int(d.find_element(By.ID, "pane").get_attribute("data-cols"))
        return n if app.online[name].width == n else False
    cols = await page.run(WebDriverWait(page.driver, GUARD).until, reported)
    area = await page.run(page.driver.execute_script, BOXES, None, True)
    width = area["right"] - area["left"]
    assert cols * area["cw"] <= width + SLACK, (cols, area)
    assert (cols + 1) * area["cw"] > width, (cols, area)
    return cols


async def said_lines_fit(page: Browser, app, name: str) -> None:
    """A long `say`, wrapped by the server to the reported width: each of its
    lines is one row of the pane, inside the text area."""
    words = " ".join(f"w{i:02}" for i in range(1, 90))
    shown = await page.type(f"say {words}", "w89")
    lines = [ln.strip() for ln in shown.splitlines() if "w" in ln and not ln.startswith("say ")]
    lines = [ln for ln in lines if re.search(r"\bw\d\d\b", ln)]
    assert len(lines) >= 2, shown
    for ln in lines:
        found = await rows_of(page, ln)
        assert len(found["rows"]) == 1, (ln, found)
        assert found["rows"][0][1] <= found["right"] + SLACK, (ln, found)


async def test_on_a_phone_the_banner_wraps_under_its_indent_and_lines_fit(casino_factory, browser_on):
    from server.commands.login import banner
    app = await casino_factory(web=True)
    page = await browser_on(app, size=(390, 844), phone=True)
    await page.wait_for("create <name> <password>")
    # The banner goes out as the page connects, before its width can reach the
    # server: the page wraps each line under the line's own indent.
    wrapped = 0
    for text in banner():
        if not text.strip():
            continue
        indent = len(text) - len(text.lstrip(" "))
        found = await rows_of(page, text.strip(), first=True)
        wrapped += len(found["rows"]) > 1
        for left, right in found["rows"]:
            assert left >= found["left"] + indent * found["cw"] - SLACK, (text, found)
            assert right <= found["right"] + SLACK, (text, found)
    assert wrapped >= 1                      # the games line is wider than a phone

    await page.type("create Phoebe secret123", "The Lobby")
    cols = await fits_its_columns(page, app, "phoebe")
    assert 30 <= cols <= 45
    await said_lines_fit(page, app, "phoebe")


async def test_on_a_desktop_the_width_leaves_room_for_the_scrollbar(casino_factory, browser_on):
    app = await casino_factory(web=True)
    page = await browser_on(app, size=(1100, 700))
    await page.wait_for("create <name> <password>")
    await page.type("create Desmond secret123", "The Lobby")
    await page.type("help", "Type 'help <command>'")
    overflows = await page.run(page.driver.execute_script,
                               "const p = document.getElementById('pane'); return p.scrollHeight > p.clientHeight")
    assert overflows                         # the scrollbar is showing
    cols = await fits_its_columns(page, app, "desmond")
    assert cols >= 80
    await said_lines_fit(page, app, "desmond")


# --- the page's own verifier (verify.html): the derivation in the browser ---

FAIRNESS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
DOC_SEED = "3f1e4b5c0f2a9d8e7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928170f6e"


def published_vectors() -> list[tuple[str, str, int, int, object]]:
    """docs/fairness.md's vectors, as tests/dice/test_vectors.py reads them:
    (kind, client seed, nonce, n, what the doc says)."""
    text = FAIRNESS.read_text()
    dice = [("dice", c, int(k), 36, (int(a), int(b)))
            for c, k, a, b in re.findall(r"^\| `([^`]+)` \| (\d+) \| (\d) (\d) \|$", text, re.M)]
    draws = [("wheel" if int(n) == 37 else "n", c, int(k), int(n), int(v))
             for n, c, k, v in re.findall(r"^\| (\d+) \| `([^`]+)` \| (\d+) \| (\d+) \|$", text, re.M)]
    return dice + draws


def first_nonce_where(seed: str, client: str, n: int, rejected: int) -> int:
    """The first nonce whose first `rejected` units (bytes, or words for n > 256) are all rejected."""
    from server.dice.derive import accept_below, byte_stream
    size = 1 if n <= 256 else 4
    for nonce in itertools.count():
        stream = byte_stream(seed, client, nonce)
        units = [int.from_bytes(bytes(next(stream) for _ in range(size)), "big") for _ in range(rejected)]
        if all(u >= accept_below(n) for u in units):
            return nonce
    raise AssertionError("unreachable")


class Verifier:
    """verify.html, filled in and read as a player would."""

    def __init__(self, page: Browser) -> None:
        self.page = page

    def _check(self, server: str, client: str, nonce: int, count: int, kind: str, n: int | None,
               commit: str) -> list[str]:
        from selenium.webdriver.support.ui import Select
        d = self.page.driver
        for field, value in (("server", server), ("commit", commit), ("client", client),
                             ("nonce", str(nonce)), ("count", str(count))):
            box = d.find_element(By.ID, field)
            box.clear()
            box.send_keys(value)
        Select(d.find_element(By.ID, "kind")).select_by_value(kind)
        if n is not None:
            box = d.find_element(By.ID, "n")
            box.clear()
            box.send_keys(str(n))
        d.execute_script("document.getElementById('out').dataset.done = ''")
        d.find_element(By.ID, "go").click()
        WebDriverWait(d, GUARD).until(lambda d: d.find_element(By.ID, "out").get_attribute("data-done") == "1")
        return d.find_element(By.ID, "out").text.splitlines()

    async def check(self, server: str, client: str, nonce: int, count: int = 1, kind: str = "dice",
                    n: int | None = None, commit: str = "") -> list[str]:
        return await self.page.run(self._check, server, client, nonce, count, kind, n, commit)


def expected(server: str, client: str, nonce: int, count: int, n: int) -> list[str]:
    """What `casino verify` prints for these draws (server.dice.derive and kinds)."""
    from server.dice.derive import commitment, derive_draws
    from server.dice.kinds import DICE, DIE, WHEEL, plain
    kind = {36: DICE, 37: WHEEL, 6: DIE}.get(n) or plain(n)
    values = derive_draws(server, client, nonce, count, n)
    return ([f"commitment (SHA-256 of the server seed): {commitment(server)}"]
            + [kind.line(nonce + i, v) for i, v in enumerate(values)])


async def test_the_verify_page_derives_every_kind_of_draw_as_the_server_does(casino_factory, browser_on):
    from server.dice.derive import commitment, deterministic_server_seed, draw, split_dice
    app = await casino_factory(web=True)
    page = await browser_on(app, "/static/verify.html", size=(390, 844), phone=True)
    driver = page.driver
    loaded = await page.run(driver.execute_script, "return performance.getEntriesByType('resource').length")
    # From here the browser is offline: the page must need nothing from the server.
    await page.run(lambda: driver.set_network_conditions(offline=True, latency=0, download_throughput=0,
                                                         upload_throughput=0))
    verifier = Verifier(page)

    # Every published vector, one draw each: the page agrees with the doc and the code.
    vectors = published_vectors()
    assert len(vectors) >= 20
    for kind, client, nonce, n, doc in vectors:
        got = await verifier.check(DOC_SEED, client, nonce, kind=kind, n=n if kind == "n" else None)
        assert got == expected(DOC_SEED, client, nonce, 1, n), (kind, client, nonce, n)
        assert doc == (split_dice(draw(DOC_SEED, client, nonce, 36)) if kind == "dice" else draw(DOC_SEED, client, nonce, n))
    assert got[0] == f"commitment (SHA-256 of the server seed): {commitment(DOC_SEED)}"

    # Runs of draws under other seeds: dice, wheel and one die, a non-ASCII
    # client seed and a nonce past 2^32.
    seeds = [deterministic_server_seed(7, "roulette", 0), deterministic_server_seed(7, "craps", 3)]
    for seed, client, nonce, kind, n in ((seeds[0], "roulette", 0, "wheel", 37),
                                         (seeds[1], "lucky ☘ 7s", 5, "dice", 36),
                                         (seeds[0], "pig", 2 ** 33, "die", 6)):
        got = await verifier.check(seed, client, nonce, count=60, kind=kind)
        assert got == expected(seed, client, nonce, 60, n), (kind, got)

    # Rejection: a first byte rejected (dice, wheel), a whole first block of
    # words rejected (block 1 is needed) and two whole blocks (block 2).
    seed = seeds[1]
    for kind, n, units in (("dice", 36, 1), ("wheel", 37, 2), ("n", 2 ** 31 + 1, 8), ("n", 2 ** 31 + 1, 16)):
        nonce = first_nonce_where(seed, "table", n, units)
        got = await verifier.check(seed, "table", nonce, kind=kind, n=n if kind == "n" else None)
        assert got == expected(seed, "table", nonce, 1, n), (kind, n, units, got)

    # The commitment a player saw before the draws is compared for them.
    got = await verifier.check(DOC_SEED, "table", 0, commit=commitment(DOC_SEED).upper())
    assert got[1] == "It matches the commitment you saw."
    got = await verifier.check(DOC_SEED, "table", 0, commit=commitment(seeds[0]))
    assert got[1].startswith("It does NOT match")
    # Nothing was asked of the server after the page loaded: whatever the
    # browser fetched later on its own (an icon, a font) is a static file.
    names = await page.run(driver.execute_script,
                           "return performance.getEntriesByType('resource').map(e => e.name)")
    later = names[loaded:]
    assert all(re.search(r"(favicon\.ico|\.(css|js|html|woff2?|ttf|png|svg))(\?.*)?$", n) for n in later), later


async def test_the_casino_page_links_to_its_verifier(casino_factory, browser_on):
    app = await casino_factory(web=True)
    page = await browser_on(app)
    await page.wait_for("create <name> <password>")
    link = await page.run(page.driver.find_element, By.ID, "verify-link")
    assert (await page.run(link.get_attribute, "href")).endswith("/static/verify.html")


async def test_a_link_to_the_verifier_carries_the_values_and_checks_them(casino_factory, browser_on):
    app = await casino_factory(web=True)
    page = await browser_on(app, f"/static/verify.html#server={DOC_SEED}&client=table&nonce=1&count=3&kind=wheel")
    driver = page.driver

    def shown(d):
        out = d.find_element(By.ID, "out")
        return out.get_attribute("data-done") == "1" and out.text.splitlines()
    got = await page.run(WebDriverWait(driver, GUARD).until, shown)
    assert got == expected(DOC_SEED, "table", 1, 3, 37)
    assert got[1:3] == ["nonce 1: pocket 33", "nonce 2: pocket 3"]        # docs/fairness.md's vectors


BOTTOM = ("const p = document.getElementById('pane');"
          "return p.scrollHeight - p.scrollTop - p.clientHeight")


@pytest.mark.parametrize("size, phone", [((1280, 900), False), ((1024, 768), False), ((390, 844), True)])
async def test_the_newest_line_stays_in_view_as_the_stats_view_opens_and_closes(casino_factory, browser_on,
                                                                               size, phone):
    app = await casino_factory(web=True)
    page = await browser_on(app, size=size, phone=phone)
    await page.wait_for("create <name> <password>")
    await page.type("create Stella secret123", "The Lobby")
    await page.type("north", "Exits:")                      # bank craps, alone: a roll is a round
    await page.type("play craps", "joins the table")
    await page.type("bet field 10", "Your bets")
    await page.type("roll", "Settlement")
    await page.type("help", "Type 'help <command>'")        # more than the pane holds
    await page.type("stats", "Total")                        # the reply, and Char.Stats opens the view
    driver = page.driver
    await page.run(WebDriverWait(driver, GUARD).until,
                   lambda d: d.execute_script("return !document.getElementById('stats').hidden"))
    assert await page.run(driver.execute_script, BOTTOM) < 2     # the reply and its prompt still in view
    await page.run(driver.find_element(By.ID, "stats").click)
    await page.run(WebDriverWait(driver, GUARD).until,
                   lambda d: d.execute_script("return document.getElementById('stats').hidden"))
    assert await page.run(driver.execute_script, BOTTOM) < 2


async def test_the_screen_reader_switch_turns_the_mode_on_and_the_pane_is_a_live_region(casino_factory, browser_on):
    """Issue 39: the page's switch matches `set screenreader`: turned before the
    login it waits for it, then the table is said in words; the output pane is
    a live region a screen reader announces (role log, aria-live polite)."""
    app = await casino_factory(seed=SEED, web=True)
    page = await browser_on(app)
    driver = page.driver
    await page.wait_for("create <name> <password>")
    pane = await page.run(driver.find_element, By.ID, "pane")
    assert await page.run(pane.get_attribute, "aria-live") == "polite"
    assert await page.run(pane.get_attribute, "role") == "log"
    switch = await page.run(driver.find_element, By.ID, "reader")
    assert not await page.run(switch.is_selected)
    await page.run(switch.click)                        # before the login: kept for it
    await page.type("create Iris secret123", "Screen reader mode is on: tables")
    assert app.online["iris"].prefs.screenreader
    await page.type("north", "Exits:")
    await page.type("play craps", "joins the table")
    said = await page.type("table", "Point: off.")
    assert not re.search("[\u2500-\u25ff]", said), said
    await page.run(switch.click)
    await page.type("north", "You can't go north")     # the switch's line went first
    assert not app.online["iris"].prefs.screenreader
    assert re.search("[\u2500-\u25ff]", await page.type("table", "PASS LINE"))


async def test_the_page_draws_the_blackjack_cards_from_the_table_data(casino_factory, browser_on):
    """The page's card view: Casino.Table as data frames (the page's channel), drawn as
    cards: the dealer's up card with the hole face down, the player's hand with its
    total and bet, as the table dealt them; all the hole card once the dealer plays."""
    app = await casino_factory(seed=SEED, web=True, limits={"commands_per_second": 1000})
    host = app.tables["blackjack"]
    page = await browser_on(app)
    driver = page.driver
    await page.wait_for("create <name> <password>")
    await page.type("create Bea secret123", "The Lobby")
    await page.type("up", "Exits:")
    await page.type("play blackjack", "Welcome")
    assert await page.run(lambda: driver.find_element(By.ID, "cards").get_attribute("hidden")) is not None

    def shown(d):
        view = d.find_element(By.ID, "cards")
        if view.get_attribute("hidden") is not None:
            return False
        return d.execute_script(
            "return [...document.querySelectorAll('#cards .hand')].map(h => ["
            " h.querySelector('.who').textContent,"
            " [...h.querySelectorAll('.card')].map(c => [c.dataset.card, c.textContent]),"
            " h.querySelector('.total').textContent])")

    def drawn(want):
        return lambda d: (rows := shown(d)) and [[w, [c for c, _ in cs], t] for w, cs, t in rows] == want and rows

    def expected():
        g = host.dealer.game
        r = g.round if g.round.hands else g.last
        hidden = g.phase is not Phase.IDLE
        dealer = [r.dealer[0].name, "hidden" if hidden else r.dealer[1].name] + (
            [] if hidden else [c.name for c in r.dealer[2:]])
        hand = r.hands["Bea"][0]
        return [["Dealer", dealer, "the hole card face down" if hidden else said(r.dealer)],
                ["Bea", [c.name for c in hand.cards], f"{hand.said} \u00b7 bet {hand.staked}"
                 + (", doubled" if hand.doubled else "")]]

    await page.type("bet 10", "Bet accepted")
    app.manager.tick_elapsed(app.manager.seconds(0.1))
    await host.idle()
    await page.wait_for("the dealer shows")
    want = expected()
    rows = await page.run(WebDriverWait(driver, GUARD).until, drawn(want))
    faces = {name: text for _, cards, _ in rows for name, text in cards}
    for name, text in faces.items():               # "K-s" drawn as K♠, the hole as a back
        if name != "hidden":
            rank, suit = name.split("-")
            assert text == rank + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[suit]
    if host.dealer.game.phase is not Phase.IDLE:
        assert "hidden" in faces
        red = await page.run(lambda: driver.execute_script(
            "return [...document.querySelectorAll('#cards .card.red')].map(c => c.dataset.card)"))
        assert sorted(red) == sorted(n for n in faces if n.endswith(("-h", "-d")))
        if host.dealer.game.phase is Phase.INSURANCE:
            await page.type("insurance no", "You decline")
            app.manager.tick_elapsed(app.manager.seconds(0.1))
            await host.idle()
        if host.dealer.game.phase is Phase.PLAYING:
            await page.type("stand", "You stand")
        app.manager.tick_elapsed(app.manager.seconds(0.1))     # the dealer plays at the next input
        await host.idle()
        await page.wait_for("Settlement, round 1")
        await page.run(WebDriverWait(driver, GUARD).until, drawn(expected()))
    # the dealer's cards all face up now, the total said
    rows = shown(driver)
    assert "hidden" not in [c for c, _ in rows[0][1]] and rows[0][2] == said(host.dealer.game.last.dealer)
    # another room: the view goes
    await page.type("down", "Exits:")
    await page.run(WebDriverWait(driver, GUARD).until,
                   lambda d: d.find_element(By.ID, "cards").get_attribute("hidden") is not None)
