// @ts-check
/**
 * The game page's client: the websocket protocol of docs/API.md and everything the
 * page shows around the board (players, clocks, score, moves, chat, dice verification).
 *
 * The page template provides `<div id="game" data-game-id=".." data-lang=".."></div>`
 * and `window.TAVLA_TEXT`; loading this module starts the client on that element.
 * Tests replace the socket with `window.TAVLA_SOCKET_FACTORY = (url) => fakeSocket`
 * (or set `window.TAVLA_NO_AUTOSTART` and build a `GameClient` themselves).
 *
 * The protocol, in short:
 * - every `state` carries a version `v`; the client shows the highest and drops any
 *   message with a lower or equal one; after a gap (a version skipped, or an `ack`
 *   whose state does not come) and after a reconnection it sends `{"type": "sync"}`;
 * - intents are numbered from the state's `last_seq + 1` and carry the `v` the player
 *   saw; one is in flight at a time (the board waits), and it is sent again with the
 *   same `seq` every two seconds until its `ack` or `error` arrives;
 * - after a drop the client reconnects with a growing delay.
 */

import { Board, playedOnGrid, fillPartsLine, html } from "./board.js";
import { OfficialsPanel } from "./officials.js";
import { seatName, t } from "./text.js";

/**
 * @typedef {{send(data: string): void, close(): void, readyState?: number,
 *   onopen: ((event?: any) => void) | null, onclose: ((event?: any) => void) | null,
 *   onerror: ((event?: any) => void) | null, onmessage: ((event: {data: any}) => void) | null}} SocketLike
 * @typedef {(url: string) => SocketLike} SocketFactory
 * @typedef {{name: string, bot: boolean, bot_level?: string | null, connected: boolean, away_ms: number | null}} Player
 * @typedef {{type: "state", v: number, game_id: string, seat: number | null, last_seq: number,
 *   players: Player[], match: any, steps: any, moves: any[], dice: any, chat: {enabled: boolean,
 *   closed?: boolean, messages: {seat: number, text: string, t_ms: number}[]} | null, spectators: number, arbiters?: number,
 *   warnings?: {seat: number, note: string, t_ms: number}[], official?: {warns: boolean, closes_chat: boolean},
 *   waiting?: Waiting | null}} StateMessage
 * @typedef {{now_ms: number, from_ms: number, arrived: boolean[], credit_due_ms: number | null,
 *   forfeit_at: number, grace_ms: number, step_ms: number}} Waiting
 * @typedef {{gameId?: string, url?: string, socketFactory?: SocketFactory, resendMs?: number,
 *   backoffMs?: number[], now?: () => number, home?: "right" | "left"}} ClientOptions
 */

/** The text saying why a match ended early, by `match.forfeit`, naming the loser. */
const FORFEIT_TEXT = /** @type {Record<string, string>} */ ({
  flag: "match.forfeit_flag",
  warnings: "match.forfeit_warnings",
  absent: "match.forfeit_absent",
  forfeit: "match.forfeit_forfeit",
});

/** The delays before each reconnection attempt, the last repeated. */
export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
/** How long an intent waits for its ack before it is sent again (docs/API.md). */
export const RESEND_MS = 2000;

/**
 * `m:ss` (or `h:mm:ss`) for a duration: rounded up for a clock counting down (it shows
 * 0:00 only when the time is out), down for a time counting up.
 * @param {number} ms
 * @param {boolean} [up]
 */
