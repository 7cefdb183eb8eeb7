"""The web board (static/board.js) and the game page's client (static/game.js) in
headless Chromium: what the SVG draws for each game, the intents clicks, drags and keys
emit, the buttons each phase shows, a phone-sized screen, and the websocket protocol
against a fake socket under a fake clock.

Needs Debian's Chromium (/usr/bin/chromium) and the playwright package; skipped
without them. Screenshots of every game's board go to $TAVLA_SCREENSHOTS (default: a
temporary directory).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, overload

import pytest
from tests.browser import ARGS, CHROMIUM
from tests.web.make_fixtures import GAMES, OUT, STATIC

from tavla.server.i18n import money, number

sync_api = pytest.importorskip("playwright.sync_api")


pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium"),
]

Json = dict[str, Any]


def load_fixtures() -> dict[str, Json]:
    text = OUT.read_text(encoding="utf-8")
    body = text.split("export const FIXTURES = ", 1)[1].rstrip().removesuffix(";")
    data: dict[str, Json] = json.loads(body)
    return data


FIXTURES = load_fixtures()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and "favicon" not in message.text and "404" not in message.text
            else None
        ),
    )
    yield page
    context.close()
    assert errors == [], errors


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wanted = os.environ.get("TAVLA_SCREENSHOTS")
    path = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_demo(page: Any, base_url: str, names: str, query: str = "") -> None:
    page.goto(f"{base_url}/demo.html?only={names}{query}")
    page.wait_for_selector("body[data-ready]")


def card(name: str) -> str:
    return f"#card-{name}"


def spot(name: str, key: str) -> str:
    return f'{card(name)} g.spot[data-key="{key}"]'


@overload
def place_key(place: int | str, mover: str) -> str: ...
@overload
def place_key(place: None, mover: str) -> None: ...
def place_key(place: int | str | None, mover: str) -> str | None:
    """The key board.js gives the spot a step's place is drawn at."""
    if place is None:
        return None
    if isinstance(place, int):
        return f"p{place}"
    if place in ("bar", "in", "off"):
        return f"{place}-{mover}"
    return f"sq-{place}"


def intents(page: Any) -> list[Json]:
    result: list[Json] = page.evaluate("window.demo.intents.map((item) => item.action)")
    return result


def classes_with(page: Any, name: str, cls: str) -> set[str]:
    keys: list[str] = page.eval_on_selector_all(
        f"{card(name)} g.spot.{cls}", "nodes => nodes.map((node) => node.dataset.key)"
    )
    return set(keys)


# ---------------------------------------------------------------------- drawing


def checker_counts(page: Any, name: str) -> Json:
    counts: Json = page.evaluate(
        """(name) => {
            const root = document.querySelector(`#card-${name}`);
            const count = (selector) => root.querySelectorAll(selector).length;
            const points = {};
            for (let n = 1; n <= 24; n++) {
                const spot = root.querySelector(`g.spot[data-key="p${n}"]`);
                points[n] = {
                    white: spot.querySelectorAll("circle.checker.white").length,
                    black: spot.querySelectorAll("circle.checker.black").length,
                };
            }
            return {
                points,
                pinned: count("g.point circle.checker.pinned"),
                bar: {
                    white: count("g.bar circle.checker.white"),
                    black: count("g.bar circle.checker.black"),
                },
                waiting: {
                    white: count("g.waiting circle.checker.white"),
                    black: count("g.waiting circle.checker.black"),
                },
                off: { white: count("rect.off.white"), black: count("rect.off.black") },
                all: count("circle.checker"),
                dice: count("g.dice > g.die"),
                cube: count("g.cube"),
            };
        }""",
        name,
    )
    return counts


@pytest.mark.parametrize("game", [g for g in GAMES if g != "abluka"])
@pytest.mark.parametrize("moment", ["start", "mid"])
def test_the_dice_board_draws_every_checker(page: Any, base_url: str, game: str, moment: str) -> None:
    name = f"{game}-{moment}"
    position = FIXTURES[name]["match"]["position"]
    open_demo(page, base_url, name)
    drawn = checker_counts(page, name)
    for point in position["points"]:
        want = {"white": 0, "black": 0}
        for run in point["checkers"]:
            want[run["colour"]] += run["count"]
        assert drawn["points"][str(point["point"])] == want, point
    assert drawn["pinned"] == sum(
        r["count"] for p in position["points"] for r in p["checkers"] if r["pinned"]
    )
    assert drawn["bar"] == (position["bar"] or {"white": 0, "black": 0})
    assert drawn["waiting"] == position["not_entered"]
    assert drawn["off"] == position["off"]
    on_board = sum(run["count"] for point in position["points"] for run in point["checkers"])
    bar = position["bar"] or {"white": 0, "black": 0}
    waiting = position["not_entered"]
    assert drawn["all"] == on_board + bar["white"] + bar["black"] + waiting["white"] + waiting["black"]
    assert drawn["dice"] == (2 if position["dice"] else 0)
    assert drawn["cube"] == 1  # a match to 5 plays the cube


def test_tapa_pins_are_drawn_under_their_stack(page: Any, base_url: str) -> None:
    position = FIXTURES["tapa-mid"]["match"]["position"]
    pinned_points = [p for p in position["points"] if any(run["pinned"] for run in p["checkers"])]
    assert len(pinned_points) >= 2
    open_demo(page, base_url, "tapa-mid")
    for point in pinned_points:
        selector = spot("tapa-mid", f"p{point['point']}")
        pinned_colour = point["checkers"][0]["colour"]
        classes = page.eval_on_selector_all(
            f"{selector} circle.checker", "nodes => nodes.map(n => n.getAttribute('class'))"
        )
        # The pinned checker is drawn first (at the edge of the board), the stack above it.
        assert classes[0] == f"checker {pinned_colour} pinned"
        assert all("pinned" not in cls for cls in classes[1:])
        label = page.get_attribute(selector, "aria-label")
        assert "pinned" in label


@pytest.mark.parametrize("name", ["abluka-start", "abluka-mid", "abluka-blocker"])
def test_the_abluka_grid_draws_kings_and_blockers(page: Any, base_url: str, name: str) -> None:
    fixture = FIXTURES[name]
    position = fixture["match"]["position"]
    open_demo(page, base_url, name)
    assert page.locator(f"{card(name)} rect.square").count() == 49
    played = fixture["steps"]["played"] if fixture["steps"] else []
    blockers = len(position["blockers"]) + (1 if len(played) == 2 else 0)
    assert page.locator(f"{card(name)} rect.blocker").count() == blockers
    mover = position["to_act"]
    for colour, square in position["kings"].items():
        if colour == mover and played:
            square = played[0]  # the king's step is shown played
        assert page.locator(f"{spot(name, 'sq-' + square)} g.king.{colour}").count() == 1


