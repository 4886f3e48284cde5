"""What runs first in every think worker process; kept light (no web or database imports), so
that it runs within a moment of the process starting."""

from __future__ import annotations

import os
import threading
import time


def worker_init(parent: int) -> None:
    """End this worker as soon as the server process ``parent`` is gone (even killed with
    SIGKILL, when no shutdown code runs), instead of thinking on alone."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(0.2)

    threading.Thread(target=watch, name="rb-parent-watch", daemon=True).start()
