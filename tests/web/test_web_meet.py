"""People meet in the browser (issue 27): two people who never exchanged a link play a rated
game through the lobby (an open game, and quick pairing) and both player pages show it with the
new ratings; four people fill a Columba team game; chat arrives both ways within a second and is
shown as text; a player whose opponent is gone claims the win.

Each person is a browser context of their own (their own cookies and localStorage). The server
runs with a one-second abandonment grace (``--abandon-grace 1``): the test waits for the claim
button, never for the clock. Skipped without ``/usr/bin/chromium`` (see ``conftest``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebox.server.testing import ServerProcess

expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=20_000)  # a loaded machine; "within a second" is asked where it matters

_names = itertools.count(1)


@pytest.fixture(scope="module")
def meet_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own (fresh names and ratings) whose abandonment grace is one second."""
    pytest.importorskip("fastapi")
    folder = tmp_path_factory.mktemp("meet")
    srv = ServerProcess(f"sqlite:///{folder / 'rulebox.db'}", log=folder / "server.log",
                        args=["--create-per-minute", "6000", "--create-burst", "1000",
                              "--moves-per-second", "1000", "--moves-burst", "5000",
                              "--abandon-grace", "1"]).start()
    yield srv
    srv.stop()


Person = Callable[..., Any]


@pytest.fixture
def person(browser: Any) -> Iterator[Person]:
    """person() opens a new browser context (a person of their own) and answers its page."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 800) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("dialog", lambda d: d.accept())  # "Give up this game?"
        pg.set_default_timeout(20_000)
        return pg

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def fresh(stem: str) -> str:
    return f"{stem}{next(_names)}"


def lobby(page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#meet")


def sign_up(page: Any, server: ServerProcess, name: str) -> None:
    """An account made with the header's Sign up (the session comes back as a cookie)."""
    lobby(page, server)
    page.click("#signup-btn")
    page.fill("#account-name", name)
    page.fill("#account-password", "correct horse 1")
    page.click("#account-submit")
    expect(page.locator("#identity-name")).to_have_text(name)
    expect(page.locator("#logout-btn")).to_be_visible()


def answer_guest_dialog(page: Any, name: str) -> None:
    """The name a guest is asked for the first time they sit down."""
    page.wait_for_selector("#account-dialog[open]")
    page.fill("#account-name", name)
    page.click("#account-submit")
    expect(page.locator("#identity-name")).to_have_text(name)


def game_id(page: Any) -> str:
    """The game the page went to (the lobby's pushState: no page load to wait for)."""
    try:
        page.wait_for_function("location.pathname.startsWith('/game/')")
    except Exception as e:  # what the page said instead, for the failure's message
        raise AssertionError(page.evaluate("document.getElementById('toast').textContent + ' | '"
                                           " + (document.getElementById('meet-error') || "
                                           "{}).textContent")) from e
    page.wait_for_function("window.rulebox && window.rulebox.state && window.rulebox.state.view")
    return str(page.evaluate("window.rulebox.state.id"))


def create_open_game(page: Any, game: str, rated: bool, players: int | None = None) -> str:
    """The lobby's form: an open game (listed until every seat is taken); answers its id."""
    page.click(f'.game-card[data-game="{game}"]')
    page.click('[data-mode="open"]')
    if players:
        page.select_option("#players", str(players))
    if rated:
        page.check("#rated-choice")
    page.click("#start")
    return game_id(page)


def join_from_lobby(page: Any, server: ServerProcess, gid: str, seat: int | None = None) -> None:
    lobby(page, server)
    row = page.locator(f'.open-game[data-id="{gid}"]')
    button = row.locator(".join-btn" if seat is None else f'.join-btn[data-seat="{seat}"]').first
    button.click()
    assert game_id(page) == gid


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("window.rulebox.state")


def play_a_move(page: Any) -> None:
    """The seat to move types its first legal move into the move box."""
    page.wait_for_function("window.rulebox.state.legal.length > 0 && !window.rulebox.state.over")
    before = state(page)["ply"]
    move = state(page)["legal"][0]
    if not page.locator("#move-entry").get_attribute("open"):
        page.click("#move-entry summary")
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    page.wait_for_function(f"window.rulebox.state.ply > {before}")


def wait_turn(page: Any) -> None:
    expect(page.locator("#status")).to_have_text(re.compile("Your turn"))


def mover(a: Any, b: Any) -> tuple[Any, Any]:
    """(the page whose seat is to move, the other): Count Red's deal decides who begins."""
    a.wait_for_function("window.rulebox.state.open === false")
    st = state(a)
    return (a, b) if st["to_move"] == st["you"] else (b, a)


