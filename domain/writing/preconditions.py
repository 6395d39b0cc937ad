"""Expected-version writes: the version of its subject a write was decided on.

A write may say which version of the aggregate it answers about (its subject: the
encounter an action changes, the campaign days advance on) it was decided on; the
writer refuses it, writing nothing, when that is not the subject's version as the
command read it, before the command decides anything (application/writes.py). Over
HTTP that is If-Match against the version ETag of GET .../encounters/{id} or
GET /campaigns/{id} (api/preconditions.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Expected:
    """The versions a write accepts its subject at (If-Match may list several tags);
    empty: none (a tag that names no version, such as a view's, never matches)."""

    versions: frozenset[int]
    asked: str  # as the client wrote it, for the refusal's message

    def accepts(self, version: int) -> bool:
        return version in self.versions