def test_the_cube_shows_its_owner_and_an_offer(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "tabla-owned,tabla-double,tabla-mid")
    owned = page.locator(f"{card('tabla-owned')} g.cube")
    assert owned.get_attribute("data-value") == "4"
    assert "owned" in owned.get_attribute("class")
    assert page.locator(f"{card('tabla-owned')} g.cube text").text_content() == "4"
    offered = page.locator(f"{card('tabla-double')} g.cube")
    assert "offered" in offered.get_attribute("class")
    assert page.locator(f"{card('tabla-double')} g.cube text").text_content() == "2"
    centred = page.locator(f"{card('tabla-mid')} g.cube")
    assert "centred" in centred.get_attribute("class")
    assert "middle" in centred.get_attribute("aria-label")


def test_pip_counts_and_point_numbers_follow_the_viewer(page: Any, base_url: str) -> None:
    name = "tabla-mid"
    pips = FIXTURES[name]["match"]["position"]["pips"]
    open_demo(page, base_url, name, "&bottom=black")
    assert page.locator(f"{card(name)} g.pips.black .pips-value").text_content() == str(pips["black"])
    assert page.locator(f"{card(name)} g.pips.white .pips-value").text_content() == str(pips["white"])
    # Black at the bottom: White's point 24 is Black's 1, at the bottom right.
    assert page.locator(f"{spot(name, 'p24')} .point-number").text_content() == "1"
    box24 = page.locator(f"{spot(name, 'p24')} .hit-area").bounding_box()
    box1 = page.locator(f"{spot(name, 'p1')} .hit-area").bounding_box()
    assert box24["y"] > box1["y"]  # bottom row
    assert box24["x"] > page.locator(f"{spot(name, 'p19')} .hit-area").bounding_box()["x"]


def test_orientation_is_an_option_and_a_method(page: Any, base_url: str) -> None:
    name = "gulbara-mid"
    open_demo(page, base_url, name)

    def box(key: str) -> Any:
        return page.locator(f"{spot(name, key)} .hit-area").bounding_box()

    assert box("p1")["x"] > box("p12")["x"]  # home on the right
    page.evaluate("window.demo.boards['gulbara-mid'].setOrientation({home: 'left'})")
    assert box("p1")["x"] < box("p12")["x"]
    assert page.evaluate("window.demo.boards['gulbara-mid'].orientation") == {
        "bottom": "white",
        "home": "left",
    }
    # Gulbara: both sides move the same way; Black's 24 (his start) is White's 12.
    page.evaluate("window.demo.boards['gulbara-mid'].setOrientation({bottom: 'black', home: 'right'})")
    assert page.locator(f"{spot(name, 'p12')} .point-number").text_content() == "24"
    assert page.locator(f"{spot(name, 'p13')} .point-number").text_content() == "1"


# ---------------------------------------------------------------------- clicks


def pick_source(fixture: Json) -> tuple[str, dict[str, str]]:
    """A source with the most distinct targets, and its targets' keys -> step text."""
    steps = fixture["steps"]
    mover = steps["to_act"]
    by_source: dict[str, dict[str, str]] = {}
    for step in steps["legal"]:
        source = place_key(step["from"], mover)
        target = place_key(step["to"], mover)
        assert target is not None
        if source is None:
            continue
        by_source.setdefault(source, {}).setdefault(target, step["text"])
    source = max(by_source, key=lambda key: len(by_source[key]))
    return source, by_source[source]


@pytest.mark.parametrize("game", GAMES)
def test_click_a_source_then_a_target_emits_the_step(page: Any, base_url: str, game: str) -> None:
    name = f"{game}-mid"
    fixture = FIXTURES[name]
    source, targets = pick_source(fixture)
    open_demo(page, base_url, name)
    sources = {place_key(step["from"], fixture["steps"]["to_act"]) for step in fixture["steps"]["legal"]}
    assert classes_with(page, name, "source") == sources
    page.click(f"{spot(name, source)} .hit-area")
    if len(targets) == 1:
        # Only one step leaves from there: the click plays it.
        assert intents(page) == [{"kind": "step", "step": next(iter(targets.values()))}]
        return
    assert classes_with(page, name, "selected") == {source}
    assert classes_with(page, name, "target") == set(targets)
    target = sorted(targets)[-1]
    page.click(f"{spot(name, target)} .hit-area")
    assert intents(page) == [{"kind": "step", "step": targets[target]}]
    # The selection is gone once the intent is on its way.
    assert classes_with(page, name, "selected") == set()


def test_a_source_with_one_step_plays_it_at_once(page: Any, base_url: str) -> None:
    name = "tabla-bar"
    legal = FIXTURES[name]["steps"]["legal"]
    assert len(legal) == 1 and legal[0]["from"] == "bar"
    open_demo(page, base_url, name)
    page.click(f"{spot(name, 'bar-white')} .hit-area")
    assert intents(page) == [{"kind": "step", "step": legal[0]["text"]}]


def test_bearing_off_targets_the_tray(page: Any, base_url: str) -> None:
    name = "tabla-bearoff"
    steps = FIXTURES[name]["steps"]
    mover = steps["to_act"]
    off = [step for step in steps["legal"] if step["to"] == "off"]
    assert off
    step = off[0]
    open_demo(page, base_url, name)
    page.click(f"{spot(name, place_key(step['from'], mover))} .hit-area")
    if not intents(page):
        assert f"off-{mover}" in classes_with(page, name, "target")
        page.click(f"{spot(name, 'off-' + mover)} .hit-area")
    assert intents(page) == [{"kind": "step", "step": step["text"]}]


def test_indiyka_enters_from_the_waiting_checkers(page: Any, base_url: str) -> None:
    name = "indiyka-mid"
    steps = FIXTURES[name]["steps"]
    mover = steps["to_act"]
    assert all(step["from"] == "in" for step in steps["legal"])
    open_demo(page, base_url, name)
    page.click(f"{spot(name, 'in-' + mover)} .hit-area")
    targets = {place_key(step["to"], mover): step["text"] for step in steps["legal"]}
    assert classes_with(page, name, "target") == set(targets)
    key = sorted(targets)[0]
    page.click(f"{spot(name, key)} .hit-area")
    assert intents(page) == [{"kind": "step", "step": targets[key]}]