def profile_shows(page: Any, server: ServerProcess, name: str, gid: str, game: str) -> str:
    """The player page lists the game; answers the rating shown for game."""
    page.goto(f"{server.url}/#/player/{name}")
    page.wait_for_selector("#player-page")
    expect(page.locator(f'#finished-games tr[data-id="{gid}"]')).to_be_visible()
    expect(page.locator(f'#finished-games tr[data-id="{gid}"] .rating-change')).not_to_have_text("")
    expect(page.locator(".rating-chart polyline")).to_have_count(1)
    return str(page.locator(f'#ratings tr[data-game="{game}"] .rating-value').inner_text())


def play_and_resign(first: Any, second: Any) -> None:
    """A move each (a game with no move is aborted, not rated), then the second resigns;
    first is the page to move."""
    wait_turn(first)
    play_a_move(first)
    wait_turn(second)
    play_a_move(second)
    second.click("#resign-btn")
    expect(first.locator("#end-title")).to_have_text("You win!")
    expect(second.locator("#end-title")).to_have_text("You lose")


def check_ratings(server: ServerProcess, a: Any, b: Any, names: tuple[str, str], gid: str) -> None:
    # the end screen shows the change once the game is rated
    expect(a.locator(".rating-change[data-player]").first).to_have_text(re.compile(r"→"))
    won = profile_shows(a, server, names[0], gid, "countred")
    lost = profile_shows(b, server, names[1], gid, "countred")
    assert int(won) > 1500 > int(lost)
    expect(a.locator(f'#finished-games tr[data-id="{gid}"] .outcome')).to_have_text("won")
    expect(b.locator(f'#finished-games tr[data-id="{gid}"] .outcome')).to_have_text("lost")
    expect(b.locator(f'#finished-games tr[data-id="{gid}"] .opponents')).to_have_text(names[0])


def test_a_rated_game_through_an_open_game(meet_server: ServerProcess, person: Person) -> None:
    a, b = person(), person()
    names = (fresh("anna"), fresh("boris"))
    sign_up(a, meet_server, names[0])
    sign_up(b, meet_server, names[1])
    gid = create_open_game(a, "countred", rated=True)
    expect(a.locator("#waiting")).to_be_visible()  # nobody sits opposite yet
    # B never got a link: the lobby lists the game with A's name, rating and the free seat
    lobby(b, meet_server)
    row = b.locator(f'.open-game[data-id="{gid}"]')
    expect(row.locator(".open-rated")).to_have_text("rated")
    expect(row.locator(".open-seat.taken")).to_contain_text(names[0])
    expect(row.locator(".open-seat.taken .open-seat-rating")).to_have_text("1500")
    join_from_lobby(b, meet_server, gid)
    # both tables name both people
    for pg in (a, b):
        expect(pg.locator("#seats .seat-person-name")).to_have_text(list(names))
    # the lobby no longer lists a full game
    c = person()
    lobby(c, meet_server)
    expect(c.locator("#open-games-list")).to_be_attached()
    expect(c.locator(f'.open-game[data-id="{gid}"]')).to_have_count(0)
    first, second = mover(a, b)
    play_and_resign(first, second)
    winner, loser = (names[0], names[1]) if first is a else (names[1], names[0])
    check_ratings(meet_server, first, second, (winner, loser), gid)


def test_a_rated_game_through_quick_pairing(meet_server: ServerProcess, person: Person) -> None:
    a, b = person(), person()
    names = (fresh("clara"), fresh("dmitri"))
    sign_up(a, meet_server, names[0])
    sign_up(b, meet_server, names[1])
    for pg in (a, b):
        lobby(pg, meet_server)
        pg.select_option('.play-now-clock[data-pair="countred"]', "15+10")
        pg.check('.play-now-rated[data-pair="countred"]')
    a.click('.play-now[data-pair="countred"]')
    expect(a.locator("#pairing")).to_contain_text("Looking for an opponent")
    # Cancel leaves the queue; Play now again waits again
    a.click("#pairing-cancel")
    expect(a.locator("#pairing")).to_be_hidden()
    a.click('.play-now[data-pair="countred"]')
    expect(a.locator("#pairing")).to_be_visible()
    b.click('.play-now[data-pair="countred"]')
    gid = game_id(b)
    assert game_id(a) == gid  # A learnt of the game by the lobby's socket
    seats = {state(a)["you"], state(b)["you"]}
    assert seats == {0, 1}
    first, second = mover(a, b)
    play_and_resign(first, second)
    winner = names[0] if first is a else names[1]
    loser = names[1] if first is a else names[0]
    check_ratings(meet_server, first, second, (winner, loser), gid)


