"""The event log's kept bytes: each logged event's JSON as the log route answers the GM,
written once, when the event is projected (issue 39).

GET /campaigns/{id}/events (api/routes/log.py) used to read each page's events from the
store, decode each through the mapper and validate each into a pydantic model, per
request: the slowest read by an order of magnitude. This projection writes, per event the
audit log takes in, the bytes of that event's place in the page (`LoggedEventOut`, the
fields in its order), into a sorted set per campaign scored by the event's position (its
notification id). A page is then one ZRANGE BYSCORE and a concatenation.

Why a sorted set of the bytes themselves: the page asks "the next ``limit`` events after
position p", which a sorted set answers in O(log n + page) in one command, with no second
lookup from position to bytes (a list would need its index found first; a hash beside
the positions index, a second read or a script). The cost is Redis's per-member overhead
(a skiplist node and a dict entry, ~70 bytes) on top of the JSON itself (bench/README.md
gives the bytes per event of a fight).

What a player's or a viewer's key reads (RULINGS T3, T3a) depends on the campaign as it
stands when it reads (its NPCs, their sheets, its options), not as it stood when the
event was projected: an amended NPC sheet changes the descriptor every earlier event
shows. So the redacted bytes are not written here but made from these, once per
campaign version and role, and kept by the API process that serves the page
(api/fast_log.py `RedactedEvents`); the route leaves them to api/redacting.py.
"""

from __future__ import annotations

import msgspec
import orjson
from eventsourcing.persistence import Tracking

from skald_campaign.domain.event_catalog import author, is_public_field, type_name, type_version
from skald_campaign.projections import versions
from skald_campaign.projections.audit import SUMMARIES
from skald_campaign.projections.base import ViewProjection, as_event, facts, id_text
from skald_campaign.projections.decoding import is_plain_json, time_text
from skald_campaign.projections.keys import ViewKeys
from skald_campaign.projections.view_reads import AnyPipeline, Lag, Reads, redis_list


def logged_json(position: int, event: object) -> bytes:
    """The event as one entry of the log route's ``events``: `LoggedEventOut`'s fields in
    its order, as FastAPI wrote the model (tests/integration/test_event_log_bytes.py).

    The bytes of ``orjson.dumps(msgspec.to_builtins(logged(position, event)))``
    (domain/event_catalog.py), made with less work, for every event a rebuild projects
    (this view was a quarter of a rebuild, cProfile, bench/README.md "rebuild40 lane"):
    the payload converted once, not again inside a `LoggedEvent` (its other fields are
    already text, numbers or None), and not at all when the event was decoded inline from
    plain JSON (``is_plain_json``: its values are what ``to_builtins`` would give); the
    public fields of an event found by its fields' names, once per shape; the time and the
    aggregate's id as the other views have them (the stored text, the id's text kept).
    tests/integration/test_rebuild40_fast_paths.py compares the two for every event of
    the compat stores and of a played fight."""
    event = as_event(event)
    attrs = vars(event)
    names = tuple(attrs)
    public = _PUBLIC.get(names)
    if public is None:
        public = _PUBLIC[names] = tuple(k for k in names if is_public_field(k))
    payload = {k: attrs[k] for k in public}
    if not is_plain_json(event):  # else its values are plain JSON already: nothing to convert
        payload = msgspec.to_builtins(payload, str_keys=True)
        if type(payload) is not dict:
            raise TypeError(f"an event's payload is a JSON object, not {payload!r}")
    kind = type(event)
    return orjson.dumps(
        {
            "position": position,
            "type": type_name(kind),
            "type_version": type_version(kind),
            "aggregate_id": id_text(event.originator_id),
            "aggregate_version": event.originator_version,
            "time": time_text(event.timestamp),
            "by": author(payload),
            "payload": payload,
        }
    )


# The public fields of an event, by its fields' names in order (a few dozen shapes).
_PUBLIC: dict[tuple[str, ...], tuple[str, ...]] = {}


class LogProjection(ViewProjection):
    name = "log"

    def process_event(self, domain_event: object, tracking: Tracking) -> None:
        # The events the audit log takes in, and so its positions index: the same log.
        if SUMMARIES(type(domain_event)) is None:
            return
        event = as_event(domain_event)
        known = facts(event)
        keys = self.view.keys
        campaign_id = self.campaign_of(event, known, keys.log_encounter(known.aggregate_id))
        if campaign_id is None:
            return
        position = tracking.notification_id
        self.view.staged.rank(keys.log(campaign_id), position, logged_json(position, event))
        versions.bump(self.view.staged, keys.log_version(campaign_id))


def log_reads(campaign_id: str, after: int, limit: int) -> Reads:
    """The page's one read: the next ``limit`` events after position ``after``, each with
    its position (the score), in one command whatever the campaign's length."""

    def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
        pipe.zrange(
            k.log(campaign_id), f"({after}", "+inf", byscore=True,
            offset=0, num=limit, withscores=True, score_cast_func=int,
        )  # fmt: skip

    return reads


def log_version_reads(campaign_id: str) -> Reads:
    """The log's version (projections/versions.py) and its length: two short answers
    that say whether a page read before is still the page."""

    def reads(pipe: AnyPipeline, k: ViewKeys) -> None:
        pipe.get(k.log_version(campaign_id))
        pipe.zcard(k.log(campaign_id))

    return reads


def log_page(campaign_id: str, found: object, after: int, lag: Lag) -> bytes:
    """The page as `EventLogOut` writes it (its fields in order), from the kept bytes of
    its events (``found``: the read's answer, None when nothing was read)."""
    members = redis_list(found)
    events: list[bytes] = []
    last = after
    for member in members:
        raw, position = member if isinstance(member, (list, tuple)) else (None, None)
        if not isinstance(raw, bytes) or type(position) is not int:
            raise TypeError(f"Redis answered {member!r}, not an event's JSON and its position")
        events.append(raw)
        last = position
    return b"".join(
        (
            b'{"campaign_id":',
            orjson.dumps(campaign_id),
            b',"events":[',
            b",".join(events),
            b'],"next":',
            str(last).encode(),
            b',"projection":',
            orjson.dumps(lag),
            b"}",
        )
    )
