// @ts-check
/**
 * The archive page's analysis of a finished game: the bot's review of every turn, cube
 * decision and roll, fetched from `GET /api/games/{id}/analysis` (docs/API.md) when the
 * visitor asks for it, since a review takes the server a few seconds.
 *
 * The template provides `<section id="analysis" data-analysis="URL">` holding a
 * `button.analysis-run`; clicking it fills the section with:
 *
 * - `table.analysis-totals`: per player the decisions, error rate (thousandths of a
 *   point lost per decision), doubtful turns, errors, blunders, luck, and the cube's;
 * - `svg.analysis-chart`: the first player's equity after each turn, the marked turns
 *   as dots (`circle.mark-error`, `circle.mark-blunder`), a dashed line between games;
 * - `ol.analysis-marked`: one `button[data-step]` per marked decision, which shows that
 *   step of the replay (`window.tavlaReplay.show`);
 * - `div.analysis-rollout`: the rollout of the marked turns (`POST
 *   /api/games/{id}/analysis/rollout`): a button for a registered visitor
 *   (`body[data-registered="1"]`), its progress while it runs (polled), and, once done,
 *   the analysis again with each marked turn's rolled-out loss.
 */

import { html } from "./board.js";
import { api } from "./site.js";
import { decimal, seatName, t } from "./text.js";

const SVG = "http://www.w3.org/2000/svg";
const MARKS = ["doubtful", "error", "blunder"];
const CHART = { width: 600, height: 180, pad: 8, top: 3 };
const NUM = { class: "num" };
const POLL_MS = 1500;

/**
 * @typedef {{seat: number, decisions: number, error_rate: number, marks: Record<string, number>,
 *   cube_decisions: number, cube_error_rate: number, cube_marks: Record<string, number>,
 *   luck: number, rolls: number}} Totals
 * @typedef {{loss: number, error: number, trials: number}} RolledLoss
 * @typedef {{step: number, game: number, seat: number, played: string, best: string, equity: number,
 *   best_equity: number, loss: number, judged_loss: number, rollout: RolledLoss | null, mark: string,
 *   forced: boolean}} MoveReview
 * @typedef {{step: number, game: number, seat: number, kind: string, chosen: string, right: string,
 *   loss: number, mark: string}} CubeReview
 * @typedef {{trials: number, truncate: number, variance_reduction: boolean}} RolloutSettings
 * @typedef {{state: string, done: number, total: number | null, settings: RolloutSettings}} RolloutState
 * @typedef {{id: string, game: string, plies: number, players: string[], bots: (string | null)[],
 *   totals: Totals[], moves: MoveReview[], cubes: CubeReview[], rollout: RolloutState | null}} AnalysisData
 */

/**
 * A signed number with three decimals, as equities are written ("+0.123", "−0.050";
 * "+0,123" in Turkish and Bulgarian).
 * @param {number} value
 */
export function signed(value) {
  const text = decimal(Math.abs(value), 3);
  return value < 0 ? `−${text}` : `+${text}`;
}

/**
 * The text of a cube choice as the review names it ("no double", "double, take", ...).
 * @param {string} choice
 */
function cubeWord(choice) {
  return choice
    .split(", ")
    .map((word) => t(`analysis.choice.${word.replace(/ /g, "_")}`))
    .join(", ");
}

/**
 * @param {AnalysisData} data
 * @param {number} seat
 */
function nameOf(data, seat) {
  return seatName(data.players[seat] || "", data.bots ? data.bots[seat] : null);
}

