"""Who may do what in a campaign: the GM, players bound to characters, viewers.

The domain never sees a key, only the key's id, its role, the characters it is
bound to and the hash the composition root computed. Checking a presented key
against its hash happens at the edge; deciding what the role allows happens here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from skald_campaign.domain.errors import DomainError, NotFound

Role = Literal["gm", "player", "viewer"]
ROLES: tuple[Role, ...] = ("gm", "player", "viewer")


class Unauthenticated(DomainError):
    """No key, or a key this campaign does not know."""


class Forbidden(DomainError):
    """A known key whose role does not allow the request."""


@dataclass(frozen=True)
class Access:
    key_id: str
    role: Role
    characters: frozenset[str]
    label: str

    @property
    def who(self) -> str:
        """How the audit trail names this key's holder; never the key itself."""
        return f"{self.role}:{self.label or self.key_id}"

    def require_gm(self, doing: str) -> None:
        if self.role != "gm":
            raise Forbidden(f"only the GM may {doing}; this is a {self.role} key")

    def require_writer_for(self, actor: str | None, doing: str) -> None:
        """The GM acts for anyone; a player only for their own characters."""
        if self.role == "gm":
            return
        if self.role == "viewer":
            raise Forbidden(f"a viewer key is read-only; it cannot {doing}")
        if actor is None:
            raise Forbidden(f"only the GM may {doing} without naming an actor")
        if actor not in self.characters:
            raise Forbidden(f"this player key does not act for character '{actor}'")


def check_characters(wanted: Iterable[str], enrolled: Iterable[str]) -> frozenset[str]:
    chosen = frozenset(wanted)
    unknown = sorted(chosen - set(enrolled))
    if unknown:
        raise NotFound(f"no such character(s) in this campaign: {', '.join(unknown)}")
    return chosen
