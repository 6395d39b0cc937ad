"""Vitals: every character's tracks (current and maximum) and conditions, per campaign.

A character's entry is kept with its sheet, so that conditions can be derived
with the campaign's ruleset whenever an event brings new tracks or state, from
whichever aggregate, under the tracks/state contract (projections/base.py).
"""

from __future__ import annotations

from collections.abc import Callable

from eventsourcing.persistence import Tracking

from skald_campaign.domain.events import (
    ENCOUNTER_EVENTS,
    NOT_A_CAMPAIGNS,
    CampaignCreated,
    CharacterEnrolled,
    CharacterHealed,
    CharacterJoined,
    CorrectionCarried,
    DayAdvanced,
    EncounterClosed,
    EncounterOpened,
    Event,
    EventHandlers,
    KeyIssued,
    KeyRevoked,
    RulesetVersionAccepted,
    RulesetVersionRecorded,
    SheetAmended,
    TracksAdjusted,
    WoundMarked,
)
from skald_campaign.domain.records import Sheet, State, Tracks, as_tracks
from skald_campaign.projections.base import (
    Facts,
    ViewProjection,
    as_event,
    conditions,
    facts,
    maxima,
    per_character,
    seen_as,
)
from skald_campaign.projections.narrow import (
    field,
    integer,
    json_object,
    optional_object,
    text,
    text_list,
)
from skald_campaign.projections.views import VitalsCharacter, VitalsMeta, stored

# What an event of one class changes in the vitals beyond the tracks/state contract
# (the meta document is the campaign's entry: its name, ruleset, day, roster, counters).
OwnChange = Callable[["VitalsProjection", Event, VitalsMeta, str, Tracking], None]
CHANGES = EventHandlers[OwnChange]("the vitals projection")


