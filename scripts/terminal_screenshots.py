"""Screenshots of the full-screen terminal game (issue 35): every game at 80x24 and at 160x48,
a few seeded moves in, as SVG (Textual's ``save_screenshot``) into docs/screenshots/.

    python scripts/terminal_screenshots.py [--out docs/screenshots] [--games columns,36to1]
                                           [--png DIR]

The person sits at seat 0 and plays the first legal move (in natural order) each turn; the
other seats are the seeded random agent, so the same command draws the same pictures. ``--png``
also renders each SVG to a PNG in DIR with the system's Chromium, to look at them.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
from pathlib import Path

from rulebox.cli.seats import make_seats
from rulebox.core.registry import game_entry
from rulebox.match.table import Table
from rulebox.tui.app import GameApp

CHROMIUM = "/usr/bin/chromium"
GAMES = {"columns": 4, "countred": 4, "discs": 5, "36to1": 3, "columba": 8}
"""The person's moves played before the picture (Discs: its two set-up moves first)."""
SIZES = [(80, 24), (160, 48)]


async def picture(game_id: str, size: tuple[int, int], out: Path) -> Path:
    """Play the game's first moves on a screen of ``size`` and save it."""
    game = game_entry(game_id).cls.new({"seed": "5"})
    seats = [f"{p}=random" for p in range(1, game.num_players)]
    table = Table(game, make_seats(game.id, game.num_players, seats, 0.05), seed=5)
    app = GameApp(table, time=0.05)
    async with app.run_test(size=size) as pilot:
        for _n in range(GAMES[game_id]):
            while app.thinking is not None:
                await pilot.pause(0.05)
            if table.over():
                break
            app.command(str(sorted(table.game.legal_moves(), key=str)[0]))
            await pilot.pause()
        while app.thinking is not None:
            await pilot.pause(0.05)
        await pilot.pause()
        name = f"terminal-{game_id}-{size[0]}x{size[1]}.svg"
        app.save_screenshot(name, str(out))
    return out / name


def to_png(svg: Path, size: tuple[int, int], where: Path) -> None:
    """The SVG as Chromium draws it (about 10 x 22 pixels a cell)."""
    png = where / svg.with_suffix(".png").name
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                    f"--window-size={size[0] * 10 + 40},{size[1] * 25 + 80}",
                    f"--screenshot={png}", svg.resolve().as_uri()],
                   check=True, capture_output=True, timeout=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots", type=Path)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--png", type=Path, default=None)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for game_id in args.games.split(","):
        for size in SIZES:
            svg = asyncio.run(picture(game_id, size, args.out))
            print(svg)
            if args.png is not None:
                args.png.mkdir(parents=True, exist_ok=True)
                to_png(svg, size, args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
