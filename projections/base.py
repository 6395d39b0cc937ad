"""What the three projections share: their view, the facts of an event, the tracks/state
contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, TypedDict

import redis
from eventsourcing.projection import Projection

from skald_campaign.domain.events import CampaignEvent, EncounterEvent, EncounterStarted, Event
from skald_campaign.domain.reading import installed
from skald_campaign.domain.reading.recorded import FIELD, Recorded, recorded_for
from skald_campaign.domain.reading.visibility import descriptor
from skald_campaign.domain.records import JSONObject, Sheet, State, Tracks
from skald_campaign.projections.keys import ViewKeys
from skald_campaign.projections.narrow import field
from skald_campaign.projections.staging import StagedViews
from skald_campaign.projections.tracking import RedisTrackingRecorder


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

    def campaign_of(self, event: Event, known: Facts, index_key: str) -> str | None:
        """The campaign an event belongs to. Encounter events do not name it, so each
        projection remembers it under ``index_key`` when the encounter starts."""
        staged, kind = self.view.staged, type(event)
        if issubclass(kind, CampaignEvent):
            return known.aggregate_id
        if kind is EncounterStarted:
            campaign_id = str(field(event, "campaign_id"))  # a UUID
            staged.put(index_key, campaign_id)
            return campaign_id
        if issubclass(kind, EncounterEvent):
            found = staged.get(index_key)
            if found is not None and not isinstance(found, str):
                raise TypeError(f"{index_key} holds {found!r}, not a campaign id")
            return found
        return None


def as_event(event: object) -> Event:
    """A decoded event, as the projections read it (every event of the store is one)."""
    if not isinstance(event, Event):
        raise TypeError(f"not an event of Skald's aggregates: {event!r}")
    return event


class Facts(NamedTuple):
    """What every projection wants to know about an event, worked out once for all three."""

    name: str  # 'Campaign.CharacterEnrolled': what the audit log calls it (never dispatched on)
    aggregate_id: str
    tracks: dict[str, Tracks]
    state: dict[str, State]
    # What the event recorded of the rules per character it touched (domain/reading/
    # recorded.py); None for an event stored before its class recorded them.
    readings: object
    # Each character's readings as ``recorded_for`` reads them, once per event: the vitals
    # and the board each asked for them twice (conditions, then the word), four
    # ``Recorded`` built per character an event (~8% of a rebuild, cProfile, bench/README.md
    # "rebuild40 lane"). Filled by ``reading``.
    kept: dict[str, Recorded | None]


_last: tuple[Event, Facts] | None = None  # the event and its facts, for the next projection

# An aggregate's id as text, by its UUID: ``str(UUID)`` is Python code (~1 us), paid
# for every event while a store has a few thousand aggregates (a rebuild's every event
# but the first of each aggregate finds its id here). Bounded, not evicted: cleared.
_ID_TEXT: dict[object, str] = {}
_ID_TEXT_LIMIT = 100_000


def id_text(originator_id: object) -> str:
    found = _ID_TEXT.get(originator_id)
    if found is None:
        if len(_ID_TEXT) >= _ID_TEXT_LIMIT:
            _ID_TEXT.clear()
        found = _ID_TEXT[originator_id] = str(originator_id)
    return found


def facts(event: Event) -> Facts:
    global _last
    last = _last
    if last is not None and last[0] is event:
        return last[1]
    found = Facts(
        type(event).__qualname__,
        id_text(event.originator_id),
        tracks_per_character(getattr(event, "tracks", None)),
        per_character(getattr(event, "state", None)),
        getattr(event, FIELD, None),
        {},
    )
    _last = (event, found)
    return found


def per_character(value: object) -> dict[str, JSONObject]:
    """The contract every event that changes characters follows: ``tracks`` and ``state``
    map a character id to that character's full new values. Anything else under those
    names (an enrolment's own tracks, say) is not a per-character mapping and is ignored."""
    if type(value) is not dict:  # decoded events hold plain dicts
        return {}
    return {k: v for k, v in value.items() if type(v) is dict}


def tracks_per_character(value: object) -> dict[str, Tracks]:
    """``per_character`` for ``tracks``: each character's {track: current value}."""
    if type(value) is not dict:
        return {}
    return {k: v for k, v in value.items() if type(v) is dict}


def reading(known: Facts, character_id: str) -> Recorded | None:
    """``recorded_for(known.readings, character_id)``, read once per event and character
    (the views only read what it returns: its lists and dicts go into the views as they
    are, never changed in place)."""
    kept = known.kept
    if character_id in kept:
        return kept[character_id]
    found = kept[character_id] = recorded_for(known.readings, character_id)
    return found


def conditions(
    known: Facts,
    character_id: str,
    ruleset: str,
    sheet: Sheet,
    tracks: Tracks,
    state: State,
    options: JSONObject | None = None,
) -> list[str]:
    """The character's conditions after the event: as the event recorded them (issue 38,
    domain/reading/recorded.py), no rules code run. An event stored before they were
    recorded reads them from the ruleset installed, under the campaign's options (margin's
    wounded threshold, M18; views stored before the options were kept read the defaults);
    none when its ruleset is not installed (domain/reading/installed.py)."""
    found = reading(known, character_id)
    if found is not None:
        return found.conditions
    return installed.conditions(ruleset, sheet, tracks, state, options)


def maxima(
    known: Facts,
    character_id: str,
    ruleset: str,
    sheet: Sheet,
    options: JSONObject | None = None,
) -> dict[str, int]:
    """The character's tracks' maxima: as the event recorded them; for an event stored
    before they were, from the ruleset installed (none known when it is missing)."""
    found = reading(known, character_id)
    if found is not None:
        return found.maxima
    return installed.maxima(ruleset, sheet, options)


def seen_as(
    known: Facts,
    character_id: str,
    ruleset: str,
    tracks: Tracks,
    limits: Mapping[str, int],
    options: JSONObject | None = None,
) -> str:
    """The word a player or a viewer reads for the character's tracks (RULINGS T3): as
    the event recorded it; for an event stored before, the ruleset installed's (the
    engine's hurt or unhurt when it is missing)."""
    found = reading(known, character_id)
    if found is not None:
        return found.descriptor
    return descriptor(installed.rules(ruleset, options), tracks, limits)


class Bar(TypedDict):
    current: int
    max: int | None


def with_maxima(tracks: Mapping[str, int], maxima: Mapping[str, int]) -> dict[str, Bar]:
    """{"stamina": {"current": 7, "max": 12}, ...}: what a bar needs."""
    return {name: {"current": value, "max": maxima.get(name)} for name, value in tracks.items()}
