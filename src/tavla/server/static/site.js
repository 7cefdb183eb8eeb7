// @ts-check
// What every page shares: the CSRF token and JSON requests to the API.

/** @returns {string} */
export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.getAttribute("content") || "" : "";
}

/**
 * Sends a JSON request; resolves to the answer's JSON, or throws an Error whose
 * message is the server's (already in the page's language).
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body]
 */
export async function api(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = data && data.error ? data.error.message : response.statusText;
    throw new Error(message);
  }
  return data;
}

const logout = document.getElementById("logout");
if (logout) {
  logout.addEventListener("click", async () => {
    await api("POST", "/api/logout").catch(() => undefined);
    location.href = "/";
  });
}

// The language: a registered player's account keeps it (every device, and the server's
// messages); a visitor's choice is kept by the page's ?lang= (a cookie).
const language = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang-select"));
if (language) {
  language.addEventListener("change", async () => {
    const registered = document.body.dataset.registered === "1";
    if (registered) {
      await api("PUT", "/api/me/preferences", { language: language.value }).catch(() => undefined);
      location.reload();
    } else if (language.form) {
      language.form.submit();
    }
  });
}