def test_abluka_blocker_is_put_with_one_click(page: Any, base_url: str) -> None:
    name = "abluka-blocker"
    steps = FIXTURES[name]["steps"]
    assert all(step["piece"] == "blocker" for step in steps["legal"])
    open_demo(page, base_url, name)
    targets = classes_with(page, name, "target")
    assert targets == {f"sq-{step['to']}" for step in steps["legal"]}
    choice = steps["legal"][3]["text"]
    page.click(f"{spot(name, 'sq-' + choice)} .hit-area")
    assert intents(page) == [{"kind": "step", "step": choice}]


def test_played_steps_are_shown_moved(page: Any, base_url: str) -> None:
    """The match state holds the position the turn started from: the board moves the
    checkers of the steps played itself."""
    name = "tabla-owned"
    fixture = FIXTURES[name]
    open_demo(page, base_url, name)
    before = checker_counts(page, name)
    page.evaluate(
        """({name, steps}) => {
            const board = window.demo.boards[name];
            board.update({...board.state, steps});
        }""",
        {
            "name": name,
            "steps": {
                **fixture["steps"],
                "played": ["13/8"],
                "legal": [],
                "complete": False,
                "dice_left": [3],
            },
        },
    )
    after = checker_counts(page, name)
    # Black's 13 is White's 12, Black's 8 is White's 17.
    assert after["points"]["12"]["black"] == before["points"]["12"]["black"] - 1
    assert after["points"]["17"]["black"] == before["points"]["17"]["black"] + 1
    assert page.locator(f"{card(name)} g.die.used").count() == 1  # the 5 is played
    pips = fixture["match"]["position"]["pips"]
    assert page.locator(f"{card(name)} g.pips.black .pips-value").text_content() == str(pips["black"] - 5)


def test_drag_and_drop_plays_a_step(page: Any, base_url: str) -> None:
    name = "tabla-owned"
    source, targets = pick_source(FIXTURES[name])
    assert len(targets) > 1
    target = sorted(targets)[0]
    open_demo(page, base_url, name)
    start = page.locator(f"{spot(name, source)} .hit-area").bounding_box()
    end = page.locator(f"{spot(name, target)} .hit-area").bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 20, start["y"] + start["height"] / 2 + 20, steps=3)
    assert page.locator(f"{card(name)} .ghost").count() == 1
    assert classes_with(page, name, "target") == set(targets)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    assert intents(page) == [{"kind": "step", "step": targets[target]}]
    assert page.locator(f"{card(name)} .ghost").count() == 0


# ---------------------------------------------------------------------- keyboard


def test_keyboard_selects_a_source_and_a_target(page: Any, base_url: str) -> None:
    name = "tabla-owned"
    fixture = FIXTURES[name]
    source, targets = pick_source(fixture)
    open_demo(page, base_url, name)
    # Tab from the page's last control reaches a legal source of the board.
    page.focus("#home")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.key")
    sources = {place_key(step["from"], fixture["steps"]["to_act"]) for step in fixture["steps"]["legal"]}
    assert focused in sources
    # Only legal sources take the focus.
    focusable = page.eval_on_selector_all(
        f"{card(name)} g.spot[tabindex]", "nodes => nodes.map(n => n.dataset.key)"
    )
    assert set(focusable) == sources
    assert all(
        label
        for label in page.eval_on_selector_all(
            f"{card(name)} g.spot", "ns => ns.map(n => n.getAttribute('aria-label'))"
        )
    )
    page.focus(spot(name, source))
    page.keyboard.press("Enter")
    assert classes_with(page, name, "selected") == {source}
    focused = page.evaluate("document.activeElement.dataset.key")
    assert focused in targets
    # Arrow keys go round the focusable spots; Escape gives up the selection.
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Escape")
    assert classes_with(page, name, "selected") == set()
    assert page.evaluate("document.activeElement.dataset.key") == source
    page.keyboard.press(" ")
    assert classes_with(page, name, "selected") == {source}
    focused = page.evaluate("document.activeElement.dataset.key")
    assert focused in targets
    page.keyboard.press("Enter")
    assert intents(page) == [{"kind": "step", "step": targets[focused]}]


def test_abluka_king_by_keyboard(page: Any, base_url: str) -> None:
    name = "abluka-mid"
    fixture = FIXTURES[name]
    mover = fixture["steps"]["to_act"]
    king = fixture["match"]["position"]["kings"][mover]
    open_demo(page, base_url, name)
    page.focus(spot(name, f"sq-{king}"))
    page.keyboard.press("Enter")
    targets = {f"sq-{step['to']}": step["text"] for step in fixture["steps"]["legal"]}
    assert classes_with(page, name, "target") == set(targets)
    seen = set()
    for _ in range(12):
        page.keyboard.press("ArrowRight")
        focused = page.evaluate("document.activeElement.dataset.key")
        assert focused in targets or focused == f"sq-{king}"
        seen.add(focused)
        if len(seen & set(targets)) >= 2:
            break
    assert len(seen & set(targets)) >= 2
    while focused not in targets:
        page.keyboard.press("ArrowRight")
        focused = page.evaluate("document.activeElement.dataset.key")
    page.keyboard.press("Enter")
    assert intents(page) == [{"kind": "step", "step": targets[focused]}]


# ---------------------------------------------------------------------- buttons


def visible_buttons(page: Any, name: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        f"{card(name)} .board-controls button:not([hidden])", "nodes => nodes.map(n => n.dataset.action)"
    )
    return found


@pytest.mark.parametrize(
    ("name", "buttons"),
    [
        ("tabla-roll", ["roll", "double", "resign"]),
        ("tabla-double", ["take", "drop", "resign"]),
        ("tabla-beaver", ["take", "drop", "beaver", "resign"]),
        ("tabla-raccoon", ["roll", "raccoon", "resign"]),
        ("tabla-mid", ["undo", "commit", "resign"]),
        ("abluka-mid", ["undo", "commit", "resign"]),
        ("tabla-start", []),
    ],
)
def test_buttons_follow_the_phase(page: Any, base_url: str, name: str, buttons: list[str]) -> None:
    open_demo(page, base_url, name)
    assert sorted(visible_buttons(page, name)) == sorted(buttons)
    for button in buttons:
        locator = page.locator(f"{card(name)} button[data-action={button}]")
        assert locator.get_attribute("accesskey")
        assert locator.get_attribute("aria-label")


