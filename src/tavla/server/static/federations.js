// @ts-check
// The federations' pages: each form or button names its API request in data-method and
// data-url ("{name}" in the address is the form's name field); the page reloads after
// it succeeds, or shows the server's refusal, already in the page's language. A field
// marked data-kind="number" is sent as a number, data-kind="numbers" ("1, 3, 5") as a
// list of numbers, data-kind="cents" ("12.50") as whole cents (1250; anything else is
// sent as typed, for the server to refuse), data-kind="text" as text; an empty one is
// left out.
import { api } from "./site.js";

const status = document.getElementById("status");

/**
 * "12.5" or "12,50" as 1250; text that is not an amount of money stays as it is.
 * @param {string} text
 * @returns {number | string}
 */
function cents(text) {
  const found = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text);
  if (!found) return text;
  return Number(found[1]) * 100 + Number((found[2] || "").padEnd(2, "0"));
}

/**
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 */
async function send(method, url, body) {
  try {
    await api(method, url, body);
    location.reload();
  } catch (error) {
    if (status) status.textContent = error instanceof Error ? error.message : String(error);
  }
}

for (const form of document.querySelectorAll("form[data-method]")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const element = /** @type {HTMLFormElement} */ (form);
    /** @type {Record<string, unknown>} */
    const fields = {};
    for (const [key, value] of new FormData(element)) {
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
    send(method, url, method === "DELETE" ? undefined : fields);
  });
}

for (const button of document.querySelectorAll("button[data-method]")) {
  const element = /** @type {HTMLButtonElement} */ (button);
  element.addEventListener("click", () => {
    const method = element.dataset.method || "POST";
    send(method, element.dataset.url || "", method === "DELETE" ? undefined : {});
  });
}
