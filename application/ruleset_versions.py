"""The campaign's ruleset version on record: what the GM sees, and their acceptance.

The check itself runs on every command's read of the campaign (application/store.py,
``Store._writable``): a campaign whose installed ruleset is not its recorded version,
and under which some recorded action comes out differently, refuses every write
(domain/campaign/ruleset_versions.py) until the GM, having read the list this answers, accepts
the installed version here. Days the calendar advanced that the healing worker could
not heal meanwhile are healed with the acceptance, under the version accepted.
"""

from __future__ import annotations

from uuid import UUID

from skald_campaign.application.commands import AcceptRulesetVersion
from skald_campaign.application.store import Commands
from skald_campaign.application.writes import unguarded
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.campaign.ruleset_versions import CHECK_COMMAND
from skald_campaign.domain.records import JSON, JSONObject

# What the acceptance keeps of each differing action it was shown: where it is and what
# became of it, not its texts (the log, the feed and webhooks are read by players' and
# viewers' keys too, and a summary may state an NPC's numbers or a hidden roll's dice).
KEPT = ("encounter_id", "encounter", "number", "kind", "status")


def kept(entry: JSONObject) -> JSON:
    return {name: entry[name] for name in KEPT if name in entry}


class RulesetVersions(Commands):
    def ruleset_standing(self, campaign_id: UUID) -> JSONObject:
        """The ruleset as recorded and as installed, whether the campaign may write
        (``status``: current; same_outcomes, recorded by the next write; differs, or
        missing: read-only), and the recorded actions that differ (nothing written)."""
        campaign = self.store.campaign(campaign_id)
        return self.standing_of(campaign)

    def standing_of(self, campaign: Campaign) -> JSONObject:
        found = campaign.ruleset_standing()
        differing: list[JSONObject] = []
        if found.current:
            status = "current"
        elif found.missing:
            status = "missing"
        else:
            differing = self.store.differing_actions(campaign)
            status = "differs" if differing else "same_outcomes"
        read_only = status in ("differs", "missing")
        accept: JSON = (
            {
                "method": "POST",
                "path": f"/campaigns/{campaign.id}/ruleset/accept",
                "body": {"version": found.installed},
            }
            if status == "differs"
            else None
        )
        listed: list[JSON] = list(differing)
        return {
            "campaign_id": str(campaign.id),
            "campaign": campaign.name,
            **found.as_json(),
            "status": status,
            "read_only": read_only,
            "differing": listed,
            "accept": accept,
            "command": CHECK_COMMAND,
        }

    def accept_ruleset_version(self, command: AcceptRulesetVersion) -> Campaign:
        """Record the GM's acceptance of the installed version, with the differing
        actions as they were listed, and heal the days the calendar owes under it."""

        def attempt() -> Campaign:
            with unguarded():
                campaign = self.store.campaign(command.campaign_id)
                self.store.decides_on(campaign)
                found = campaign.ruleset_standing()
                differing = (
                    [] if found.missing or found.current
                    else self.store.differing_actions(campaign)
                )  # fmt: skip
            campaign.accept_ruleset_version(
                command.version, [kept(entry) for entry in differing], command.by
            )
            campaign.heal_through(campaign.day)
            self.store.save(campaign)
            return campaign

        return self.store.run_command(attempt)
