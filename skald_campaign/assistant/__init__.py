"""An assistant at the table (issue 40): Skald's tools for a language-model assistant,
over MCP (Model Context Protocol), with the official Python SDK.

Thin on purpose: every tool is one or two requests to Skald's HTTP API, with the key
the assistant was given, so what an assistant reads is what the pages read (redacted
for a player or a viewer by the server, RULINGS T3 and T3a) and what it writes is a
write like any other (docs/assistant.md).

- ``calls``: the HTTP calls, and the headers a write carries (expected version,
  idempotency, attribution).
- ``tools``: the MCP server for one role: the tools that role may use, the rules
  documents as resources, the recap prompt.
- ``stdio``: ``skald mcp``, the stdio server a desktop assistant starts.
- ``mount``: the same tools over Streamable HTTP at ``/campaigns/{id}/mcp`` on
  ``skald serve``.
"""
