// The crib3 card room in a browser: redeem the invite link for a cookie,
// then a terminal on a websocket. No inline script (the page's policy).
"use strict";
(function () {
  const notice = document.getElementById("notice");
  const noticeText = document.getElementById("notice-text");
  const nameForm = document.getElementById("name-form");
  const again = document.getElementById("again");
  const small = document.getElementById("small");
  const NEED_COLS = 80, NEED_ROWS = 24;
  let term = null, fit = null, ws = null, retry = 0, ended = false;

  function say(text, options) {
    options = options || {};
    noticeText.textContent = text;
    nameForm.hidden = !options.askName;
    again.hidden = !options.again;
    notice.hidden = false;
    if (options.askName) document.getElementById("name").focus();
  }

  function hideNotice() { notice.hidden = true; }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    return {ok: response.ok, data: data};
  }

  async function begin() {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const token = fragment.get("invite");
    if (token) {
      // The token is used once, here, and never kept in the address bar.
      history.replaceState(null, "", window.location.pathname);
      const answer = await post("/api/redeem", {token: token});
      if (!answer.ok) {
        const who = await (await fetch("/api/whoami", {credentials: "same-origin"})).json();
        if (!who.signed_in) { say(answer.data.error || "this invite link lets nobody in"); return; }
      }
    }
    const who = await (await fetch("/api/whoami", {credentials: "same-origin"})).json();
    if (who.signed_in && who.name) { start(); return; }
    if (who.signed_in || who.open) { say("Choose the name the others will see.", {askName: true}); return; }
    say("This card room lets people in by invite link. Ask the host for one, and open it here.");
  }

  nameForm.addEventListener("submit", async function (event) {
    event.preventDefault();
    const answer = await post("/api/name", {name: document.getElementById("name").value});
    if (answer.ok) { start(); } else { say(answer.data.error || "that name cannot be used", {askName: true}); }
  });

  again.addEventListener("click", function () {
    ended = false; retry = 0; hideNotice();
    if (term === null) { begin(); } else { connect(); }
  });

  function start() {
    hideNotice();
    if (term === null) {
      term = new Terminal({fontFamily: '"crib3 mono", monospace', fontSize: 16,
                           cursorBlink: false, scrollback: 0,
                           // (the Unicode version below is a "proposed" API)
                           allowProposedApi: true,
                           theme: {background: "#1e1e1e"}});
      fit = new FitAddon.FitAddon();
      term.loadAddon(fit);
      // The server lays a character out as Rich and Textual measure it: an
      // emoji (outside the BMP) two cells wide. xterm's own widths are
      // Unicode 6's, one cell, which shifts every column after a name or a
      // chat line with emoji; Unicode 11's agree with the server.
      term.loadAddon(new Unicode11Addon.Unicode11Addon());
      term.unicode.activeVersion = "11";
      term.open(document.getElementById("terminal"));
      // The screen as text, read from the terminal's buffer (for a person's
      // browser tools and for the end-to-end test; it holds only what is drawn).
      window.crib3Screen = function () {
        const buffer = term.buffer.active, lines = [];
        for (let y = 0; y < term.rows; y++) {
          const line = buffer.getLine(buffer.viewportY + y);
          lines.push(line ? line.translateToString(true) : "");
        }
        return lines.join("\n");
      };
      window.crib3Size = function () { return [term.cols, term.rows]; };
      // The screen cell by cell: a cell's characters (a letter and its
      // marks), "" for the second cell of a wide character. Where each
      // character sits, to hold against where the server put it.
      window.crib3Cells = function () {
        const buffer = term.buffer.active, rows = [];
        for (let y = 0; y < term.rows; y++) {
          const line = buffer.getLine(buffer.viewportY + y), cells = [];
          for (let x = 0; line && x < term.cols; x++) {
            const cell = line.getCell(x);
            cells.push(cell.getWidth() === 0 ? "" : (cell.getChars() || " "));
          }
          rows.push(cells);
        }
        return rows;
      };
      term.onData(function (data) { send(new TextEncoder().encode(data)); });
      term.onBinary(function (data) {
        const bytes = new Uint8Array(data.length);
        for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 255;
        send(bytes);
      });
      term.onResize(function (size) {
        checkSize(size.cols, size.rows);
        if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({cols: size.cols, rows: size.rows}));
      });
      window.addEventListener("resize", function () { fit.fit(); });
      document.fonts.ready.then(function () { fit.fit(); });
      fit.fit();
    }
    term.focus();
    connect();
  }

  function checkSize(cols, rows) {
    if (cols >= NEED_COLS && rows >= NEED_ROWS) { small.hidden = true; return; }
    small.textContent = "The table needs " + NEED_COLS + "\u00d7" + NEED_ROWS + " and this window gives " +
      cols + "\u00d7" + rows + ": zoom out (Ctrl and minus) or make the window bigger.";
    small.hidden = false;
  }

  function send(bytes) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(bytes); }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const url = scheme + "//" + window.location.host + "/ws?cols=" + term.cols + "&rows=" + term.rows;
    ws = new WebSocket(url);
    ws.binaryType = "arraybuffer";
    let farewell = "";
    ws.onopen = function () { retry = 0; hideNotice(); term.focus(); checkSize(term.cols, term.rows); };
    ws.onmessage = function (event) {
      const bytes = new Uint8Array(event.data);
      term.write(bytes);
      farewell = (farewell + new TextDecoder().decode(bytes)).slice(-400);
    };
    ws.onclose = function (event) {
      ws = null;
      const line = (farewell.match(/crib3: ([^\r\n]*)\r?\n?$/) || [])[1];
      if (line) {  // the session ended and said why: no reconnecting by itself
        ended = true;
        say(line, {again: true});
        return;
      }
      if (ended) return;
      retry += 1;
      if (retry > 8) { say("The card room cannot be reached.", {again: true}); return; }
      say("Connection lost; reconnecting\u2026");
      setTimeout(connect, Math.min(1000 * retry, 5000));
    };
  }

  begin().catch(function () { say("The card room cannot be reached.", {again: true}); });
})();
