"""How long a test waits before it calls something hung.

These bound a hang; they never measure speed. On a loaded 2-core machine one request,
one page action or one `skald` subprocess has been seen to take tens of seconds (the
README's test command with six CPU-bound processes beside it), so every wait a test
makes for an answer is this generous, and a slow answer is still a right answer.
"""

from __future__ import annotations

HANG_SECONDS = 240.0  # a request, a subprocess, a future, a browser assertion
HANG_MS = HANG_SECONDS * 1000  # Playwright counts in milliseconds
