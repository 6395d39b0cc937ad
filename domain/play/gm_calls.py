"""The GM's calls: action parameters only the GM key may name.

A parameter is marked where it is declared, in the action's schema
(``Field(..., json_schema_extra=GM_CALL)``), so the ruleset's published JSON
schema shows the mark too; :func:`refuse_gm_calls` is the one place that checks it.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, JsonValue

from skald_campaign.domain.access import Forbidden

GM_CALL: dict[str, JsonValue] = {"x-gm-call": True}


def gm_parameters(model: type[BaseModel]) -> tuple[str, ...]:
    """The parameters of an action's schema marked as the GM's call, in declaration order."""
    marked = []
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra
        if isinstance(extra, Mapping) and extra.get("x-gm-call") is True:
            marked.append(name)
    return tuple(marked)


def refuse_gm_calls(
    model: type[BaseModel], kind: str, params: Mapping[str, object], role: str
) -> None:
    """Refuse (403) a non-GM request that names any GM-only parameter, whatever its value."""
    if role == "gm":
        return
    named = [name for name in gm_parameters(model) if name in params]
    if named:
        listed = ", ".join(f"'{name}'" for name in named)
        raise Forbidden(
            f"{listed} in '{kind}' {'is' if len(named) == 1 else 'are'} the GM's call: "
            f"only the GM key may set {'it' if len(named) == 1 else 'them'}; this is a {role} key"
        )
