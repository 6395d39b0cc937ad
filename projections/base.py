"""What the three projections share: their view, the facts of an event, the tracks/state
contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import redis
from eventsourcing.projection import Projection

from domain.events import CampaignEvent, EncounterEvent, EncounterStarted
from domain.rulesets import get_ruleset
from projections.keys import ViewKeys
from projections.staging import StagedViews
from projections.tracking import RedisTrackingRecorder


class ProjectionView(RedisTrackingRecorder):
    """A projection's materialised view: its tracking hash under a root, and the
    staged changes it writes into (shared by the projections of one engine, which
    commits them all, with every position, in one script)."""

    def __init__(
        self, client: redis.Redis, keys: ViewKeys, staged: StagedViews, projection: str
    ) -> None:
        super().__init__(client, keys.tracking(projection))
        self.keys = keys
        self.staged = staged


class ViewProjection(Projection[ProjectionView]):
    """A projection over Skald's events. ``process_event`` stages its changes; the
    engine commits them with the tracking position once per batch."""

    def campaign_of(self, event: Any, known: Facts, index_key: str) -> str | None:
        """The campaign an event belongs to. Encounter events do not name it, so each
        projection remembers it under ``index_key`` when the encounter starts."""
        staged, kind = self.view.staged, type(event)
        if issubclass(kind, CampaignEvent):
            return known.aggregate_id
        if kind is EncounterStarted:
            campaign_id = str(event.campaign_id)
            staged.put(index_key, campaign_id)
            return campaign_id
        if issubclass(kind, EncounterEvent):
            found: str | None = staged.get(index_key)
            return found
        return None


class Facts(NamedTuple):
    """What every projection wants to know about an event, worked out once for all three."""

    name: str  # 'Campaign.CharacterEnrolled': what the audit log calls it (never dispatched on)
    aggregate_id: str
    tracks: dict[str, dict[str, Any]]
    state: dict[str, dict[str, Any]]


_last: tuple[Any, Facts] | None = None  # the event and its facts, for the next projection


def facts(event: Any) -> Facts:
    global _last
    last = _last
    if last is not None and last[0] is event:
        return last[1]
    found = Facts(
        type(event).__qualname__,
        str(event.originator_id),
        per_character(getattr(event, "tracks", None)),
        per_character(getattr(event, "state", None)),
    )
    _last = (event, found)
    return found


def per_character(value: Any) -> dict[str, dict[str, Any]]:
    """The contract every event that changes characters follows: ``tracks`` and ``state``
    map a character id to that character's full new values. Anything else under those
    names (an enrolment's own tracks, say) is not a per-character mapping and is ignored."""
    if type(value) is not dict:  # decoded events hold plain dicts
        return {}
    return {k: v for k, v in value.items() if type(v) is dict}


def rules_of(ruleset: str, options: Mapping[str, Any] | None) -> Any:
    """The ruleset as the campaign plays it: its options decide conditions and maxima
    (margin's wounded threshold and health default, M18). Views stored before the
    options were kept have none, and read the ruleset's defaults."""
    rules = get_ruleset(ruleset)
    return rules.under(options) if options else rules


def conditions(
    ruleset: str, sheet: Any, tracks: Any, state: Any, options: Mapping[str, Any] | None = None
) -> list[str]:
    return list(rules_of(ruleset, options).conditions(sheet, tracks, state))


def maxima(ruleset: str, sheet: Any, options: Mapping[str, Any] | None = None) -> dict[str, int]:
    return dict(rules_of(ruleset, options).track_maxima(sheet))


def with_maxima(tracks: Mapping[str, int], maxima: Mapping[str, int]) -> dict[str, Any]:
    """{"stamina": {"current": 7, "max": 12}, ...}: what a bar needs."""
    return {name: {"current": value, "max": maxima.get(name)} for name, value in tracks.items()}
