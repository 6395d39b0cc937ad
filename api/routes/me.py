"""Who the presented key is: its role and the characters it may act for.

The player's page starts here: it opens the characters the key is bound to."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel

from skald_campaign.api.deps import Reader

router = APIRouter(tags=["keys"])


class WhoAmIOut(BaseModel):
    key_id: str
    role: str
    label: str
    characters: list[str]


@router.get("/campaigns/{campaign_id}/me")
def who_am_i(campaign_id: UUID, access: Reader) -> WhoAmIOut:
    """The role and characters of the key this request carries (never the key)."""
    return WhoAmIOut(
        key_id=access.key_id,
        role=access.role,
        label=access.label,
        characters=sorted(access.characters),
    )
