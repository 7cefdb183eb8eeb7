// @ts-check
// The federations' pages: each form or button names its API request in data-method and
// data-url ("{name}" in the address is the form's name field); the page reloads after
// it succeeds, or shows the server's refusal, already in the page's language. A field
// marked data-kind="number" is sent as a number, data-kind="numbers" ("1, 3, 5") as a
// list of numbers, data-kind="cents" as whole cents, read as the page's language writes
// amounts (Turkish "1.500,00" is 150000: text.js's `cents`; text that is not an amount,
// or could be read as two, is sent as typed, for the server to refuse),
// data-kind="text" as text; an empty one is left out. A file field is sent as the
// file's text. A form with data-follow="url" goes to the address the answer names
// instead of reloading.
import { api } from "./site.js";
import { cents } from "./text.js";

/**
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 * @param {string} [follow] the answer's field holding the address to go to
 * @param {Element} [origin] the form or button that asked: a refusal is shown in its
 *   form's own status line when it has one, else in the page's
 */
async function send(method, url, body, follow, origin) {
  try {
    const answer = await api(method, url, body);
    if (follow && answer && typeof answer[follow] === "string") location.href = answer[follow];
    else location.reload();
  } catch (error) {
    const own = origin ? origin.closest("form")?.querySelector(".status") : null;
    const status = own || document.getElementById("status");
    if (status) status.textContent = error instanceof Error ? error.message : String(error);
  }
}

/**
 * An element with data-confirm asks first (a withdrawal cannot be taken back).
 * @param {HTMLElement} element
 */
function confirmed(element) {
  const question = element.dataset.confirm;
  return !question || window.confirm(question);
}

// Listened for on the document, not on each element: the tournament's pages put new
// content in place as the tournament goes on (tournament.js), buttons included.
document.addEventListener("submit", async (event) => {
  const target = /** @type {Element | null} */ (event.target instanceof Element ? event.target : null);
  const element = /** @type {HTMLFormElement | null} */ (target ? target.closest("form[data-method]") : null);
  if (!element) return;
  event.preventDefault();
  if (!confirmed(element)) return;
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of new FormData(element)) {
    if (value instanceof File) {
      fields[key] = await value.text();
      continue;
    }
    const text = String(value).trim();
    const input = /** @type {HTMLElement | null} */ (element.querySelector(`[name="${key}"]`));
    const kind = input ? input.dataset.kind : undefined;
    if (kind && !text) continue;
    if (kind === "number") fields[key] = Number(text);
    else if (kind === "cents") fields[key] = cents(text);
    else if (kind === "numbers") fields[key] = text.split(/[\s,]+/).filter(Boolean).map(Number);
    else fields[key] = text;
  }
  let url = element.dataset.url || "";
  if (url.includes("{name}")) {
    url = url.replace("{name}", encodeURIComponent(String(fields.name || "")));
    delete fields.name;
  }
  const method = element.dataset.method || "POST";
  send(method, url, method === "DELETE" ? undefined : fields, element.dataset.follow, element);
});

// A file field shows the file chosen in the page's language (federation_admin.html).
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== "file") return;
  const shown = input.closest("label.file-pick")?.querySelector(".file-name");
  if (!(shown instanceof HTMLElement)) return;
  const file = input.files && input.files[0];
  shown.textContent = file ? file.name : shown.dataset.none || "";
});

document.addEventListener("click", async (event) => {
  const target = /** @type {Element | null} */ (event.target instanceof Element ? event.target : null);
  const element = /** @type {HTMLButtonElement | null} */ (target ? target.closest("button[data-method]") : null);
  if (!element || element.disabled || !confirmed(element)) return;
  const method = element.dataset.method || "POST";
  // Once: a second click while the first is on its way would ask twice.
  element.disabled = true;
  await send(method, element.dataset.url || "", method === "DELETE" ? undefined : {});
  element.disabled = false;
});
