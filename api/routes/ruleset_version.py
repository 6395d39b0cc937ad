"""A campaign's ruleset version on record (issue 38; docs/rulesets.md, "Versions"): what
the GM reads before accepting a new version, and the acceptance."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter

from skald_campaign.api.deps import GM, App, Idempotency, IfMatch
from skald_campaign.api.schemas import AcceptRulesetBody, RulesetStandingOut
from skald_campaign.application.commands import AcceptRulesetVersion

router = APIRouter(prefix="/campaigns/{campaign_id}/ruleset", tags=["rulesets"])


@router.get("")
def read_ruleset_standing(campaign_id: UUID, app: App, _: GM) -> RulesetStandingOut:
    """The ruleset the campaign has on record and the one installed; when they differ,
    the recorded actions that come out differently under the installed one (resolved
    again on their recorded dice; nothing is written)."""
    return RulesetStandingOut(**app.ruleset_standing(campaign_id))


@router.post("/accept")
def accept_ruleset_version(
    idempotency: Idempotency,
    expected: IfMatch,
    campaign_id: UUID,
    body: AcceptRulesetBody,
    app: App,
    access: GM,
) -> RulesetStandingOut:
    """Accept the installed version of the campaign's ruleset, recorded as one event with
    the differing actions as listed: from now on every action and every correction
    resolves under it, and the campaign takes writes again."""
    command = AcceptRulesetVersion(campaign_id, body.version, access.who)
    app.idempotent(
        idempotency.claim(body, access), lambda: app.accept_ruleset_version(command), expected
    )
    return RulesetStandingOut(**app.ruleset_standing(campaign_id))
