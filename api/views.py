"""Aggregates to response bodies; the same shape at every version."""

from __future__ import annotations

from api.schemas import ActionOut, CampaignOut, CharacterOut, CombatantOut, EncounterOut, RulesetOut
from domain.campaign import Campaign
from domain.encounter import Encounter
from domain.rulesets.base import Ruleset


def character_out(campaign: Campaign, character_id: str) -> CharacterOut:
    c = campaign.character(character_id)
    rules = campaign.rules
    return CharacterOut(
        id=character_id,
        name=c["name"],
        sheet=c["sheet"],
        tracks=c["tracks"],
        maxima=rules.track_maxima(c["sheet"]),
        conditions=list(rules.conditions(c["sheet"], c["tracks"], c["state"])),
        state=c["state"],
        derived=rules.derived_ratings(c["sheet"], c["state"]),
        in_encounter=c["in_encounter"],
    )


def campaign_out(campaign: Campaign) -> CampaignOut:
    return CampaignOut(
        id=campaign.id,
        name=campaign.name,
        ruleset=campaign.ruleset_id,
        options=campaign.options,
        day=campaign.day,
        version=campaign.version,
        created_by=campaign.created_by,
        characters=[character_out(campaign, cid) for cid in campaign.characters],
        encounters=list(campaign.encounters.values()),
    )


def encounter_out(encounter: Encounter) -> EncounterOut:
    rules = encounter.rules
    return EncounterOut(
        id=encounter.id,
        campaign_id=encounter.campaign_id,
        name=encounter.name,
        ruleset=encounter.ruleset_id,
        day=encounter.day,
        round=encounter.round,
        ended=encounter.ended,
        version=encounter.version,
        combatants=[
            CombatantOut(
                id=cid,
                name=c["name"],
                side=c["side"],
                rank=c["rank"],
                present=c.get("present", True),
                tracks=c["tracks"],
                maxima=rules.track_maxima(c["sheet"]),
                conditions=list(encounter.conditions_of(cid)),
                state=c["state"],
            )
            for cid, c in encounter.combatants.items()
        ],
        actions=encounter.actions,
        corrections=encounter.corrections,
    )


def action_out(encounter: Encounter, record: dict[str, object]) -> ActionOut:
    return ActionOut(action=record, encounter=encounter_out(encounter))


def ruleset_out(ruleset: Ruleset) -> RulesetOut:
    return RulesetOut(
        id=ruleset.id,
        title=ruleset.title,
        options=ruleset.validate_options({}),
        sheet_schema=ruleset.sheet_model.model_json_schema(),
        actions={
            kind: {
                "description": a.description,
                "params": a.params.model_json_schema(),
                "gm_only": a.gm_only,
            }
            for kind, a in ruleset.actions.items()
        },
    )