def test_four_people_fill_a_columba_team_game(meet_server: ServerProcess, person: Person) -> None:
    people = [person() for _ in range(4)]
    names = [fresh(stem) for stem in ("erik", "fatima", "goran", "hana")]
    lobby(people[0], meet_server)
    people[0].click('.game-card[data-game="columba"]')
    people[0].click('[data-mode="open"]')
    people[0].select_option("#players", "4")
    people[0].click("#start")
    answer_guest_dialog(people[0], names[0])  # a guest: asked for a name once
    gid = game_id(people[0])
    for k in (1, 2, 3):
        pg = people[k]
        lobby(pg, meet_server)
        row = pg.locator(f'.open-game[data-id="{gid}"]')
        # the lobby shows the two teams: seats 0+2 against 1+3
        expect(row.locator(".open-team")).to_have_count(2)
        expect(row.locator('.open-team[data-team="0"] .open-seat')).to_have_count(2)
        expect(row.locator('.open-team[data-team="0"] .open-seat[data-seat="2"]')).to_have_count(1)
        expect(row.locator(".join-btn")).to_have_count(4 - k)
        row.locator(f'.join-btn[data-seat="{k}"]').click()
        answer_guest_dialog(pg, names[k])
        assert game_id(pg) == gid
    for k, pg in enumerate(people):
        expect(pg.locator("#seats .seat-person-name")).to_have_text(names)
        teams = ["Team 1", "Team 2", "Team 1", "Team 2"]
        expect(pg.locator("#seats .seat-team")).to_have_text(teams)
        pg.wait_for_function("window.rulebox.state.open === false || !window.rulebox.state.free "
                             "|| window.rulebox.state.free.length === 0")
        assert state(pg)["you"] == k
    # the game has started: the first seat may move
    people[0].wait_for_function("window.rulebox.state.legal.length > 0")


def table_of_two(server: ServerProcess, person: Person) -> tuple[Any, Any, str]:
    a, b = person(), person()
    lobby(a, server)
    gid = create_open_game_as_guest(a, fresh("ivan"))
    lobby(b, server)
    b.locator(f'.open-game[data-id="{gid}"] .join-btn').click()
    answer_guest_dialog(b, fresh("julia"))
    assert game_id(b) == gid
    return a, b, gid


def create_open_game_as_guest(page: Any, name: str) -> str:
    page.click('.game-card[data-game="countred"]')
    page.click('[data-mode="open"]')
    page.click("#start")
    answer_guest_dialog(page, name)
    return game_id(page)


def test_chat_arrives_both_ways_within_a_second_as_text(meet_server: ServerProcess,
                                                        person: Person) -> None:
    a, b, _ = table_of_two(meet_server, person)
    for pg in (a, b):
        expect(pg.locator("#chat")).to_be_visible()
    a.fill("#chat-input", "<b>x</b>")
    a.press("#chat-input", "Enter")
    got = b.locator("#chat-log .chat-text")
    expect(got).to_have_text(["<b>x</b>"], timeout=1000)
    assert b.locator("#chat-log b").count() == 0  # shown as text, never as HTML
    b.fill("#chat-input", "hello & <i>good luck</i>")
    b.press("#chat-input", "Enter")
    expect(a.locator("#chat-log .chat-text")).to_have_text(["<b>x</b>", "hello & <i>good luck</i>"],
                                                           timeout=1000)
    assert a.locator("#chat-log i").count() == 0
    # A mutes B: B's lines go from A's chat, the list of the muted says so
    a.locator("#chat-log .mute-btn").last.click()
    expect(a.locator("#chat-log .chat-text")).to_have_text(["<b>x</b>"])
    expect(a.locator("#muted-list")).to_contain_text(state(b)["players"][1]["name"])


def test_takeback_asked_and_accepted(meet_server: ServerProcess, person: Person) -> None:
    a, b, _ = table_of_two(meet_server, person)
    a, b = mover(a, b)
    wait_turn(a)
    play_a_move(a)
    a.click("#takeback-ask")
    expect(a.locator("#takeback-withdraw")).to_be_visible()
    expect(b.locator("#takeback-box")).to_contain_text("asks to take back a move")
    b.click("#takeback-accept")
    a.wait_for_function("window.rulebox.state.ply === 0")
    wait_turn(a)
    expect(b.locator("#takeback-accept")).to_have_count(0)


