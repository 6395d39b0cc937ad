"""Vitals: every character's tracks (current and maximum) and conditions, per campaign.

A character's entry is kept with its sheet, so that conditions can be derived
with the campaign's ruleset whenever an event brings new tracks or state, from
whichever aggregate, under the tracks/state contract (projections/base.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eventsourcing.persistence import Tracking

from domain.events import (
    ENCOUNTER_EVENTS,
    REQUEST_EVENTS,
    CampaignCreated,
    CharacterEnrolled,
    CharacterHealed,
    CharacterJoined,
    CorrectionCarried,
    DayAdvanced,
    EncounterClosed,
    EncounterOpened,
    EventHandlers,
    KeyIssued,
    KeyRevoked,
    SheetAmended,
    TracksAdjusted,
    WoundMarked,
)
from projections.base import ViewProjection, conditions, facts, maxima, per_character

Meta = dict[str, Any]  # the campaign's entry: its name, ruleset, day, roster, counters
# What an event of one class changes in the vitals beyond the tracks/state contract.
OwnChange = Callable[["VitalsProjection", Any, Meta, str, Tracking], None]
CHANGES = EventHandlers[OwnChange]("the vitals projection")


class VitalsProjection(ViewProjection):
    name = "vitals"

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        own_change = CHANGES(type(domain_event))
        if own_change is None:
            return
        event, known = domain_event, facts(domain_event)
        staged, keys = self.view.staged, self.view.keys
        campaign_id = self.campaign_of(event, known, keys.vitals_encounter(known.aggregate_id))
        if campaign_id is None:
            return
        meta_key = keys.vitals_meta(campaign_id)
        if type(event) is CampaignCreated:  # the campaign's first event opens its entry
            staged.put(meta_key, new_meta(event, campaign_id))
        meta = staged.get(meta_key)
        if meta is None:
            return
        vitals_key = keys.vitals(campaign_id)
        own_change(self, event, meta, vitals_key, tracking)
        # A sheet amendment (campaign or encounter) names each amended sheet under "sheets".
        for character_id, sheet in per_character(getattr(event, "sheets", None)).items():
            limits = maxima(meta["ruleset"], sheet, meta.get("options"))
            self._set(vitals_key, character_id, sheet=sheet, maxima=limits)
        tracks, state = known.tracks, known.state
        for character_id in sorted(set(tracks) | set(state)):
            new_tracks, new_state = tracks.get(character_id), state.get(character_id)
            self._changed(vitals_key, meta, character_id, new_tracks, new_state, tracking)
        meta["events"] += 1
        meta["position"] = tracking.notification_id
        staged.put(meta_key, meta)

    @CHANGES.register(CharacterEnrolled)
    def _character_enrolled(
        self, event: Any, meta: Meta, vitals_key: str, tracking: Tracking
    ) -> None:
        meta["characters"].append(event.character_id)
        self._enrolled(event, meta, vitals_key, tracking.notification_id)

    @CHANGES.register(EncounterOpened)
    def _encounter_opened(self, event: Any, meta: Meta, vitals_key: str, _: Tracking) -> None:
        meta["encounters"].append({"id": event.encounter_id, "name": event.name, "open": True})
        for character_id in event.character_ids:
            self._set(vitals_key, character_id, encounter=event.encounter_id)

    @CHANGES.register(EncounterClosed)
    def _encounter_closed(self, event: Any, meta: Meta, vitals_key: str, _: Tracking) -> None:
        for encounter in meta["encounters"]:
            if encounter["id"] == event.encounter_id:
                encounter["open"] = False
        for character_id in event.tracks:
            self._set(vitals_key, character_id, encounter=None)

    @CHANGES.register(DayAdvanced)
    def _day_advanced(self, event: Any, meta: Meta, _: str, __: Tracking) -> None:
        meta["day"] = event.day

    # Every other event of a campaign or its encounters changes the vitals only through
    # the contract (tracks, state and sheets per character) and the counters.
    @CHANGES.register(
        CampaignCreated,
        KeyIssued,
        KeyRevoked,
        CharacterHealed,
        WoundMarked,
        SheetAmended,
        TracksAdjusted,
        CharacterJoined,
        CorrectionCarried,
        *ENCOUNTER_EVENTS,
    )
    def _contract_only(self, event: Any, meta: Meta, vitals_key: str, tracking: Tracking) -> None:
        pass

    def _enrolled(self, event: Any, meta: dict[str, Any], vitals_key: str, position: int) -> None:
        ruleset, options = meta["ruleset"], meta.get("options")
        character = {
            "id": event.character_id,
            "name": event.name,
            "sheet": event.sheet,
            "tracks": dict(event.tracks),
            "maxima": maxima(ruleset, event.sheet, options),
            "state": dict(event.state),
            "conditions": conditions(ruleset, event.sheet, event.tracks, event.state, options),
            "encounter": None,
            "changes": 1,
            "position": position,
        }
        self.view.staged.put_field(vitals_key, event.character_id, character)

    def _set(self, vitals_key: str, character_id: str, **values: Any) -> None:
        character = self.view.staged.get_field(vitals_key, character_id)
        if character is not None:
            character.update(values)
            self.view.staged.put_field(vitals_key, character_id, character)

    def _changed(
        self,
        vitals_key: str,
        meta: dict[str, Any],
        character_id: str,
        tracks: dict[str, Any] | None,
        state: dict[str, Any] | None,
        tracking: Tracking,
    ) -> None:
        character = self.view.staged.get_field(vitals_key, character_id)
        if character is None:
            return
        if tracks is not None:
            character["tracks"] = tracks
        if state is not None:
            character["state"] = state
        character["conditions"] = conditions(
            meta["ruleset"],
            character["sheet"],
            character["tracks"],
            character["state"],
            meta.get("options"),
        )
        character["changes"] += 1
        character["position"] = tracking.notification_id
        self.view.staged.put_field(vitals_key, character_id, character)


CHANGES.ignore(REQUEST_EVENTS)  # the idempotency records: no campaign's


def new_meta(event: Any, campaign_id: str) -> Meta:
    return {
        "id": campaign_id,
        "name": event.name,
        "ruleset": event.ruleset,
        "options": event.options,
        "day": 0,
        "encounters": [],
        "characters": [],
        "events": 0,
        "position": 0,
    }
