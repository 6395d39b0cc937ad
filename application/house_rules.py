"""The house-rule preview: the campaign's ended fights replayed under changed options.

Reads only: the campaign, its ended encounters, and the replay every correction takes
(domain/campaign/house_rules.py over domain/play/corrections.py). Nothing is saved, nothing rolled.
"""

from __future__ import annotations

from uuid import UUID

from skald_campaign.application.store import Commands
from skald_campaign.domain.campaign.house_rules import preview_fight
from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.records import JSON, JSONObject
from skald_campaign.domain.rulesets import get_ruleset


class HouseRules(Commands):
    def preview_house_rules(self, campaign_id: UUID, changed: JSONObject) -> JSONObject:
        """What the campaign's ended fights would have come to with ``changed`` options
        (over the campaign's own): per fight, the actions that came out otherwise."""
        campaign = self.store.campaign(campaign_id)
        ruleset = get_ruleset(campaign.ruleset_id)
        if not isinstance(changed, dict):
            raise InvalidInput("options must be a JSON object")
        # Validated whole, as a campaign's options are at its creation: the 422 names
        # the field (options.natural_20_hits).
        options: JSONObject = ruleset.validate_options({**campaign.options, **changed})
        differing = {k: v for k, v in options.items() if campaign.options.get(k) != v}
        fights: list[JSON] = []
        actions = 0
        for entry in campaign.encounters.values():
            if entry.open:
                continue
            encounter = self.store.encounter(campaign_id, UUID(entry.id))
            if not encounter.ended:
                continue
            # The fight's own options, as it was played, with the changed ones over them.
            under = ruleset.validate_options({**encounter.options, **differing})
            fight = preview_fight(
                ruleset.under(under),
                under,
                encounter.initial_combatants,
                encounter.actions,
                encounter.combatants,
            )
            actions += fight.replayed
            fights.append(
                {
                    "encounter_id": str(encounter.id),
                    "encounter": encounter.name,
                    "actions_replayed": fight.replayed,
                    "actions": list(fight.actions),
                    "tracks": dict(fight.tracks),
                }
            )
        return {
            "options": options,
            "changed_options": differing,
            "fights_replayed": len(fights),
            "actions_replayed": actions,
            "fights": fights,
        }
