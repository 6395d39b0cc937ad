"""What each role sees (RULINGS T3, issue 24): every GET route of the OpenAPI and the live
feed, read with the GM's, a player's and a viewer's key, on a campaign with PCs and NPCs
in an ended and an open fight, at every version of both fights (before and after a
correction) and of the campaign.

With ``show_npc_numbers`` off no number an NPC's tracks ever held, no hidden die and no
NPC sheet reaches a player or a viewer, in any body or event; with it on the tracks do;
the GM always sees all. The routes are read from the OpenAPI: a GET route added later is
walked too, and one whose path this test cannot fill makes it fail (add it below).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import httpx
import pytest

from tests.e2e.server import Server
from tests.e2e.test_feed import read_events
from tests.integration.test_hidden_rolls_api import hidden_parts
from tests.patience import HANG_SECONDS

PC = {"st": 13, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10}
# NPCs' maxima no other number in these reads comes near (versions, ids, dice, counts).
OGRE = {**PC, "stamina_max": 187, "body_max": 173}
GOBLIN = {**PC, "stamina_max": 163, "body_max": 151}
NO_WEBHOOK = "00000000-0000-4000-8000-000000000000"
NOT_CAMPAIGN_READS = {"/health", "/rulesets", "/rulesets/{ruleset_id}", "/schema/events", "/server"}
# Strings whose digits say where, not what: ids, instants, key ids.
PLACES = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|\d{4}-\d\d-\d\dT[\d:.]+(?:\+00:00|Z)?|\b[0-9a-f]{16}\b"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("matrix") / "data").start()
    try:
        yield running
    finally:
        running.stop()


class Table:
    """One campaign: Bran (a PC with a player's key), Mira (a PC), the Ogre and the Goblin
    (NPCs); a fight at the ford, ended, and one on the bridge, open, with a correction."""

    def __init__(self, server: Server, show: bool) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        body = {"name": "Matrix", "ruleset": "stamina-body", "options": {"show_npc_numbers": show}}
        created = self.ok(self.http.post("/campaigns", json=body), 201)
        self.cid = created["id"]
        self.gm = {"authorization": f"Bearer {created['gm_key']}"}
        self.bran = self.enrol("Bran", PC, player="Ana")
        self.mira = self.enrol("Mira", PC)
        self.ogre = self.enrol("Ogre", OGRE, npc=True)
        self.goblin = self.enrol("Goblin", GOBLIN, npc=True)
        self.player = self.key({"role": "player", "characters": [self.bran], "label": "Ana"})
        self.viewer = self.key({"role": "viewer", "label": "tv"})
        self.ford = self.fight("Ford", [self.bran, self.ogre])
        self.act(self.ford, self.bran, self.ogre, {"hit": [1, 1, 1], "damage": [6, 6, 6]})
        self.act(self.ford, self.ogre, self.bran, {"hit": [2, 2, 2], "damage": [2, 2, 2]})
        self.ok(self.http.post(f"{self.path(self.ford)}/end", headers=self.gm))
        self.bridge = self.fight("Bridge", [self.mira, self.bran, self.goblin, self.ogre])
        self.act(self.bridge, self.bran, self.goblin, {"hit": [1, 1, 2], "damage": [5, 6, 1]})
        self.act(self.bridge, self.mira, self.ogre, {"hit": [1, 2, 2], "damage": [4, 4, 1]})
        self.ok(
            self.http.post(
                f"{self.path(self.bridge)}/actions/1/void", json={"reason": "misread"},
                headers=self.gm,
            )
        )  # fmt: skip
        self.act(self.bridge, self.goblin, self.mira, {"hit": [3, 3, 3], "damage": [1, 1, 1]})
        # The GM's hidden roll: the Ogre's blow on Mira (action 4).
        self.act(self.bridge, self.ogre, self.mira, {"hit": [1, 2, 2], "damage": [3, 3, 3]}, True)
        # Left waiting: the Goblin's answer to Bran's blow (the player's key attacks).
        waiting = {"kind": "attack", "actor": self.bran, "params": {"target": self.goblin},
                   "dice": {"hit": [1, 1, 1]}}  # fmt: skip
        self.ok(self.http.post(f"{self.path(self.bridge)}/actions", json=waiting,
                               headers=self.bearer(self.player)), 202)  # fmt: skip

    @staticmethod
    def ok(response: httpx.Response, status: int = 200) -> Any:
        assert response.status_code == status, response.text
        return response.json()

    @staticmethod
    def bearer(key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {key}"}

    def path(self, encounter: str) -> str:
        return f"/campaigns/{self.cid}/encounters/{encounter}"

    def enrol(self, name: str, sheet: dict[str, Any], **part: Any) -> str:
        body = {"name": name, "sheet": sheet, **part}
        answer = self.http.post(f"/campaigns/{self.cid}/characters", json=body, headers=self.gm)
        return str(self.ok(answer, 201)["id"])

    def key(self, body: dict[str, Any]) -> str:
        answer = self.http.post(f"/campaigns/{self.cid}/keys", json=body, headers=self.gm)
        return str(self.ok(answer, 201)["key"])

    def fight(self, name: str, who: list[str]) -> str:
        sides = {self.bran: "party", self.mira: "party"}
        combatants = [{"character_id": c, "side": sides.get(c, "foes")} for c in who]
        body = {"name": name, "combatants": combatants}
        answer = self.http.post(f"/campaigns/{self.cid}/encounters", json=body, headers=self.gm)
        return str(self.ok(answer, 201)["id"])

    def act(
        self,
        encounter: str,
        actor: str,
        target: str,
        dice: dict[str, list[int]],
        hidden: bool = False,
    ) -> None:
        params = {"target": target, "defense": "none"}
        body = {"kind": "attack", "actor": actor, "params": params, "dice": dice}
        if hidden:
            body["hidden"] = True
        self.ok(self.http.post(f"{self.path(encounter)}/actions", json=body, headers=self.gm), 201)

    @property
    def npcs(self) -> set[str]:
        return {self.ogre, self.goblin}

    def reads(self, paths: list[str]) -> dict[str, list[str]]:
        """Every GET of the OpenAPI about a campaign, filled in every way this table has,
        by its path's template."""
        by_template: dict[str, list[str]] = {}
        campaign = self.ok(self.http.get(f"/campaigns/{self.cid}", headers=self.gm))
        bridge = self.ok(self.http.get(self.path(self.bridge), headers=self.gm))
        ford = self.ok(self.http.get(self.path(self.ford), headers=self.gm))
        characters = [self.bran, self.mira, self.ogre, self.goblin]
        for template in paths:
            if template in NOT_CAMPAIGN_READS:
                continue
            filled = [template.replace("{campaign_id}", self.cid)]
            if "{encounter_id}" in template:
                filled = [f.replace("{encounter_id}", e) for f in filled
                          for e in (self.ford, self.bridge)]  # fmt: skip
            if "{webhook_id}" in template:  # none registered here: its refusal is read
                filled = [f.replace("{webhook_id}", NO_WEBHOOK) for f in filled]
            if "{number}" in template:  # the bridge's exchange, pending
                filled = [f.replace("{number}", "1") for f in filled]
            if "{character_id}" in template:
                filled = [f.replace("{character_id}", c) for f in filled for c in characters]
            assert all("{" not in f for f in filled), f"fill in {template} in this test"
            reads = by_template.setdefault(template, [])
            for path in filled:
                if template.endswith("/odds"):
                    reads += [f"{path}?against={c}" for c in characters]
                elif template.endswith("/diff"):
                    reads += [f"{path}?from=1", f"{path}?from=2&to=4"]
                elif template.endswith("/vitals/at"):
                    reads.append(f"{path}?at=2099-01-01T00:00:00Z")
                elif template == "/campaigns/{campaign_id}":
                    reads += [path] + [
                        f"{path}?version={v}" for v in range(1, campaign["version"] + 1)
                    ]
                elif template.endswith("/{encounter_id}"):
                    top = bridge["version"] if self.bridge in path else ford["version"]
                    reads += [path] + [f"{path}?version={v}" for v in range(1, top + 1)]
                elif template.endswith("/{character_id}"):
                    reads += [path, f"{path}?version=6", f"{path}?version={campaign['version']}"]
                elif template.endswith("/events"):  # the log: a page of 7, and all of it
                    reads += [f"{path}?limit=7", f"{path}?after=0&limit=500"]
                elif template.endswith("/feed"):
                    continue  # read as a stream below
                else:
                    reads.append(path)
        return by_template


def numbers(value: Any) -> set[int]:
    """Every whole number a body states: its integers and the digits in its strings (ids,
    instants and key ids aside)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str):
        return {int(n) for n in re.findall(r"\d+", PLACES.sub(" ", value))}
    if isinstance(value, Mapping):
        return {n for v in value.values() for n in numbers(v)}
    if isinstance(value, list):
        return {n for v in value for n in numbers(v)}
    return set()


def npc_objects(value: Any, npcs: set[str]) -> Iterator[Mapping[str, Any]]:
    """Every object that is an NPC: by its id, or as the value under its id."""
    if isinstance(value, Mapping):
        who = value.get("id", value.get("character_id"))
        if isinstance(who, str) and who in npcs:
            yield value
        for key, item in value.items():
            if key in npcs and isinstance(item, Mapping):
                yield item
            yield from npc_objects(item, npcs)
    elif isinstance(value, list):
        for item in value:
            yield from npc_objects(item, npcs)


def npc_track_values(bodies: list[Any], npcs: set[str]) -> set[int]:
    """What the NPCs' tracks held, as the GM's reads say."""
    found: set[int] = set()
    for body in bodies:
        for npc in npc_objects(body, npcs):
            tracks = npc.get("tracks")
            if isinstance(tracks, Mapping):
                found |= numbers(tracks)
    return found


def read_all(
    table: Table, reads: list[str], key: dict[str, str], answered: set[str] | None = None
) -> dict[str, Any]:
    """Every read's body (a refusal's too) and the feed's entries; ``answered`` gets the
    paths that answered 200."""
    bodies: dict[str, Any] = {}
    for path in reads:
        answer = table.http.get(path, headers=key)
        assert answer.status_code < 500, f"{path}: {answer.text}"
        bodies[path] = answer.json()
        if answer.status_code == 200 and answered is not None:
            answered.add(path)
    total = table.ok(table.http.get(f"/campaigns/{table.cid}/audit", headers=table.gm))["total"]
    feed = read_events(table.http, f"/campaigns/{table.cid}/feed?after=0", total, key)
    bodies["feed"] = [json.loads(event["data"]) for event in feed]
    return bodies


@pytest.mark.parametrize("show", [False, True], ids=["numbers hidden", "numbers shown"])
def test_every_read_of_every_role(server: Server, show: bool) -> None:
    table = Table(server, show)
    paths = table.ok(table.http.get("/openapi.json"))["paths"]
    gets = [p for p, operations in paths.items() if "get" in operations]
    by_template = table.reads(gets)
    assert set(by_template) == set(gets) - NOT_CAMPAIGN_READS
    reads = [path for paths_of in by_template.values() for path in paths_of]
    answered: set[str] = set()
    gm = read_all(table, reads, table.gm, answered)
    for template, filled in by_template.items():  # each read answered the GM at least once
        assert answered & set(filled) or "{webhook_id}" in template or not filled, template
    secrets = npc_track_values(list(gm.values()), table.npcs)
    assert {187, 173, 163, 151} <= secrets  # the maxima, and what damage left
    assert len(secrets) > 6
    assert secrets & numbers(gm[f"/campaigns/{table.cid}/vitals"])
    assert secrets & numbers(gm["feed"])
    gm_hidden = [p for body in gm.values() for p in hidden_parts(body)]
    assert any(p.get("rolls") for p in gm_hidden)  # the GM's reads keep the hidden dice
    log = f"/campaigns/{table.cid}/events?after=0&limit=500"
    assert secrets & numbers(gm[log])
    for role, key in (("player", table.player), ("viewer", table.viewer)):
        served: set[str] = set()
        seen = read_all(table, reads, table.bearer(key), served)
        assert set(seen) == set(gm)
        # The event log answers every key, redacted like the reads and the feed.
        assert set(by_template["/campaigns/{campaign_id}/events"]) <= served, role
        assert len(seen[log]["events"]) == len(gm[log]["events"]) > 7, role
        hidden = [(path, p) for path, body in seen.items() for p in hidden_parts(body)]
        assert len(hidden) >= 8  # the record, its audit entries and feed event, each read
        for path, part in hidden:  # whatever show_npc_numbers says
            assert part.get("rolls", []) == [] and part.get("breakdown", {}) == {}, path
        # Its outcome, one sentence built from parts, in every read that tells it: the
        # record, both audits, the log and the feed (RULINGS T3a; issue 36).
        told = {str(p["summary"]) for _, p in hidden if "summary" in p}
        outcome = "Ogre attacks Mira unarmed and hits: Mira is at 3 Stamina and 10 Body"
        assert told == {outcome}, role
        if show:
            assert secrets & numbers(seen[f"/campaigns/{table.cid}/vitals"]), role
            assert secrets & numbers(seen["feed"]), role
            assert secrets & numbers(seen[log]), role
            continue
        for path, body in seen.items():
            leaked = secrets & numbers(body)
            assert not leaked, f"{role} reads {sorted(leaked)} in {path}: {body}"
            for npc in npc_objects(body, table.npcs):
                assert npc.get("sheet", {}) == {}, f"{role} reads an NPC's sheet in {path}"
                assert npc.get("tracks", {}) == {}, f"{role} reads an NPC's tracks in {path}"
        vitals = seen[f"/campaigns/{table.cid}/vitals"]["characters"]
        words = {c["name"]: c.get("descriptor") for c in vitals}
        assert words == {"Bran": None, "Mira": None, "Ogre": "hurt", "Goblin": "unhurt"}  # voided


def test_the_walk_reaches_every_campaign_read(server: Server) -> None:
    """A GET route this walk cannot fill fails the matrix above; one outside a campaign
    (no key, nothing to redact) must be one of these."""
    paths = httpx.get(f"{server.url}/openapi.json", timeout=HANG_SECONDS).json()["paths"]
    outside = {p for p, ops in paths.items() if "get" in ops and not p.startswith("/campaigns/")}
    assert outside == NOT_CAMPAIGN_READS
