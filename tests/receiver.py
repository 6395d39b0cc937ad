"""A local webhook receiver (bench/receiver.py's, shared with the bench, which imports
nothing from tests/)."""

from __future__ import annotations

from bench.receiver import Receiver

__all__ = ["Receiver"]
