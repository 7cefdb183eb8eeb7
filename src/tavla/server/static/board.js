// @ts-check
/**
 * The web board of Tavla: one SVG board for the seven games, drawn only from the JSON
 * objects of docs/json.md (a match state or a position, and the steps object of the
 * turn being played), with the buttons of the match (roll, cube, resign, undo, commit).
 *
 *   import { Board } from "/static/board.js";
 *   const board = new Board(element, { bottom: "white", home: "right",
 *                                      onIntent: (action) => send(action) });
 *   board.update({ match, steps, seat });
 *
 * The board never changes the game itself: every choice of the player is handed to
 * `onIntent` as an action of docs/json.md (`{kind: "step", step: "13/8"}`, `{kind: "roll"}`),
 * and the next `update` shows what the server made of it.
 */

import { t } from "./text.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @typedef {"white" | "black"} Colour
 * @typedef {{colour: Colour, count: number, pinned: boolean}} Run
 * @typedef {{point: number, owner: Colour | null, checkers: Run[]}} PointJson
 * @typedef {{white: number, black: number}} PerColour
 * @typedef {{winner: Colour | null, points: number, reason: string}} Outcome
 * @typedef {{board: "points", game: string, title: string, options: object,
 *   direction: "opposite" | "same", points: PointJson[], bar: PerColour | null, off: PerColour,
 *   not_entered: PerColour, pips: PerColour | null, to_act: Colour, chance: boolean,
 *   dice: number[] | null, completing: number[] | null, rolls: PerColour | null,
 *   outcome: Outcome | null, tpn: string}} DicePosition
 * @typedef {{board: "grid", game: string, title: string, options: object, size: number,
 *   kings: {white: string, black: string}, blockers: string[], to_act: Colour,
 *   outcome: Outcome | null, notation: string}} GridPosition
 * @typedef {DicePosition | GridPosition} Position
 * @typedef {{text: string, piece: "checker" | "king" | "blocker", from: number | string | null,
 *   to: number | string, hit: boolean}} Step
 * @typedef {{game: string, to_act: Colour, played: string[], legal: Step[], complete: boolean,
 *   dice_left: number[]}} Steps
 * @typedef {{in_use: boolean, value: number, owner: number | null,
 *   offer: {kind: "double" | "beaver", by: number} | null, may_double: boolean}} Cube
 * @typedef {{settings: {game: string, length: number, cube: boolean, beavers: boolean,
 *   raccoons: boolean, names: string[], [key: string]: any}, phase: string, actor: number | null,
 *   colours: Colour[], cube: Cube, resign: {by: number, level: string, points: number} | null,
 *   position: Position, over: boolean, breaks_left: number[], [key: string]: any}} Match
 * @typedef {{kind: string, [field: string]: any}} Action
 * @typedef {{match?: Match | null, position?: Position | null, steps?: Steps | null,
 *   seat?: number | null}} BoardState
 * @typedef {{bottom?: Colour, home?: "right" | "left", onIntent?: (action: Action) => void,
 *   quickMove?: boolean, applyPlayed?: boolean, controls?: boolean}} BoardOptions
 */

/** Sizes of the dice-game board, in SVG units. */
const G = (() => {
  const base = {
    PW: 50, // point width
    R: 22, // checker radius
    HALF: 228, // length of a point's stack
    GAP: 60, // between the two rows: the dice lie here
    SIDE: 54, // the cube's column
    BAR: 54,
    TRAY: 54,
    LABEL: 28, // the rows of point numbers
    FRAME: 10,
    MARGIN: 6,
  };
  const INNER_TOP = base.LABEL + base.FRAME;
  const INNER_H = 2 * base.HALF + base.GAP;
  const INNER_BOTTOM = INNER_TOP + INNER_H;
  const LEFT_HALF = base.MARGIN + base.SIDE;
  const BAR_X = LEFT_HALF + 6 * base.PW;
  const RIGHT_HALF = BAR_X + base.BAR;
  const TRAY_X = RIGHT_HALF + 6 * base.PW;
  return {
    ...base,
    INNER_TOP,
    INNER_H,
    INNER_BOTTOM,
    MIDDLE: INNER_TOP + INNER_H / 2,
    LEFT_HALF,
    BAR_X,
    RIGHT_HALF,
    TRAY_X,
    WIDTH: TRAY_X + base.TRAY + base.MARGIN,
    HEIGHT: INNER_BOTTOM + base.FRAME + base.LABEL,
  };
})();

/** Sizes of Abluka's grid. */
const Q = { SQ: 64, LEFT: 30, TOP: 10, RIGHT: 10, BOTTOM: 30 };

const FILES = "abcdefg";

/** The pips of a die face, as offsets from its centre in units of a third of its size. */
const PIPS = /** @type {Record<number, number[][]>} */ ({
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
});

/** The buttons, in the order they are shown. */
export const BUTTONS = [
  "roll", "double", "take", "drop", "beaver", "raccoon", "accept", "decline",
  "undo", "commit", "resign", "break",
];

/**
 * Create an SVG element.
 * @param {string} tag
 * @param {Record<string, string | number | null | undefined>} [attrs]
 * @param {(Element | string | null | undefined | false)[]} [children]
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}, children = []) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/**
 * Create an HTML element.
 * @param {string} tag
 * @param {Record<string, string | number | null | undefined>} [attrs]
 * @param {(Node | string | null | undefined | false)[]} [children]
 * @returns {HTMLElement}
 */
