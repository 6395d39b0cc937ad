"""The GM's keys: issue player and viewer keys, list them, revoke them, and draw a key's
link as a QR code for a player to scan at the table (offline: segno, on this server)."""

from __future__ import annotations

import io
from typing import Annotated
from uuid import UUID

import segno
from fastapi import APIRouter, Path, Response

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch, Keys
from skald_campaign.api.routes.calendar import settled
from skald_campaign.api.schemas import IssuedKeyOut, IssueKeyBody, KeyOut, QrBody
from skald_campaign.application.commands import IssueKey, RevokeKey
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.idempotency import Replayed
from skald_campaign.domain.records import KeyGrant

router = APIRouter(prefix="/campaigns/{campaign_id}/keys", tags=["keys"])
KeyId = Annotated[str, Path(min_length=1, max_length=32)]


def key_out(key: KeyGrant) -> KeyOut:
    return KeyOut(
        id=key.id,
        role=key.role,
        characters=list(key.characters),
        label=key.label,
        revoked=key.revoked,
    )


@router.post("", status_code=201)
def issue_key(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    body: IssueKeyBody,
    app: App,
    access: GM,
    keys: Keys,
) -> IssuedKeyOut:
    """Issue a player key (bound to characters) or a read-only viewer key; shown once
    (and again to a retry with the same Idempotency-Key: it is re-derived, not stored)."""
    key_id, key = keys.new()
    command = IssueKey(
        campaign_id,
        key_id,
        keys.digest(key),
        body.role,
        tuple(body.characters),
        body.label,
        access.who,
    )
    outcome = app.idempotent(
        idempotency.claim(body, access), lambda: app.issue_key(command), expected
    )
    if isinstance(outcome, Replayed):  # the key that version issued: the last one
        key_id = list(app.campaign(campaign_id, outcome.subject_version).keys)[-1]
    campaign = settled(app, outcome)
    return IssuedKeyOut(**key_out(campaign.keys[key_id]).model_dump(), key=keys.key_for(key_id))


@router.get("")
def list_keys(campaign_id: UUID, app: App, access: GM) -> list[KeyOut]:
    """Every key of the campaign, without the keys themselves."""
    return [key_out(k) for k in app.campaign(campaign_id).keys.values()]


@router.post(
    "/qr",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "the QR code, SVG"}},
)
def key_link_qr(campaign_id: UUID, body: QrBody, access: GM) -> Response:
    """The link as a QR code (SVG). The link comes in the body, since a key's link carries
    the key and an address would put it in logs; nothing is stored."""
    drawn = io.BytesIO()
    try:
        code = segno.make(body.link, error="m")
    except segno.DataOverflowError as error:  # 2000 characters of 3-byte UTF-8, say
        raise InvalidInput(f"the link is too long for a QR code: {error}") from error
    code.save(drawn, kind="svg", xmldecl=False, svgns=True, omitsize=True, border=2, title="QR")
    return Response(
        drawn.getvalue(), media_type="image/svg+xml", headers={"cache-control": "no-store"}
    )


@router.delete("/{key_id}")
def revoke_key(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    key_id: KeyId,
    app: App,
    access: GM,
) -> KeyOut:
    command = RevokeKey(campaign_id, key_id, access.who)
    campaign = settled(
        app,
        app.idempotent(idempotency.claim(None, access), lambda: app.revoke_key(command), expected),
    )
    return key_out(campaign.keys[key_id])
