// @ts-check
// A tournament's pages follow it live: every few seconds they ask the JSON view for its
// version and reload when it changed (a game ended, a result was confirmed, a round
// began). Polling keeps the server simple: the view is one small query, and a
// tournament changes a few times a minute at most.
const POLL_MS = 3000;
const card = document.getElementById("tournament");

async function poll() {
  if (!card) return;
  try {
    const response = await fetch(`/api/tournaments/${card.dataset.id}`, { credentials: "same-origin" });
    if (response.ok) {
      const view = await response.json();
      if (view.version !== card.dataset.version) {
        location.reload();
        return;
      }
    }
  } catch {
    // The server is away for a moment: ask again at the next beat.
  }
  setTimeout(poll, POLL_MS);
}

setTimeout(poll, POLL_MS);
