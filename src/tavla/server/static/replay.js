// @ts-check
/**
 * The archive page's replay: every state of a finished (or live) match, drawn with the
 * web board, read-only, one action at a time.
 *
 * The page template provides `<div id="replay" data-game-id=".."></div>` and
 * `window.TAVLA_TEXT`; loading this module fetches `GET /api/games/{id}/replay`
 * (`{"id", "players", "states": [{"action": {k, s?, v?, t} | null, "match": ...}]}`,
 * docs/API.md) and builds:
 *
 * - the board (`.board-holder`, the `Board` of board.js without its buttons: no intents);
 * - a toolbar (`.replay-nav`) with First / Previous / Next / Last buttons
 *   (`button[data-go="first" | "previous" | "next" | "last"]`), a slider
 *   (`input.replay-slider`, one step per state) and the step shown (`.replay-counter`);
 * - the move list (`ol.replay-moves`): one button per state (`button[data-index]`, the
 *   start of the match first, then each action), the current one marked
 *   `aria-current="step"`; clicking one shows the state after that action.
 *
 * The arrow keys step back and forth (Home and End go to the ends) while the focus is
 * not in a text field; the step shown is kept in the address's `#n`.
 */

import { Board, playedOnGrid, fillPartsLine, html } from "./board.js";
import { seatName, t } from "./text.js";

/**
 * @typedef {{k: string, s?: number, v?: string, t: number}} RecordAction
 * @typedef {{action: RecordAction | null, match: any}} ReplayState
 * @typedef {{id: string, players: string[], bots?: (string | null)[], states: ReplayState[]}} ReplayData
 */

/** Action kinds whose word is the board's button text (`btn.{kind}`). */
const CUBE_AND_RESIGN = ["double", "take", "drop", "beaver", "raccoon", "resign", "accept", "decline", "break"];

/**
 * Dice as the record writes them ("31") shown as "3-1".
 * @param {string} value
 */
export function formatDice(value) {
  return value.split("").join("-");
}

/**
 * The text of one recorded action in the move list.
 * @param {RecordAction} action
 * @param {(seat: number | undefined) => string} nameOf
 * @param {number} game the match's game number after the action
 * @returns {string}
 */
export function describeAction(action, nameOf, game) {
  const name = nameOf(action.s);
  const value = action.v || "";
  switch (action.k) {
    case "start":
      return t("replay.game_start", { n: game });
    case "roll":
      return action.s === undefined || action.s === null
        ? t("replay.opening", { dice: formatDice(value) })
        : t("replay.roll", { name, dice: formatDice(value) });
    case "move":
      return t("moves.entry", { name, text: value || t("replay.no_move") });
    case "flag":
      return t("replay.flag", { name });
    case "warn":
      return value ? t("replay.warn_note", { name, note: value }) : t("replay.warn", { name });
    default:
      if (CUBE_AND_RESIGN.includes(action.k)) {
        const word = t(`btn.${action.k}`);
        const text = action.k === "resign" && value ? `${word} (${t(`resign.${value}`)})` : word;
        return t("moves.entry", { name, text });
      }
      return t("moves.entry", { name, text: value ? `${action.k} ${value}` : action.k });
  }
}

export class Replay {
  /**
   * @param {HTMLElement} root the page's `#replay` element
   * @param {{gameId?: string, fetchJson?: (url: string) => Promise<any>}} [options]
   */
  constructor(root, options = {}) {
    this.root = root;
    this.gameId = options.gameId || root.dataset.gameId || "";
    this.fetchJson =
      options.fetchJson ||
      (async (/** @type {string} */ url) => {
        const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error(`${response.status}`);
        return response.json();
      });
    /** @type {ReplayData | null} */
    this.data = null;
    this.index = 0;
    this.flipped = false;

    this.turnLine = html("p", { class: "turn-line", "aria-live": "polite" });
    this.statusLine = html("p", { class: "status-line", role: "status" }, [t("replay.loading")]);
    this.playersBox = html("div", { class: "game-players" });
    this.boardHolder = html("div", { class: "board-holder" });
    this.board = new Board(this.boardHolder, { controls: false });
    /** @type {Record<string, HTMLButtonElement>} */
    this.nav = {};
    for (const [go, symbol] of [["first", "«"], ["previous", "‹"], ["next", "›"], ["last", "»"]]) {
      const label = t(`replay.${go}`);
      const arrow = html("span", { class: "replay-arrow", "aria-hidden": "true" }, [symbol]);
      const word = html("span", { class: "replay-word" }, [label]);
      const forward = go === "next" || go === "last";
      this.nav[go] = /** @type {HTMLButtonElement} */ (
        html("button", { type: "button", class: `btn replay-${go}`, "data-go": go, "aria-label": label, title: label },
          forward ? [word, arrow] : [arrow, word])
      );
      this.nav[go].addEventListener("click", () => this.go(go));
    }
    this.slider = /** @type {HTMLInputElement} */ (
      html("input", { type: "range", class: "replay-slider", min: 0, max: 0, step: 1, value: 0, "aria-label": t("replay.slider") })
    );
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.counter = html("span", { class: "replay-counter", "aria-live": "polite" });
    this.flipButton = html("button", { type: "button", class: "btn btn-flip", "aria-label": t("aria.flip") }, [t("btn.flip")]);
    this.flipButton.addEventListener("click", () => {
      this.flipped = !this.flipped;
      this.board.setOrientation({ bottom: this.flipped ? "black" : "white" });
      this.renderPlayers();
    });
    this.matchInfo = html("p", { class: "match-info" });
    this.moveList = html("ol", { class: "move-list replay-moves" });
    this.moveList.addEventListener("click", (event) => {
      const target = /** @type {Element | null} */ (event.target);
      const button = target && target.closest ? target.closest("button[data-index]") : null;
      if (button) this.show(Number(/** @type {HTMLElement} */ (button).dataset.index));
    });
    /** @type {HTMLButtonElement[]} */
    this.moveButtons = [];
    this.onKey = this.onKey.bind(this);
    this.build();
  }

