"""Through which client a write was made (issue 40): "via assistant".

Every event of a campaign or an encounter records who decided it (``by``: the key's
role and label, ``gm:GM``, ``player:Ana``) and, since issue 40, through which client, when
it was not the pages or a script of the GM's own (``via``: ``"assistant"`` for a write the
MCP bridge made on an assistant's behalf; None otherwise, and for every older event,
which its class's upcast reads so). It is attribution only, never a permission: what a
key may do is its role's.

Which client is writing is the request's context, like its idempotency claim: the api
sets it for the request (api/attribution.py), the writer's job carries a copy of the
context it was queued in, and the writer gives it to each event a command recorded
as the command saves (application/writes.py): a command decides what happens, never
through which client it was asked.
"""

from __future__ import annotations

from collections.abc import Mapping

ASSISTANT = "assistant"
CLIENTS = frozenset({ASSISTANT})  # the clients a write may be attributed to


def records_via(event_class: type) -> bool:
    """Does this event class record the client it was written through?"""
    fields: Mapping[str, object] = getattr(event_class, "__dataclass_fields__", {})
    return "via" in fields


def upcast_via(state: dict[str, object]) -> None:
    """An event recorded before issue 40 was written through no client of note."""
    state["via"] = None


def attributed(by: object, client: object) -> str | None:
    """How the audit names an attributed write's author: the key's label and the client
    ("Ana via assistant"); None for a write through no client of note."""
    if not isinstance(client, str):
        return None
    label = by.split(":", 1)[-1] if isinstance(by, str) else "someone"
    return f"{label} via {client}"


def author_of(fields: Mapping[str, object]) -> object:
    """Who decided an event, from its fields: its ``by``; a correction's author is inside
    its record (``correction.by``), a GM's change in a fight's inside its action record
    (``record.by``)."""
    if fields.get("by") is not None:
        return fields["by"]
    for inner in ("correction", "record"):
        nested = fields.get(inner)
        if isinstance(nested, Mapping) and nested.get("by") is not None:
            return nested["by"]
    return None