class VitalsProjection(ViewProjection):
    name = "vitals"

    def process_event(self, domain_event: object, tracking: Tracking) -> None:
        own_change = CHANGES(type(domain_event))
        if own_change is None:
            return
        event = as_event(domain_event)
        known = facts(event)
        staged, keys = self.view.staged, self.view.keys
        campaign_id = self.campaign_of(event, known, keys.vitals_encounter(known.aggregate_id))
        if campaign_id is None:
            return
        meta_key = keys.vitals_meta(campaign_id)
        if type(event) is CampaignCreated:  # the campaign's first event opens its entry
            staged.put(meta_key, new_meta(event, campaign_id))
        found = staged.get(meta_key)
        if found is None:
            return
        meta = stored(VitalsMeta, found)
        vitals_key = keys.vitals(campaign_id)
        own_change(self, event, meta, vitals_key, tracking)
        # A sheet amendment (campaign or encounter) names each amended sheet under "sheets".
        for character_id, sheet in per_character(getattr(event, "sheets", None)).items():
            limits = maxima(known, character_id, meta["ruleset"], sheet, meta.get("options"))
            self._set_sheet(known, vitals_key, meta, character_id, sheet, limits)
        tracks, state = known.tracks, known.state
        for character_id in sorted(set(tracks) | set(state)):
            new_tracks, new_state = tracks.get(character_id), state.get(character_id)
            self._changed(known, vitals_key, meta, character_id, new_tracks, new_state, tracking)
        meta["events"] += 1
        meta["position"] = tracking.notification_id
        staged.put(meta_key, meta)

    @CHANGES.register(CharacterEnrolled)
    def _character_enrolled(
        self, event: Event, meta: VitalsMeta, vitals_key: str, tracking: Tracking
    ) -> None:
        meta["characters"].append(text(field(event, "character_id")))
        self._enrolled(event, meta, vitals_key, tracking.notification_id)

    @CHANGES.register(EncounterOpened)
    def _encounter_opened(
        self, event: Event, meta: VitalsMeta, vitals_key: str, _: Tracking
    ) -> None:
        encounter_id = text(field(event, "encounter_id"))
        name = text(field(event, "name"))
        meta["encounters"].append({"id": encounter_id, "name": name, "open": True})
        for character_id in text_list(field(event, "character_ids")):
            self._set_encounter(vitals_key, character_id, encounter_id)

    @CHANGES.register(EncounterClosed)
    def _encounter_closed(
        self, event: Event, meta: VitalsMeta, vitals_key: str, _: Tracking
    ) -> None:
        encounter_id = field(event, "encounter_id")
        for encounter in meta["encounters"]:
            if encounter["id"] == encounter_id:
                encounter["open"] = False
        for character_id in json_object(field(event, "tracks")):
            self._set_encounter(vitals_key, character_id, None)

    @CHANGES.register(DayAdvanced)
    def _day_advanced(self, event: Event, meta: VitalsMeta, _: str, __: Tracking) -> None:
        meta["day"] = integer(field(event, "day"))

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
    def _contract_only(
        self, event: Event, meta: VitalsMeta, vitals_key: str, tracking: Tracking
    ) -> None:
        pass

    @CHANGES.register(RulesetVersionRecorded, RulesetVersionAccepted)
    def _ruleset_version(
        self, event: Event, meta: VitalsMeta, vitals_key: str, tracking: Tracking
    ) -> None:
        """Another version of the rules: each character's maxima, conditions and word as
        the event recorded them under it, values unchanged (domain/reading/recorded.py).
        One stored before it recorded them (None) changes nothing, as it always did. A
        character in an open encounter is the encounter's: its events' readings stand."""
        known = facts(event)
        for character_id in per_character(known.readings):
            character = self._character(vitals_key, character_id)
            if character is None or character["encounter"] is not None:
                continue
            character["maxima"] = maxima(
                known, character_id, meta["ruleset"], character["sheet"], meta.get("options")
            )
            self.view.staged.put_field(vitals_key, character_id, character)
            self._changed(known, vitals_key, meta, character_id, None, None, tracking)

    def _enrolled(self, event: Event, meta: VitalsMeta, vitals_key: str, position: int) -> None:
        ruleset, options = meta["ruleset"], meta.get("options")
        known = facts(event)
        character_id = text(field(event, "character_id"))
        sheet, tracks = (
            json_object(field(event, "sheet")),
            as_tracks(json_object(field(event, "tracks"))),
        )
        state = json_object(field(event, "state"))
        limits = maxima(known, character_id, ruleset, sheet, options)
        character: VitalsCharacter = {
            "id": character_id,
            "name": text(field(event, "name")),
            "sheet": sheet,
            "tracks": dict(tracks),
            "maxima": limits,
            "state": dict(state),
            "conditions": conditions(known, character_id, ruleset, sheet, tracks, state, options),
            "encounter": None,
            "changes": 1,
            "position": position,
            "seen_as": seen_as(known, character_id, ruleset, tracks, limits, options),
        }
        self.view.staged.put_field(vitals_key, character_id, character)

    def _character(self, vitals_key: str, character_id: str) -> VitalsCharacter | None:
        found = self.view.staged.get_field(vitals_key, character_id)
        return None if found is None else stored(VitalsCharacter, found)

    def _set_sheet(
        self,
        known: Facts,
        vitals_key: str,
        meta: VitalsMeta,
        character_id: str,
        sheet: Sheet,
        limits: dict[str, int],
    ) -> None:
        character = self._character(vitals_key, character_id)
        if character is not None:
            character["sheet"], character["maxima"] = sheet, limits
            character["seen_as"] = seen_as(
                known, character_id, meta["ruleset"], character["tracks"], limits,
                meta.get("options"),
            )  # fmt: skip
            self.view.staged.put_field(vitals_key, character_id, character)

    def _set_encounter(self, vitals_key: str, character_id: str, encounter: str | None) -> None:
        character = self._character(vitals_key, character_id)
        if character is not None:
            character["encounter"] = encounter
            self.view.staged.put_field(vitals_key, character_id, character)

    def _changed(
        self,
        known: Facts,
        vitals_key: str,
        meta: VitalsMeta,
        character_id: str,
        tracks: Tracks | None,
        state: State | None,
        tracking: Tracking,
    ) -> None:
        character = self._character(vitals_key, character_id)
        if character is None:
            return
        if tracks is not None:
            character["tracks"] = tracks
        if state is not None:
            character["state"] = state
        character["conditions"] = conditions(
            known,
            character_id,
            meta["ruleset"],
            character["sheet"],
            character["tracks"],
            character["state"],
            meta.get("options"),
        )
        character["seen_as"] = seen_as(
            known, character_id, meta["ruleset"], character["tracks"], character["maxima"],
            meta.get("options"),
        )  # fmt: skip
        character["changes"] += 1
        character["position"] = tracking.notification_id
        self.view.staged.put_field(vitals_key, character_id, character)


CHANGES.ignore(NOT_A_CAMPAIGNS)  # idempotency records, webhooks, bestiaries: no campaign's


def new_meta(event: Event, campaign_id: str) -> VitalsMeta:
    return {
        "id": campaign_id,
        "name": text(field(event, "name")),
        "ruleset": text(field(event, "ruleset")),
        "options": optional_object(field(event, "options")),
        "day": 0,
        "encounters": [],
        "characters": [],
        "events": 0,
        "position": 0,
    }
