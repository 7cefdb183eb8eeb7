"""The whole platform in headless Chromium: `tavla serve` as a real process, a player
who registers in the lobby, plays the bots by clicking the board, watches the replay
in the archive; a spectator who sees the board move; another user who is refused.

Needs Debian's Chromium (/usr/bin/chromium), the playwright package and the server's
packages; skipped without them. Screenshots of every game's page go to
$TAVLA_SCREENSHOTS (default: a temporary directory).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser import CHROMIUM
from tests.e2e.serving import DATABASE_KINDS, FAST_BOTS, database_for, tavla_server

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

GAMES = ("tabla", "antitabla", "chelebi", "tapa", "gulbara", "indiyka", "abluka")
PASSWORD = "correct horse battery"
ACTION_TIMEOUT_MS = 15_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

Json = dict[str, Any]


# ---------------------------------------------------------------------- the server


@pytest.fixture(scope="session", params=DATABASE_KINDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`tavla serve` on a free port and a fresh database (SQLite, then PostgreSQL when
    one is at hand); its URL."""
    folder = tmp_path_factory.mktemp("server")
    with tavla_server(folder, database_for(request.param, folder), FAST_BOTS) as url:
        yield url


class Visitor:
    """One browser context (its own cookies) and its page, failing on any script error."""

    def __init__(self, browser: Any, server: str, width: int = 1200, height: int = 900) -> None:
        self.server = server
        self.context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
        self.context.set_default_timeout(ACTION_TIMEOUT_MS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        # A resource that fails is named by the response (the console line has no address).
        self.page.on(
            "console",
            lambda message: (
                self.errors.append(message.text)
                if message.type == "error" and not message.text.startswith("Failed to load resource")
                else None
            ),
        )
        self.page.on(
            "response",
            lambda response: (
                self.errors.append(f"{response.status} {response.url}")
                if response.status >= 400 and not response.url.endswith("/favicon.ico")
                else None
            ),
        )

    def goto(self, path: str) -> None:
        self.page.goto(f"{self.server}{path}")

    def register(self, name: str) -> None:
        """Register with the lobby's form."""
        self.goto("/")
        form = self.page.locator("#register-form")
        form.locator("input[name=name]").fill(name)
        form.locator("input[name=password]").fill(PASSWORD)
        form.locator("button[type=submit]").click()
        self.page.wait_for_selector("#who")
        assert self.page.locator("#who").inner_text() == name

    def play_bot(self, game: str, length: int = 1, sets: int = 1) -> str:
        """Start a game against the weakest bot from the lobby's form; its id."""
        self.goto("/")
        form = self.page.locator("#bot-form")
        form.locator("select[name=game]").select_option(game)
        # The form shows the match length for the dice games and the sets for Abluka.
        if game == "abluka":
            assert form.locator("select[name=length]").is_hidden()
            form.locator("select[name=sets]").select_option(str(sets))
        else:
            assert form.locator("select[name=sets]").is_hidden()
            form.locator("select[name=length]").select_option(str(length))
        form.locator("select[name=level]").select_option("beginner")
        form.locator("button[type=submit]").click()
        self.page.wait_for_url("**/game/*")
        self.page.wait_for_selector("#game[data-v] .board-svg[viewBox]")
        return str(self.page.url.rsplit("/", 1)[1])

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def player(browser: Any, server: str, screenshots: Path) -> Iterator[Visitor]:
    visitor = Visitor(browser, server)
    visitor.register(_name("e2e"))
    _shoot(visitor.page, screenshots, "lobby")
    yield visitor
    visitor.close()


# ---------------------------------------------------------------------- playing by clicks

READ_STATE = """() => {
  const game = window.tavlaGame;
  if (!game || !game.state) return null;
  const s = game.state;
  return {v: s.v, seat: s.seat, busy: game.busy, over: s.match.over, phase: s.match.phase,
          actor: s.match.actor, complete: s.steps ? s.steps.complete : null,
          legal: s.steps ? s.steps.legal.length : null, played: s.steps ? s.steps.played.length : null};
}"""

MY_MOVE = """() => {
  const game = window.tavlaGame;
  if (!game || !game.state || game.busy) return false;
  const m = game.state.match;
  if (m.over) return true;
  if (m.actor !== game.state.seat) return false;
  if (m.phase === "move") return !!game.state.steps;
  return ["roll", "double", "resign", "raccoon"].includes(m.phase);
}"""


def _read(page: Any) -> Json:
    state: Json = page.evaluate(READ_STATE)
    return state


def _wait_newer(page: Any, v: int) -> None:
    page.wait_for_function(
        "(v) => window.tavlaGame && window.tavlaGame.state.v > v && !window.tavlaGame.busy", arg=v
    )


def _click_step(page: Any) -> None:
    """Play one step with the mouse: a highlighted source, then a highlighted target."""
    board = page.locator("#game .board-svg")
    if board.locator("g.spot.target").count() == 0:
        # (Abluka's blocker has no source: its squares are targets at once.)
        board.locator("g.spot.source").first.click()
        if page.evaluate("() => window.tavlaGame.board.selected") is None:
            return  # the source had one place to go: the step was sent
    # A source with several places: now selected, its targets highlighted.
    assert board.locator("g.spot.selected").count() <= 1
    board.locator("g.spot.target").first.click()


def act_once(page: Any) -> str:
    """Wait until the player may act (or the match is over) and do one thing by clicking.

    The thing done: "over", "roll", "step", "commit", "take", "accept" or "roll".
    """
    page.wait_for_function(MY_MOVE, timeout=30_000)
    state = _read(page)
    if state["over"]:
        return "over"
    controls = page.locator("#game .board-controls")
    phase = state["phase"]
    if phase in ("roll", "raccoon"):
        done = "roll"
        controls.locator("button.btn-roll").click()
    elif phase == "double":
        done = "take"
        controls.locator("button.btn-take").click()
    elif phase == "resign":
        done = "accept"
        controls.locator("button.btn-accept").click()
    elif state["complete"]:
        done = "commit"
        controls.locator("button.btn-commit").click()
    else:
        done = "step"
        _click_step(page)
    _wait_newer(page, state["v"])
    return done


def play_first_turn(page: Any) -> list[str]:
    """Act until the player has committed a turn."""
    done: list[str] = []
    while "commit" not in done:
        what = act_once(page)
        assert what != "over", done
        done.append(what)
    return done


def play_to_the_end(page: Any, limit: int = 2000) -> list[str]:
    done: list[str] = []
    for _ in range(limit):
        what = act_once(page)
        if what == "over":
            return done
        done.append(what)
    raise AssertionError(f"the match did not end in {limit} actions")


# ---------------------------------------------------------------------- the tests


def _shoot(page: Any, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)


def _check_replay(visitor: Visitor, game_id: str, screenshots: Path, name: str) -> None:
    """The archive page steps through every state and downloads the record."""
    page = visitor.page
    visitor.goto(f"/game/{game_id}")
    page.wait_for_url(f"**/archive/{game_id}")
    page.wait_for_selector("#replay[data-ready]")
    replay = page.locator("#replay")
    moves = replay.locator("ol.replay-moves button[data-index]")
    total = moves.count()
    assert total > 5
    assert replay.get_attribute("data-index") == "0"
    assert replay.locator("button[data-go=first]").is_disabled()
    # Next, Previous, Last, First and the keys.
    replay.locator("button[data-go=next]").click()
    assert replay.get_attribute("data-index") == "1"
    assert moves.nth(1).get_attribute("aria-current") == "step"
    replay.locator("button[data-go=last]").click()
    assert replay.get_attribute("data-index") == str(total - 1)
    assert replay.locator("button[data-go=next]").is_disabled()
    assert replay.locator(".board-svg g.outcome").count() == 1
    _shoot(page, screenshots, f"{name}-replay-end")
    replay.locator("button[data-go=previous]").click()
    assert replay.get_attribute("data-index") == str(total - 2)
    replay.locator("button[data-go=first]").click()
    assert replay.get_attribute("data-index") == "0"
    page.locator("body").press("ArrowRight")
    page.locator("body").press("ArrowRight")
    assert replay.get_attribute("data-index") == "2"
    page.locator("body").press("ArrowLeft")
    assert replay.get_attribute("data-index") == "1"
    page.locator("body").press("End")
    assert replay.get_attribute("data-index") == str(total - 1)
    # A click in the move list, and the slider.
    middle = total // 2
    moves.nth(middle).click()
    assert replay.get_attribute("data-index") == str(middle)
    assert replay.locator("ol.replay-moves [aria-current=step]").count() == 1
    assert moves.nth(middle).get_attribute("aria-current") == "step"
    slider = replay.locator("input.replay-slider")
    slider.fill("3")
    assert replay.get_attribute("data-index") == "3"
    # Every state draws: step through them all with Next.
    replay.locator("button[data-go=first]").click()
    boards = set()
    for index in range(1, total):
        replay.locator("button[data-go=next]").click()
        assert replay.get_attribute("data-index") == str(index)
        boards.add(replay.locator(".board-svg").inner_html())
    assert len(boards) > total // 3  # the states differ (a roll, a move, a blocker changes the board)
    _shoot(page, screenshots, f"{name}-replay")
    page.set_viewport_size({"width": 390, "height": 844})
    _shoot(page, screenshots, f"{name}-replay-phone")
    page.set_viewport_size({"width": 1200, "height": 900})
    # The record download.
    with page.expect_download() as download_info:
        page.locator("#download-json").click()
    path = download_info.value.path()
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    assert record["format"] == "tavla-record"
    assert len(record["actions"]) == total - 1
    kinds = {action["k"] for action in record["actions"]}
    assert "move" in kinds


@pytest.mark.parametrize(("game", "length", "sets"), [("tabla", 1, 1), ("abluka", 1, 1)])
def test_a_bot_game_played_to_the_end_by_clicking_then_replayed(
    request: pytest.FixtureRequest, player: Visitor, screenshots: Path, game: str, length: int, sets: int
) -> None:
    if game == "tabla" and request.node.callspec.params["server"] == "postgresql":
        # Half a minute of clicks: on PostgreSQL the abluka game walks the same pages.
        pytest.skip("the whole tabla game is walked on SQLite")
    page = player.page
    game_id = player.play_bot(game, length=length, sets=sets)
    done = play_to_the_end(page)
    assert done.count("commit") >= 3
    page.wait_for_selector("#game .board-svg g.outcome")
    assert "wins the match" in page.locator("#game .turn-line").inner_text()
    _shoot(page, screenshots, f"{game}-over")
    _check_replay(player, game_id, screenshots, game)
    _check_analysis(player, game_id, screenshots, game)


def _check_analysis(visitor: Visitor, game_id: str, screenshots: Path, name: str) -> None:
    """The archive page's analysis shows the API's review: the players' totals, the
    equity chart, every marked decision, each of which shows its step of the replay."""
    page = visitor.page
    visitor.goto(f"/archive/{game_id}")
    page.wait_for_selector("#replay[data-ready]")
    section = page.locator("#analysis")
    if name == "abluka":  # a search plays it: no network reviews it, nothing is offered
        assert section.count() == 0
        return
    section.locator("button.analysis-run").click()
    page.wait_for_selector("#analysis[data-ready]", timeout=60_000)
    data = page.evaluate(
        "(id) => fetch(`/api/games/${id}/analysis`).then((response) => response.json())", game_id
    )
    rows = section.locator("table.analysis-totals tbody tr")
    assert rows.count() == 2
    for seat in (0, 1):
        cells = rows.nth(seat).locator("td")
        assert cells.nth(0).inner_text() == str(data["totals"][seat]["decisions"])
        assert cells.nth(1).inner_text() == f"{data['totals'][seat]['error_rate']:.1f}"
    assert "Tavla bot" in rows.nth(1).locator("th").inner_text()
    points = section.locator("svg.analysis-chart polyline.equity").get_attribute("points") or ""
    assert len(points.split()) == len(data["moves"]) > 0
    marked = [move for move in data["moves"] if move["mark"]] + [
        cube for cube in data["cubes"] if cube["mark"]
    ]
    buttons = section.locator("ol.analysis-marked button[data-step]")
    assert buttons.count() == len(marked)
    assert section.locator(".analysis-none").count() == (0 if marked else 1)
    _shoot(page, screenshots, f"{name}-analysis")
    # On a phone each player's totals are a block, each figure after its column's name.
    page.set_viewport_size({"width": 390, "height": 844})
    assert section.evaluate("(card) => card.scrollWidth <= card.clientWidth")
    luck = rows.nth(0).locator("td").last
    assert luck.evaluate("(cell) => getComputedStyle(cell, '::before').content") == '"Luck"'
    assert luck.evaluate("(cell) => cell.getBoundingClientRect().right <= innerWidth")
    _shoot(page, screenshots, f"{name}-analysis-phone")
    page.set_viewport_size({"width": 1200, "height": 900})
    if marked:
        last = buttons.nth(buttons.count() - 1)
        step = last.get_attribute("data-step")
        assert step == str(max(entry["step"] for entry in marked))
        last.click()
        assert page.locator("#replay").get_attribute("data-index") == step
        _check_rollout(visitor, game_id, screenshots, name, data)


def _check_rollout(visitor: Visitor, game_id: str, screenshots: Path, name: str, before: Any) -> None:
    """The registered visitor has the marked turns rolled out: the page follows the run
    and then lists each marked turn with the bot's loss and the rolled-out one, as the
    API gives them (the test servers roll out 4 short trials a turn)."""
    page = visitor.page
    section = page.locator("#analysis")
    section.locator("button.analysis-rollout-run").click()
    page.wait_for_selector("#analysis .analysis-rollout-note", timeout=90_000)
    data = page.evaluate(
        "(id) => fetch(`/api/games/${id}/analysis`).then((response) => response.json())", game_id
    )
    assert data["rollout"]["state"] == "done"
    rolled = [move for move in data["moves"] if move["rollout"]]
    assert [move["step"] for move in rolled] == [move["step"] for move in before["moves"] if move["mark"]]
    assert section.locator(".analysis-rollout").count() == 0  # nothing more to ask for
    note = section.locator(".analysis-rollout-note").inner_text()
    assert "4 games of 2 turns from each" in note
    entries = section.locator("ol.analysis-marked button[data-step]")
    marked_cubes = [cube for cube in data["cubes"] if cube["mark"]]
    assert entries.count() == len(rolled) + len(marked_cubes)
    first = rolled[0]
    entry = section.locator(f'ol.analysis-marked button[data-step="{first["step"]}"]').first
    loss = first["rollout"]["loss"]
    figure = f"{'−' if loss > 0 else '+'}{abs(loss):.3f} ± {first['rollout']['error']:.3f}"
    assert f"rolled out: {figure}" in entry.inner_text()
    assert f"the bot: −{first['judged_loss']:.3f}" in entry.inner_text()
    assert entry.get_attribute("class") == f"btn-link mark-{first['mark'] or 'none'}"
    _shoot(page, screenshots, f"{name}-rollout")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_takes_its_first_turn_by_clicking(player: Visitor, screenshots: Path, game: str) -> None:
    page = player.page
    player.play_bot(game, length=3, sets=3)
    done = play_first_turn(page)
    assert done[-1] == "commit"
    moves = page.locator("#game .move-list li.move")
    assert moves.count() >= 1
    page.wait_for_function(MY_MOVE, timeout=30_000)  # the bot has answered
    _shoot(page, screenshots, f"game-{game}")
    page.locator("#game .board-holder").screenshot(path=str(screenshots / f"board-{game}.png"))


def test_a_spectator_sees_the_moves_and_another_user_may_not_act(
    browser: Any, server: str, player: Visitor, screenshots: Path
) -> None:
    page = player.page
    game_id = player.play_bot("tabla", length=3)
    page.wait_for_function(MY_MOVE, timeout=30_000)

    watcher = Visitor(browser, server)
    intruder = Visitor(browser, server)
    try:
        watcher.goto(f"/game/{game_id}")
        watcher.page.wait_for_selector("#game[data-v] .board-svg[viewBox]")
        assert watcher.page.evaluate("() => window.tavlaGame.state.seat") is None
        assert watcher.page.locator("#game .board-controls").is_hidden()
        before_svg = watcher.page.locator("#game .board-svg").inner_html()
        before_moves = watcher.page.locator("#game .move-list li.move").count()

        play_first_turn(page)
        player_moves = page.locator("#game .move-list li.move").count()
        watcher.page.wait_for_function(
            "(n) => document.querySelectorAll('#game .move-list li.move').length >= n", arg=player_moves
        )
        assert watcher.page.locator("#game .move-list li.move").count() > before_moves
        assert watcher.page.locator("#game .board-svg").inner_html() != before_svg
        assert watcher.page.locator("#game .board-svg g.spot.source").count() == 0
        _shoot(watcher.page, screenshots, "spectator")

        intruder.register(_name("other"))
        intruder.goto(f"/game/{game_id}")
        intruder.page.wait_for_selector("#game[data-v]")
        answer = intruder.page.evaluate(
            """(gameId) => new Promise((resolve, reject) => {
                const socket = new WebSocket(`ws://${location.host}/ws/game/${gameId}`);
                const timer = setTimeout(() => reject(new Error("no answer")), 10000);
                socket.onmessage = (event) => {
                  const message = JSON.parse(event.data);
                  if (message.type === "state") {
                    socket.send(JSON.stringify({type: "intent", seq: message.last_seq + 1, v: message.v,
                                                action: {kind: "roll"}}));
                  } else if (message.type === "error" || message.type === "ack") {
                    clearTimeout(timer);
                    socket.close();
                    resolve({message, seat: null});
                  }
                };
                socket.onerror = () => reject(new Error("socket error"));
            })""",
            game_id,
        )
        assert answer["message"]["type"] == "error"
        assert answer["message"]["code"] == "not_player"
        # The game went on untouched: the player still acts.
        page.wait_for_function(MY_MOVE, timeout=30_000)
    finally:
        watcher.close()
        intruder.close()


def test_a_registered_players_language_and_board_side_are_kept_in_the_account(
    browser: Any, server: str
) -> None:
    visitor = Visitor(browser, server)
    try:
        visitor.register(_name("sofia"))
        visitor.page.select_option("#lang-select", "bg")
        visitor.page.wait_for_function("() => document.documentElement.lang === 'bg'")
        assert "Лоби" in visitor.page.locator("header.site nav").inner_text()
        me = visitor.page.evaluate("() => fetch('/api/me').then((r) => r.json())")
        assert me["language"] == "bg"
        game_id = visitor.play_bot("tapa")
        # (wait_for_function would not do: it takes a predicate's promise for a true value)
        with visitor.page.expect_response(
            lambda response: response.url.endswith("/api/me/preferences") and response.request.method == "PUT"
        ) as saved:
            visitor.page.click("#game .btn-home")
        assert saved.value.ok
        me = visitor.page.evaluate("() => fetch('/api/me').then((r) => r.json())")
        assert me["home_side"] == "left"
        visitor.goto(f"/game/{game_id}")
        assert visitor.page.locator("#game").get_attribute("data-home-side") == "left"
        # The site's bot is named in Bulgarian on the board and in the lobby's live games.
        visitor.page.wait_for_selector("#game[data-v] .game-players .name")
        assert "Бот на Tavla (начинаещ)" in visitor.page.locator("#game .game-players").inner_text()
        visitor.goto("/")
        live = visitor.page.locator(f"#live li[data-game='{game_id}']")
        live.wait_for()
        assert "Бот на Tavla (начинаещ)" in live.inner_text()
        assert "Tavla bot" not in live.inner_text()
        visitor.goto(f"/archive/{game_id}")  # (the archive shows a game while it is played too)
        visitor.page.wait_for_selector("#replay[data-ready]")
        assert "Бот на Tavla (начинаещ)" in visitor.page.locator("#replay .game-players").inner_text()
    finally:
        visitor.close()
