"""The engine line protocol (PROTOCOL.md), driven as another program would drive it."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from rulebox.core import new_game
from rulebox.core.load import diagram_line, load_any
from rulebox.engine import MAX_LINE, run


def session(*lines: str | bytes) -> list[tuple[bool, list[str]]]:
    """Run the engine over the lines; return (ok, result lines) per response."""
    data = b"".join((ln if isinstance(ln, bytes) else ln.encode()) + b"\n" for ln in lines)
    out = io.StringIO()
    assert run(io.BytesIO(data), out) == 0
    text = out.getvalue()
    assert text.endswith("\n\n") or text == ""
    responses = []
    for block in text.split("\n\n")[:-1]:
        head, *rest = block.split("\n")
        assert head[:2] in ("= ", "? "), head
        responses.append((head[0] == "=", [head[2:], *rest]))
    return responses


def test_framing_blank_and_comment_lines_get_no_answer() -> None:
    r = session("", "# a comment", "games")
    assert len(r) == 1 and r[0][0]
    assert r[0][1][0].startswith("columns ")


def test_new_echoes_every_option_sorted() -> None:
    (ok, lines), = session("new columns seed=7")
    assert ok and lines == ["columns first=0 seed=7"]
    (ok, lines), = session("new columns first=1 seed=3")
    assert lines == ["columns first=1 seed=3"]


def test_new_without_seed_echoes_the_drawn_seed() -> None:
    (ok, lines), = session("new columns")
    assert ok and lines[0].startswith("columns first=0 seed=")


def test_legal_is_sorted_canonical() -> None:
    _, (ok, lines) = session("new columns seed=1", "legal")
    assert ok and lines == sorted(lines) and len(lines) == 75 and "Tb1a1^" in lines


def test_play_is_forgiving_and_answers_canonically() -> None:
    r = session("new columns seed=1", "play d b1 a1", "history", "turn")
    assert r[1] == (True, ["Da1b1"])
    assert r[2] == (True, ["Da1b1"])
    assert r[3] == (True, ["1"])


def test_illegal_move_names_the_rule_and_changes_nothing() -> None:
    r = session("new columns seed=1", "play Sa1", "state", "play Ra1", "state")
    assert r[3][0] is False
    assert r[3][1][0] == (
        "illegal: a roundel may not sit directly on an opponent's blocker "
        "(the single blocker on a1) [COL-4]"
    )
    assert r[2] == r[4]


def test_undo_and_nothing_to_undo() -> None:
    r = session("new columns seed=1", "undo", "play Ra1", "undo", "history", "turn")
    assert r[1][0] is False
    assert r[3] == (True, ["Ra1"])
    assert r[4] == (True, [""])
    assert r[5] == (True, ["0"])


def test_state_load_round_trip() -> None:
    r = session("new columns seed=2", "play Ra1", "play Tb1b2^", "state")
    state = r[3][1][0]
    r2 = session(f"load {state}", "state", "history", "undo", "history")
    assert r2[1] == (True, [state])
    assert r2[2] == (True, ["Ra1", "Tb1b2^"])
    assert r2[3] == (True, ["Tb1b2^"])
    assert r2[4] == (True, ["Ra1"])


def test_load_accepts_a_diagram_and_refuses_a_bad_one_without_change() -> None:
    # Count Red, B1 to move... the diagram of the start with player 1 to move
    start = "r0,b0,r0,b0/b1,r1,b1,r1/r2,b2,r2,b2/b3,r3,b3,r3"
    r = session("new columns seed=2", "play Ra1", f"load countred {start} 1 e1 0 1", "turn",
                "show", "load columns not-a-diagram", "turn", "load {\"game\": 3}", "turn")
    assert r[2][0] and r[2][1][0].startswith("countred even=1")
    assert r[3] == (True, ["1"])
    assert not r[5][0] and "Columns diagram" in r[5][1][0]
    assert r[6] == (True, ["1"])  # the refused load left the Count Red game as it was
    assert not r[7][0] and r[8] == (True, ["1"])
    # a diagram the game writes loads back, through the engine, to the same position
    g = new_game("countred", {"seed": "4"})
    for _ in range(3):
        g.apply(g.legal_moves()[0])
    line = diagram_line(g)
    r3 = session(f"load {line}", "state", "legal")
    assert r3[0][0]
    loaded = load_any(r3[1][1][0])
    assert loaded.diagram() == g.diagram()
    assert r3[2][1] == sorted(g.move_text(m) for m in g.legal_moves())


def test_result_and_turn_at_the_end() -> None:
    moves = (
        "Ta3b3^ Tc3b3v Td2d3^ Db1c1 Ra2 Sc3 Tc2c1v Tc2d2^ Sc2 Tb3a3^ Rc1 Sc3 Sc3 Sd3 Sd3 Rb1 "
        "Rb1 Rb2 Rb1 Ra2 Rc1 Rd2 Rb1 Rb3 Ra1 Rd1 Ra1 Rd1 Da1a2 Rd2 Ra1 Rb2 Rc1 Rb2 Rd3 Da2a3 "
        "Rb2 Da2b2"
    ).split()
    r = session("new columns seed=0", *(f"play {m}" for m in moves), "turn", "result", "legal",
                "play Rd3", "genmove")
    assert all(ok for ok, _ in r[: len(moves) + 1])
    n = len(moves) + 1
    assert r[n] == (True, ["over"])
    assert r[n + 1][1][0].startswith("over winner=")
    assert "score=" in r[n + 1][1][0]
    assert r[n + 2] == (True, [""])
    assert r[n + 3][0] is False and r[n + 4][0] is False


def test_view_is_json_and_checks_the_player() -> None:
    r = session("new columns seed=1", "view 0", "view 2", "view x")
    assert json.loads(r[1][1][0])["game"] == "columns"
    assert r[2][0] is False and r[3][0] is False


def test_genmove_with_named_agent_and_seed_is_repeatable() -> None:
    a = session("new columns seed=1", "genmove random seed=5", "genmove random seed=5")
    b = session("new columns seed=1", "genmove random seed=5", "genmove random seed=5")
    assert a == b and a[1][0] and a[2][0]


def test_agents_lists_random() -> None:
    (ok, lines), = session("agents")
    assert ok and any(line.startswith("random ") for line in lines)


@pytest.mark.parametrize("junk", [
    b"foo", b"\x00\x01\x02", b"\xff\xfe\xfd", b"legal", b"play Ra1", b"new", b"new chess",
    b"new columns first=7", b"new columns bogus=1", b"new columns seed=-1", b"load {", b"load []",
    b"load {\"game\": \"columns\"}", b"view", b"genmove nosuchagent", b"genmove random time=x",
    b"[" * 5000, b"play " + b"R" * 100_000, b"new columns seed=1 seed=2",
])
def test_junk_gets_a_failure_and_the_session_goes_on(junk: bytes) -> None:
    r = session(junk, "games")
    assert r[0][0] is False
    assert r[-1][0] is True


def test_failed_commands_keep_the_game() -> None:
    r = session("new columns seed=1", "play Ra1", "new chess", "load {bad", "history")
    assert r[-1] == (True, ["Ra1"])


def test_oversized_line_is_refused() -> None:
    r = session(b"x" * (MAX_LINE + 10), "games")
    assert r[0][0] is False and "too long" in r[0][1][0]
    assert r[1][0] is True


def test_quit_ends_the_session() -> None:
    r = session("quit", "games")
    assert r == [(True, [""])]


def test_the_console_script_speaks_the_protocol() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rulebox.cli.main", "engine"],
        input=b"new columns seed=1\nplay Ra1\nturn\n\x80junk\n",
        capture_output=True, timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stdout.decode() .startswith("= columns first=0 seed=1\n\n= Ra1\n\n= 1\n\n? ")


def test_gtp_discovery_commands() -> None:
    r = session("list_commands", "known_command genmove", "known_command GENMOVE",
                "known_command castle", "help", "known_command")
    ok, names = r[0]
    assert ok and names[0] == "games" and {"genmove", "list_commands", "known_command",
                                           "help", "quit"} <= set(names)
    assert r[1] == (True, ["true"]) and r[2] == (True, ["true"])
    assert r[3] == (True, ["false"])
    assert r[4][0] and any(line.startswith("genmove [agent") for line in r[4][1])
    assert not r[5][0]
    for name in names:  # every listed command is known and dispatches
        assert session(f"known_command {name}")[0] == (True, ["true"])


def test_genmove_takes_an_agent_spec_in_either_form() -> None:
    a = session("new columns seed=1", "genmove random:seed=5", "history")
    b = session("new columns seed=1", "genmove random seed=5", "history")
    assert a[1][0] and a[1] == b[1] and a[2] == b[2]
    (_, bad), = session("new columns seed=1", "genmove mcts:warp=9")[1:]
    assert "warp" in bad[0]


def test_genmove_thinks_per_turn_in_a_multi_action_game() -> None:
    """Discs: the actions of one turn share time=1 (about 1 s for the whole turn)."""
    import time as _time

    from rulebox.engine import Engine

    lines = ["new discs seed=4", "genmove random seed=1", "genmove random seed=2"]
    engine = Engine()
    for line in lines:
        engine.handle(line)
    start = _time.perf_counter()
    actions = 0
    while engine.handle("turn") == "= 0\n\n" and actions < 8:
        answer = engine.handle("genmove mcts time=1 seed=3")
        assert answer is not None and answer.startswith("= ")
        actions += 1
    assert actions >= 2 and _time.perf_counter() - start < 1.6
