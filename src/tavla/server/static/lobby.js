// @ts-check
// The lobby: sign in, offer games, play a bot, and the live list of offers and games.
import { api } from "./site.js";
import { cents, decimal } from "./text.js";

const textNode = document.getElementById("lobby-text");
/** @type {Record<string, any>} */
const TEXT = textNode ? JSON.parse(textNode.textContent || "{}") : {};
const status = document.getElementById("status");
const me = document.getElementById("who")?.textContent || null;

/** @param {string} message */
function say(message) {
  if (status) status.textContent = message;
}

/** @param {HTMLFormElement} form */
function fields(form) {
  const data = new FormData(form);
  /** @param {string} name */
  const on = (name) => data.get(name) === "on";
  return { data, on };
}

/** A random dice seed the player may keep or change. */
function randomSeed() {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Draws the server's commitment for the form's next game before the player's seed is
 * final (docs/fair-dice.md), and shows it.
 * @param {HTMLFormElement} form
 */
async function drawCommitment(form) {
  const shown = form.querySelector("[data-commitment]");
  const seed = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="client_seed"]'));
  if (!shown || !seed) return;
  if (!seed.value) seed.value = randomSeed();
  try {
    const drawn = await api("POST", "/api/dice-commitments");
    form.dataset.commitmentId = drawn.id;
    shown.textContent = drawn.commitment;
  } catch (error) {
    shown.textContent = "–";
  }
}

/** The chosen game's option element. @param {HTMLFormElement} form */
function chosenGame(form) {
  const select = /** @type {HTMLSelectElement} */ (form.querySelector('select[name="game"]'));
  return select.selectedOptions[0];
}

/** @param {HTMLFormElement} form */
function diceGame(form) {
  return chosenGame(form)?.dataset.dice === "1";
}

/** Shows only the fields the chosen game has: match length and cube, or Abluka's sets. @param {HTMLFormElement} form */
function fitFields(form) {
  const option = chosenGame(form);
  const has = { dice: option?.dataset.dice === "1", grid: option?.dataset.dice !== "1", cube: option?.dataset.cube === "1" };
  for (const node of form.querySelectorAll("[data-options-for]")) {
    node.toggleAttribute("hidden", node.getAttribute("data-options-for") !== option?.value);
  }
  for (const node of form.querySelectorAll("[data-needs]")) {
    const need = /** @type {"dice" | "grid" | "cube"} */ (node.getAttribute("data-needs"));
    node.toggleAttribute("hidden", !has[need]);
  }
}

for (const id of ["bot-form", "offer-form"]) {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById(id));
  if (!form) continue;
  form.querySelector('select[name="game"]')?.addEventListener("change", () => fitFields(form));
  fitFields(form);
}

/** The game and format chosen in a form (see templates/game_choice.html). @param {HTMLFormElement} form */
function gameChoice(form) {
  const { data, on } = fields(form);
  /** @type {Record<string, boolean | number>} */
  const options = {};
  const game = chosenGame(form)?.value;
  for (const input of form.querySelectorAll(`[data-options-for="${game}"] [data-option]`)) {
    const field = /** @type {HTMLInputElement} */ (input);
    options[field.dataset.option || ""] = field.type === "checkbox" ? field.checked : Number(field.value);
  }
  const choice = {
    options,
    client_seed: String(data.get("client_seed") || "") || null,
    commitment_id: form.dataset.commitmentId || null,
    game: String(data.get("game")),
    length: Number(data.get("length")),
    cube: on("cube"),
    beavers: on("beavers"),
    raccoons: on("raccoons"),
    jacoby: on("jacoby"),
    sets: Number(data.get("sets") || 3),
    clock: !on("clock")
      ? null
      : diceGame(form)
        ? { move_s: Number(data.get("move_s")), reserve_s: Number(data.get("reserve_s")) }
        : { move_s: 0, reserve_s: Number(data.get("budget_s")) },
  };
  return { choice, data, on };
}

/** @param {string} id @param {(form: HTMLFormElement) => Promise<void>} action */
function onSubmit(id, action) {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById(id));
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await action(form);
    } catch (error) {
      say(error instanceof Error ? error.message : String(error));
    }
  });
}

onSubmit("login-form", async (form) => {
  const { data } = fields(form);
  await api("POST", "/api/login", { name: data.get("name"), password: data.get("password") });
  location.reload();
});
onSubmit("register-form", async (form) => {
  const { data } = fields(form);
  await api("POST", "/api/register", {
    name: data.get("name"),
    password: data.get("password"),
    language: document.documentElement.lang,
  });
  location.reload();
});
onSubmit("guest-form", async () => {
  await api("POST", "/api/guest", { language: document.documentElement.lang });
  location.reload();
});
onSubmit("bot-form", async (form) => {
  const { choice, data } = gameChoice(form);
  const answer = await api("POST", "/api/bot-games", { ...choice, level: data.get("level") });
  location.href = answer.url;
});
/**
 * The stake of an offer (docs/ledger.md): none when no federation is named. The amounts
 * are read as the page's language writes them ("1.500,00" in Turkish, text.js's `cents`);
 * one that is not an amount goes as typed, for the server to refuse with its reason.
 * @param {FormData} data
 */