def test_undo_and_commit_follow_the_steps(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "tabla-mid,abluka-blocker")
    assert page.is_disabled(f"{card('tabla-mid')} button[data-action=undo]")
    assert page.is_disabled(f"{card('tabla-mid')} button[data-action=commit]")
    assert page.is_enabled(f"{card('abluka-blocker')} button[data-action=undo]")
    page.click(f"{card('abluka-blocker')} button[data-action=undo]")
    assert intents(page) == [{"kind": "undo"}]
    fixture = FIXTURES["abluka-blocker"]
    done = {**fixture["steps"], "played": [*fixture["steps"]["played"], "a2"], "legal": [], "complete": True}
    page.evaluate(
        "(steps) => { const b = window.demo.boards['abluka-blocker']; b.update({...b.state, steps}); }", done
    )
    assert page.is_enabled(f"{card('abluka-blocker')} button[data-action=commit]")
    # (Access keys are the browser's: synthetic key presses do not reach them, so the
    # attribute is checked in test_buttons_follow_the_phase.)
    page.click(f"{card('abluka-blocker')} button[data-action=commit]")
    assert intents(page) == [{"kind": "undo"}, {"kind": "commit"}]
    # The blocker just put is drawn.
    assert page.locator(f"{spot('abluka-blocker', 'sq-a2')} rect.blocker").count() == 1


@pytest.mark.parametrize(
    ("phase", "seat", "buttons"),
    [
        ("resign", 1, ["accept", "decline"]),
        ("resign", 0, []),
        ("between", 0, ["break"]),
        ("opening", 0, []),
        ("over", 0, []),
    ],
)
def test_answers_and_breaks_follow_the_phase(
    page: Any, base_url: str, phase: str, seat: int, buttons: list[str]
) -> None:
    name = "tabla-start"
    open_demo(page, base_url, name)
    page.evaluate(
        """([name, phase, seat]) => {
            const board = window.demo.boards[name];
            const match = structuredClone(board.state.match);
            match.phase = phase;
            match.actor = phase === "resign" ? 1 : null;
            match.resign = phase === "resign" ? { by: 0, level: "gammon", points: 2 } : null;
            match.over = phase === "over";
            board.update({ match, steps: null, seat });
        }""",
        [name, phase, seat],
    )
    assert sorted(visible_buttons(page, name)) == sorted(buttons)
    for button in buttons:
        page.click(f"{card(name)} button[data-action={button}]")
    assert intents(page) == [{"kind": button} for button in buttons]


def test_roll_double_and_resign_buttons_emit_their_actions(page: Any, base_url: str) -> None:
    name = "tabla-roll"
    open_demo(page, base_url, name)
    page.click(f"{card(name)} button[data-action=roll]")
    page.click(f"{card(name)} button[data-action=double]")
    page.select_option(f"{card(name)} select.resign-level", "gammon")
    page.click(f"{card(name)} button[data-action=resign]")
    assert intents(page) == [{"kind": "roll"}, {"kind": "double"}, {"kind": "resign", "level": "gammon"}]


def test_a_spectator_or_a_busy_board_takes_no_action(page: Any, base_url: str) -> None:
    name = "tabla-mid"
    source, _ = pick_source(FIXTURES[name])
    open_demo(page, base_url, name)
    page.evaluate("window.demo.boards['tabla-mid'].setBusy(true)")
    assert page.get_attribute(spot(name, source), "aria-disabled") == "true"
    page.click(f"{spot(name, source)} .hit-area", force=True)
    assert classes_with(page, name, "selected") == set()
    assert page.is_disabled(f"{card(name)} button[data-action=resign]")
    page.evaluate(
        """() => {
            const b = window.demo.boards['tabla-mid'];
            b.setBusy(false);
            b.update({match: b.state.match, steps: null, seat: null});
        }"""
    )
    assert visible_buttons(page, name) == []
    assert classes_with(page, name, "source") == set()
    page.click(f"{spot(name, source)} .hit-area")
    assert intents(page) == []


# ---------------------------------------------------------------------- small screens and screenshots


