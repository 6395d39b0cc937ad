"""The audit and history pages, written from the stored JSON (application/audit_entries.py),
answer every role with the very bytes the answer's model wrote before (issue 28): the
GM's as ``AuditPage`` serialises the page of the domain events, a player's and a viewer's
as the redaction middleware rewrites that; filtered or not, read cold or from the bytes
a process keeps, and with the bytes it keeps cut to a small budget."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import orjson
import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from skald_campaign.api.schemas import AuditPage
from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.audit_pages import AuditPages
from skald_campaign.application.commands import AdvanceDays, EndEncounter, VoidAction
from tests.helpers import new_campaign, ok, start
from tests.integration.test_audit_pages import hit

SHEET = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 40, "body_max": 30}
OGRE = {**SHEET, "weapons": [{"name": "maul", "damage_class": 2, "damage_type": "impact",
                              "skill": 17}]}  # fmt: skip
# FastAPI's serialiser of a route's AuditPage answer (fastapi/routing.py, dump_json).
PAGE_JSON: TypeAdapter[AuditPage] = TypeAdapter(AuditPage)


class Table:
    """A campaign whose trails hold what a page can show: a hidden NPC roll, hits, a
    void, a day and its heals, the encounter's end, names beyond ASCII."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.app: SkaldApplication = client.app.state.backend.application  # type: ignore[attr-defined]
        self.cid = new_campaign(client, "stamina-body", name="Þórr's «ford» ☂")
        self.bran = self.enrol({"name": "Bran ☂", "sheet": SHEET, "player": "Ana"})
        self.mira = self.enrol({"name": "Mira", "sheet": SHEET})
        self.ogre = self.enrol({"name": "Ogre", "sheet": OGRE, "npc": True})
        sides = [{"character_id": self.bran, "side": "party"},
                 {"character_id": self.mira, "side": "party"},
                 {"character_id": self.ogre, "side": "foes"}]  # fmt: skip
        self.eid = start(client, self.cid, sides)
        self.fight = f"/campaigns/{self.cid}/encounters/{self.eid}"
        self.gm = {"authorization": str(client.headers["authorization"])}
        self.player = self.key({"role": "player", "characters": [self.bran]})
        self.viewer = self.key({"role": "viewer"})
        maul = {"kind": "attack", "actor": self.ogre, "hidden": True,
                "dice": {"hit": [1, 2, 3], "damage": [6, 5]},
                "params": {"target": self.bran, "weapon": "maul", "defense": "none"}}  # fmt: skip
        ok(client.post(f"{self.fight}/actions", json=maul), 201)
        cid, eid = UUID(self.cid), UUID(self.eid)
        for target in (self.mira, self.bran, self.mira):
            hit(self.app, cid, eid, target)
        self.app.void_action(VoidAction(cid, eid, 2, "wrong target ☂"))
        self.app.end_encounter(EndEncounter(cid, eid))
        self.app.advance_days(AdvanceDays(cid, 1))

    def enrol(self, body: dict[str, Any]) -> str:
        return str(ok(self.client.post(f"/campaigns/{self.cid}/characters", json=body), 201)["id"])

    def key(self, body: dict[str, Any]) -> dict[str, str]:
        key = ok(self.client.post(f"/campaigns/{self.cid}/keys", json=body), 201)["key"]
        return {"authorization": f"Bearer {key}"}

    def model_page(self, trail: str, query: dict[str, Any], role: str) -> bytes:
        """The page as the route wrote it before: the domain events' records through
        AuditPage, then the role's redaction as the middleware applies it."""
        cid = UUID(self.cid)
        kind, character = query.get("kind"), query.get("character")
        offset, limit = query.get("offset", 0), query.get("limit", 100)
        queries = self.app.queries
        page = (
            queries.encounter_audit(cid, UUID(self.eid), kind, character, offset, limit)
            if trail == "audit"
            else queries.campaign_history(cid, kind, character, offset, limit)
        )
        written = PAGE_JSON.dump_json(AuditPage(**page), by_alias=True)
        policy = self.app.redaction(cid, role)  # type: ignore[arg-type]
        return written if policy is None else orjson.dumps(policy.document(orjson.loads(written)))

    def queries(self) -> Iterator[tuple[str, dict[str, Any]]]:
        for trail in ("audit", "history"):
            for kind in (None, "take_hit", "attack", "void", "ActionVoided", "CharacterHealed"):
                for character in (None, self.bran, self.ogre, self.mira[:5], "nobody"):
                    for offset, limit in ((0, 100), (0, 1), (2, 3), (7, 50), (99, 5)):
                        query: dict[str, Any] = {"offset": offset, "limit": limit}
                        if kind is not None:
                            query["kind"] = kind
                        if character is not None:
                            query["character"] = character
                        yield trail, query

    def path(self, trail: str) -> str:
        return f"{self.fight}/audit" if trail == "audit" else f"/campaigns/{self.cid}/history"


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table(client)


def check_every_page(table: Table) -> int:
    """Every page for every role against the model's bytes; the pages that had entries."""
    shown = 0
    for role, key in (("gm", table.gm), ("player", table.player), ("viewer", table.viewer)):
        for trail, query in table.queries():
            answer = table.client.get(table.path(trail), params=query, headers=key)
            assert answer.status_code == 200, answer.text
            assert answer.headers["content-type"] == "application/json"
            expected = table.model_page(trail, query, role)
            assert answer.content == expected, (role, trail, query)
            assert int(answer.headers["content-length"]) == len(expected)
            shown += bool(orjson.loads(answer.content)["entries"])
    return shown


def test_every_page_sends_the_models_bytes_to_every_role(table: Table) -> None:
    shown = check_every_page(table)  # cold: every entry read from its stored row
    assert shown > 100
    assert check_every_page(table) == shown  # kept: the entries' bytes of the first reads
    gm_audit = ok(table.client.get(f"{table.fight}/audit", headers=table.gm))["entries"]
    hidden = next(e for e in gm_audit if e["event"] == "ActionResolved")
    assert hidden["hidden"] is True and hidden["breakdown"]["hit"]["target"] == 17
    assert gm_audit[0]["campaign_id"] == table.cid  # the one field stored as a UUID


def test_a_small_budget_keeps_few_entries_and_changes_no_answer(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = AuditPages(table.app.events, rendered_kept=3000)
    monkeypatch.setattr(table.app.queries, "pages", small)
    check_every_page(table)
    indexes = list(small._indexes.values())
    assert len(indexes) == 2  # the encounter and the campaign
    kept = sum(index.rendered_size for index in indexes)
    assert 0 < kept <= 3000 and kept == small._rendered_size
    assert all(index.rendered_size == sum(map(len, index.rendered.values())) for index in indexes)


def test_unknown_aggregates_answer_404_as_before(table: Table) -> None:
    other = UUID(int=7)
    missing = table.client.get(f"/campaigns/{table.cid}/encounters/{other}/audit")
    assert missing.status_code == 404
    assert missing.json() == {"error": "not_found", "message": f"no encounter with id {other}"}
    # The campaign's own first event is no encounter's.
    wrong = table.client.get(f"/campaigns/{table.cid}/encounters/{table.cid}/audit")
    assert wrong.json() == {"error": "not_found", "message": f"no encounter with id {table.cid}"}
    elsewhere = table.client.get(f"/campaigns/{other}/history")
    assert elsewhere.status_code in (401, 403, 404)  # the key's check answers first
