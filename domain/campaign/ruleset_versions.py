"""A campaign's ruleset on record: its distribution and version, and whether the one
installed may go on writing its story (issue 38; docs/rulesets.md, "Versions").

A campaign records its ruleset's distribution and version when it is created. While the
installed ruleset has that version, nothing happens. When it has another one, the
campaign's recorded actions are resolved again under it, on their recorded dice, the one
path every correction takes (domain/play/corrections.py), nothing written: if every action
comes out as recorded, the writer records the new version (``RulesetVersionRecorded``);
if some do not, the campaign is read-only (``RulesetNotCurrent``, a 409) until the GM,
having seen which, accepts the version (``RulesetVersionAccepted``). A campaign whose
ruleset is not installed at all is read-only the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skald_campaign.domain.errors import ActionRefused
from skald_campaign.domain.play.corrections import replay, resolve_all
from skald_campaign.domain.play.dice import seeded_roller
from skald_campaign.domain.records import JSON, JSONObject
from skald_campaign.domain.rulesets import RULESETS

if TYPE_CHECKING:
    from skald_campaign.domain.encounter.aggregate import Encounter

# What a campaign created before versions were recorded reads as (the upcast of its
# Created event, a snapshot taken before): the version the built-ins had when the
# versions began, fixed here, never the installed one (a later version of a built-in
# is then checked against it like any other).
UNRECORDED_DISTRIBUTION = "skald-campaign"
UNRECORDED_VERSION = "1.0.0"
CHECK_COMMAND = "skald rulesets check"


@dataclass(frozen=True)
class Standing:
    """The campaign's ruleset as recorded, beside the one installed (None: not installed)."""

    campaign_id: str
    ruleset: str
    distribution: str
    recorded: str
    installed: str | None
    installed_distribution: str | None

    @property
    def current(self) -> bool:
        return self.installed == self.recorded and self.installed_distribution == (
            self.distribution
        )

    @property
    def missing(self) -> bool:
        return self.installed is None

    def as_json(self) -> JSONObject:
        return {
            "ruleset": self.ruleset,
            "distribution": self.distribution,
            "recorded_version": self.recorded,
            "installed_distribution": self.installed_distribution,
            "installed_version": self.installed,
        }


def standing(campaign_id: str, ruleset: str, distribution: str, recorded: str) -> Standing:
    installed = RULESETS.get(ruleset)
    return Standing(
        campaign_id,
        ruleset,
        distribution,
        recorded,
        None if installed is None else installed.version,
        None if installed is None else installed.distribution,
    )


class RulesetNotCurrent(ActionRefused):
    """A write to a campaign whose ruleset, as installed, is not the version it has on
    record, and replaying its actions under it changed some (or it is not installed)."""

    def __init__(self, found: Standing, differing: int) -> None:
        self.standing = found
        self.differing = differing
        cid = found.campaign_id
        if found.missing:
            message = (
                f"campaign {cid} is read-only: its ruleset '{found.ruleset}' (version "
                f"{found.recorded} of {found.distribution}) is not installed; install it "
                f"to write again (`{CHECK_COMMAND}` lists every campaign it holds back)"
            )
        else:
            message = (
                f"campaign {cid} is read-only: its ruleset '{found.ruleset}' is installed "
                f"at version {found.installed} of {found.installed_distribution}, but the "
                f"campaign has version {found.recorded} of {found.distribution} on record, "
                f"and {differing} of its recorded actions come out differently under the "
                f"installed one; run `{CHECK_COMMAND}` (or GET /campaigns/{cid}/ruleset) to "
                f"see them, then the GM accepts the installed version with "
                f'POST /campaigns/{cid}/ruleset/accept {{"version": "{found.installed}"}}, '
                f"or keep version {found.recorded} installed"
            )
        super().__init__(message)

    @property
    def command(self) -> str:
        return CHECK_COMMAND


def differing_actions(encounters: Iterable[Encounter]) -> list[JSONObject]:
    """Every recorded action that comes out differently when its fight is resolved again
    under the ruleset installed now, on its recorded dice (a roll it never made is rolled
    from a fixed seed, and counts as a difference): each a correction report's entry
    (number, kind, before, after, status), with its encounter's id and name. Nothing is
    written."""
    found: list[JSONObject] = []
    for encounter in encounters:
        again = replay(
            encounter.rules,
            encounter.options,
            encounter.initial_combatants,
            encounter.actions,
            resolve_all,
            seeded_roller(0),
        )
        eid: JSON = str(encounter.id)
        found.extend(
            {"encounter_id": eid, "encounter": encounter.name, **entry} for entry in again.changed
        )
    return found
