"""Version ETags and If-Match: a write that names the version it was decided on.

GET /campaigns/{id} and GET /campaigns/{id}/encounters/{id} answer an ETag naming the
aggregate's version: ``"v7"`` for the GM's key, whose answer is the aggregate as it is;
``"v7-player"`` / ``"v7-viewer"`` for the other roles, whose answer is redacted for the
role (RULINGS T3); an encounter read by a player or viewer also names the campaign's
version its redaction followed (``"v7-player-c12"``), since the campaign says who is
hidden. So two answers with the same tag are the same bytes, and a cache keeps them
apart. These are not the views' ETags (api/etags.py: a digest of the bytes of the
vitals, the board and the audit, for If-None-Match and 304): a view's tag names no
version and is never a write's precondition.

A write that takes If-Match (each such route says 412 in the OpenAPI) is decided on the
version its tag names, whatever the role part; the writer refuses it with 412, writing
nothing, unless its subject (docs/access.md has the table) is at that version when
the command has read it, before it decides anything (so a stale write the command would
refuse anyway is 412 too; the key, its permission, the subject's existence and the body's
schema are answered first); ``"7"``, the version as an answer's ``version`` field says it, is
taken as ``"v7"``. ``If-Match: *``, or no header, writes as before. A list of tags
accepts any version it names; a weak tag (``W/...``) never matches (RFC 9110 13.1.1).
"""

from __future__ import annotations

import re

from skald_campaign.domain.writing.preconditions import Expected

# "v7", "v7-player", "v7-player-c12"; or "7", the version as an answer's `version` says it.
VERSION_TAG = re.compile(r'^"v?([1-9][0-9]{0,17})(?:-[a-z]+(?:-c[0-9]{1,18})?)?"$')
MAX_IF_MATCH = 2000


def version_etag(version: int, role: str, campaign_version: int | None = None) -> str:
    """The ETag of an aggregate's answer at this version, for a key of this role."""
    if role == "gm":
        return f'"v{version}"'
    if campaign_version is None:
        return f'"v{version}-{role}"'
    return f'"v{version}-{role}-c{campaign_version}"'


def expected_of(if_match: str | None) -> Expected | None:
    """What an If-Match header asks of the write: None when absent or ``*`` (write as
    before), else the versions its tags name (none, when no tag names one)."""
    if if_match is None:
        return None
    asked = if_match.strip()
    if asked == "*":
        return None
    versions = set()
    for tag in asked[:MAX_IF_MATCH].split(","):
        found = VERSION_TAG.match(tag.strip())
        if found is not None:
            versions.add(int(found.group(1)))
    return Expected(frozenset(versions), asked[:80])
