"""The domain's single error hierarchy; the API maps each class to one HTTP status."""

from __future__ import annotations


class DomainError(Exception):
    """Base of every error the domain raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(DomainError):
    """The request itself is wrong: a bad sheet, option, parameter or dice."""


class DiceError(InvalidInput):
    """Caller-supplied dice do not fit the roll they were offered for."""


class NotFound(DomainError):
    """An id that names nothing in this campaign."""


class ActionRefused(DomainError):
    """A well-formed action the current state does not allow (e.g. an unconscious actor)."""


class ConcurrentWrite(DomainError):
    """Another writer kept winning the race for the same aggregate."""

    def __init__(self, message: str, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class VersionMismatch(DomainError):
    """A write that named the version it was decided on (HTTP If-Match), and that version
    is not the aggregate's now: refused, nothing written (HTTP 412)."""

    def __init__(self, kind: str, aggregate_id: str, expected: str, current_version: int) -> None:
        super().__init__(
            f"this write was decided on {kind} version {expected}, but the {kind} is at "
            f"version {current_version} now: read it again, decide again, and send the "
            "version read (If-Match)"
        )
        self.kind = kind
        self.aggregate_id = aggregate_id
        self.expected = expected
        self.current_version = current_version