def test_a_phone_screen_has_no_horizontal_overflow(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(f"{base_url}/demo.html")
        page.wait_for_selector("body[data-ready]")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for name in ("tabla-mid", "abluka-mid"):
            box = page.locator(f"{card(name)} svg.board-svg").bounding_box()
            assert box["width"] <= 360
            assert box["width"] > 300
        # The controls wrap inside the screen.
        for box in page.eval_on_selector_all(
            "button:not([hidden])", "nodes => nodes.map(n => n.getBoundingClientRect().right)"
        ):
            assert box <= 360
    finally:
        context.close()


def test_screenshots_of_every_board(browser: Any, base_url: str, screenshots: Path) -> None:
    context = browser.new_context(viewport={"width": 900, "height": 900})
    page = context.new_page()
    try:
        for game in GAMES:
            name = f"{game}-mid"
            open_demo(page, base_url, name)
            source, targets = pick_source(FIXTURES[name])
            if len(targets) > 1:
                page.click(f"{spot(name, source)} .hit-area")  # show a selection and its targets
            page.locator(card(name)).screenshot(path=str(screenshots / f"{game}.png"))
        for name, query in (
            ("tapa-mid", "&bottom=black&home=left"),
            ("tabla-double", ""),
            ("abluka-blocker", ""),
        ):
            open_demo(page, base_url, name, query)
            page.locator(card(name)).screenshot(
                path=str(screenshots / f"{name}{query.replace('&', '_')}.png")
            )
        phone = browser.new_context(viewport={"width": 360, "height": 740})
        small = phone.new_page()
        small.goto(f"{base_url}/demo.html?only=chelebi-mid")
        small.wait_for_selector("body[data-ready]")
        small.screenshot(path=str(screenshots / "phone-chelebi.png"), full_page=True)
        phone.close()
    finally:
        context.close()
    assert len(list(screenshots.glob("*.png"))) >= len(GAMES)


# ---------------------------------------------------------------------- game.js and its protocol

FAKE_SOCKET = """
window.sockets = [];
class FakeSocket {
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; window.sockets.push(this); }
  send(data) { this.sent.push(JSON.parse(data)); }
  close() { this.readyState = 3; }
  serverOpen() { this.readyState = 1; this.onopen && this.onopen({}); }
  serverSend(message) { this.onmessage && this.onmessage({ data: JSON.stringify(message) }); }
  serverDrop() { this.readyState = 3; this.onclose && this.onclose({ code: 1006 }); }
}
window.TAVLA_SOCKET_FACTORY = (url) => new FakeSocket(url);
"""

GAME_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="board.css"></head>
<body>
<div id="game" data-game-id="g8Zk2" data-lang="en"></div>
<script>{FAKE_SOCKET}</script>
<script type="module" src="game.js"></script>
</body></html>"""


def state_message(name: str, v: int, *, seat: int | None = 0, last_seq: int = 12, **extra: Any) -> Json:
    fixture = FIXTURES[name]
    match = fixture["match"]
    steps = fixture["steps"] if seat is not None and match["actor"] == seat else None
    message = {
        "type": "state",
        "v": v,
        "game_id": "g8Zk2",
        "seat": seat,
        "last_seq": last_seq,
        "players": [
            {"name": "ayse", "bot": False, "connected": True, "away_ms": None},
            {"name": "tavla-bot (level 3)", "bot": True, "connected": True, "away_ms": None},
        ],
        "match": match,
        "steps": steps,
        "moves": [
            {"game": 1, "seat": None, "kind": "opening", "text": "31", "dice": "31"},
            {"game": 1, "seat": 0, "kind": "move", "text": "8/5 6/5", "dice": "31"},
        ],
        "dice": {"commitment": "ab" * 32, "client_seed": "c0ffee"},
        "chat": {"enabled": True, "messages": [{"seat": 1, "text": "iyi oyunlar", "t_ms": 1732}]},
        "spectators": 2,
    }
    message.update(extra)
    return message


@pytest.fixture
def game(page: Any, base_url: str) -> Any:
    # Installed, the page's clock would still run with the wall clock, and a slow machine
    # would fire a timer early. Paused before the page loads (a jump made before any of
    # its timers exists), it moves only when a test says.
    page.clock.install(time=1_700_000_000)  # (seconds)
    page.clock.pause_at(1_700_000_001)
    page.route(
        f"{base_url}/game-test.html", lambda route: route.fulfill(body=GAME_PAGE, content_type="text/html")
    )
    page.goto(f"{base_url}/game-test.html")
    page.wait_for_function("window.sockets && window.sockets.length === 1")
    assert page.evaluate("Date.now()") == 1_700_000_001_000  # (milliseconds)
    return page


def sent(page: Any, index: int = -1) -> list[Json]:
    messages: list[Json] = page.evaluate("(i) => window.sockets.at(i).sent", index)
    return messages


def server(page: Any, message: Json, index: int = -1) -> None:
    page.evaluate("([i, m]) => window.sockets.at(i).serverSend(m)", [index, message])


def shown_v(page: Any) -> str:
    value: str = page.get_attribute("#game", "data-v")
    return value


def test_game_page_connects_to_the_game_socket(game: Any, base_url: str) -> None:
    url = game.evaluate("window.sockets[0].url")
    assert url == f"ws://{base_url.removeprefix('http://')}/ws/game/g8Zk2"
    game.evaluate("window.sockets[0].serverOpen()")
    assert sent(game) == []  # a first connection needs no sync: the server sends the state
    server(game, state_message("tabla-roll", 17, seat=1))
    assert shown_v(game) == "17"
    assert "ayse" in game.text_content(".game-players")
    assert "Single game" in game.text_content(".match-info")
    assert "Spectators: 2" in game.text_content(".spectators")
    assert "iyi oyunlar" in game.text_content(".chat-log")
    assert "abab" in game.text_content(".verify code.commitment")
    assert "8/5 6/5" in game.text_content(".move-list")
    assert game.text_content(".turn-line") == "Your turn: roll or double"


def test_the_turn_line_says_a_bot_is_thinking_and_a_person_is_awaited(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    bot_to_move = state_message("tabla-mid", 17, seat=0)  # seat 1, the bot, is to move
    server(game, bot_to_move)
    assert game.text_content(".turn-line") == "tavla-bot (level 3) is thinking"
    person_to_move = state_message("tabla-mid", 18, seat=0)
    person_to_move["players"][1] = {"name": "mehmet", "bot": False, "connected": True, "away_ms": None}
    server(game, person_to_move)
    assert game.text_content(".turn-line") == "Waiting for mehmet"
    server(game, state_message("tabla-mid", 19, seat=None))  # a spectator sees the bot think too
    assert game.text_content(".turn-line") == "tavla-bot (level 3) is thinking"
    watched = state_message("tabla-mid", 20, seat=None)
    watched["players"] = person_to_move["players"]
    server(game, watched)
    assert game.text_content(".turn-line") == "mehmet to act"


def test_game_drops_older_and_equal_versions(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1))
    server(game, state_message("tabla-mid", 16, seat=1))
    server(game, state_message("tabla-mid", 17, seat=1))
    assert shown_v(game) == "17"
    assert game.locator("button[data-action=roll]").is_visible()
    server(game, state_message("tabla-mid", 18, seat=1))
    assert shown_v(game) == "18"
    assert not game.locator("button[data-action=roll]").is_visible()
    assert sent(game) == []  # no gap: nothing asked


def test_a_gap_in_versions_asks_for_a_sync(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1))
    server(game, state_message("tabla-roll", 20, seat=1))
    assert shown_v(game) == "20"
    assert sent(game) == [{"type": "sync"}]


def test_intents_are_numbered_from_last_seq_and_resent_until_acked(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1, last_seq=12))
    game.click("button[data-action=roll]")
    intent = {"type": "intent", "seq": 13, "v": 17, "action": {"kind": "roll"}}
    assert sent(game) == [intent]
    # The board waits for the answer.
    assert game.is_disabled("button[data-action=roll]")
    game.clock.run_for(1500)
    assert sent(game) == [intent]
    game.clock.run_for(700)
    assert sent(game) == [intent, intent]  # the same seq again after 2 s
    game.clock.run_for(2100)
    assert sent(game) == [intent, intent, intent]
    server(game, {"type": "ack", "seq": 13, "v": 18})
    game.clock.run_for(1000)
    server(game, state_message("tabla-owned", 18, seat=1, last_seq=13))
    game.clock.run_for(5000)
    assert len(sent(game)) == 3  # acked: no more resends
    # The next intent takes the next number and the new version.
    source, targets = pick_source(FIXTURES["tabla-owned"])
    game.click(f'g.spot[data-key="{source}"] .hit-area')
    if len(sent(game)) == 3:
        game.click(f'g.spot[data-key="{sorted(targets)[0]}"] .hit-area')
    last = sent(game)[-1]
    assert (last["type"], last["seq"], last["v"], last["action"]["kind"]) == ("intent", 14, 18, "step")


def test_an_error_is_shown_and_frees_the_board(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1, last_seq=4))
    game.click("button[data-action=double]")
    assert sent(game)[-1]["seq"] == 5
    server(game, {"type": "error", "seq": 5, "code": "illegal", "message": "You may not double now"})
    assert game.text_content(".status-line") == "You may not double now"
    assert "error" in game.get_attribute(".status-line", "class")
    assert game.is_enabled("button[data-action=roll]")
    game.clock.run_for(3000)
    assert len(sent(game)) == 1  # refused: not sent again
    server(game, {"type": "error", "seq": None, "code": "rate_limited", "message": ""})
    assert game.text_content(".status-line") == "Too many messages: slow down"


def test_an_ack_whose_state_does_not_come_asks_for_a_sync(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1, last_seq=0))
    game.click("button[data-action=roll]")
    server(game, {"type": "ack", "seq": 1, "v": 18})
    game.clock.run_for(2100)
    assert sent(game)[-1] == {"type": "sync"}


def test_a_drop_reconnects_with_backoff_syncs_and_resends(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1, last_seq=12))
    game.click("button[data-action=roll]")
    intent = {"type": "intent", "seq": 13, "v": 17, "action": {"kind": "roll"}}
    game.evaluate("window.sockets[0].serverDrop()")
    assert game.text_content(".status-line") == "Connection lost, reconnecting…"
    game.clock.run_for(400)
    assert game.evaluate("window.sockets.length") == 1
    game.clock.run_for(200)
    assert game.evaluate("window.sockets.length") == 2  # after 500 ms
    # The second attempt fails: the next waits longer.
    game.evaluate("window.sockets[1].serverDrop()")
    game.clock.run_for(900)
    assert game.evaluate("window.sockets.length") == 2
    game.clock.run_for(200)
    assert game.evaluate("window.sockets.length") == 3
    game.evaluate("window.sockets[2].serverOpen()")
    # A reconnection asks for the state first, then sends the unanswered intent again.
    assert sent(game, 2) == [{"type": "sync"}, intent]
    server(game, {"type": "ack", "seq": 13, "v": 18}, 2)
    server(game, state_message("tabla-owned", 18, seat=1, last_seq=13), 2)
    assert shown_v(game) == "18"
    assert game.text_content(".status-line") == ""


def test_a_state_that_accepted_the_intent_ends_its_resending(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1, last_seq=12))
    game.click("button[data-action=roll]")
    # The ack was lost; the state shows the intent accepted (last_seq 13).
    server(game, state_message("tabla-owned", 18, seat=1, last_seq=13))
    game.clock.run_for(5000)
    assert len(sent(game)) == 1


def test_the_home_side_button_is_offered_on_boards_with_a_home_only(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-mid", 3, seat=0))
    assert game.locator(".btn-home").is_visible()
    server(game, state_message("abluka-mid", 4, seat=0))
    assert game.locator(".btn-home").is_hidden() and game.locator(".btn-flip").is_visible()


def test_clocks_count_down_for_the_running_seat(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    message = state_message("tabla-mid", 17, seat=0)
    clock = message["match"]["clock"]
    assert clock is not None
    running = clock["running"]
    assert running is not None
    message["players"][0] = {"name": "ayse", "bot": False, "connected": False, "away_ms": 4000}
    server(game, message)
    start = clock["seats"][running]["remaining_ms"]
    other = clock["seats"][1 - running]["remaining_ms"]

    def shown(seat: int) -> str:
        text: str = game.text_content(f".player.seat-{seat} .clock")
        return text

    def fmt(ms: int) -> str:
        seconds = -(-ms // 1000)
        return f"{seconds // 60}:{seconds % 60:02d}"

    assert shown(running) == fmt(start)
    game.clock.run_for(5000)
    game.evaluate("window.tavlaGame.tick()")  # the display ticks four times a second: read it now
    assert shown(running) == fmt(start - 5000)
    assert shown(1 - running) == fmt(other)
    assert "running" in game.get_attribute(f".player.seat-{running} .clock", "class")
    assert game.text_content(".player.seat-0 .away") == "disconnected for 0:09"


def test_chat_is_sent_with_the_intent_numbering(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-roll", 17, seat=1, last_seq=7))
    game.fill(".chat-form input", "good luck")
    game.press(".chat-form input", "Enter")
    assert sent(game) == [{"type": "chat", "seq": 8, "text": "good luck"}]
    server(game, {"type": "ack", "seq": 8, "v": 18})
    off = state_message("tabla-roll", 18, seat=1, last_seq=8, chat={"enabled": False, "messages": []})
    server(game, off)
    assert game.locator(".chat").is_hidden()


def test_a_spectator_sees_the_board_without_controls(game: Any) -> None:
    game.evaluate("window.sockets[0].serverOpen()")
    server(game, state_message("tabla-mid", 30, seat=None, last_seq=0))
    assert game.text_content(".turn-line") == "tavla-bot (level 3) is thinking"
    assert game.locator(".board-controls").is_hidden()
    assert game.locator(".chat-form").is_hidden()
    assert game.locator("g.spot.source").count() == 0


def test_texts_come_from_tavla_text(page: Any, base_url: str) -> None:
    page.clock.install(time=1_700_000_000)  # (seconds)
    html = GAME_PAGE.replace(
        "<script>",
        '<script>window.TAVLA_TEXT = {"btn.roll": "Zar at", "conn.connecting": "Bağlanıyor…",'
        ' "bot.hard": "Tavla botu (zor)", "turn.bot_thinking": "{name} düşünüyor"};',
        1,
    )
    page.route(f"{base_url}/game-test.html", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{base_url}/game-test.html")
    page.wait_for_function("window.sockets && window.sockets.length === 1")
    assert page.text_content(".status-line") == "Bağlanıyor…"
    page.evaluate("window.sockets[0].serverOpen()")
    server(page, state_message("tabla-roll", 1, seat=1))
    assert page.text_content("button[data-action=roll]") == "Zar at"
    # The site's bot is named in the page's language (docs/API.md, players[i].bot_level);
    # a bot account keeps its own name.
    players = [
        {"name": "ayse", "bot": False, "bot_level": None, "connected": True, "away_ms": None},
        {"name": "Tavla bot (hard)", "bot": True, "bot_level": "hard", "connected": True, "away_ms": None},
    ]
    server(page, state_message("tabla-mid", 2, seat=None, last_seq=0, players=players))
    assert "Tavla botu (zor)" in page.text_content(".game-players")
    assert "Tavla bot (hard)" not in page.text_content(".game-players")
    assert page.text_content(".turn-line") == "Tavla botu (zor) düşünüyor"
    players[1] = {**players[1], "name": "gnubg-entrant", "bot_level": None}
    server(page, state_message("tabla-mid", 3, seat=None, last_seq=0, players=players))
    assert page.text_content(".turn-line") == "gnubg-entrant düşünüyor"


@pytest.mark.parametrize("language", ["en", "tr", "bg"])
def test_the_pages_scripts_write_numbers_as_the_servers_pages_do(
    page: Any, base_url: str, language: str
) -> None:
    """static/text.js's ``decimal`` (the lobby's stakes, the analysis) agrees with the
    server's ``number`` (its pages' amounts and ratings) in every language."""
    html = f'<!doctype html><html lang="{language}"><body></body></html>'
    page.route(f"{base_url}/numbers.html", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{base_url}/numbers.html")
    cases = [
        (1234.5, 2, True),
        (-0.5, 2, True),
        (1514.14, 2, False),
        (0.163, 3, False),
        (12345678.9, 2, True),
    ]
    written = page.evaluate(
        """async (cases) => {
             const { decimal } = await import("./text.js");
             return cases.map(([value, places, grouped]) => decimal(value, places, grouped));
           }""",
        cases,
    )
    assert written == [number(language, value, places, grouped=grouped) for value, places, grouped in cases]
    if language != "en":
        assert written[0].endswith(",50") and written[3] == "0,163"


AMOUNTS_WRITTEN = [1, 5, 10, 99, 100, 1250, 99_999, 100_000, 123_456, 150_000, 1_000_000, 12_345_678,
                   100_000_000, 123_456_789, 99_999_999_999]  # fmt: skip
"""Amounts in cents the pages may write, up to the nine whole digits a typed one may have."""

AMOUNTS_TYPED: dict[str, list[tuple[str, int | None]]] = {
    # What a careful cashier reads (docs/translating.md, "Numbers"); None: sent as typed.
    "en": [
        ("1234", 123_400),
        ("12.5", 1250),
        ("12,50", 1250),
        ("1,50", 150),
        (" 20.00 ", 2000),
        ("1,234.50", 123_450),
        ("1,500", 150_000),
        ("1,500.5", 150_050),
        ("1,234,567.89", 123_456_789),
        ("1.500", None),
        ("1.234,50", None),
        ("1 234.50", None),
        ("1\u00a0500", None),
        ("1,5000", None),
        ("12,345.678", None),
        ("0,500", None),
        ("01,500", None),
        ("1,23,456", None),
    ],
    "tr": [
        ("1234", 123_400),
        ("12,5", 1250),
        ("12.50", 1250),
        ("1.50", 150),
        (" 20,00 ", 2000),
        ("1.234,50", 123_450),
        ("1.500", 150_000),
        ("1.500,00", 150_000),
        ("1.500.000", 150_000_000),
        ("1.234.567,89", 123_456_789),
        ("1,500", None),
        ("1,500.00", None),
        ("1 500", None),
        ("0.500", None),
        ("1.23.456", None),
        ("1.234.5", None),
        ("12.345,678", None),
    ],
    "bg": [
        ("1234", 123_400),
        ("12,5", 1250),
        ("12.50", 1250),
        (" 20,00 ", 2000),
        ("1 500", 150_000),
        ("1\u00a0500", 150_000),
        ("1\u202f500", 150_000),
        ("1 234,50", 123_450),
        ("1\u00a0234\u00a0567,89", 123_456_789),
        ("1.500", None),
        ("1,500", None),
        ("1.234,50", None),
        ("1 234.50", None),
        ("1  500", None),
        ("12 34", None),
        ("0 500", None),
    ],
}
AMOUNTS_REFUSED_EVERYWHERE = ["", "12.", ".50", ",50", "-5", "+5", "5 TL", "₺5", "1e3", "abc", "1..5",
                              "1,,5", "1234567890", "1.234.567.890", "1,234,567,890"]  # fmt: skip


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", ["en", "tr", "bg"])
def test_the_pages_read_a_typed_amount_as_their_language_writes_it(
    page: Any, base_url: str, language: str
) -> None:
    """static/text.js's ``cents`` (the amount fields of the books, the lobby's stakes)
    reads back every amount the server's pages write in the page's language
    (``i18n.money``), and the lobby's own (``decimal``), as the same cents; reads what a
    cashier reads; and leaves, as typed, whatever could be read as two amounts."""
    html = f'<!doctype html><html lang="{language}"><body></body></html>'
    page.route(f"{base_url}/amounts.html", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{base_url}/amounts.html")
    written = [money(language, amount) for amount in AMOUNTS_WRITTEN]
    typed = [text for text, _ in AMOUNTS_TYPED[language]] + AMOUNTS_REFUSED_EVERYWHERE
    read: dict[str, Any] = page.evaluate(
        """async ([written, typed, amounts]) => {
             const { cents, decimal } = await import("./text.js");
             return {
               written: written.map((text) => cents(text)),
               scripts: amounts.map((amount) => cents(decimal(amount / 100, 2, true))),
               typed: typed.map((text) => cents(text)),
             };
           }""",
        [written, typed, AMOUNTS_WRITTEN],
    )
    assert read["written"] == AMOUNTS_WRITTEN, written
    assert read["scripts"] == AMOUNTS_WRITTEN
    expected = [text if amount is None else amount for text, amount in AMOUNTS_TYPED[language]]
    assert read["typed"] == expected + AMOUNTS_REFUSED_EVERYWHERE
    if language == "bg":
        assert "\u00a0" in written[AMOUNTS_WRITTEN.index(123_456)]  # Babel's no-break space


def test_a_redrawn_state_keeps_the_selection(page: Any, base_url: str) -> None:
    name = "tapa-mid"
    source, targets = pick_source(FIXTURES[name])
    open_demo(page, base_url, name)
    page.click(f"{spot(name, source)} .hit-area")
    assert classes_with(page, name, "selected") == {source}
    # The same board again (a chat line came): the selection stays.
    page.evaluate("(n) => { const b = window.demo.boards[n]; b.update({...b.state}); }", name)
    assert classes_with(page, name, "selected") == {source}
    assert classes_with(page, name, "target") == set(targets)


def test_the_game_page_on_a_desktop(browser: Any, base_url: str, screenshots: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.clock.install(time=1_700_000_000)  # (seconds)
        page.route(
            f"{base_url}/game-test.html",
            lambda route: route.fulfill(body=GAME_PAGE, content_type="text/html"),
        )
        page.goto(f"{base_url}/game-test.html")
        page.wait_for_function("window.sockets && window.sockets.length === 1")
        page.evaluate("window.sockets[0].serverOpen()")
        message = state_message("tapa-mid", 9, seat=0)
        message["players"][1] = {"name": "mehmet", "bot": False, "connected": False, "away_ms": 12000}
        server(page, message)
        assert "disconnected for 0:12" in page.text_content(".player.seat-1")
        page.screenshot(path=str(screenshots / "desktop-game-page.png"), full_page=True)
    finally:
        context.close()


def test_the_game_page_fits_a_phone(browser: Any, base_url: str, screenshots: Path) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        page.clock.install(time=1_700_000_000)  # (seconds)
        page.route(
            f"{base_url}/game-test.html",
            lambda route: route.fulfill(body=GAME_PAGE, content_type="text/html"),
        )
        page.goto(f"{base_url}/game-test.html")
        page.wait_for_function("window.sockets && window.sockets.length === 1")
        page.evaluate("window.sockets[0].serverOpen()")
        server(page, state_message("tabla-mid", 5, seat=1))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(screenshots / "phone-game-page.png"), full_page=True)
    finally:
        context.close()


ANALYSIS_TOTALS = {
    "decisions": 3, "error_rate": 12.5, "marks": {"doubtful": 0, "error": 0, "blunder": 0},
    "cube_decisions": 0, "cube_error_rate": 0, "cube_marks": {"doubtful": 0, "error": 0, "blunder": 0},
    "luck": 0.1, "rolls": 3,
}  # fmt: skip
"""One player's totals in an analysis (docs/API.md), for rendering it."""


