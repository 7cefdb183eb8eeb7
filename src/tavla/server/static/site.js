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
