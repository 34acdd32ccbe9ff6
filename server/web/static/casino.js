// The casino in a browser: the same lines as telnet over a WebSocket.
// Frames (server/net/web.py): {"t":"text","d":...} output with ANSI colour,
// {"t":"prompt"} the server waits, {"t":"echo","on":bool} mask the input.
// The page sends {"t":"line","d":...} and {"t":"cols","n":...} (like NAWS).
// Server text only ever becomes DOM text nodes (textContent), never markup.
"use strict";
(function () {
  const pane = document.getElementById("pane");
  const form = document.getElementById("line");
  const input = document.getElementById("cmd");
  const status = document.getElementById("status");
  const MAX_LINES = 3000;            // lines of output kept in the pane
  const history = [];
  let hpos = 0;
  let draft = "";
  let masked = false;
  let ws = null;
  let retries = 0;
  let sentCols = 0;
  let sgr = {};                      // current colour state: fg, bg, bold, dim
  let carry = "";                    // an escape sequence cut between frames
  pane.dataset.prompts = "0";

  // --- ANSI colour (the SGR codes server/render/text.py paints) --------
  const BASE = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
                "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"];
  function xterm(n) {
    if (n < 16) return BASE[n];
    if (n < 232) {
      n -= 16;
      const v = (c) => (c === 0 ? 0 : 55 + c * 40);
      return "rgb(" + v(Math.floor(n / 36)) + "," + v(Math.floor(n / 6) % 6) + "," + v(n % 6) + ")";
    }
    const g = 8 + (n - 232) * 10;
    return "rgb(" + g + "," + g + "," + g + ")";
  }
  function applySgr(params) {
    const codes = params === "" ? [0] : params.split(";").map((c) => parseInt(c, 10) || 0);
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i];
      if (c === 0) sgr = {};
      else if (c === 1) sgr.bold = true;
      else if (c === 2) sgr.dim = true;
      else if (c === 22) { sgr.bold = false; sgr.dim = false; }
      else if (c >= 30 && c <= 37) sgr.fg = BASE[c - 30];
      else if (c >= 90 && c <= 97) sgr.fg = BASE[c - 90 + 8];
      else if (c === 39) delete sgr.fg;
      else if (c >= 40 && c <= 47) sgr.bg = BASE[c - 40];
      else if (c >= 100 && c <= 107) sgr.bg = BASE[c - 100 + 8];
      else if (c === 49) delete sgr.bg;
      else if ((c === 38 || c === 48) && codes[i + 1] === 5 && i + 2 < codes.length) {
        sgr[c === 38 ? "fg" : "bg"] = xterm(codes[i + 2] & 255);
        i += 2;
      } else if ((c === 38 || c === 48) && codes[i + 1] === 2 && i + 4 < codes.length) {
        const [r, g, b] = codes.slice(i + 2, i + 5).map((x) => x & 255);
        sgr[c === 38 ? "fg" : "bg"] = "rgb(" + r + "," + g + "," + b + ")";
        i += 4;
      }
    }
  }
  function piece(text) {
    // Plain text nodes and spans with textContent: nothing here is parsed as HTML.
    if (!sgr.fg && !sgr.bg && !sgr.bold && !sgr.dim) return document.createTextNode(text);
    const span = document.createElement("span");
    span.textContent = text;
    if (sgr.fg) span.style.color = sgr.fg;
    if (sgr.bg) span.style.backgroundColor = sgr.bg;
    if (sgr.bold) span.className = "b";
    if (sgr.dim) span.className += " d";
    return span;
  }
  // CSI sequences (SGR applied, the rest dropped), other escapes, control characters.
  const ESC = /\x1b\[([0-9;?]*)([ -\/]*[@-~])|\x1b[^\[]|[\x00-\x08\x0b-\x1f\x7f]/g;
  // Each line of output is its own block (div.l), so a line wider than the
  // pane (art, or text sent before the page's width reached the server)
  // wraps under its own indent rather than at column 0: a hanging indent of
  // the line's leading spaces, set once its first other character arrives.
  let line = null;                   // the line being written (no newline yet)
  function newLine() {
    line = document.createElement("div");
    line.className = "l";
    pane.appendChild(line);
  }
  function endLine() {
    if (!line.firstChild) line.appendChild(document.createElement("br"));   // a blank line keeps its height
    newLine();
  }
  function indent(el) {
    if (el.dataset.indent !== undefined) return;
    const text = el.textContent;
    const lead = text.search(/[^ ]/);
    if (lead < 0) return;            // only spaces so far: wait for the rest
    const n = Math.min(lead, Math.floor(Number(pane.dataset.cols || 80) / 2));
    el.dataset.indent = String(n);
    if (n > 0) {
      el.style.paddingLeft = n + "ch";
      el.style.textIndent = -n + "ch";
    }
  }
  function write(text) {
    const parts = text.split("\n");
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) { indent(line); endLine(); }
      if (parts[i]) line.appendChild(piece(parts[i]));
    }
    indent(line);
  }
  function show(text) {
    text = carry + text;
    carry = "";
    const cut = text.lastIndexOf("\x1b");
    if (cut >= 0 && !/^\x1b(\[[0-9;?]*[ -\/]*[@-~]|[^\[])/.test(text.slice(cut))) {
      carry = text.slice(cut);       // finish it with the next frame
      text = text.slice(0, cut);
    }
    text = text.replace(/\r\n/g, "\n").replace(/\r/g, "");
    const stick = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
    let last = 0;
    let m;
    ESC.lastIndex = 0;
    while ((m = ESC.exec(text)) !== null) {
      if (m.index > last) write(text.slice(last, m.index));
      if (m[2] === "m") applySgr(m[1]);
      last = ESC.lastIndex;
    }
    if (last < text.length) write(text.slice(last));
    while (pane.childNodes.length > MAX_LINES) pane.removeChild(pane.firstChild);
    if (stick) pane.scrollTop = pane.scrollHeight;
  }
  function note(text) {
    if (line.firstChild) endLine();
    const span = document.createElement("span");
    span.className = "note";
    span.textContent = "[" + text + "]";
    line.appendChild(span);
    endLine();
    pane.scrollTop = pane.scrollHeight;
  }
  newLine();

  // --- width: the pane's columns are the player's width (telnet's NAWS) --
  // The columns that fit the pane's visible text area: its width inside the
  // scrollbar (the CSS reserves the scrollbar's gutter from the start, so a
  // pane that fills up does not lose a column) and the padding.
  function columns() {
    const probe = document.createElement("span");
    probe.textContent = "M".repeat(100);
    probe.style.visibility = "hidden";
    probe.style.position = "absolute";
    probe.style.whiteSpace = "pre";
    pane.appendChild(probe);
    const cw = probe.getBoundingClientRect().width / 100;
    pane.removeChild(probe);
    const cs = getComputedStyle(pane);
    const inner = pane.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return Math.max(1, Math.floor((inner + 0.01) / cw));
  }
  function sendCols(force) {
    const n = columns();
    pane.dataset.cols = String(n);
    if (ws && ws.readyState === WebSocket.OPEN && (force || n !== sentCols)) {
      sentCols = n;
      ws.send(JSON.stringify({ t: "cols", n: n }));
    }
  }
  // The pane's own size, not only the window's: a scrollbar that appears,
  // the keyboard on a phone, a font that loads late all change the columns.
  let resizeTimer = null;
  function resized() {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => sendCols(false), 150);
  }
  window.addEventListener("resize", resized);
  // A pane that showed the newest line keeps showing it when it changes size
  // (the stats view opening or closing, a phone's keyboard, a resized window):
  // whether it was at the bottom is noted as it scrolls, before the change.
  let atBottom = true;
  const nearBottom = () => pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  pane.addEventListener("scroll", () => { atBottom = nearBottom(); });
  function keepBottom() {
    if (atBottom) pane.scrollTop = pane.scrollHeight;
  }
  if (window.ResizeObserver) new ResizeObserver(() => { keepBottom(); resized(); }).observe(pane);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(resized);

  // --- the connection, reconnected when it drops -------------------------
  function setMasked(on) {
    masked = on;
    input.type = on ? "password" : "text";
  }
  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    ws = new WebSocket(url);
    status.textContent = "Connecting…";
    status.className = "";
    ws.onopen = () => {
      retries = 0;
      status.textContent = "Connected";
      pane.dataset.connected = "1";
      sgr = {};
      setMasked(false);
      sendCols(true);
    };
    ws.onmessage = (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      if (frame.t === "text" && typeof frame.d === "string") {
        show(frame.d);
        tail = (tail + frame.d).slice(-8);
      }
      else if (frame.t === "prompt") {
        pane.dataset.prompts = String(Number(pane.dataset.prompts) + 1);
        loggedIn = tail.endsWith("> ");         // the casino's prompt once logged in
        applyReader();
      }
      else if (frame.t === "echo") setMasked(!frame.on);
      else if (frame.t === "data" && frame.p === "Char.Stats") showStats(frame.d);
      else if (frame.t === "data" && frame.p === "Casino.Table") showCards(frame.d);
      else if (frame.t === "data" && frame.p === "Room.Info") hideCards();
    };
    ws.onclose = () => {
      pane.dataset.connected = "0";
      loggedIn = false;
      const wait = Math.min(10, 2 ** retries);
      retries += 1;
      status.textContent = "Reconnecting…";
      status.className = "down";
      note("Disconnected. Reconnecting in " + wait + " s.");
      setTimeout(connect, wait * 1000);
    };
  }

  // --- the screen-reader switch: the account's `screenreader` setting -------
  // Turned, it types `screenreader on|off` once the player is logged in (the
  // casino keeps the choice with the account); it shows the last choice made here.
  const reader = document.getElementById("reader");
  let loggedIn = false, pendingReader = null, tail = "";
  reader.checked = localStorage.getItem("casino.reader") === "1";
  reader.addEventListener("change", () => {
    localStorage.setItem("casino.reader", reader.checked ? "1" : "0");
    pendingReader = reader.checked;
    applyReader();
    input.focus();
  });
  function applyReader() {
    if (pendingReader === null || !loggedIn || !ws || ws.readyState !== WebSocket.OPEN) return;
    const line = "screenreader " + (pendingReader ? "on" : "off");
    pendingReader = null;
    ws.send(JSON.stringify({ t: "line", d: line }));
    show(line + "\n");
  }

  // --- the stats view: Char.Stats after `stats`, as a small table -----------
  const statsView = document.getElementById("stats");
  function showStats(data) {
    if (!data || !Array.isArray(data.games) || !data.total) return;
    const cols = ["rounds", "wagered", "won", "lost", "net", "biggest_win", "longest_streak", "seconds"];
    const heads = ["game", "rounds", "wagered", "won", "lost", "net", "best", "streak", "time"];
    const time = (s) => s < 60 ? s + "s" : s < 3600 ? Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s"
      : Math.floor(s / 3600) + "h" + String(Math.floor(s % 3600 / 60)).padStart(2, "0") + "m";
    const table = document.createElement("table");
    const caption = table.createCaption();
    caption.textContent = "Stats: " + String(data.name);     // text, never markup
    const row = (cells, tag) => {
      const tr = table.insertRow();
      for (const c of cells) {
        const td = document.createElement(tag);
        td.textContent = String(c);
        tr.appendChild(td);
      }
    };
    row(heads, "th");
    for (const g of [...data.games, data.total]) {
      row([g.title, ...cols.map((k) => k === "seconds" ? time(Number(g[k]) || 0)
        : k === "net" && g[k] > 0 ? "+" + g[k] : g[k])], "td");
    }
    statsView.replaceChildren(table);
    statsView.hidden = false;
    keepBottom();                     // at once, not only when the observer runs
  }
  statsView.addEventListener("click", () => { statsView.hidden = true; keepBottom(); });

  // --- the card view: a blackjack table's Casino.Table, drawn as cards -------
  // The dealer's cards (the hole card face down until the dealer plays: null in
  // the data) and every player's hands with their totals and bets, whose turn it
  // is marked; redrawn with each Casino.Table, gone in another room or at a table
  // of another game. Names ("K-s", "10-h") become rank and suit, as text only.
  const cardsView = document.getElementById("cards");
  const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  function card(name) {
    const el = document.createElement("span");
    if (typeof name !== "string" || !/^(A|[2-9]|10|J|Q|K)-[shdc]$/.test(name)) {
      el.className = "card back";
      el.dataset.card = "hidden";
      el.textContent = "\u2591\u2591";          // face down
      return el;
    }
    const [rank, suit] = name.split("-");
    el.className = "card" + (suit === "h" || suit === "d" ? " red" : "");
    el.dataset.card = name;
    el.textContent = rank + SUITS[suit];
    return el;
  }
  function row(who, cards, total, extra, turn) {
    const div = document.createElement("div");
    div.className = "hand" + (turn ? " turn" : "");
    const name = document.createElement("span");
    name.className = "who";
    name.textContent = who;
    div.appendChild(name);
    for (const c of cards) div.appendChild(card(c));
    const said = document.createElement("span");
    said.className = "total";
    said.textContent = total + (extra ? " \u00b7 " + extra : "");
    div.appendChild(said);
    return div;
  }
  function hideCards() {
    cardsView.hidden = true;
    cardsView.replaceChildren();
    keepBottom();
  }
  function showCards(data) {
    if (!data || data.game !== "blackjack" || !data.dealer || !Array.isArray(data.dealer.cards)
        || !data.dealer.cards.length) {             // another game, or no cards dealt yet
      if (!cardsView.hidden) hideCards();
      return;
    }
    const dealer = data.dealer.cards;
    const total = data.dealer.total === null ? "the hole card face down" : String(data.dealer.total);
    const rows = [row("Dealer", dealer, total, "", false)];
    const turn = data.turn || {};
    for (const [player, hands] of Object.entries(data.hands || {})) {
      if (!Array.isArray(hands)) continue;
      hands.forEach((h, i) => {
        const who = hands.length > 1 ? player + " (" + (i + 1) + ")" : player;
        const bits = ["bet " + h.bet];
        if (h.doubled) bits.push("doubled");
        if (h.surrendered) bits.push("surrendered");
        rows.push(row(who, Array.isArray(h.cards) ? h.cards : [], String(h.total), bits.join(", "),
                      turn.player === player && turn.hand === i + 1));
      });
    }
    const head = document.createElement("div");
    head.className = "head";
    head.textContent = String(data.table) + ", round " + data.round + ": " + String(data.phase);
    cardsView.replaceChildren(head, ...rows);
    cardsView.hidden = false;
    keepBottom();
  }
  cardsView.addEventListener("click", hideCards);

  // --- the command line: focus, history, masked passwords -----------------
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ t: "line", d: text }));
    if (!masked) {
      show(text + "\n");              // the local echo a telnet client gives
      if (text.trim() && history[history.length - 1] !== text) history.push(text);
    }
    hpos = history.length;
    draft = "";
    input.value = "";
    pane.scrollTop = pane.scrollHeight;
  });
  input.addEventListener("keydown", (event) => {
    if (masked || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    if (hpos === history.length) draft = input.value;
    hpos = event.key === "ArrowUp" ? Math.max(0, hpos - 1) : Math.min(history.length, hpos + 1);
    input.value = hpos === history.length ? draft : history[hpos];
  });
  pane.addEventListener("mouseup", () => {
    if (!String(window.getSelection())) input.focus();
  });
  input.focus();
  connect();
})();