def test_the_abandonment_claim(meet_server: ServerProcess, person: Person) -> None:
    a, b, gid = table_of_two(meet_server, person)
    a, b = mover(a, b)
    wait_turn(a)
    play_a_move(a)
    wait_turn(b)
    play_a_move(b)
    expect(a.locator("#claim-win")).to_have_count(0)
    b.context.close()  # B is gone: the socket closes, the grace (1 s here) runs
    expect(a.locator("#abandon-box")).to_be_visible()
    a.click("#claim-win")
    expect(a.locator("#end-title")).to_have_text("You win!")
    assert state(a)["result"]["how"] == "abandoned"
    assert state(a)["id"] == gid


def watch(server: ServerProcess, person: Person, gid: str) -> Any:
    """A third person opens the game from the lobby's spectators' link."""
    watcher = person()
    lobby(watcher, server)
    watcher.goto(f"{server.url}/game/{gid}#watch")
    watcher.wait_for_function("window.rulebox && window.rulebox.state")
    return watcher


def test_spectators_chat_among_themselves(meet_server: ServerProcess, person: Person) -> None:
    a, b, gid = table_of_two(meet_server, person)
    watcher = watch(meet_server, person, gid)
    expect(watcher.locator("#spectator")).to_be_visible()
    expect(watcher.locator("#spectator-count")).to_have_text("1 spectator")  # its own GET
    expect(watcher.locator("#chat-h")).to_have_text("Spectators' chat")
    watcher.fill("#chat-input", "nice opening")
    watcher.press("#chat-input", "Enter")
    answer_guest_dialog(watcher, fresh("kai"))  # a spectator writes under a guest name
    expect(watcher.locator("#chat-log .chat-text")).to_have_text(["nice opening"])
    # the players do not read the spectators' channel during the game, nor they the players'
    a.fill("#chat-input", "hi")
    a.press("#chat-input", "Enter")
    expect(b.locator("#chat-log .chat-text")).to_have_text(["hi"], timeout=1000)
    expect(a.locator("#chat-log .chat-text")).to_have_text(["hi"])
    expect(watcher.locator("#chat-log .chat-text")).to_have_text(["nice opening"])


def test_the_players_see_the_spectator_count(meet_server: ServerProcess, person: Person) -> None:
    a, b, gid = table_of_two(meet_server, person)
    for pg in (a, b):
        expect(pg.locator("#spectator-count")).to_have_text("0 spectators")
    watch(meet_server, person, gid)
    for pg in (a, b):
        expect(pg.locator("#spectator-count")).to_have_text("1 spectator", timeout=5000)


def test_screenshots(meet_server: ServerProcess, person: Person, tmp_path: Path) -> None:
    """The lobby, a player page and a table with chat, at 1280x800 and 390x844, kept under
    RULEBOX_SCREENSHOT_DIR when it is set (else under tmp_path)."""
    import os

    out = Path(os.environ.get("RULEBOX_SCREENSHOT_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    a, b = person(), person()
    names = (fresh("olga"), fresh("pavel"))
    sign_up(a, meet_server, names[0])
    sign_up(b, meet_server, names[1])
    gid = create_open_game(a, "countred", rated=True)
    join_from_lobby(b, meet_server, gid)
    first, second = mover(a, b)
    wait_turn(first)
    play_a_move(first)
    first.fill("#chat-input", "Good luck!")
    first.press("#chat-input", "Enter")
    second.fill("#chat-input", "You too <3")
    second.press("#chat-input", "Enter")
    expect(first.locator("#chat-log .chat-text")).to_have_count(2)
    shots = {"desktop": (1280, 800), "phone": (390, 844)}
    for label, (w, h) in shots.items():
        first.set_viewport_size({"width": w, "height": h})
        # the new panels sit beside the board (desktop) or below it (phone): the board
        # still starts on the first screen
        board = first.locator("#board").bounding_box()
        assert board and board["y"] < h / 2
        first.screenshot(path=str(out / f"meet-table-{label}.png"))
    wait_turn(second)
    play_a_move(second)
    second.click("#resign-btn")
    expect(first.locator(".rating-change[data-player]").first).to_have_text(re.compile(r"→"))
    winner = names[0] if first is a else names[1]
    c = person()
    lobby(c, meet_server)
    gid2 = create_open_game_as_guest(c, fresh("quinn"))  # an open game to list
    assert gid2
    for label, (w, h) in shots.items():
        first.set_viewport_size({"width": w, "height": h})
        lobby(first, meet_server)
        expect(first.locator(f'.open-game[data-id="{gid2}"]')).to_be_visible()
        first.screenshot(path=str(out / f"meet-lobby-{label}.png"), full_page=True)
        first.goto(f"{meet_server.url}/#/player/{winner}")
        expect(first.locator(".rating-chart polyline")).to_have_count(1)
        first.screenshot(path=str(out / f"meet-player-{label}.png"), full_page=True)
