"""The rules documents, served to an assistant as MCP resources.

Each ruleset publishes its own: a ``RULES.md`` beside the module that defines it, in
its own package, installed as package data (the built-ins' are in
``skald_campaign/domain/rulesets/<name>/RULES.md``; a third party's ships in its wheel
the same way). They are read from the installed packages, never from a source tree's
docs/ folder, so what the assistant reads is the rules of the code that runs.
"""

from __future__ import annotations

import importlib.resources
import sys
from collections.abc import Callable, Mapping

from mcp.server.mcpserver import MCPServer

from skald_campaign.domain.rulesets import RULESETS

DOCUMENT = "RULES.md"
URI = "skald://rules/{ruleset}"


def rules_document(ruleset: object) -> str | None:
    """The ruleset's rules document from its package, or None when it publishes none."""
    module_name = type(ruleset).__module__
    module = sys.modules.get(module_name)
    package = module_name if hasattr(module, "__path__") else module_name.rpartition(".")[0]
    if not package:
        return None
    try:
        found = importlib.resources.files(package) / DOCUMENT
        return found.read_text(encoding="utf-8") if found.is_file() else None
    except (ModuleNotFoundError, OSError):
        return None


def documents(rulesets: Mapping[str, object] = RULESETS) -> dict[str, str]:
    """Every installed ruleset's rules document, by ruleset id."""
    found = {rid: rules_document(ruleset) for rid, ruleset in rulesets.items()}
    return {rid: text for rid, text in sorted(found.items()) if text is not None}


def publish(server: MCPServer) -> None:
    """Each installed ruleset's rules document, as a resource of the server."""
    for ruleset_id, text in documents().items():
        server.resource(
            URI.format(ruleset=ruleset_id),
            name=f"rules-{ruleset_id}",
            title=f"The {ruleset_id} rules",
            description=f"How the {ruleset_id} ruleset resolves actions, as Skald runs it",
            mime_type="text/markdown",
        )(_constant(text))


def _constant(text: str) -> Callable[[], str]:
    def read() -> str:
        return text

    return read