@pytest.mark.parametrize(
    ("plies", "note"), [(0, "Turns reviewed at 0 plies."), (1, "Turns reviewed one roll deep.")]
)
def test_the_analysis_says_how_deep_the_turns_were_reviewed(
    page: Any, base_url: str, plies: int, note: str
) -> None:
    """docs/analysis.md: the site reviews tabla at 0 plies and the other games one roll
    deep; the note under the totals says which."""
    html = '<!doctype html><html lang="en"><body><section id="analysis"></section></body></html>'
    page.route(f"{base_url}/analysis.html", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{base_url}/analysis.html")
    totals = ANALYSIS_TOTALS
    data = {
        "id": "g1", "game": "tapa", "plies": plies, "players": ["ayse", "boyan"], "bots": [None, None],
        "totals": [{**totals, "seat": 0}, {**totals, "seat": 1}], "moves": [], "cubes": [], "lucks": [],
    }  # fmt: skip
    written = page.evaluate(
        """async (data) => {
             const { renderAnalysis } = await import("./analysis.js");
             const section = document.getElementById("analysis");
             renderAnalysis(section, data, () => {});
             return section.querySelector(".analysis-note").textContent;
           }""",
        data,
    )
    assert written.startswith(note)


def test_rolled_out_turns_show_both_losses_in_the_visitors_language(page: Any, base_url: str) -> None:
    """docs/analysis.md, "On the site": once the marked turns are rolled out, each reads
    the bot's loss and the rollout's with its error (Bulgarian: decimal commas), a turn
    the rollout cleared stays listed as such, and a note says how they were rolled out."""
    from tavla.server.i18n import translations

    bulgarian = translations("bg")
    english: dict[str, str] = json.loads((STATIC / "text.json").read_text(encoding="utf-8"))
    text = {key: bulgarian.gettext(value) for key, value in english.items()}
    html = (
        '<!doctype html><html lang="bg"><body><section id="analysis"><div class="analysis-body"></div>'
        f"</section><script>window.TAVLA_TEXT = {json.dumps(text)};</script></body></html>"
    )
    page.route(f"{base_url}/rolled.html", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{base_url}/rolled.html")
    totals = {**ANALYSIS_TOTALS, "marks": {"doubtful": 1, "error": 0, "blunder": 0}}
    move = {"game": 1, "seat": 0, "equity": 0.1, "best_equity": 0.3, "forced": False}
    moves = [
        {**move, "step": 2, "played": "13/7 8/7", "best": "24/18 13/7", "loss": 0.043, "judged_loss": 0.157,
         "rollout": {"loss": 0.043, "error": 0.012, "trials": 36}, "mark": "doubtful"},
        {**move, "step": 4, "played": "8/2 6/2", "best": "13/7 8/2", "loss": 0.0, "judged_loss": 0.09,
         "rollout": {"loss": -0.021, "error": 0.015, "trials": 36}, "mark": ""},
        {**move, "step": 6, "played": "6/1 6/5", "best": "6/5 1/off", "loss": 0.01, "judged_loss": 0.01,
         "rollout": None, "mark": ""},
    ]  # fmt: skip
    rollout = {
        "state": "done",
        "done": 2,
        "total": 2,
        "settings": {"trials": 36, "truncate": 10, "variance_reduction": True},
    }
    data = {
        "id": "g1", "game": "tapa", "plies": 1, "players": ["ayse", "boyan"], "bots": [None, None],
        "totals": [{**totals, "seat": 0}, {**totals, "seat": 1}], "moves": moves, "cubes": [], "lucks": [],
        "rollout": rollout,
    }  # fmt: skip
    shown = page.evaluate(
        """async (data) => {
             const { renderAnalysis } = await import("./analysis.js");
             const section = document.getElementById("analysis");
             renderAnalysis(section, data, () => {});
             const entries = [...section.querySelectorAll("ol.analysis-marked button")];
             return {
               entries: entries.map((entry) => [entry.dataset.step, entry.className, entry.textContent]),
               note: section.querySelector(".analysis-rollout-note").textContent,
             };
           }""",
        data,
    )
    assert shown["entries"] == [
        ["2", "btn-link mark-doubtful",
         "ayse изигра 13/7 8/7; най-добре 24/18 13/7 (ботът: −0,157; ролаут: −0,043 ± 0,012, съмнителен)"],
        ["4", "btn-link mark-none",
         "ayse изигра 8/2 6/2; най-добре 13/7 8/2 (ботът: −0,090; ролаут: +0,021 ± 0,015, оправдан)"],
    ]  # fmt: skip
    assert shown["note"] == (
        "Отбелязаните ходове са проверени с ролаут (по 36 игри от по 10 хода от всеки, без късмета на "
        "заровете); загубите и оценките им, както и общите резултати, са според ролаута."
    )
