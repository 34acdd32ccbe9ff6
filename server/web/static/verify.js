// The page's own verifier: a revealed server seed's draws, recomputed in the
// browser, never asked of the server (verify.html may open no connection).
// It follows server/dice/derive.py and docs/fairness.md step by step:
//   commitment = hex(SHA-256(utf8(server_seed)))
//   key        = utf8(server_seed)                (the text, not the bytes it spells)
//   block0     = HMAC-SHA256(key, "<client>:<nonce>")
//   blockK     = HMAC-SHA256(key, "<client>:<nonce>:<K>"), K = 1, 2, ...
//   a draw in [0, n): n <= 256 takes bytes, n > 256 4-byte big-endian words,
//   the first unit below the largest multiple of n it can hold, mod n.
//   dice = draw(36) split (v div 6 + 1, v mod 6 + 1); the wheel = draw(37).
"use strict";
(function () {
  const MIN_DRAW = 2;
  const MAX_DRAW = 2 ** 32;
  const MAX_COUNT = 1000;
  // Blocks read for one draw before giving up: every unit of 1024 blocks
  // rejected has a probability below 2^-8000 for any n (the reference reads
  // on forever); the cap only keeps a broken page from spinning.
  const MAX_BLOCKS = 1024;
  const KINDS = {              // as server/dice/kinds.py says each draw
    dice: { n: 36, say: (v) => {
      const a = Math.floor(v / 6) + 1, b = (v % 6) + 1;
      return a + " " + b + " (total " + (a + b) + ")";
    } },
    wheel: { n: 37, say: (v) => "pocket " + v },
    die: { n: 6, say: (v) => String(v + 1) },
  };
  const utf8 = new TextEncoder();
  const $ = (id) => document.getElementById(id);
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

  async function commitment(serverSeed) {
    return hex(await crypto.subtle.digest("SHA-256", utf8.encode(serverSeed)));
  }

  // The bound of a draw in [0, n): units (bytes or words) below it are used.
  function acceptBelow(n) {
    const span = n <= 256 ? 256 : 2 ** 32;
    return span - (span % n);
  }

  // Draw `nonce` (a decimal string) in [0, n) under the prepared HMAC key.
  async function draw(key, clientSeed, nonce, n) {
    const bound = acceptBelow(n);
    const size = n <= 256 ? 1 : 4;
    const base = clientSeed + ":" + nonce;
    for (let k = 0; k < MAX_BLOCKS; k++) {     // block k only when all before it were rejected
      const msg = k === 0 ? base : base + ":" + k;
      const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8.encode(msg)));
      for (let i = 0; i < block.length; i += size) {
        let u = 0;
        for (let j = 0; j < size; j++) u = u * 256 + block[i + j];   // big-endian, exact below 2^53
        if (u < bound) return u % n;
      }
    }
    throw new Error("no acceptable byte in " + MAX_BLOCKS + " blocks of the stream");
  }

  // The form's values, checked; throws Error with what to fix.
  function read() {
    const serverSeed = $("server").value.replace(/\s+/g, "");     // a seed copied across lines
    const clientSeed = $("client").value.trim();
    const nonce = $("nonce").value.trim();
    const count = $("count").value.trim();
    if (!serverSeed) throw new Error("Paste the revealed server seed.");
    if (!clientSeed) throw new Error("Type the client seed the draws were made with.");
    if (!/^\d+$/.test(nonce)) throw new Error("The first nonce is a whole number: 0, 1, 2, ...");
    if (!/^\d+$/.test(count) || Number(count) < 1 || Number(count) > MAX_COUNT) {
      throw new Error("Count is a whole number from 1 to " + MAX_COUNT + ".");
    }
    const kind = $("kind").value;
    let n, say;
    if (kind === "n") {
      n = Number($("n").value.trim());
      if (!/^\d+$/.test($("n").value.trim()) || n < MIN_DRAW || n > MAX_DRAW) {
        throw new Error("n is a whole number from 2 to 4294967296 (2^32).");
      }
      say = (v) => v + " (of 0-" + (n - 1) + ")";
    } else {
      n = KINDS[kind].n;
      say = KINDS[kind].say;
    }
    const commit = $("commit").value.replace(/\s+/g, "").toLowerCase();
    return { serverSeed, clientSeed, first: BigInt(nonce), count: Number(count), n, say, commit };
  }

  async function verify() {
    const out = $("out");
    out.dataset.done = "0";
    out.textContent = "";
    const lines = [];
    try {
      if (!window.crypto || !crypto.subtle) {
        throw new Error("This browser offers WebCrypto only to secure pages: open this page over " +
                        "https (or on this computer, as http://127.0.0.1), or use 'casino verify'.");
      }
      const q = read();
      if (!/^[0-9a-f]{64}$/.test(q.serverSeed)) {
        lines.push("note: a server seed is 64 lower-case hex characters; this one is not.");
      }
      const c = await commitment(q.serverSeed);
      lines.push("commitment (SHA-256 of the server seed): " + c);
      if (q.commit) {
        lines.push(q.commit === c ? "It matches the commitment you saw."
                                  : "It does NOT match the commitment you saw: " + q.commit);
      }
      const key = await crypto.subtle.importKey("raw", utf8.encode(q.serverSeed),
                                                { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      for (let i = 0; i < q.count; i++) {
        const nonce = (q.first + BigInt(i)).toString();
        lines.push("nonce " + nonce + ": " + q.say(await draw(key, q.clientSeed, nonce, q.n)));
      }
      out.className = "";
    } catch (e) {
      lines.push(String(e.message || e));
      out.className = "error";
    }
    out.textContent = lines.join("\n");
    out.dataset.done = "1";
  }

  $("kind").addEventListener("change", () => {
    const kind = $("kind").value;
    $("n").disabled = kind !== "n";
    if (kind !== "n") $("n").value = String(KINDS[kind].n);
  });
  $("verify").addEventListener("submit", (event) => {
    event.preventDefault();
    verify();
  });
  // A link may carry the values: verify.html#server=...&client=...&nonce=0&count=3&kind=wheel
  const given = new URLSearchParams(location.hash.slice(1));
  for (const id of ["server", "commit", "client", "nonce", "count", "kind", "n"]) {
    if (given.has(id)) $(id).value = given.get(id);
  }
  $("kind").dispatchEvent(new Event("change"));
  if (given.has("server") && given.has("client")) verify();
})();