  build() {
    const root = this.root;
    root.classList.add("tavla-game", "tavla-replay");
    root.replaceChildren(
      html("div", { class: "game-status" }, [this.turnLine, this.statusLine]),
      this.playersBox,
      html("div", { class: "game-main" }, [
        this.boardHolder,
        html("div", { class: "replay-nav", role: "toolbar", "aria-label": t("replay.title") }, [
          this.nav.first,
          this.nav.previous,
          this.slider,
          this.nav.next,
          this.nav.last,
        ]),
        html("div", { class: "view-controls" }, [this.counter, this.flipButton]),
      ]),
      html("div", { class: "game-side" }, [
        this.matchInfo,
        html("section", { class: "moves" }, [html("h2", {}, [t("moves.title")]), this.moveList]),
      ]),
    );
    this.setEnabled(false);
  }

  /** Fetch the replay and show the state the address names (else the start). */
  async load() {
    try {
      const data = await this.fetchJson(`/api/games/${encodeURIComponent(this.gameId)}/replay`);
      this.setData(/** @type {ReplayData} */ (data));
    } catch {
      this.statusLine.textContent = t("replay.error");
      this.statusLine.className = "status-line error";
      return;
    }
    document.addEventListener("keydown", this.onKey);
  }

  /** @param {ReplayData} data */
  setData(data) {
    this.data = data;
    this.statusLine.textContent = "";
    this.statusLine.className = "status-line";
    const last = Math.max(0, data.states.length - 1);
    this.slider.max = String(last);
    this.renderMoves();
    this.setEnabled(data.states.length > 0);
    const fromHash = Number((location.hash || "").replace(/^#/, ""));
    this.show(Number.isInteger(fromHash) && fromHash > 0 ? fromHash : 0, false);
    this.root.dataset.ready = "";
  }

  /** @param {boolean} on */
  setEnabled(on) {
    for (const button of Object.values(this.nav)) button.disabled = !on;
    this.slider.disabled = !on;
  }

  get count() {
    return this.data ? this.data.states.length : 0;
  }

  /** @param {string} where "first", "previous", "next" or "last" */
  go(where) {
    const targets = { first: 0, previous: this.index - 1, next: this.index + 1, last: this.count - 1 };
    const index = /** @type {Record<string, number>} */ (targets)[where];
    if (index !== undefined) this.show(index);
  }

  /** @param {number | undefined} seat */
  nameOf(seat) {
    if (seat === undefined || seat === null) return "";
    const data = this.data;
    const first = data && data.states[0] ? data.states[0].match : null;
    const name = (data && data.players && data.players[seat]) || (first ? first.settings.names[seat] : "") || "";
    return seatName(name, data && data.bots ? data.bots[seat] : null);
  }

  /**
   * Show the state `index` (clamped to the replay).
   * @param {number} index
   * @param {boolean} [remember] keep the step in the address
   */
  show(index, remember = true) {
    const data = this.data;
    if (!data || data.states.length === 0) return;
    const clamped = Math.max(0, Math.min(data.states.length - 1, Math.trunc(index) || 0));
    this.index = clamped;
    const state = data.states[clamped];
    this.board.update({ match: state.match, steps: null, seat: null });
    this.root.dataset.index = String(clamped);
    this.slider.value = String(clamped);
    this.counter.textContent = t("replay.position", { n: clamped, total: data.states.length - 1 });
    this.nav.first.disabled = this.nav.previous.disabled = clamped === 0;
    this.nav.next.disabled = this.nav.last.disabled = clamped === data.states.length - 1;
    this.turnLine.textContent = this.turnText(clamped);
    this.renderPlayers();
    this.renderInfo();
    this.moveButtons.forEach((button, i) => {
      const current = i === clamped;
      button.classList.toggle("current", current);
      if (current) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    const button = this.moveButtons[clamped];
    if (button) {
      // Scroll the list only, never the page.
      const list = this.moveList;
      const top = button.offsetTop - list.offsetTop;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + button.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top + button.offsetHeight - list.clientHeight;
      }
    }
    if (remember) {
      try {
        history.replaceState(null, "", `#${clamped}`);
      } catch {
        // an opaque origin has no history to write to
      }
    }
  }

  /** @param {number} index */
  turnText(index) {
    const state = /** @type {ReplayData} */ (this.data).states[index];
    const match = state.match;
    const action = state.action;
    const head = action ? describeAction(action, (seat) => this.nameOf(seat), match.game_number) : t("replay.start");
    if (match.over) {
      const result = match.winner === null || match.winner === undefined
        ? t("match.drawn")
        : t("match.over", { name: this.nameOf(match.winner) });
      return `${head} · ${result}`;
    }
    return head;
  }

  renderPlayers() {
    const data = this.data;
    if (!data) return;
    const match = data.states[this.index].match;
    const bottom = this.board.orientation.bottom;
    const seats = [0, 1].sort((a, b) => (match.colours[a] === bottom ? 1 : 0) - (match.colours[b] === bottom ? 1 : 0));
    this.playersBox.replaceChildren(
      ...seats.map((seat) => {
        const colour = match.colours[seat];
        const toAct = match.actor === seat && !match.over;
        return html("div", { class: `player seat-${seat}${toAct ? " to-act" : ""}`, "data-seat": seat }, [
          html("span", { class: `swatch ${colour}`, role: "img", "aria-label": t(`colour.${colour}`) }),
          html("span", { class: "name" }, [this.nameOf(seat)]),
          toAct && html("span", { class: "to-act-word" }, [t("player.to_act")]),
          html("span", { class: "score", "aria-label": t("score.label") }, [String(match.score ? match.score[seat] : 0)]),
        ]);
      }),
    );
  }

  renderInfo() {
    const match = /** @type {ReplayData} */ (this.data).states[this.index].match;
    const settings = match.settings;
    const parts = [];
    if (playedOnGrid(match)) parts.push(t("match.sets", { n: settings.sets }));
    else if (settings.length > 0) parts.push(t("match.length", { n: settings.length }));
    else parts.push(t("match.money"));
    if (match.game_number > 0) parts.push(t("match.game", { n: match.game_number }));
    parts.push(`${t("score.label")} ${match.score[0]}–${match.score[1]}`);
    fillPartsLine(this.matchInfo, [match.position ? match.position.title : "", ...parts]);
  }

  renderMoves() {
    const data = /** @type {ReplayData} */ (this.data);
    /** @type {HTMLElement[]} */
    const items = [];
    this.moveButtons = data.states.map((state, index) => {
      const text = state.action
        ? describeAction(state.action, (seat) => this.nameOf(seat), state.match.game_number)
        : t("replay.start");
      const kind = state.action ? state.action.k : "start";
      const button = /** @type {HTMLButtonElement} */ (
        html("button", { type: "button", class: `replay-move kind-${kind}`, "data-index": index }, [text])
      );
      items.push(html("li", { class: kind === "start" ? "game-head" : "move" }, [button]));
      return button;
    });
    this.moveList.replaceChildren(...items);
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {HTMLElement | null} */ (event.target instanceof HTMLElement ? event.target : null);
    if (target) {
      if (target === this.slider) return; // the slider steps by itself
      const tag = target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable) return;
    }
    const where = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (!where) return;
    event.preventDefault();
    this.go(where);
    const current = this.moveButtons[this.index];
    if (target && target.closest && target.closest(".replay-moves") && current) current.focus();
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
  }
}

/**
 * Start the replay on the page's `#replay` element.
 * @param {HTMLElement} [root]
 */
export function startReplayPage(root) {
  const element = root || document.getElementById("replay");
  if (!element) return null;
  const replay = new Replay(element);
  /** @type {any} */ (globalThis).tavlaReplay = replay;
  replay.load();
  return replay;
}

if (typeof document !== "undefined" && !(/** @type {any} */ (globalThis).TAVLA_NO_AUTOSTART)) {
  if (document.getElementById("replay")) startReplayPage();
}
