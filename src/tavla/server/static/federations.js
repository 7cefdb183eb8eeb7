// @ts-check
// The federations' pages: each form or button names its API request in data-method and
// data-url ("{name}" in the address is the form's name field); the page reloads after
// it succeeds, or shows the server's refusal, already in the page's language.
import { api } from "./site.js";

const status = document.getElementById("status");

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
    /** @type {Record<string, string>} */
    const fields = {};
    for (const [key, value] of new FormData(element)) fields[key] = String(value).trim();
    let url = element.dataset.url || "";
    if (url.includes("{name}")) {
      url = url.replace("{name}", encodeURIComponent(fields.name || ""));
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