export function html(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/**
 * Fill `element` with `parts` joined by " · ", each part in a span that the style sheets
 * keep on one line: on a phone the line wraps between parts, never inside "Score 0–0".
 * @param {HTMLElement} element
 * @param {string[]} parts
 */
export function fillPartsLine(element, parts) {
  const children = [];
  for (const part of parts.filter((text) => text !== "")) {
    if (children.length > 0) children.push(" · ");
    children.push(html("span", { class: "line-part" }, [part]));
  }
  element.replaceChildren(...children);
}

/**
 * Whether a match is Abluka's, played on the grid: it has no home side, and it counts
 * sets, not points.
 * @param {{ position?: { board: string } | null } | null | undefined} match
 */
export function playedOnGrid(match) {
  return Boolean(match && match.position && match.position.board === "grid");
}

/** @param {Colour} colour @returns {Colour} */
const other = (colour) => (colour === "white" ? "black" : "white");

/** @param {Colour} colour */
const colourName = (colour) => t(`colour.${colour}`);

/**
 * The point number the bottom player gives White's point `point`.
 * @param {number} point
 * @param {Colour} bottom
 * @param {"opposite" | "same"} direction
 */
export function viewerPoint(point, bottom, direction) {
  if (bottom === "white") return point;
  return direction === "same" ? ((point + 11) % 24) + 1 : 25 - point;
}

/**
 * The actions the match allows `seat` now (docs/json.md's phase table): the buttons to show.
 * @param {Match | null | undefined} match
 * @param {Steps | null | undefined} steps
 * @param {number | null | undefined} seat
 * @returns {string[]}
 */
export function allowedActions(match, steps, seat) {
  if (!match || seat === null || seat === undefined || match.over) return [];
  const acting = match.actor === seat;
  /** @type {string[]} */
  const out = [];
  switch (match.phase) {
    case "roll":
      if (acting) {
        out.push("roll");
        if (match.cube && match.cube.may_double) out.push("double");
      }
      break;
    case "move":
      if (acting && steps) out.push("undo", "commit");
      break;
    case "double":
      if (acting) {
        out.push("take", "drop");
        if (match.settings.beavers && (!match.cube.offer || match.cube.offer.kind === "double")) out.push("beaver");
      }
      break;
    case "raccoon":
      if (acting) {
        if (match.settings.raccoons) out.push("raccoon");
        out.push("roll");
      }
      break;
    case "resign":
      if (acting) out.push("accept", "decline");
      break;
    case "between":
      // Before the first game nobody rests: the match has not begun (RULES.md 11.4).
      if (match.game_number > 0 && match.breaks_left && match.breaks_left[seat] > 0) out.push("break");
      break;
    default:
      break;
  }
  if (["roll", "move", "double", "raccoon"].includes(match.phase)) out.push("resign");
  return out;
}

/**
 * The position after the steps already played in the turn (`steps.played`): a match
 * state carries the position the turn started from, and the steps object what has been
 * played since, so the board moves the checkers itself to show the turn in progress.
 * A step's text is in the mover's numbering (RULES.md 1.1): `13/8`, `bar/22`, `in/3`,
 * `6/off`, `13/7*` (a hit, or in a game without a bar a pin); in Abluka the king's
 * square and then the blocker's.
 * @param {Position} position
 * @param {Steps | null | undefined} steps
 * @returns {Position}
 */
export function applyPlayed(position, steps) {
  if (!steps || steps.played.length === 0) return position;
  const mover = steps.to_act;
  if (position.board === "grid") {
    const grid = /** @type {GridPosition} */ (structuredClone(position));
    const [king, blocker] = steps.played;
    if (king) grid.kings[mover] = king;
    if (blocker) grid.blockers = [...grid.blockers, blocker];
    return grid;
  }
  const dice = /** @type {DicePosition} */ (structuredClone(position));
  const opponent = other(mover);
  /** The White number of point `n` of `side`'s numbering. @param {number} n @param {Colour} side */
  const white = (n, side) => viewerPoint(n, side, dice.direction);
  const at = (/** @type {number} */ n) => /** @type {PointJson} */ (dice.points.find((p) => p.point === n));
  const settle = (/** @type {PointJson} */ point) => {
    point.checkers = point.checkers.filter((run) => run.count > 0);
    point.checkers.forEach((run, i) => {
      run.pinned = i < point.checkers.length - 1;
    });
    point.owner = point.checkers.length ? point.checkers[point.checkers.length - 1].colour : null;
  };
  for (const text of steps.played) {
    const [source, rawTarget] = text.split("/");
    if (rawTarget === undefined) continue;
    const hit = rawTarget.endsWith("*");
    const target = rawTarget.replace(/\*$/, "");
    let fromPips = 25;
    if (source === "bar") {
      if (dice.bar) dice.bar[mover] -= 1;
    } else if (source === "in") {
      dice.not_entered[mover] -= 1;
    } else {
      fromPips = Number(source);
      const point = at(white(fromPips, mover));
      const top = point.checkers[point.checkers.length - 1];
      if (top && top.colour === mover) top.count -= 1;
      settle(point);
    }
    let toPips = 0;
    if (target === "off") {
      dice.off[mover] += 1;
    } else {
      toPips = Number(target);
      const point = at(white(toPips, mover));
      if (hit && dice.bar) {
        // The lone opposing checker goes to the bar.
        point.checkers = point.checkers.filter((run) => run.colour !== opponent);
        dice.bar[opponent] += 1;
        if (dice.pips) dice.pips[opponent] += 25 - white(point.point, opponent);
      }
      const top = point.checkers[point.checkers.length - 1];
      if (top && top.colour === mover) top.count += 1;
      else point.checkers.push({ colour: mover, count: 1, pinned: false });
      settle(point);
    }
    if (dice.pips && source !== "in") dice.pips[mover] -= fromPips - toPips;
  }
  return dice;
}

/**
 * Offsets of the checkers' centres from the edge of a stack `avail` long: a full
 * diameter apart while they fit, else pressed together (pinned checkers keep their room).
 * @param {number} n
 * @param {number} pinned
 * @param {number} avail
 * @returns {number[]}
 */
function stackOffsets(n, pinned, avail) {
  const D = 2 * G.R;
  const out = [];
  if (n * D <= avail) {
    for (let i = 0; i < n; i++) out.push(G.R + i * D);
    return out;
  }
  let pos = G.R;
  for (let i = 0; i < pinned; i++) {
    out.push(pos);
    pos += D;
  }
  const rest = n - pinned;
  const step = rest > 1 ? (avail - G.R - pos) / (rest - 1) : 0;
  for (let j = 0; j < rest; j++) out.push(pos + j * step);
  return out;
}

/**
 * A die face.
 * @param {number} x left
 * @param {number} y top
 * @param {number} size
 * @param {number} value
 * @param {Colour} colour
 * @param {string} cls
 */
function die(x, y, size, value, colour, cls) {
  const pips = (PIPS[value] || []).map(([dx, dy]) =>
    svg("circle", {
      cx: x + size / 2 + (dx * size) / 3.6,
      cy: y + size / 2 + (dy * size) / 3.6,
      r: size / 11,
      class: "pip",
    }),
  );
  return svg("g", { class: `die ${colour} ${cls}`, "data-value": value }, [
    svg("rect", { x, y, width: size, height: size, rx: size / 6, class: "die-face" }),
    ...pips,
  ]);
}

/**
 * The board: an SVG picture, the buttons of the match, and the player's selection.
 */
export class Board {
  /**
   * @param {HTMLElement} container where the board goes (its content is replaced)
   * @param {BoardOptions} [options]
   */
  constructor(container, options = {}) {
    this.container = container;
    /** @type {Colour} */
    this.bottom = options.bottom || "white";
    /** @type {"right" | "left"} */
    this.home = options.home || "right";
    this.onIntent = options.onIntent || (() => {});
    this.quickMove = options.quickMove !== false;
    /** Move the checkers of the steps played (false if the server sends the position mid-turn). */
    this.applyPlayed = options.applyPlayed !== false;
    /** @type {{start: Position, steps: Steps | null | undefined, position: Position} | null} */
    this.shown = null;
    /** @type {BoardState} */
    this.state = {};
    /** @type {string | null} the key of the selected source */
    this.selected = null;
    this.busy = false;
    /** @type {Map<string, SVGGElement>} */
    this.spots = new Map();
    /** @type {string | null} what the board last drew (see drawnKey) */
    this.lastKey = null;
    /** @type {{pointerId: number, key: string, x: number, y: number, dragging: boolean, ghost: SVGElement | null} | null} */
    this.drag = null;
    this.suppressClick = false;

    container.classList.add("tavla-board");
    container.replaceChildren();
    this.figure = html("div", { class: "board-figure" });
    this.info = html("p", { class: "board-info", "aria-live": "polite" });
    this.controls = html("div", { class: "board-controls", role: "toolbar", "aria-label": t("board.label") });
    container.append(this.figure, this.info);
    if (options.controls !== false) container.append(this.controls);
    /** @type {Record<string, HTMLButtonElement>} */
    this.buttons = {};
    for (const name of BUTTONS) {
      const button = /** @type {HTMLButtonElement} */ (
        html("button", {
          type: "button",
          class: `btn btn-${name}`,
          "data-action": name,
          accesskey: t(`key.${name}`),
          "aria-label": t(`aria.${name}`),
          title: `${t(`aria.${name}`)} [${t(`key.${name}`)}]`,
          hidden: "",
        }, [t(`btn.${name}`)])
      );
      button.addEventListener("click", () => this.press(name));
      this.buttons[name] = button;
      this.controls.append(button);
    }
    this.resignLevel = /** @type {HTMLSelectElement} */ (
      html("select", { class: "resign-level", "aria-label": t("aria.resign_level"), hidden: "" },
        ["single", "gammon", "backgammon"].map((level) => html("option", { value: level }, [t(`resign.${level}`)])))
    );
    this.controls.insertBefore(this.resignLevel, this.buttons.resign);
    this.svg = /** @type {SVGSVGElement} */ (svg("svg", { class: "board-svg", role: "group" }));
    this.figure.append(this.svg);
    this.svg.addEventListener("click", (event) => this.onClick(event));
    this.svg.addEventListener("keydown", (event) => this.onKey(event));
    this.svg.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.svg.addEventListener("pointermove", (event) => this.onPointerMove(event));
    this.svg.addEventListener("pointerup", (event) => this.onPointerUp(event));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
  }

  // ------------------------------------------------------------------ public API

  /**
   * Show a new state: a match (or a bare position), the steps of the turn being
   * played by this board's player (null otherwise) and the player's seat (null for a
   * spectator). Clears the selection.
   * @param {BoardState} state
   */
  update(state) {
    const key = this.drawnKey(state);
    this.state = { ...state };
    if (key === this.lastKey) {
      // Nothing on the board changed (a chat line, a player connecting): keep the
      // player's selection and drag, and only bring the buttons up to date.
      this.refresh();
      return;
    }
    this.lastKey = key;
    this.selected = null;
    this.cancelDrag();
    this.render();
  }

  /**
   * What the board draws from `state`, as text: equal keys draw the same board.
   * @param {BoardState} state
   */
  drawnKey(state) {
    const match = state.match;
    return JSON.stringify([
      match ? [match.position, match.cube, match.colours, match.phase, match.actor, match.over] : state.position,
      state.steps,
    ]);
  }

  /**
   * Which colour sits at the bottom and on which side the bottom player's home board lies.
   * @param {{bottom?: Colour, home?: "right" | "left"}} orientation
   */
  setOrientation({ bottom, home }) {
    if ((!bottom || bottom === this.bottom) && (!home || home === this.home)) return;
    if (bottom) this.bottom = bottom;
    if (home) this.home = home;
    this.selected = null;
    this.cancelDrag();
    this.render();
  }

  /** The current orientation. */
  get orientation() {
    return { bottom: this.bottom, home: this.home };
  }

  /** Turn the board round (the other colour at the bottom). */
  flip() {
    this.setOrientation({ bottom: other(this.bottom) });
  }

  /**
   * While busy (an intent is on its way) the board takes no clicks and its buttons are off.
   * @param {boolean} busy
   */
  setBusy(busy) {
    if (busy && this.selected) this.selected = null;
    if (busy) this.cancelDrag();
    this.busy = busy;
    this.container.classList.toggle("busy", busy);
    this.refresh();
  }

  /** The position as the state gives it (where the turn started). @returns {Position | null} */
  get startPosition() {
    return this.state.match ? this.state.match.position : this.state.position || null;
  }

  /** The position drawn: the turn's played steps applied. @returns {Position | null} */
  get position() {
    const start = this.startPosition;
    if (!start) return null;
    if (this.shown && this.shown.start === start && this.shown.steps === this.state.steps) return this.shown.position;
    const position = this.applyPlayed ? applyPlayed(start, this.state.steps) : start;
    this.shown = { start, steps: this.state.steps, position };
    return position;
  }

  // ------------------------------------------------------------------ actions

  /** @param {Action} action */
  emit(action) {
    if (this.busy) return;
    this.selected = null;
    this.refresh();
    this.onIntent(action);
  }

  /** @param {string} name */
  press(name) {
    if (this.busy) return;
    const button = this.buttons[name];
    if (!button || button.hidden || button.disabled) return;
    if (name === "resign") {
      const position = this.position;
      const level = position && position.board === "points" ? this.resignLevel.value : "single";
      this.emit({ kind: "resign", level });
    } else {
      this.emit({ kind: name });
    }
  }

  updateButtons() {
    const { match, steps, seat } = this.state;
    const allowed = allowedActions(match, steps, seat);
    for (const name of BUTTONS) {
      const button = this.buttons[name];
      button.hidden = !allowed.includes(name);
      let enabled = !this.busy;
      if (name === "undo") enabled &&= !!steps && steps.played.length > 0;
      if (name === "commit") enabled &&= !!steps && steps.complete;
      button.disabled = !enabled;
    }
    const position = this.position;
    this.resignLevel.hidden = !allowed.includes("resign") || !position || position.board !== "points";
    this.resignLevel.disabled = this.busy;
    this.controls.hidden = allowed.length === 0;
  }

  // ------------------------------------------------------------------ steps and selection

  /** @returns {Step[]} */
  get legal() {
    return this.state.steps ? this.state.steps.legal : [];
  }

  /** The colour that plays the steps. */
  get mover() {
    const steps = this.state.steps;
    const position = this.position;
    return /** @type {Colour} */ ((steps && steps.to_act) || (position && position.to_act) || "white");
  }

  /**
   * The key of the spot a step's place is drawn at.
   * @param {number | string | null} place
   * @param {"from" | "to"} end
   * @returns {string | null}
   */
  placeKey(place, end) {
    if (place === null) return null;
    if (typeof place === "number") return `p${place}`;
    if (place === "bar") return `bar-${this.mover}`;
    if (place === "in") return `in-${this.mover}`;
    if (place === "off") return `off-${this.mover}`;
    return end === "from" || end === "to" ? `sq-${place}` : null;
  }

  /** The keys of the spots that legal steps leave from. */
  sourceKeys() {
    const keys = new Set();
    for (const step of this.legal) {
      const key = this.placeKey(step.from, "from");
      if (key) keys.add(key);
    }
    return keys;
  }

  /**
   * The legal steps leaving from the spot `key`.
   * @param {string} key
   */
  stepsFrom(key) {
    return this.legal.filter((step) => this.placeKey(step.from, "from") === key);
  }

  /**
   * Steps that need no source (Abluka's blocker): their targets are chosen directly.
   */
  directSteps() {
    return this.legal.filter((step) => step.from === null);
  }

  /**
   * The steps the spot `key` would play if it were clicked as a target now.
   * @param {string} key
   * @returns {Step[]}
   */
  stepsTo(key) {
    const candidates = this.selected ? this.stepsFrom(this.selected) : this.directSteps();
    return candidates.filter((step) => this.placeKey(step.to, "to") === key);
  }

  /**
   * Click (or Enter) on the spot `key`.
   * @param {string} key
   */
  activate(key) {
    if (this.busy || !this.state.steps) return;
    const targets = this.stepsTo(key);
    if (targets.length > 0) {
      this.emit({ kind: "step", step: targets[0].text });
      return;
    }
    if (this.selected === key) {
      this.selected = null;
      this.refresh();
      return;
    }
    const from = this.stepsFrom(key);
    if (from.length > 0) {
      const places = new Set(from.map((step) => this.placeKey(step.to, "to")));
      if (this.quickMove && places.size === 1) {
        // Only one step leaves from here, whatever die plays it: play it.
        this.emit({ kind: "step", step: from[0].text });
        return;
      }
      this.selected = key;
      this.refresh();
      this.focusFirstTarget();
      return;
    }
    if (this.selected) {
      this.selected = null;
      this.refresh();
    }
  }

  /** Keys that may take the focus now, in the order Tab visits them. */
  focusableKeys() {
    const keys = new Set();
    // Not cut while busy: a spot that lost its tabindex would lose the keyboard focus.
    if (!this.state.steps) return keys;
    if (this.selected) {
      keys.add(this.selected);
      for (const step of this.stepsFrom(this.selected)) keys.add(this.placeKey(step.to, "to"));
    }
    for (const key of this.sourceKeys()) keys.add(key);
    for (const step of this.directSteps()) keys.add(this.placeKey(step.to, "to"));
    return keys;
  }

  /** Put classes and tabindex on the spots for the current steps and selection. */
  refresh() {
    const sources = this.sourceKeys();
    const targets = new Map();
    const candidates = this.selected ? this.stepsFrom(this.selected) : [];
    for (const step of [...candidates, ...this.directSteps()]) {
      const key = this.placeKey(step.to, "to");
      if (key) targets.set(key, step);
    }
    const focusable = this.focusableKeys();
    for (const [key, node] of this.spots) {
      const isSource = sources.has(key) && !this.busy;
      const target = this.busy ? undefined : targets.get(key);
      node.classList.toggle("source", isSource);
      node.classList.toggle("selected", key === this.selected);
      node.classList.toggle("target", !!target);
      node.classList.toggle("hit", !!target && target.hit);
      node.classList.toggle("blocker-target", !!target && target.piece === "blocker");
      if (focusable.has(key)) {
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.setAttribute("aria-disabled", String(this.busy));
      } else {
        node.removeAttribute("tabindex");
        node.removeAttribute("aria-disabled");
        node.setAttribute("role", "img");
      }
      let label = node.dataset.label || "";
      if (key === this.selected) label += `, ${t("spot.selected")}`;
      else if (target) {
        const position = this.position;
        if (target.piece === "blocker") label += `, ${t("spot.blocker")}`;
        else if (target.hit) {
          // Where there is no bar a lone checker landed on is pinned, not hit.
          const pins = position && position.board === "points" && position.bar === null;
          label += `, ${t(pins ? "spot.target_pin" : "spot.target_hit")}`;
        }
        else label += `, ${t("spot.target")}`;
      } else if (isSource) label += `, ${t("spot.source")}`;
      node.setAttribute("aria-label", label);
    }
    this.updateButtons();
  }

  focusFirstTarget() {
    if (!this.selected) return;
    const first = this.stepsFrom(this.selected)[0];
    const key = first && this.placeKey(first.to, "to");
    const node = key && this.spots.get(key);
    if (node && this.container.contains(document.activeElement)) node.focus();
  }

  // ------------------------------------------------------------------ events

  /** @param {Event} event @returns {string | null} */
  spotKeyOf(event) {
    const target = /** @type {Element | null} */ (event.target);
    const spot = target && target.closest ? target.closest(".spot") : null;
    return spot ? /** @type {SVGGElement} */ (spot).dataset.key || null : null;
  }

  /** @param {MouseEvent} event */
  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const key = this.spotKeyOf(event);
    if (key) this.activate(key);
    else if (this.selected) {
      this.selected = null;
      this.refresh();
    }
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    const key = this.spotKeyOf(event);
    if (!key) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(key);
    } else if (event.key === "Escape") {
      if (this.selected) {
        const source = this.spots.get(this.selected);
        this.selected = null;
        this.refresh();
        if (source) source.focus();
      }
    } else if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      this.moveFocus(key, event.key);
    }
  }

  /**
   * Move the focus from `key` to the nearest focusable spot in the arrow's direction
   * (or the next/previous one in Tab order when there is none that way).
   * @param {string} key
   * @param {string} arrow
   */
  moveFocus(key, arrow) {
    const keys = [...this.spots.keys()].filter((k) => this.focusableKeys().has(k));
    if (keys.length === 0) return;
    const here = this.spots.get(key);
    if (!here) return;
    const centre = (/** @type {SVGGElement} */ node) => {
      const box = node.getBoundingClientRect();
      return [box.left + box.width / 2, box.top + box.height / 2];
    };
    const [hx, hy] = centre(here);
    const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[arrow] || [0, 0];
    let best = null;
    let bestScore = Infinity;
    for (const k of keys) {
      if (k === key) continue;
      const node = /** @type {SVGGElement} */ (this.spots.get(k));
      const [x, y] = centre(node);
      const along = (x - hx) * dx + (y - hy) * dy;
      if (along <= 1) continue;
      const across = Math.abs((x - hx) * dy) + Math.abs((y - hy) * dx);
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = node;
      }
    }
    if (!best) {
      const index = keys.indexOf(key);
      const forward = arrow === "ArrowRight" || arrow === "ArrowDown";
      const next = keys[(index + (forward ? 1 : -1) + keys.length) % keys.length];
      best = this.spots.get(next) || null;
    }
    if (best) best.focus();
  }

  /** @param {PointerEvent} event */
  onPointerDown(event) {
    if (this.busy || event.button !== 0) return;
    const key = this.spotKeyOf(event);
    if (!key || (!this.sourceKeys().has(key))) return;
    this.drag = { pointerId: event.pointerId, key, x: event.clientX, y: event.clientY, dragging: false, ghost: null };
  }

  /** @param {PointerEvent} event */
  onPointerMove(event) {
    const drag = this.drag;
    if (!drag || drag.pointerId !== event.pointerId) return;
    if (!drag.dragging) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      drag.dragging = true;
      try {
        this.svg.setPointerCapture(event.pointerId);
      } catch {
        // a synthetic pointer cannot be captured: the drag still works inside the board
      }
      if (this.selected !== drag.key) {
        this.selected = drag.key;
        this.refresh();
      }
      const position = this.position;
      const grid = position && position.board === "grid";
      drag.ghost = svg("circle", { r: grid ? 24 : G.R, class: `ghost checker-ghost ${this.mover}` });
      this.svg.append(drag.ghost);
      this.container.classList.add("dragging");
    }
    const point = this.svgPoint(event.clientX, event.clientY);
    if (drag.ghost && point) {
      drag.ghost.setAttribute("cx", String(point.x));
      drag.ghost.setAttribute("cy", String(point.y));
    }
  }

  /** @param {PointerEvent} event */
  onPointerUp(event) {
    const drag = this.drag;
    if (!drag || drag.pointerId !== event.pointerId) return;
    const wasDragging = drag.dragging;
    this.cancelDrag();
    if (!wasDragging) return; // a click: the click handler acts
    this.suppressClick = true;
    setTimeout(() => {
      this.suppressClick = false;
    }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const spot = under ? under.closest(".spot") : null;
    const key = spot ? /** @type {SVGGElement} */ (spot).dataset.key : null;
    const steps = key ? this.stepsTo(key) : [];
    if (steps.length > 0) this.emit({ kind: "step", step: steps[0].text });
    else if (key !== this.selected) {
      this.selected = null;
      this.refresh();
    }
  }

  cancelDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    if (this.drag && this.drag.dragging) {
      try {
        this.svg.releasePointerCapture(this.drag.pointerId);
      } catch {
        // not captured
      }
    }
    this.drag = null;
    this.container.classList.remove("dragging");
  }

  /**
   * Client coordinates to the SVG's own.
   * @param {number} x
   * @param {number} y
   */
  svgPoint(x, y) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = this.svg.createSVGPoint();
    point.x = x;
    point.y = y;
    return point.matrixTransform(matrix.inverse());
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const hadFocus = this.container.contains(document.activeElement);
    const focusedKey =
      hadFocus && document.activeElement instanceof SVGElement ? document.activeElement.dataset.key || null : null;
    this.spots.clear();
    const position = this.position;
    this.svg.replaceChildren();
    this.container.dataset.game = position ? position.game : "";
    if (!position) {
      this.svg.removeAttribute("viewBox");
      this.info.textContent = "";
      this.updateButtons();
      return;
    }
    if (position.board === "grid") this.drawGrid(position);
    else this.drawPoints(position);
    this.svg.setAttribute("aria-label", `${t(`game.${position.game}`)}: ${t("board.label")}`);
    this.info.textContent = this.infoText(position);
    this.refresh();
    if (hadFocus) {
      const focusable = this.focusableKeys();
      const key = focusedKey && focusable.has(focusedKey) ? focusedKey : [...this.spots.keys()].find((k) => focusable.has(k));
      const node = key ? this.spots.get(key) : null;
      if (node) node.focus();
    }
  }

  /** @param {Position} position */
  infoText(position) {
    const steps = this.state.steps;
    const parts = [];
    if (steps && steps.played.length > 0) parts.push(t("played.label", { steps: steps.played.join(" ") }));
    if (position.board === "points" && steps && steps.dice_left.length > 0) {
      if (position.completing && !position.dice) {
        parts.push(t("dice.completing", { colour: colourName(steps.to_act), dice: steps.dice_left.join(" ") }));
      } else if (steps.dice_left.length > 2) {
        parts.push(t("dice.left", { dice: steps.dice_left.join(" ") }));
      }
    }
    return parts.join(" · ");
  }

  /**
   * Register an interactive spot.
   * @param {string} key
   * @param {string} label
   * @param {string} cls
   * @param {(Element | null | false)[]} children
   * @returns {SVGGElement}
   */
  spot(key, label, cls, children) {
    const node = /** @type {SVGGElement} */ (svg("g", { class: `spot ${cls}`, "data-key": key, "aria-label": label }, children));
    node.dataset.label = label;
    this.spots.set(key, node);
    return node;
  }

  /**
   * A checker.
   * @param {number} cx
   * @param {number} cy
   * @param {Colour} colour
   * @param {boolean} pinned
   * @param {string | null} label
   */
  checker(cx, cy, colour, pinned, label) {
    return svg("g", { class: "checker-group" }, [
      svg("circle", { cx, cy, r: G.R - 1, class: `checker ${colour}${pinned ? " pinned" : ""}` }),
      svg("circle", { cx, cy, r: G.R - 7, class: `checker-ring ${colour}` }),
      pinned && svg("path", {
        d: `M ${cx - 8} ${cy - 8} L ${cx + 8} ${cy + 8} M ${cx + 8} ${cy - 8} L ${cx - 8} ${cy + 8}`,
        class: "pin-mark",
      }),
      label !== null && svg("text", { x: cx, y: cy, class: `count ${colour}` }, [label]),
    ]);
  }

  /**
   * A stack of checkers from an edge towards the middle.
   * @param {number} cx
   * @param {number} edge
   * @param {1 | -1} direction +1 downwards, -1 upwards
   * @param {Run[]} runs bottom first
   * @param {number} avail
   */
  stack(cx, edge, direction, runs, avail) {
    const checkers = [];
    for (const run of runs) for (let i = 0; i < run.count; i++) checkers.push(run);
    const pinned = checkers.filter((run) => run.pinned).length;
    const offsets = stackOffsets(checkers.length, pinned, avail);
    const top = runs[runs.length - 1];
    return checkers.map((run, i) => {
      const last = i === checkers.length - 1;
      const label = last && checkers.length > 5 ? String(top.count) : null;
      return this.checker(cx, edge + direction * offsets[i], run.colour, run.pinned, label);
    });
  }

  /**
   * @param {number} x the unmirrored left edge
   * @param {number} [w] the width
   */
  x(x, w = 0) {
    return this.home === "left" ? G.WIDTH - x - w : x;
  }

  /** @param {DicePosition} position */
  drawPoints(position) {
    const bottom = this.bottom;
    const top = other(bottom);
    const layer = this.svg;
    layer.setAttribute("viewBox", `0 0 ${G.WIDTH} ${G.HEIGHT}`);
    layer.setAttribute("class", `board-svg points-board home-${this.home}`);
    // The frame and the two halves.
    layer.append(
      svg("rect", { x: G.MARGIN, y: G.LABEL, width: G.WIDTH - 2 * G.MARGIN, height: G.INNER_H + 2 * G.FRAME, rx: 8, class: "frame" }),
      svg("rect", { x: this.x(G.LEFT_HALF, 6 * G.PW), y: G.INNER_TOP, width: 6 * G.PW, height: G.INNER_H, class: "felt" }),
      svg("rect", { x: this.x(G.RIGHT_HALF, 6 * G.PW), y: G.INNER_TOP, width: 6 * G.PW, height: G.INNER_H, class: "felt" }),
      svg("rect", { x: this.x(G.BAR_X, G.BAR), y: G.INNER_TOP, width: G.BAR, height: G.INNER_H, class: "bar-column" }),
      svg("rect", { x: this.x(G.TRAY_X, G.TRAY), y: G.INNER_TOP, width: G.TRAY, height: G.INNER_H, class: "tray-column" }),
    );
    const pointsLayer = svg("g", { class: "points" });
    layer.append(pointsLayer);
    for (const point of position.points) {
      pointsLayer.append(this.drawPoint(position, point));
    }
    this.drawBar(position, bottom, top);
    this.drawTrays(position, bottom, top);
    this.drawPips(position, bottom, top);
    this.drawCube(position, bottom);
    this.drawDice(position, bottom);
    this.drawOutcome(position.outcome, G.WIDTH, G.MIDDLE);
  }

  /**
   * @param {DicePosition} position
   * @param {PointJson} point
   */
  drawPoint(position, point) {
    const v = viewerPoint(point.point, this.bottom, position.direction);
    const topRow = v >= 13;
    const column = topRow ? v - 13 : 12 - v;
    const left = this.x((column < 6 ? G.LEFT_HALF : G.RIGHT_HALF) + (column % 6) * G.PW, G.PW);
    const base = topRow ? G.INNER_TOP : G.INNER_BOTTOM;
    const direction = topRow ? 1 : -1;
    const tip = base + direction * (G.HALF - 8);
    const shade = (column + (topRow ? 0 : 1)) % 2 === 0 ? "dark" : "light";
    const cx = left + G.PW / 2;
    const count = point.checkers.reduce((sum, run) => sum + run.count, 0);
    const landing = base + direction * (G.R + Math.min(count, 4) * 2 * G.R);
    const runs = point.checkers
      .map((run) => t(run.pinned ? "point.run_pinned" : "point.run", { count: run.count, colour: colourName(run.colour) }))
      .join(", ");
    const label = `${t("point.label", { n: v })}: ${runs || t("point.empty")}`;
    const numberY = topRow ? G.LABEL - 9 : G.INNER_BOTTOM + G.FRAME + G.LABEL - 8;
    return this.spot(`p${point.point}`, label, `point ${topRow ? "top" : "bottom"}`, [
      svg("polygon", { points: `${left},${base} ${left + G.PW},${base} ${cx},${tip}`, class: `triangle ${shade}` }),
      svg("rect", { x: left, y: topRow ? base : base - G.HALF, width: G.PW, height: G.HALF, class: "highlight" }),
      svg("text", { x: cx, y: numberY, class: "point-number" }, [String(v)]),
      ...this.stack(cx, base, direction, point.checkers, G.HALF),
      svg("circle", { cx, cy: landing, r: G.R - 3, class: "landing" }),
      svg("rect", { x: left, y: topRow ? base : base - G.HALF, width: G.PW, height: G.HALF, class: "hit-area" }),
    ]);
  }

  /**
   * The bar (checkers hit) or, in indiyka, the checkers not yet entered.
   * @param {DicePosition} position
   * @param {Colour} bottom
   * @param {Colour} top
   */
  drawBar(position, bottom, top) {
    const cx = this.x(G.BAR_X, G.BAR) + G.BAR / 2;
    const avail = G.INNER_H / 2 - 6;
    const kinds = [];
    if (position.bar) kinds.push({ kind: "bar", counts: position.bar, label: "bar.label" });
    const waiting = position.not_entered.white + position.not_entered.black;
    if (waiting > 0 || position.game === "indiyka") {
      kinds.push({ kind: "in", counts: position.not_entered, label: "waiting.label" });
    }
    for (const { kind, counts, label } of kinds) {
      for (const colour of [top, bottom]) {
        const isTop = colour === top;
        const edge = isTop ? G.MIDDLE - 4 : G.MIDDLE + 4;
        const direction = isTop ? -1 : 1;
        const n = counts[colour];
        const runs = n > 0 ? [{ colour, count: n, pinned: false }] : [];
        const y = isTop ? G.INNER_TOP : G.MIDDLE;
        this.svg.append(
          this.spot(`${kind}-${colour}`, t(label, { colour: colourName(colour), count: n }), `${kind === "bar" ? "bar" : "waiting"} ${isTop ? "top" : "bottom"}`, [
            svg("rect", { x: cx - G.BAR / 2, y, width: G.BAR, height: G.INNER_H / 2, class: "highlight" }),
            ...this.stack(cx, edge, direction, runs, avail),
            svg("rect", { x: cx - G.BAR / 2, y, width: G.BAR, height: G.INNER_H / 2, class: "hit-area" }),
          ]),
        );
      }
    }
  }

  /**
   * The trays of checkers borne off (indiyka: removed).
   * @param {DicePosition} position
   * @param {Colour} bottom
   * @param {Colour} top
   */
  drawTrays(position, bottom, top) {
    const left = this.x(G.TRAY_X, G.TRAY);
    const label = position.game === "indiyka" ? "removed.label" : "off.label";
    for (const colour of [top, bottom]) {
      const isTop = colour === top;
      const n = position.off[colour];
      const slabs = [];
      for (let i = 0; i < n; i++) {
        const y = isTop ? G.INNER_TOP + 4 + i * 10 : G.INNER_BOTTOM - 12 - i * 10;
        slabs.push(svg("rect", { x: left + 7, y, width: G.TRAY - 14, height: 8, rx: 2, class: `off ${colour}` }));
      }
      const countY = isTop ? G.INNER_TOP + 4 + n * 10 + 16 : G.INNER_BOTTOM - 12 - n * 10 - 6;
      const y = isTop ? G.INNER_TOP : G.MIDDLE;
      this.svg.append(
        this.spot(`off-${colour}`, t(label, { colour: colourName(colour), count: n }), `tray ${isTop ? "top" : "bottom"}`, [
          svg("rect", { x: left, y, width: G.TRAY, height: G.INNER_H / 2, class: "highlight" }),
          ...slabs,
          n > 0 && svg("text", { x: left + G.TRAY / 2, y: countY, class: "tray-count" }, [String(n)]),
          svg("rect", { x: left, y, width: G.TRAY, height: G.INNER_H / 2, class: "hit-area" }),
        ]),
      );
    }
  }

  /**
   * @param {DicePosition} position
   * @param {Colour} bottom
   * @param {Colour} top
   */
  drawPips(position, bottom, top) {
    if (!position.pips) return;
    const pips = position.pips;
    const x = this.x(G.MARGIN, G.SIDE) + G.SIDE / 2;
    for (const colour of [top, bottom]) {
      const isTop = colour === top;
      const label = t("pips.label", { colour: colourName(colour), n: pips[colour] });
      const y = isTop ? G.INNER_TOP + 14 : G.INNER_BOTTOM - 34;
      this.svg.append(
        svg("g", { class: `pips ${colour}`, role: "img", "aria-label": label }, [
          svg("title", {}, [label]),
          svg("text", { x, y, class: "pips-caption" }, [t("pips.short")]),
          svg("text", { x, y: y + 20, class: "pips-value" }, [String(pips[colour])]),
        ]),
      );
    }
  }

  /**
   * The doubling cube: in the middle, or on its owner's side.
   * @param {DicePosition} position
   * @param {Colour} bottom
   */
  drawCube(position, bottom) {
    const match = this.state.match;
    if (!match || !match.cube || !match.cube.in_use) return;
    const cube = match.cube;
    const size = 40;
    const x = this.x(G.MARGIN, G.SIDE) + (G.SIDE - size) / 2;
    let y = G.MIDDLE - size / 2;
    let value = cube.value;
    let where = t("cube.middle");
    let cls = "cube";
    const colourOf = (/** @type {number} */ seat) => /** @type {Colour} */ (match.colours[seat]);
    if (cube.offer && cube.offer.kind === "double") {
      value = cube.value * 2;
      where = t("cube.offered", { colour: colourName(colourOf(cube.offer.by)) });
      cls += " offered";
      // The offered cube goes to the opponent of the doubler.
      y = colourOf(cube.offer.by) === bottom ? G.INNER_TOP + 100 : G.INNER_BOTTOM - 100 - size;
    } else if (cube.owner !== null) {
      const owner = colourOf(cube.owner);
      where = t("cube.owned", { colour: colourName(owner) });
      y = owner === bottom ? G.INNER_BOTTOM - 50 - size : G.INNER_TOP + 50;
      cls += ` owned ${owner === bottom ? "bottom" : "top"}`;
    } else {
      cls += " centred";
    }
    const shown = cube.owner === null && !cube.offer && value === 1 ? 64 : value;
    const label = `${t("cube.label", { value })}, ${where}`;
    this.svg.append(
      svg("g", { class: cls, role: "img", "aria-label": label, "data-value": value, "data-owner": cube.owner === null ? "" : cube.owner }, [
        svg("title", {}, [label]),
        svg("rect", { x, y, width: size, height: size, rx: 6, class: "cube-face" }),
        svg("text", { x: x + size / 2, y: y + size / 2, class: "cube-value" }, [String(shown)]),
      ]),
    );
  }

  /**
   * The dice to play, on the mover's right; the dice left of a double or of a
   * completion as small dice on the other side.
   * @param {DicePosition} position
   * @param {Colour} bottom
   */
  drawDice(position, bottom) {
    const mover = position.to_act;
    const steps = this.state.steps;
    const left = steps ? [...steps.dice_left] : null;
    const moverBottom = mover === bottom;
    const bigHalf = moverBottom ? G.RIGHT_HALF : G.LEFT_HALF;
    // The dice left of a double go opposite the rolled dice; a completion has no roll.
    const smallHalf = !position.dice ? bigHalf : moverBottom ? G.LEFT_HALF : G.RIGHT_HALF;
    const group = svg("g", { class: "dice" });
    if (position.dice) {
      const size = 40;
      const dice = position.dice;
      const double = dice[0] === dice[1];
      const startX = bigHalf + 3 * G.PW - size - 6;
      const remaining = left ? [...left] : null;
      dice.forEach((value, i) => {
        let used = false;
        if (remaining && !double) {
          const at = remaining.indexOf(value);
          if (at >= 0) remaining.splice(at, 1);
          else used = true;
        }
        if (remaining && double && remaining.length === 0) used = true;
        const x = this.x(startX + i * (size + 12), size);
        group.append(die(x, G.MIDDLE - size / 2, size, value, mover, used ? "used" : "live"));
      });
      group.setAttribute("aria-label", t("dice.label", { colour: colourName(mover), dice: dice.join("-") }));
      group.setAttribute("role", "img");
    }
    const small = left && (position.completing || (position.dice && (position.dice[0] === position.dice[1] || left.length > 2)))
      ? left
      : !steps && position.completing
        ? position.completing
        : null;
    if (small && small.length > 0) {
      const size = 20;
      const gap = 4;
      const width = small.length * (size + gap) - gap;
      const startX = smallHalf + 3 * G.PW - width / 2;
      const row = svg("g", { class: "dice-left", role: "img", "aria-label": position.completing
        ? t("dice.completing", { colour: colourName(mover), dice: small.join(" ") })
        : t("dice.left", { dice: small.join(" ") }) });
      small.forEach((value, i) => {
        row.append(die(this.x(startX + i * (size + gap), size), G.MIDDLE - size / 2, size, value, mover, "small"));
      });
      group.append(row);
    }
    this.svg.append(group);
  }

  /**
   * A banner over the board when the game has ended.
   * @param {Outcome | null} outcome
   * @param {number} width
   * @param {number} middle
   */
  drawOutcome(outcome, width, middle) {
    if (!outcome) return;
    const text = outcome.winner
      ? t("outcome.win", {
          colour: colourName(outcome.winner),
          points: outcome.points === 1 ? t("outcome.points_1") : t("outcome.points_n", { n: outcome.points }),
        })
      : t("outcome.void");
    const w = Math.min(width - 40, 24 + text.length * 13);
    this.svg.append(
      svg("g", { class: "outcome", role: "status" }, [
        svg("rect", { x: (width - w) / 2, y: middle - 24, width: w, height: 48, rx: 10, class: "outcome-box" }),
        svg("text", { x: width / 2, y: middle, class: "outcome-text" }, [text]),
      ]),
    );
  }

  // ------------------------------------------------------------------ Abluka

  /**
   * The column and row (from the top left) of an Abluka square, as seen from the bottom.
   * @param {string} square
   */
  cell(square) {
    const file = FILES.indexOf(square[0]);
    const rank = Number(square.slice(1)) - 1;
    return this.bottom === "black" ? [file, 6 - rank] : [6 - file, rank];
  }

  /** @param {GridPosition} position */
  drawGrid(position) {
    const { SQ, LEFT, TOP, RIGHT, BOTTOM } = Q;
    const size = position.size || 7;
    const width = LEFT + size * SQ + RIGHT;
    const height = TOP + size * SQ + BOTTOM;
    const layer = this.svg;
    layer.setAttribute("viewBox", `0 0 ${width} ${height}`);
    layer.setAttribute("class", "board-svg grid-board");
    layer.append(svg("rect", { x: LEFT - 4, y: TOP - 4, width: size * SQ + 8, height: size * SQ + 8, rx: 4, class: "frame" }));
    const blockers = new Set(position.blockers);
    const kings = /** @type {Record<string, Colour>} */ ({
      [position.kings.white]: "white",
      [position.kings.black]: "black",
    });
    for (let rank = 1; rank <= size; rank++) {
      for (let f = 0; f < size; f++) {
        const square = `${FILES[f]}${rank}`;
        const [col, row] = this.cell(square);
        const x = LEFT + col * SQ;
        const y = TOP + row * SQ;
        const king = kings[square];
        const blocked = blockers.has(square);
        const what = king
          ? t("square.king", { colour: colourName(king) })
          : blocked
            ? t("square.blocker")
            : t("square.empty");
        const children = [
          svg("rect", { x, y, width: SQ, height: SQ, class: `square ${(f + rank) % 2 === 0 ? "dark" : "light"}` }),
          svg("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: "highlight" }),
        ];
        if (blocked) {
          children.push(
            svg("g", { class: "blocker-piece" }, [
              svg("rect", { x: x + 7, y: y + 7, width: SQ - 14, height: SQ - 14, rx: 5, class: "blocker" }),
              svg("path", { d: `M ${x + 17} ${y + 17} L ${x + SQ - 17} ${y + SQ - 17} M ${x + SQ - 17} ${y + 17} L ${x + 17} ${y + SQ - 17}`, class: "blocker-cross" }),
            ]),
          );
        }
        if (king) children.push(this.king(x + SQ / 2, y + SQ / 2, king, king === position.to_act));
        children.push(
          svg("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: 12, class: "landing" }),
          svg("rect", { x, y, width: SQ, height: SQ, class: "hit-area" }),
        );
        layer.append(this.spot(`sq-${square}`, `${t("square.label", { square })}: ${what}`, "square-spot", children));
      }
    }
    // File and rank names.
    for (let f = 0; f < size; f++) {
      const [col] = this.cell(`${FILES[f]}1`);
      layer.append(svg("text", { x: LEFT + col * SQ + SQ / 2, y: TOP + size * SQ + 21, class: "coord" }, [FILES[f]]));
    }
    for (let rank = 1; rank <= size; rank++) {
      const [, row] = this.cell(`a${rank}`);
      layer.append(svg("text", { x: LEFT / 2 - 1, y: TOP + row * SQ + SQ / 2, class: "coord" }, [String(rank)]));
    }
    this.drawOutcome(position.outcome, width, TOP + (size * SQ) / 2);
  }

  /**
   * An Abluka king: a large piece with a crown.
   * @param {number} cx
   * @param {number} cy
   * @param {Colour} colour
   * @param {boolean} toAct
   */
  king(cx, cy, colour, toAct) {
    const crown = [
      [-13, 8], [-15, -8], [-7, 0], [0, -12], [7, 0], [15, -8], [13, 8],
    ].map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(" ");
    return svg("g", { class: `king ${colour}${toAct ? " to-act" : ""}` }, [
      svg("circle", { cx, cy, r: 25, class: `king-piece ${colour}` }),
      svg("polygon", { points: crown, class: "crown" }),
      svg("rect", { x: cx - 13, y: cy + 10, width: 26, height: 4, class: "crown" }),
    ]);
  }
}
