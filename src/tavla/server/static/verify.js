// @ts-check
// Checks a finished game's dice in the browser, with the Web Crypto API alone
// (docs/fair-dice.md): the revealed seed against its commitment, then every roll of
// the record drawn again from the seeds and compared with the roll played.

const encoder = new TextEncoder();

/** @param {string} hex */
function bytesOf(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** @param {ArrayBuffer} buffer */
function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} serverSeed */
export async function commitmentOf(serverSeed) {
  return hexOf(await crypto.subtle.digest("SHA-256", bytesOf(serverSeed)));
}

/** Die number `index` of a game. @param {CryptoKey} key @param {string} clientSeed @param {number} index */
export async function dieAt(key, clientSeed, index) {
  for (let extension = 0; ; extension += 1) {
    const message = extension ? `${clientSeed}:${index}:${extension}` : `${clientSeed}:${index}`;
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
    for (const byte of digest) if (byte < 252) return (byte % 6) + 1;
  }
}

/**
 * The rolls of each game in a match record: `[{opening, rolls: ["36", "34", ...]}]`.
 * @param {any[]} actions
 */
export function gamesOf(actions) {
  /** @type {{rolls: {value: string, opening: boolean}[]}[]} */
  const games = [];
  for (const action of actions) {
    if (action.k === "start") games.push({ rolls: [] });
    else if (action.k === "roll" && games.length) games[games.length - 1].rolls.push({ value: action.v, opening: action.s === undefined });
  }
  return games;
}

/**
 * Verifies every game of a record whose seed is revealed.
 * @param {any} record a match record (docs/records.md)
 * @returns {Promise<{game: number, ok: boolean | null, message: string}[]>}
 */
export async function verifyRecord(record) {
  const games = gamesOf(record.actions || []);
  const results = [];
  for (let number = 1; number <= games.length; number += 1) {
    const entry = (record.dice || [])[number - 1];
    if (!entry || !entry.server_seed) {
      results.push({ game: number, ok: null, message: "seed not revealed yet" });
      continue;
    }
    if ((await commitmentOf(entry.server_seed)) !== entry.commitment) {
      results.push({ game: number, ok: false, message: "the seed is not the one committed to" });
      continue;
    }
    const key = await crypto.subtle.importKey("raw", bytesOf(entry.server_seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    let index = 0;
    let failure = "";
    for (const [rollNumber, roll] of games[number - 1].rolls.entries()) {
      let first = await dieAt(key, entry.client_seed, index);
      let second = await dieAt(key, entry.client_seed, index + 1);
      index += 2;
      while (roll.opening && first === second) {
        first = await dieAt(key, entry.client_seed, index);
        second = await dieAt(key, entry.client_seed, index + 1);
        index += 2;
      }
      if (`${first}${second}` !== roll.value) {
        failure = `roll ${rollNumber + 1}: the seeds give ${first}${second}, the game had ${roll.value}`;
        break;
      }
    }
    results.push({ game: number, ok: !failure, message: failure || `${games[number - 1].rolls.length} rolls verified` });
  }
  return results;
}

/** Wires a "verify dice" button: `<button data-verify-dice="/api/games/ID/record">`. */
for (const button of document.querySelectorAll("[data-verify-dice]")) {
  button.addEventListener("click", async () => {
    const out = document.getElementById(button.getAttribute("aria-controls") || "") || button.nextElementSibling;
    if (!out) return;
    out.textContent = "…";
    const response = await fetch(button.getAttribute("data-verify-dice") || "", { credentials: "same-origin" });
    const results = await verifyRecord(await response.json());
    out.replaceChildren(
      ...results.map((result) => {
        const line = document.createElement("li");
        line.dataset.ok = String(result.ok);
        line.textContent = `${result.ok === null ? "…" : result.ok ? "✓" : "✗"} ${result.game}: ${result.message}`;
        return line;
      }),
    );
  });
}