/** @param {AnalysisData} data */
function totalsTable(data) {
  const hasCube = data.totals.some((player) => player.cube_decisions > 0);
  const headings = [
    "analysis.player",
    "analysis.decisions",
    "analysis.error_rate",
    "analysis.doubtful",
    "analysis.errors",
    "analysis.blunders",
    ...(hasCube ? ["analysis.cube_decisions", "analysis.cube_rate"] : []),
    "analysis.luck",
  ];
  const labels = headings.map((key) => t(key));
  // Each figure carries its column's name: on a phone a player's row is a block of them.
  const figure = (/** @type {number} */ column, /** @type {string} */ text) =>
    html("td", { ...NUM, "data-label": labels[column] }, [text]);
  const rows = data.totals.map((player) =>
    html("tr", { "data-seat": player.seat }, [
      html("th", { scope: "row" }, [nameOf(data, player.seat)]),
      ...[
        String(player.decisions),
        decimal(player.error_rate, 1),
        ...MARKS.map((mark) => String(player.marks[mark] || 0)),
        ...(hasCube ? [String(player.cube_decisions), decimal(player.cube_error_rate, 1)] : []),
        signed(player.luck),
      ].map((text, i) => figure(i + 1, text)),
    ]),
  );
  const table = html("table", { class: "list analysis-totals stacked" }, [
    html("thead", {}, [
      html("tr", {}, labels.map((label, i) => html("th", { scope: "col", class: i ? "num" : null }, [label]))),
    ]),
    html("tbody", {}, rows),
  ]);
  return html("div", { class: "rows" }, [table]);
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 */
function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** @param {AnalysisData} data */
function equityChart(data) {
  const moves = data.moves;
  const { width, height, pad, top } = CHART;
  const left = pad + 22; // room for the equity labels
  const x = (/** @type {number} */ i) => left + (moves.length > 1 ? (i * (width - left - pad)) / (moves.length - 1) : 0);
  const y = (/** @type {number} */ e) => height / 2 - (e / top) * (height / 2 - pad);
  const label = t("analysis.chart", { name: nameOf(data, 0) });
  const chart = svg("svg", { class: "analysis-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
  const title = svg("title", {});
  title.textContent = label;
  chart.append(title);
  // A faint line at every point of equity, the axis at 0, each labelled on the left.
  for (let e = -top; e <= top; e += 1) {
    chart.append(svg("line", { class: e === 0 ? "axis" : "grid", x1: left, x2: width - pad, y1: y(e), y2: y(e) }));
    const tick = svg("text", { class: "tick", x: left - 4, y: y(e) + 4, "text-anchor": "end" });
    tick.textContent = e > 0 ? `+${e}` : e < 0 ? `−${-e}` : "0";
    chart.append(tick);
  }
  const equities = moves.map((move) => (move.seat === 0 ? move.equity : -move.equity));
  moves.forEach((move, i) => {
    if (i > 0 && move.game !== moves[i - 1].game) {
      const between = (x(i - 1) + x(i)) / 2;
      chart.append(svg("line", { class: "game-break", x1: between, x2: between, y1: pad, y2: height - pad }));
    }
  });
  chart.append(svg("polyline", { class: "equity", points: equities.map((e, i) => `${x(i).toFixed(1)},${y(e).toFixed(1)}`).join(" ") }));
  moves.forEach((move, i) => {
    if (move.mark === "error" || move.mark === "blunder") {
      chart.append(svg("circle", { class: `mark-${move.mark}`, cx: x(i).toFixed(1), cy: y(equities[i]).toFixed(1), r: 4 }));
    }
  });
  return chart;
}

/**
 * @param {AnalysisData} data
 * @param {(step: number) => void} showStep
 */
function markedList(data, showStep) {
  /** @type {{step: number, text: string, mark: string}[]} */
  const marked = [];
  for (const move of data.moves) {
    // A turn the rollout cleared stays listed: the bot had marked it.
    if (!move.mark && !move.rollout) continue;
    const mark = t(`analysis.mark.${move.mark || "none"}`);
    const params = { name: nameOf(data, move.seat), played: move.played, best: move.best, mark };
    const text = move.rollout
      ? t("analysis.move_rolled", {
          ...params,
          loss: signed(-move.judged_loss),
          rolled: signed(-move.rollout.loss),
          error: decimal(move.rollout.error, 3),
        })
      : t("analysis.move", { ...params, loss: signed(-move.loss) });
    marked.push({ step: move.step, mark: move.mark || "none", text });
  }
  for (const cube of data.cubes) {
    if (!cube.mark) continue;
    const mark = t(`analysis.mark.${cube.mark}`);
    const params = { name: nameOf(data, cube.seat), chosen: cubeWord(cube.chosen), right: cubeWord(cube.right), loss: signed(-cube.loss), mark };
    marked.push({ step: cube.step, mark: cube.mark, text: t("analysis.cube_entry", params) });
  }
  marked.sort((a, b) => a.step - b.step);
  if (marked.length === 0) return html("p", { class: "analysis-none" }, [t("analysis.none_marked")]);
  const list = html(
    "ol",
    { class: "analysis-marked list" },
    marked.map((entry) =>
      html("li", {}, [
        html("button", { type: "button", class: `btn-link mark-${entry.mark}`, "data-step": entry.step }, [entry.text]),
      ]),
    ),
  );
  list.addEventListener("click", (event) => {
    const target = /** @type {Element | null} */ (event.target);
    const button = target && target.closest ? target.closest("button[data-step]") : null;
    if (button) showStep(Number(/** @type {HTMLElement} */ (button).dataset.step));
  });
  return list;
}

/**
 * Fill `section` with the analysis `data`.
 * @param {HTMLElement} section
 * @param {AnalysisData} data
 * @param {(step: number) => void} showStep
 */
export function renderAnalysis(section, data, showStep) {
  const body = section.querySelector(".analysis-body") || section;
  const rolled = data.rollout && data.rollout.state === "done" ? data.rollout : null;
  body.replaceChildren(
    totalsTable(data),
    html("p", { class: "analysis-note" }, [t(data.plies > 0 ? "analysis.note_deeper" : "analysis.note")]),
    ...(rolled ? [html("p", { class: "analysis-rollout-note" }, [rolloutNote(rolled.settings)])] : []),
    equityChart(data),
    html("h3", {}, [t("analysis.marked")]),
    markedList(data, showStep),
  );
  section.dataset.ready = "";
}

/**
 * How the marked turns were rolled out, in words.
 * @param {RolloutSettings} settings
 */
function rolloutNote(settings) {
  const params = { trials: settings.trials, turns: settings.truncate };
  const how = !settings.truncate
    ? t("analysis.rollout_how_end", params)
    : t(settings.variance_reduction ? "analysis.rollout_how_reduced" : "analysis.rollout_how", params);
  return t("analysis.rollout_note", { how });
}

/**
 * The rollout's part of the section: a button to start it, its progress, or nothing
 * once it is done; when a run ends, `reload` fetches the analysis and shows it again.
 * @param {HTMLElement} section
 * @param {AnalysisData} data
 * @param {() => Promise<void>} reload
 */
function rolloutControl(section, data, reload) {
  const url = `${section.dataset.analysis || ""}/rollout`;
  const old = section.querySelector(".analysis-rollout");
  if (old) old.remove();
  const anyMarked = data.moves.some((move) => move.mark || move.rollout);
  const state = data.rollout;
  if (!anyMarked || (state && state.state === "done")) return;
  const status = html("p", { class: "analysis-rollout-status", role: "status", "aria-live": "polite" }, []);
  const box = html("div", { class: "analysis-rollout" }, [html("p", {}, [t("analysis.rollout_explain")]), status]);
  section.querySelector(".analysis-body")?.after(box);
  const registered = document.body.dataset.registered === "1";
  const follow = async () => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      /** @type {{rollout: RolloutState | null}} */
      const answer = await api("GET", url);
      const now = answer.rollout;
      if (!now || now.state === "failed") {
        status.textContent = t("analysis.rollout_failed");
        status.className = "analysis-rollout-status error";
        return false;
      }
      if (now.state === "done") return true;
      status.textContent = progressText(now);
    }
  };
  const run = async (/** @type {RolloutState | null} */ started) => {
    status.className = "analysis-rollout-status";
    status.textContent = started ? progressText(started) : t("analysis.rollout_waiting");
    try {
      if (await follow()) await reload();
      else button.hidden = !registered;
    } catch (error) {
      status.textContent = error instanceof Error && error.message ? error.message : t("analysis.rollout_failed");
      status.className = "analysis-rollout-status error";
      button.hidden = !registered;
    }
  };
  const button = html("button", { type: "button", class: "analysis-rollout-run" }, [t("analysis.rollout_run")]);
  box.append(button);
  button.addEventListener("click", async () => {
    button.hidden = true;
    try {
      /** @type {{rollout: RolloutState}} */
      const answer = await api("POST", url, {});
      await run(answer.rollout);
    } catch (error) {
      status.textContent = error instanceof Error && error.message ? error.message : t("analysis.rollout_failed");
      status.className = "analysis-rollout-status error";
      button.hidden = false;
    }
  });
  if (state && state.state === "running") {
    button.hidden = true;
    run(state);
  } else if (!registered) {
    button.hidden = true;
    status.textContent = t("analysis.rollout_register");
  } else if (state && state.state === "failed") {
    status.textContent = t("analysis.rollout_failed");
    status.className = "analysis-rollout-status error";
  }
}

/** @param {RolloutState} state */
function progressText(state) {
  return state.total === null
    ? t("analysis.rollout_waiting")
    : t("analysis.rollout_progress", { done: state.done, total: state.total });
}

/**
 * Wire the page's analysis section: its button fetches the review and shows it.
 * @param {HTMLElement | null} [root]
 */
export function startAnalysis(root) {
  const section = root || document.getElementById("analysis");
  if (!section) return;
  const button = /** @type {HTMLButtonElement | null} */ (section.querySelector(".analysis-run"));
  const status = section.querySelector(".analysis-status");
  if (!button || !status) return;
  const showStep = (/** @type {number} */ step) => {
    const replay = /** @type {any} */ (globalThis).tavlaReplay;
    if (replay) {
      replay.show(step);
      document.getElementById("replay")?.scrollIntoView({ block: "nearest" });
    }
  };
  const load = async () => {
    const response = await fetch(section.dataset.analysis || "", {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) throw new Error(`${response.status}`);
    const data = /** @type {AnalysisData} */ (await response.json());
    renderAnalysis(section, data, showStep);
    rolloutControl(section, data, load);
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = t("analysis.loading");
    status.className = "analysis-status";
    try {
      await load();
      status.textContent = "";
      button.hidden = true;
    } catch {
      status.textContent = t("analysis.error");
      status.className = "analysis-status error";
      button.disabled = false;
    }
  });
}

if (typeof document !== "undefined" && !(/** @type {any} */ (globalThis).TAVLA_NO_AUTOSTART)) {
  startAnalysis();
}