function stakeChoice(data) {
  const federation = String(data.get("federation") || "").trim();
  if (!federation) return {};
  const single = String(data.get("match_stake") || "").trim() === "";
  const stake = single
    ? { initial_cents: cents(String(data.get("initial") || "")), maximum_cents: cents(String(data.get("maximum") || "")) }
    : { stake_cents: cents(String(data.get("match_stake") || "")) };
  return { federation, stake };
}

/** An amount in cents as the page's language writes money ("1,234.50", "1.234,50"). @param {number} amount */
function money(amount) {
  return decimal(amount / 100, 2, true);
}

/** A stake as the lists show it: "2.00/5.00 tbf". @param {any} stake @param {string} [federation] */
function describeStake(stake, federation) {
  if (!stake) return "";
  const amount = stake.kind === "game" ? `${money(stake.initial_cents)}/${money(stake.maximum_cents)}` : money(stake.stake_cents);
  return ` · ${TEXT.stake} ${amount} ${federation || stake.federation || ""}`;
}

onSubmit("offer-form", async (form) => {
  const { choice, data, on } = gameChoice(form);
  await api("POST", "/api/offers", { ...choice, ...stakeChoice(data), spectators: on("spectators"), chat: on("chat") });
  await drawCommitment(form); // each offer gets seeds of its own
});

for (const id of ["bot-form", "offer-form"]) {
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById(id));
  if (form) drawCommitment(form);
}

/** @param {Record<string, any>} settings */
function describe(settings) {
  const title = (TEXT.games || {})[settings.game] || settings.game;
  const length = settings.in_sets ? `${settings.sets} ${TEXT.sets}` : settings.length ? `${settings.length} ${TEXT.points}` : TEXT.money;
  const clock = !settings.clock
    ? TEXT.no_clock
    : settings.clock.move_s
      ? `${settings.clock.move_s}s + ${settings.clock.reserve_s}s`
      : `${Math.round(settings.clock.reserve_s / 60)} min`;
  return { title, length, clock };
}

/** @param {string} tag @param {string} [text] @param {Record<string, string>} [attrs] */
function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

/** @param {any} lobby */
function show(lobby) {
  const body = document.querySelector("#offers tbody");
  if (body) {
    body.replaceChildren();
    for (const offer of lobby.offers) {
      // A rematch offer is for one player: nobody else is shown it.
      if (offer.for && offer.for !== me && offer.by !== me) continue;
      const { title, length, clock } = describe(offer.settings);
      const row = el("tr", undefined, { "data-offer": String(offer.id) });
      if (offer.commitment) row.title = `${TEXT.commitment || "commitment"}: ${offer.commitment}`;
      const stake = describeStake(offer.settings.stake, offer.settings.federation);
      // Each cell carries its column's name: on a phone the row is a block, the names before the values.
      const labels = [...document.querySelectorAll("#offers thead th")].map((th) => th.textContent || "");
      [offer.by, title, length + stake, clock].forEach((text, column) => row.append(el("td", text, { "data-label": labels[column] })));
      const cell = el("td", undefined, { class: "action" });
      if (me && offer.by === me) {
        const cancel = el("button", TEXT.cancel, { type: "button", class: "cancel" });
        cancel.addEventListener("click", () => api("DELETE", `/api/offers/${offer.id}`).catch((e) => say(e.message)));
        cell.append(cancel);
      } else if (me) {
        const accept = el("button", TEXT.accept, { type: "button", class: "accept" });
        accept.addEventListener("click", async () => {
          try {
            // The offer's commitment is already public: the seed chosen now cannot be aimed at.
            const answer = await api("POST", `/api/offers/${offer.id}/accept`, { client_seed: randomSeed() });
            location.href = answer.url;
          } catch (error) {
            say(error instanceof Error ? error.message : String(error));
          }
        });
        cell.append(accept);
      }
      row.append(cell);
      body.append(row);
    }
  }
  document.getElementById("no-offers")?.toggleAttribute("hidden", lobby.offers.length > 0);
  const live = document.getElementById("live");
  if (live) {
    live.replaceChildren();
    for (const game of lobby.live) {
      const item = el("li", undefined, { "data-game": game.id });
      const [first, second] = [0, 1].map((seat) => (TEXT.bots || {})[(game.bots || [])[seat]] || game.players[seat]);
      const link = el("a", `${first} – ${second}`, { href: `/game/${game.id}` });
      const title = (TEXT.games || {})[game.game] || game.game;
      const parts = [title, `${game.score[0]}–${game.score[1]}`, describeStake(game.stake).replace(/^ · /, "").trim()];
      item.append(link, ...parts.filter(Boolean).flatMap((part) => [" · ", el("span", part, { class: "line-part" })]));
      live.append(item);
    }
  }
  document.getElementById("no-live")?.toggleAttribute("hidden", lobby.live.length > 0);
}

// An accepted offer of mine opens its game at once ("started").
let seen = -1;
function connect(delay = 500) {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "started") {
      location.href = message.url;
    } else if (message.type === "lobby" && message.v !== seen) {
      seen = message.v;
      show(message);
    }
  });
  socket.addEventListener("open", () => (delay = 500));
  socket.addEventListener("close", () => setTimeout(() => connect(Math.min(delay * 2, 10000)), delay));
}
connect();