export function formatDuration(ms, up = true) {
  const total = Math.max(0, up ? Math.ceil(ms / 1000) : Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * What a seat's clock shows `elapsed` ms after the state was read: the allowance runs
 * first, then the reserve; only the running seat's time goes down.
 * @param {{running: number | null, seats: {allowance_ms: number, reserve_ms: number}[]}} clock
 * @param {number} seat
 * @param {number} elapsed
 */
export function clockReading(clock, seat, elapsed) {
  const { allowance_ms: allowance, reserve_ms: reserve } = clock.seats[seat];
  if (clock.running !== seat) return { allowance, reserve, remaining: allowance + reserve };
  const spent = Math.max(0, elapsed);
  const left = Math.max(0, allowance - spent);
  const fromReserve = Math.max(0, reserve - Math.max(0, spent - allowance));
  return { allowance: left, reserve: fromReserve, remaining: left + fromReserve };
}

export class GameClient {
  /**
   * @param {HTMLElement} root the page's `#game` element
   * @param {ClientOptions} [options]
   */
  constructor(root, options = {}) {
    this.root = root;
    this.gameId = options.gameId || root.dataset.gameId || "";
    this.url =
      options.url ||
      `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/game/${encodeURIComponent(this.gameId)}`;
    /** @type {SocketFactory} */
    this.socketFactory = options.socketFactory || ((url) => /** @type {SocketLike} */ (new WebSocket(url)));
    this.resendMs = options.resendMs ?? RESEND_MS;
    this.backoffMs = options.backoffMs || BACKOFF_MS;
    this.now = options.now || (() => Date.now());

    /** @type {SocketLike | null} */
    this.socket = null;
    this.connected = false;
    this.everOpened = false;
    this.attempt = 0;
    this.stopped = false;
    /** @type {number | null} the highest version shown */
    this.v = null;
    /** @type {StateMessage | null} */
    this.state = null;
    this.receivedAt = 0;
    this.nextSeq = 1;
    /** @type {{seq: number, message: any, intent: boolean} | null} the message waiting for its ack */
    this.pending = null;
    /** @type {({type: "intent", action: any, v: number | null} | {type: "chat", text: string})[]} */
    this.outbox = [];
    /** @type {number | null} the version an ack announced, not yet shown */
    this.awaitingV = null;
    /** A sync has been asked for and no state has come since. */
    this.syncAsked = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.resendTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.awaitTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.reconnectTimer = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.ticker = null;
    /** Turn the board round from its natural side (own colour at the bottom). */
    this.flipped = false;
    /** @type {"right" | "left"} */
    this.home = options.home || readHome(root);
    /** @type {{text: string, kind: string}} */
    this.status = { text: "", kind: "" };
    /** @type {HTMLElement[]} */
    this.clockNodes = [];
    /** @type {HTMLElement[]} */
    this.awayNodes = [];

    // The page's parts (put together by build()).
    this.turnLine = html("p", { class: "turn-line", "aria-live": "polite" });
    this.statusLine = html("p", { class: "status-line", role: "status", "aria-live": "polite" });
    this.afterBox = html("div", { class: "after-match", hidden: "" });
    this.playersBox = html("div", { class: "game-players" });
    this.boardHolder = html("div", { class: "board-holder" });
    this.flipButton = html("button", { type: "button", class: "btn btn-flip", "aria-label": t("aria.flip") }, [t("btn.flip")]);
    this.homeButton = html("button", { type: "button", class: "btn btn-home", "aria-label": t("aria.home") }, [t("btn.home")]);
    this.matchInfo = html("p", { class: "match-info" });
    this.moveList = html("ul", { class: "move-list" });
    this.chatBox = html("section", { class: "chat", hidden: "" });
    this.chatLog = html("ul", { class: "chat-log", "aria-live": "polite" });
    this.chatInput = /** @type {HTMLInputElement} */ (
      html("input", { type: "text", maxlength: 300, placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") })
    );
    this.chatForm = html("form", { class: "chat-form" }, [
      this.chatInput,
      html("button", { type: "submit", class: "btn" }, [t("chat.send")]),
    ]);
    this.chatBox.append(html("h2", {}, [t("chat.title")]), this.chatLog, this.chatForm);
    /** @type {HTMLDetailsElement} */
    this.verify = /** @type {HTMLDetailsElement} */ (html("details", { class: "verify", hidden: "" }));
    this.spectators = html("p", { class: "spectators" });
    this.officials = new OfficialsPanel(
      (message) => this.send(message),
      (seat) => this.nameOf(seat),
    );
    this.board = new Board(this.boardHolder, {
      home: this.home,
      onIntent: (action) => this.act(action),
    });
    this.build();
  }

  // ------------------------------------------------------------------ connection

  start() {
    this.stopped = false;
    this.connect();
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 250);
  }

  stop() {
    this.stopped = true;
    for (const timer of [this.resendTimer, this.awaitTimer, this.reconnectTimer]) if (timer) clearTimeout(timer);
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
  }

  connect() {
    this.reconnectTimer = null;
    if (this.stopped) return;
    this.setStatus(this.everOpened ? t("conn.lost") : t("conn.connecting"), this.everOpened ? "warning" : "");
    let socket;
    try {
      socket = this.socketFactory(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket === socket) this.onOpen();
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.onText(event.data);
    };
    socket.onclose = () => {
      if (this.socket === socket) this.onClose();
    };
    socket.onerror = () => {
      // A close follows every error; the reconnection starts there.
    };
  }

  onOpen() {
    this.connected = true;
    this.attempt = 0;
    if (this.everOpened) this.sync(); // be sure of the state after a reconnection
    this.everOpened = true;
    this.setStatus("", "");
    if (this.pending) this.transmit(this.pending.message);
    else this.flush();
    this.updateBusy();
  }

  onClose() {
    this.connected = false;
    this.socket = null;
    if (this.resendTimer) clearTimeout(this.resendTimer);
    this.resendTimer = null;
    this.updateBusy();
    if (this.stopped) return;
    this.setStatus(t("conn.lost"), "warning");
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.backoffMs[Math.min(this.attempt, this.backoffMs.length - 1)];
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  /** @param {any} message */
  send(message) {
    if (!this.socket || !this.connected) return false;
    try {
      this.socket.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  sync() {
    this.syncAsked = true;
    this.send({ type: "sync" });
  }

  // ------------------------------------------------------------------ messages

  /** @param {any} data */
  onText(data) {
    let message;
    try {
      message = typeof data === "string" ? JSON.parse(data) : data;
    } catch {
      return;
    }
    if (message && typeof message === "object") this.handle(message);
  }

  /** @param {any} message */
  handle(message) {
    switch (message.type) {
      case "state":
        this.onState(/** @type {StateMessage} */ (message));
        break;
      case "ack":
        this.onAck(message);
        break;
      case "error":
        this.onError(message);
        break;
      default:
        break; // a newer server's message
    }
  }

  /** @param {StateMessage} message */
  onState(message) {
    if (typeof message.v !== "number") return;
    if (this.v !== null && message.v <= this.v) return; // already shown, or older
    const gap = this.v !== null && message.v > this.v + 1 && !this.syncAsked;
    this.v = message.v;
    this.state = message;
    this.receivedAt = this.now();
    this.syncAsked = false;
    if (typeof message.last_seq === "number") {
      this.nextSeq = Math.max(this.nextSeq, message.last_seq + 1);
      // An intent the server has accepted (its ack lost in a drop) is done.
      if (this.pending && this.pending.seq <= message.last_seq) this.finishPending();
    }
    if (this.awaitingV !== null && message.v >= this.awaitingV) this.clearAwaiting();
    if (this.status.kind === "warning" && this.connected) this.setStatus("", "");
    this.render();
    if (gap) this.sync();
    this.flush();
  }

  /** @param {{seq: number, v: number}} message */
  onAck(message) {
    if (!this.pending || message.seq !== this.pending.seq) return;
    const wasIntent = this.pending.intent;
    this.finishPending();
    if (typeof message.v === "number" && (this.v === null || message.v > this.v)) {
      // The state of that version follows; ask for it if it does not come.
      this.awaitingV = message.v;
      if (this.awaitTimer) clearTimeout(this.awaitTimer);
      this.awaitTimer = setTimeout(() => {
        this.awaitTimer = null;
        if (this.awaitingV !== null && (this.v === null || this.v < this.awaitingV)) this.sync();
        this.awaitingV = null;
        this.updateBusy();
      }, this.resendMs);
    }
    this.updateBusy();
    if (!wasIntent || this.awaitingV === null) this.flush();
  }

  /** @param {{seq?: number | null, code: string, message?: string}} message */
  onError(message) {
    if (this.pending && message.seq === this.pending.seq) {
      const intent = this.pending.intent;
      this.finishPending();
      // The queued intents were chosen on a board the server refused: let the player choose again.
      if (intent) this.outbox = this.outbox.filter((item) => item.type !== "intent");
    }
    if (message.code === "old_seq") this.sync();
    const known = t(`error.${message.code}`);
    const text = message.message || (known === `error.${message.code}` ? t("error.unknown", { code: message.code }) : known);
    this.setStatus(text, "error");
    this.updateBusy();
    this.flush();
  }

  finishPending() {
    this.pending = null;
    if (this.resendTimer) clearTimeout(this.resendTimer);
    this.resendTimer = null;
  }

  clearAwaiting() {
    this.awaitingV = null;
    if (this.awaitTimer) clearTimeout(this.awaitTimer);
    this.awaitTimer = null;
  }

  // ------------------------------------------------------------------ intents

  /**
   * The player acts: an action of docs/json.md, sent as an intent.
   * @param {any} action
   */
  act(action) {
    if (!this.state || this.state.seat === null || this.state.seat === undefined) return false;
    this.outbox.push({ type: "intent", action, v: this.v });
    this.flush();
    this.updateBusy();
    return true;
  }

  /**
   * A chat message to the opponent.
   * @param {string} text
   */
  chat(text) {
    const clean = text.trim().slice(0, 300);
    if (!clean || !this.state || this.state.seat === null) return false;
    this.outbox.push({ type: "chat", text: clean });
    this.flush();
    return true;
  }

  /** Send the next waiting message if nothing is in flight. */
  flush() {
    if (this.pending || !this.connected || this.awaitingV !== null) return;
    const item = this.outbox.shift();
    if (!item) return;
    const seq = this.nextSeq;
    this.nextSeq += 1;
    const message =
      item.type === "intent"
        ? { type: "intent", seq, v: item.v ?? this.v, action: item.action }
        : { type: "chat", seq, text: item.text };
    this.pending = { seq, message, intent: item.type === "intent" };
    this.transmit(message);
    this.updateBusy();
  }

  /** Send (or send again) the pending message and wait for its ack. @param {any} message */
  transmit(message) {
    if (this.resendTimer) clearTimeout(this.resendTimer);
    this.resendTimer = null;
    this.send(message);
    this.resendTimer = setTimeout(() => {
      this.resendTimer = null;
      if (this.pending && this.pending.message === message && this.connected) this.transmit(message);
    }, this.resendMs);
  }

  /** The board waits while an intent is on its way or the connection is down. */
  get busy() {
    return (
      !this.connected ||
      (this.pending !== null && this.pending.intent) ||
      this.awaitingV !== null ||
      this.outbox.some((item) => item.type === "intent")
    );
  }

  updateBusy() {
    this.board.setBusy(this.busy);
  }

  // ------------------------------------------------------------------ the page

  build() {
    const root = this.root;
    root.classList.add("tavla-game");
    if (root.dataset.lang) root.lang = root.dataset.lang;
    root.replaceChildren();
    root.append(
      html("div", { class: "game-status" }, [this.turnLine, this.statusLine]),
      this.afterBox,
      this.playersBox,
      html("div", { class: "game-main" }, [
        this.boardHolder,
        html("div", { class: "view-controls" }, [this.flipButton, this.homeButton]),
      ]),
      html("div", { class: "game-side" }, [
        this.matchInfo,
        html("section", { class: "moves" }, [html("h2", {}, [t("moves.title")]), this.moveList]),
        this.chatBox,
        this.officials.root,
        this.verify,
        this.spectators,
      ]),
    );
    this.board.setBusy(true);
    this.flipButton.addEventListener("click", () => {
      this.flipped = !this.flipped;
      this.orient();
      this.renderPlayers();
    });
    this.homeButton.addEventListener("click", () => {
      this.home = this.home === "right" ? "left" : "right";
      try {
        localStorage.setItem("tavla.home", this.home);
      } catch {
        // storage may be off
      }
      this.orient();
      // A signed-in player's choice follows them to every device (their account's setting).
      const meta = document.querySelector('meta[name="csrf-token"]');
      const csrf = meta ? meta.getAttribute("content") || "" : "";
      if (csrf) {
        this.root.dataset.homeSide = this.home;
        fetch("/api/me/preferences", {
          method: "PUT",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
          body: JSON.stringify({ home_side: this.home }),
          credentials: "same-origin",
        }).catch(() => undefined);
      }
    });
    this.chatForm.addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.chat(this.chatInput.value)) this.chatInput.value = "";
    });
  }

  /**
   * @param {string} text
   * @param {string} kind "", "error", "warning" or "pending"
   */
  setStatus(text, kind) {
    this.status = { text, kind };
    this.statusLine.textContent = text;
    this.statusLine.className = `status-line ${kind}`.trim();
  }

  /** The colour at the bottom: the player's own (White for a spectator), unless flipped. */
  bottomColour() {
    const state = this.state;
    const seat = state ? state.seat : null;
    const colours = state && state.match ? state.match.colours : ["white", "black"];
    const natural = seat === null || seat === undefined ? "white" : colours[seat];
    return this.flipped ? (natural === "white" ? "black" : "white") : natural;
  }

  orient() {
    this.board.setOrientation({ bottom: this.bottomColour(), home: this.home });
  }

  /** @param {number | null | undefined} seat */
  nameOf(seat) {
    const state = this.state;
    if (!state || seat === null || seat === undefined) return "";
    const player = state.players && state.players[seat];
    if (player) return seatName(player.name, player.bot_level);
    return state.match ? state.match.settings.names[seat] : "";
  }

  render() {
    const state = this.state;
    if (!state) return;
    this.root.dataset.v = String(state.v);
    this.board.setOrientation({ bottom: this.bottomColour(), home: this.home });
    this.board.update({ match: state.match, steps: state.steps, seat: state.seat });
    // Abluka's grid has no home board to put on either side.
    this.homeButton.hidden = playedOnGrid(state.match);
    this.updateBusy();
    this.turnLine.textContent = this.turnText();
    this.renderPlayers();
    this.renderInfo();
    this.renderMoves();
    this.renderChat();
    this.officials.render(state);
    this.renderVerify();
    this.renderAfter();
    const watching = t("spectators.count", { n: state.spectators || 0 });
    this.spectators.textContent = state.arbiters ? `${watching} · ${t("spectators.arbiter")}` : watching;
  }

  /** After the match: a rematch for its players, the archive and the lobby for all. */
  renderAfter() {
    const state = /** @type {StateMessage} */ (this.state);
    const over = Boolean(state.match && state.match.over);
    this.afterBox.hidden = !over;
    if (!over || this.afterBox.childElementCount) return;
    const gameId = this.root.dataset.gameId || "";
    const links = [
      html("a", { href: `/archive/${gameId}`, class: "after-archive" }, [t("after.archive")]),
      html("a", { href: "/", class: "after-lobby" }, [t("after.lobby")]),
    ];
    if (state.seat !== null) {
      const rematch = html("button", { type: "button", class: "after-rematch" }, [t("after.rematch")]);
      rematch.addEventListener("click", async () => {
        const meta = document.querySelector('meta[name="csrf-token"]');
        const response = await fetch(`/api/games/${gameId}/rematch`, {
          method: "POST",
          headers: { "X-CSRF-Token": meta ? meta.getAttribute("content") || "" : "" },
          credentials: "same-origin",
        });
        const answer = await response.json().catch(() => ({}));
        if (!response.ok) this.setStatus(answer.error ? answer.error.message : response.statusText, "error");
        else if (answer.url) location.href = answer.url;
        else this.setStatus(t("after.offered"), "");
      });
      links.unshift(rematch);
    }
    this.afterBox.replaceChildren(...links);
  }

  /**
   * The no-show procedure while the first game awaits its players (RULES.md 11.4): who
   * is awaited, and how long until the one who came is credited his next point.
   * @param {Waiting} waiting
   */
  waitingText(waiting) {
    const absent = waiting.arrived.indexOf(false);
    if (waiting.arrived.every((came) => !came)) return t("wait.nobody");
    const awaited = t("wait.for", { name: this.nameOf(absent) });
    if (waiting.credit_due_ms === null) return awaited;
    const left = Math.max(0, waiting.credit_due_ms - waiting.now_ms - (this.now() - this.receivedAt));
    // Abluka's matches are counted in sets, the dice games' in points; one of either
    // is said in the singular (a one-point match is common in a Swiss event).
    const sets = playedOnGrid(/** @type {StateMessage} */ (this.state).match);
    const credit = t(sets ? "wait.credit_set" : "wait.credit_point", {
      name: this.nameOf(1 - absent),
      time: formatDuration(left),
    });
    const target = waiting.forfeit_at;
    let wins;
    if (sets) wins = target === 1 ? t("wait.forfeit_set_1") : t("wait.forfeit_sets", { n: target });
    else wins = target === 1 ? t("wait.forfeit_point_1") : t("wait.forfeit_points", { n: target });
    return `${awaited} · ${credit}; ${wins}`;
  }

  turnText() {
    const state = /** @type {StateMessage} */ (this.state);
    const match = state.match;
    const seat = state.seat;
    if (!match) return "";
    if (match.over) {
      if (match.winner === null) return t(match.forfeit === "void" ? "match.void" : "match.drawn");
      const name = this.nameOf(match.winner);
      const why = FORFEIT_TEXT[match.forfeit];
      if (why) return `${t("match.over", { name })} · ${t(why, { name: this.nameOf(1 - match.winner) })}`;
      return t("match.over", { name });
    }
    if (state.waiting) return this.waitingText(state.waiting);
    const acting = seat !== null && match.actor === seat;
    const opponent = seat === null ? null : 1 - seat;
    if (acting) {
      switch (match.phase) {
        case "roll":
          return t(match.cube && match.cube.may_double ? "turn.you_roll_double" : "turn.you_roll");
        case "move":
          return t(state.steps && state.steps.complete ? "turn.you_commit" : "turn.you_move");
        case "double":
          return t("turn.you_double", { name: this.nameOf(opponent), value: match.cube.value * 2 });
        case "raccoon":
          return t("turn.you_raccoon", { name: this.nameOf(opponent) });
        case "resign":
          return t("turn.you_resign", {
            name: this.nameOf(opponent),
            level: match.resign ? t(`resign.${match.resign.level}`) : "",
          });
        default:
          break;
      }
    }
    if (match.phase === "between") {
      const rests = seat !== null && match.game_number > 0 && match.breaks_left && match.breaks_left[seat] > 0;
      return rests ? t("turn.you_break") : t("turn.between");
    }
    if (match.phase === "opening") return t("turn.opening");
    if (match.actor !== null) {
      const name = this.nameOf(match.actor);
      const actor = state.players && state.players[match.actor];
      if (actor && actor.bot) return t("turn.bot_thinking", { name });
      return seat === null ? t("turn.spectating", { name }) : t("turn.waiting", { name });
    }
    return "";
  }

  renderPlayers() {
    const state = this.state;
    if (!state || !state.match) return;
    const match = state.match;
    const bottom = this.bottomColour();
    const seats = [0, 1].sort((a, b) => (match.colours[a] === bottom ? 1 : 0) - (match.colours[b] === bottom ? 1 : 0));
    this.clockNodes = [];
    this.awayNodes = [];
    const boxes = seats.map((seat) => {
      const player = state.players[seat] || { name: this.nameOf(seat), bot: false, connected: true, away_ms: null };
      const colour = match.colours[seat];
      const clock = html("span", { class: "clock", "aria-label": t("clock.label") });
      const away = html("span", { class: "away" });
      this.clockNodes[seat] = clock;
      this.awayNodes[seat] = away;
      const box = html("div", { class: `player seat-${seat}${match.actor === seat && !match.over ? " to-act" : ""}`, "data-seat": seat }, [
        html("span", { class: `swatch ${colour}`, role: "img", "aria-label": t(`colour.${colour}`) }),
        html("span", { class: "name" }, [seatName(player.name, player.bot_level)]),
        seat === state.seat && html("span", { class: "you" }, [t("player.you")]),
        player.bot && html("span", { class: "bot" }, [t("player.bot")]),
        html("span", { class: "score", "aria-label": t("score.label") }, [String(match.score ? match.score[seat] : 0)]),
        away,
        clock,
      ]);
      return box;
    });
    this.playersBox.replaceChildren(...boxes);
    this.tick();
  }

  /** Update the clocks and the away times, counting from the state's reading. */
  tick() {
    const state = this.state;
    if (!state || !state.match || !this.clockNodes) return;
    const elapsed = this.now() - this.receivedAt;
    if (state.waiting && !state.match.over) this.turnLine.textContent = this.turnText();
    const clock = state.match.clock;
    for (const seat of [0, 1]) {
      const node = this.clockNodes[seat];
      if (node) {
        if (!clock) {
          node.hidden = true;
        } else {
          const reading = clockReading(clock, seat, state.match.over ? 0 : elapsed);
          node.hidden = false;
          node.textContent = formatDuration(reading.remaining);
          node.title = `${formatDuration(reading.allowance)} + ${t("clock.reserve")} ${formatDuration(reading.reserve)}`;
          node.classList.toggle("running", clock.running === seat && !state.match.over);
          node.classList.toggle("low", reading.remaining < 30000);
        }
      }
      const away = this.awayNodes[seat];
      const player = state.players[seat];
      if (away && player) {
        if (state.waiting && !state.waiting.arrived[seat]) {
          away.textContent = t("player.not_come");
        } else if (player.away_ms === null || player.away_ms === undefined) {
          away.textContent = player.connected === false ? t("player.offline") : "";
        } else {
          away.textContent = t("player.away", { time: formatDuration(player.away_ms + elapsed, false) });
        }
      }
    }
  }

  renderInfo() {
    const match = /** @type {StateMessage} */ (this.state).match;
    const parts = [];
    const settings = match.settings;
    if (playedOnGrid(match)) parts.push(t("match.sets", { n: settings.sets }));
    else if (settings.length > 0) parts.push(t("match.length", { n: settings.length }));
    else parts.push(t("match.money"));
    if (match.game_number > 0) parts.push(t("match.game", { n: match.game_number }));
    parts.push(`${t("score.label")} ${match.score[0]}–${match.score[1]}`);
    if (match.crawford) parts.push(t("match.crawford"));
    fillPartsLine(this.matchInfo, [match.position ? t(`game.${match.position.game}`) : "", ...parts]);
  }

  renderMoves() {
    const state = /** @type {StateMessage} */ (this.state);
    const moves = state.moves || [];
    const items = [];
    let game = null;
    for (const move of moves) {
      if (move.game !== game) {
        game = move.game;
        items.push(html("li", { class: "game-head" }, [t("match.game", { n: game })]));
      }
      const name = move.seat === null || move.seat === undefined ? t("turn.opening") : this.nameOf(move.seat);
      let text = move.text || "";
      if (move.kind !== "move" && move.kind !== "opening") {
        const word = t(`btn.${move.kind}`);
        text = text ? `${word} (${text})` : word;
      }
      const entry =
        move.dice && move.kind === "move"
          ? t("moves.entry_dice", { name, dice: move.dice, text })
          : t("moves.entry", { name, text });
      items.push(html("li", { class: `move kind-${move.kind}` }, [entry]));
    }
    if (items.length === 0) items.push(html("li", { class: "game-head" }, [t("moves.none")]));
    const atEnd = this.moveList.scrollTop + this.moveList.clientHeight >= this.moveList.scrollHeight - 4;
    this.moveList.replaceChildren(...items);
    if (atEnd) this.moveList.scrollTop = this.moveList.scrollHeight;
  }

  renderChat() {
    const state = /** @type {StateMessage} */ (this.state);
    const chat = state.chat;
    const enabled = !!(chat && chat.enabled);
    // An arbiter reads the players' chat even once it is off or closed (RULES.md 11.2).
    const arbiter = Boolean(state.official && state.official.closes_chat);
    this.chatBox.hidden = !enabled && !arbiter;
    if (this.chatBox.hidden || !chat) return;
    this.chatLog.replaceChildren(
      ...chat.messages.map((line) =>
        html("li", { class: `chat-line seat-${line.seat}` }, [html("strong", {}, [`${this.nameOf(line.seat)}: `]), line.text]),
      ),
      ...(chat.closed ? [html("li", { class: "chat-closed" }, [t("chat.closed")])] : []),
    );
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
    this.chatForm.hidden = state.seat === null || state.seat === undefined;
  }

  renderVerify() {
    const dice = /** @type {StateMessage} */ (this.state).dice;
    if (!dice || !dice.commitment) {
      this.verify.hidden = true;
      return;
    }
    this.verify.hidden = false;
    const open = this.verify.open;
    const revealed = Array.isArray(dice.revealed) ? dice.revealed : [];
    this.verify.replaceChildren(
      html("summary", {}, [t("dice.verify_title")]),
      html("p", {}, [t("dice.verify_help")]),
      html("p", {}, [t("dice.commitment"), html("code", { class: "commitment" }, [dice.commitment])]),
      dice.client_seed && html("p", {}, [t("dice.client_seed"), html("code", { class: "client-seed" }, [dice.client_seed])]),
      ...revealed.map((/** @type {any} */ seed) =>
        html("p", { class: "revealed" }, [
          `${t("match.game", { n: seed.game })}: `,
          html("code", {}, [`${seed.server_seed} → ${seed.commitment}`]),
        ]),
      ),
    );
    this.verify.open = open;
  }
}

/**
 * The side of the home board: the player's choice kept in this browser, else the
 * account's setting the page gives (`data-home-side`), else the right.
 * @param {HTMLElement} root
 * @returns {"right" | "left"}
 */
function readHome(root) {
  let stored = null;
  try {
    stored = localStorage.getItem("tavla.home");
  } catch {
    stored = null;
  }
  const value = root.dataset.homeSide || stored;
  return value === "left" ? "left" : "right";
}

/**
 * Start the client on the page's `#game` element.
 * @param {HTMLElement} [root]
 * @param {ClientOptions} [options]
 */
export function startGamePage(root, options = {}) {
  const element = root || document.getElementById("game");
  if (!element) return null;
  /** @type {any} */
  const global = globalThis;
  const client = new GameClient(element, {
    socketFactory: global.TAVLA_SOCKET_FACTORY,
    ...options,
  });
  client.start();
  global.tavlaGame = client;
  return client;
}

if (typeof document !== "undefined" && !(/** @type {any} */ (globalThis).TAVLA_NO_AUTOSTART)) {
  if (document.getElementById("game")) startGamePage();
}
