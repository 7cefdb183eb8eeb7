// @ts-check
/**
 * The arbiter's part of the game page (RULES.md 8.3, 11.2, 11.4): the warnings every
 * viewer sees (a count per player and the notes), and for an arbiter or administrator
 * of the tournament's federation the buttons that warn a player, declare a forfeit
 * (one player, or both when neither came) and close the chat.
 * The server decides who may (the state's `official`); the buttons only ask.
 */

import { html } from "./board.js";
import { t } from "./text.js";

/** The warning that loses the match (RULES.md 8.3, 11.4). */
export const WARNINGS_TO_LOSE = 3;

/**
 * @typedef {{seat: number, note: string, t_ms: number}} Warning
 * @typedef {{warns: boolean, closes_chat: boolean}} Official
 */

export class OfficialsPanel {
  /**
   * @param {(message: any) => boolean} send sends one message on the game's socket
   * @param {(seat: number) => string} nameOf a seat's player
   */
  constructor(send, nameOf) {
    this.send = send;
    this.nameOf = nameOf;
    this.seq = 1;
    this.counts = html("ul", { class: "warning-counts" });
    this.notes = html("ul", { class: "warning-notes" });
    this.note = /** @type {HTMLInputElement} */ (
      html("input", { type: "text", maxlength: 200, class: "warning-note", placeholder: t("warn.note"), "aria-label": t("warn.note") })
    );
    this.warnButtons = [0, 1].map((seat) => {
      const button = html("button", { type: "button", class: "btn btn-warn", "data-seat": String(seat) });
      button.addEventListener("click", () => this.warn(seat));
      return button;
    });
    this.forfeitButtons = [0, 1, null].map((seat) => {
      const button = html("button", { type: "button", class: "btn btn-forfeit", "data-seat": seat === null ? "both" : String(seat) });
      button.addEventListener("click", () => this.forfeit(seat));
      return button;
    });
    this.closeChatButton = html("button", { type: "button", class: "btn btn-close-chat" }, [t("chat.close")]);
    this.closeChatButton.addEventListener("click", () => this.ask({ type: "close_chat" }));
    this.tools = html("div", { class: "arbiter-tools", hidden: "" }, [this.note, ...this.warnButtons, ...this.forfeitButtons, this.closeChatButton]);
    this.root = html("section", { class: "warnings", hidden: "" }, [
      html("h2", {}, [t("warn.title")]),
      this.counts,
      this.notes,
      this.tools,
    ]);
  }

  /** @param {number} seat */
  warn(seat) {
    if (this.ask({ type: "warn", seat, note: this.note.value.trim().slice(0, 200) })) this.note.value = "";
  }

  /**
   * Declare that ``seat`` (null: both players) loses the match, after a confirmation:
   * it cannot be taken back.
   * @param {number | null} seat
   */
  forfeit(seat) {
    const question = seat === null ? t("forfeit.confirm_both") : t("forfeit.confirm", { name: this.nameOf(seat) });
    if (!globalThis.confirm(question)) return;
    if (this.ask({ type: "forfeit", seat, note: this.note.value.trim().slice(0, 200) })) this.note.value = "";
  }

  /**
   * One message to the server, never resent: a warning sent twice would count twice.
   * @param {any} message
   */
  ask(message) {
    const seq = this.seq;
    this.seq += 1;
    return this.send({ ...message, seq });
  }

  /**
   * @param {{match: any, warnings?: Warning[], official?: Official, chat: {closed?: boolean} | null}} state
   */
  render(state) {
    const official = state.official || { warns: false, closes_chat: false };
    const counts = state.match && Array.isArray(state.match.warnings) ? state.match.warnings : [0, 0];
    const warnings = state.warnings || [];
    const over = Boolean(state.match && state.match.over);
    this.root.hidden = !official.warns && !official.closes_chat && warnings.length === 0;
    this.counts.replaceChildren(
      ...[0, 1].map((seat) =>
        html("li", { class: `warning-count seat-${seat}`, "data-count": String(counts[seat]) }, [
          t("warn.count", { name: this.nameOf(seat), count: counts[seat], most: WARNINGS_TO_LOSE }),
        ]),
      ),
    );
    this.notes.replaceChildren(
      ...warnings.map((warning) =>
        html("li", { class: `warning-line seat-${warning.seat}` }, [
          warning.note ? t("warn.line_note", { name: this.nameOf(warning.seat), note: warning.note }) : t("warn.line", { name: this.nameOf(warning.seat) }),
        ]),
      ),
    );
    this.tools.hidden = over || (!official.warns && !official.closes_chat);
    this.note.hidden = !official.warns;
    this.warnButtons.forEach((button, seat) => {
      button.hidden = !official.warns;
      button.textContent = t("warn.button", { name: this.nameOf(seat) });
    });
    this.forfeitButtons.forEach((button, index) => {
      button.hidden = !official.warns;
      button.textContent = index === 2 ? t("forfeit.both") : t("forfeit.button", { name: this.nameOf(index) });
    });
    this.closeChatButton.hidden = !official.closes_chat || Boolean(state.chat && state.chat.closed);
  }
}
