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
