// @ts-check
// A tournament's pages follow it live: every few seconds they ask the JSON view for its
// version and, when it changed (a game ended, a result was confirmed, a round began),
// fetch the page again and put its content in place of the old: no reload, so the
// place on the page is kept. Polling keeps the server simple: the view is one small
// query, and a tournament changes a few times a minute at most.
const POLL_MS = 3000;

/** The page's content is left alone while somebody is filling in one of its forms. */
function busy() {
  const active = document.activeElement;
  return active !== null && active.closest("main form") !== null;
}

async function refresh() {
  const response = await fetch(location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.querySelector("main");
  const main = document.querySelector("main");
  if (!fresh || !main) return;
  main.replaceChildren(...Array.from(fresh.childNodes, (node) => document.importNode(node, true)));
  document.title = page.title;
}

async function poll() {
  const card = document.getElementById("tournament");
  if (!card) return;
  try {
    const response = await fetch(`/api/tournaments/${card.dataset.id}`, { credentials: "same-origin" });
    if (response.ok) {
      const view = await response.json();
      if (view.version !== card.dataset.version && !busy()) await refresh();
    }
  } catch {
    // The server is away for a moment: ask again at the next beat.
  }
  setTimeout(poll, POLL_MS);
}

setTimeout(poll, POLL_MS);
