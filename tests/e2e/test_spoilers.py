"""No NPC number reaches a player or a viewer, in any byte they receive (RULINGS T3a).

The same evening is played twice on two real `skald serve`s, in each ruleset: the same
requests, the same table dice, the same outcomes. Only what the NPCs keep from the table
differs between the two (their skills, defenses, bonuses, armour, maxima; so their
tracks, the damage they take, their initiative totals): numbers the players never see.
Each evening has initiative rolled with a sheet field added, blows both ways, an NPC's
defense, a reroll, a rewind, the fight's end and a reroll carried past it; then a
second fight left open, with the moves each ruleset tells from parts of their own
(margin: an NPC dwarf's Ward that takes a blow, an NPC elf's Riposte that answers one;
d20: an NPC's hold a PC fails to escape, a shove that breaks it, a Defensive Stance, a
trip and standing up; stamina-body: an NPC's recovery, a wound the GM marks, an attack
waiting for the NPC's answer), a marker with a duration, a move and a reroll.

Then every GET route of the OpenAPI (every version of every fight and of the campaign),
the event log, the live feed and the player's and the viewer's webhook deliveries are
read with a player's and a viewer's key, once the views hold every event written. Ids,
instants and keys aside, each reader's bytes must be the same in both evenings: a text
that states an NPC's number (its skill, its AC, a total that holds its bonus, the damage
it takes) would differ. The GM's reads do differ (the probe can see), and no text a
player reads has a '#' where the GM's had a digit, and the public numbers (names like
"Goblin 2", round numbers, the PCs' tracks, the open dice) are read as the GM reads them.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.server import Server
from tests.e2e.test_feed import read_events
from tests.patience import HANG_SECONDS
from tests.receiver import Receiver

ROLES = ("player", "viewer")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
INSTANT = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:\+00:00|Z)?")
ELAPSED = re.compile(r'"elapsed_ms":\s*[\d.]+')  # how long the odds took: the clock's
KEY_ID = re.compile(r"\b[0-9a-f]{16,}\b")  # key ids, signatures, digests
SECRET_KEY = re.compile(r"sk_[A-Za-z0-9_\-]+")
NOT_CAMPAIGN_READS = {"/health", "/rulesets", "/rulesets/{ruleset_id}", "/schema/events", "/server"}
NO_WEBHOOK = "00000000-0000-4000-8000-000000000000"

# -- the three evenings: sheets (the NPCs' in two versions), initiative, blows ----------

SB_PC = {"st": 12, "con": 12, "parry": 11, "dodge": 10, "stamina_max": 12, "body_max": 10,
         "weapons": [{"name": "sword", "damage_class": 2, "damage_type": "impact",
                      "skill": 12}]}  # fmt: skip


def sb_npc(skill: int, parry: int, dodge: int, stamina: int, body: int, armour: int) -> Any:
    club = {"name": "club", "damage_class": 2, "damage_type": "impact", "skill": skill}
    return {"st": 14, "con": 11, "parry": parry, "dodge": dodge, "stamina_max": stamina,
            "body_max": body, "armour_resilience": armour, "weapons": [club]}  # fmt: skip


SWORD = {"name": "sword", "attribute": "might", "skill": "melee", "category": "melee",
         "base_damage": 2, "per_margin": 1, "damage_type": "slash"}  # fmt: skip
M_PC = {"might": 2, "grace": 2, "vigor": 2, "aether": 1, "melee": 2, "health": 14,
        "weapons": [SWORD]}  # fmt: skip


def m_npc(health: int, armor: int, melee: int, might: int) -> Any:
    # Might + Melee (the attack pool's dice) stays 4, Grace and Vigor (the passive
    # defenses' dice) 2: the dice thrown are the table's. The axe's base damage stays 3:
    # what it deals a PC is the PC's number, which the table reads.
    axe = {**SWORD, "name": "axe", "base_damage": 3}
    return {"might": might, "grace": 2, "vigor": 2, "aether": 1, "melee": melee,
            "health": health, "armor": [{"name": "hide", "rating": armor}],
            "weapons": [axe]}  # fmt: skip


def m_dwarf(grace: int, evasion: int, vigor: int, guard: int, health: int, mail: int) -> Any:
    # His Ward's active pools (Grace + Evasion + effort, Vigor + Guard + effort) throw 4
    # and 6 dice in both evenings: the dice are the table's.
    return {"race": "dwarf", "might": 2, "grace": grace, "vigor": vigor, "aether": 1,
            "evasion": evasion, "guard": guard, "health": health,
            "armor": [{"name": "mail", "rating": mail}], "weapons": [SWORD]}  # fmt: skip


def m_elf(grace: int, evasion: int, health: int, leaf: int) -> Any:
    # Her Riposte's evasion (Grace + Evasion + 1) throws 6 dice in both evenings, her guard
    # (Vigor 1) one; her sword is the same, so what her counter deals a PC is the PC's.
    return {"race": "elf", "might": 2, "grace": grace, "vigor": 1, "aether": 1, "melee": 1,
            "evasion": evasion, "health": health, "armor": [{"name": "leaf", "rating": leaf}],
            "weapons": [SWORD]}  # fmt: skip


D_PC = {"strength": 12, "dexterity": 10, "constitution": 10, "wisdom": 10, "level": 1,
        "hp": 20, "save_vs_death_ray": 12,
        "weapons": [{"name": "Sword", "damage": "1d8"}]}  # fmt: skip


def d_npc(dexterity: int, hp: int, magic: int, armor: str) -> Any:
    return {"strength": 12, "dexterity": dexterity, "constitution": 10, "wisdom": 10,
            "level": 1, "hp": hp, "save_vs_death_ray": 12, "armor": armor,
            "hr_magic_bonus": magic,
            "weapons": [{"name": "Club", "damage": "1d6"}]}  # fmt: skip


@dataclass(frozen=True)
class Blow:
    """One action on its combatant's turn: who, on whom, with which table dice."""

    actor: str
    target: str
    dice: dict[str, list[int]]
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Evening:
    ruleset: str
    add: str  # the sheet field initiative adds
    pc: dict[str, Any]
    npcs: tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]  # two versions
    initiative: dict[str, list[int]]  # by name; the order: Ogre, Bran, Mira, Goblin 2
    blows: list[Blow]  # in that order, one round
    # An action's number (1 is the initiative, then a blow and a turn in turn) and its
    # new dice: Bran's blow rerolled in the fight, the Ogre's once it has ended.
    reroll: tuple[int, dict[str, list[int]]]
    carried: tuple[int, dict[str, list[int]]]


SB_BLOWS = [
    Blow("Ogre", "Bran", {"hit": [2, 2, 2], "damage": [2, 3]},
         {"weapon": "club", "defense": "none"}),
    Blow("Bran", "Ogre", {"hit": [1, 2, 2], "defense": [6, 6, 5], "damage": [4, 1]},
         {"weapon": "sword", "defense": "parry"}),
    Blow("Mira", "Goblin 2", {"hit": [1, 1, 2], "defense": [6, 6, 6], "damage": [3, 3]},
         {"weapon": "sword", "defense": "dodge"}),
    Blow("Goblin 2", "Mira", {"hit": [3, 3, 3], "damage": [5, 6]},
         {"weapon": "club", "defense": "none"}),
]  # fmt: skip
# Margin's defenses are rolled by name: "{Bran}" stands for Bran's id.
NOTHING = {"defense.{NAME}.evasion": [2, 3], "defense.{NAME}.guard": [2, 3]}


def passive(name: str) -> dict[str, list[int]]:
    """The defender's two passive defenses (Grace 2, Vigor 2: two dice each), no success."""
    return {roll.replace("NAME", name): faces for roll, faces in NOTHING.items()}


M_BLOWS = [
    Blow("Ogre", "Bran", {"attack": [6, 6, 5, 1], **passive("Bran")}, {"weapon": "axe"}),
    Blow("Bran", "Ogre", {"attack": [6, 6, 6, 5], **passive("Ogre")}, {"weapon": "sword"}),
    Blow("Mira", "Goblin 2", {"attack": [1, 1, 2, 3], **passive("Goblin 2")}, {"weapon": "sword"}),
    Blow("Goblin 2", "Mira", {"attack": [5, 5, 6, 1], **passive("Mira")}, {"weapon": "axe"}),
]
D_BLOWS = [
    Blow("Ogre", "Bran", {"hit": [19], "damage": [4]}, {"weapon": "Club"}),
    Blow("Bran", "Ogre", {"hit": [20], "damage": [6]}, {"weapon": "Sword"}),
    Blow("Mira", "Goblin 2", {"hit": [2]}, {"weapon": "Sword"}),
    Blow("Goblin 2", "Mira", {"hit": [18], "damage": [3]}, {"weapon": "Club"}),
]
EVENINGS = {
    "stamina-body": Evening(
        "stamina-body",
        "dodge",
        SB_PC,
        (
            {"Ogre": sb_npc(17, 9, 7, 23, 21, 1), "Goblin 2": sb_npc(16, 8, 6, 19, 13, 2)},
            {"Ogre": sb_npc(15, 13, 8, 29, 27, 3), "Goblin 2": sb_npc(14, 7, 5, 17, 15, 3)},
        ),
        {"Ogre": [18], "Bran": [9], "Mira": [5], "Goblin 2": [1]},
        SB_BLOWS,
        (4, {"hit": [1, 1, 2], "defense": [6, 6, 6], "damage": [6, 2]}),
        (2, {"hit": [2, 2, 3], "damage": [1, 1]}),
    ),
    "margin": Evening(
        "margin",
        "grace",
        M_PC,
        (
            {
                "Ogre": m_npc(27, 1, 2, 2),
                "Goblin 2": m_npc(19, 2, 1, 3),
                "Thrain": m_dwarf(1, 2, 3, 2, 16, 4),
                "Sylvan": m_elf(3, 2, 12, 1),
            },
            {
                "Ogre": m_npc(33, 3, 1, 3),
                "Goblin 2": m_npc(23, 1, 3, 1),
                "Thrain": m_dwarf(2, 1, 2, 3, 19, 2),
                "Sylvan": m_elf(2, 3, 15, 0),
            },
        ),
        {"Ogre": [19], "Bran": [12], "Mira": [8], "Goblin 2": [1]},
        M_BLOWS,
        (4, {"attack": [6, 6, 6, 6], **passive("Ogre")}),
        (2, {"attack": [6, 6, 1, 1], **passive("Bran")}),
    ),
    "d20": Evening(
        "d20",
        "dexterity",
        D_PC,
        (
            {"Ogre": d_npc(13, 31, 1, "chain_mail"), "Goblin 2": d_npc(9, 23, 0, "leather")},
            {"Ogre": d_npc(16, 37, 2, "plate_mail"), "Goblin 2": d_npc(13, 29, 1, "chain_mail")},
        ),
        {"Ogre": [19], "Bran": [12], "Mira": [8], "Goblin 2": [1]},
        D_BLOWS,
        (4, {"hit": [20], "damage": [8]}),
        (2, {"hit": [20], "damage": [2]}),
    ),
}


class Table:
    """One evening on one server: the campaign, its keys and webhooks, the fight."""

    def __init__(self, server: Server, evening: Evening, version: int,
                 hooks: dict[str, Receiver]) -> None:  # fmt: skip
        self.http = httpx.Client(base_url=server.url, timeout=HANG_SECONDS)
        self.evening = evening
        options = {"initiative": {"mode": "roll", "dice": "1d20", "add": evening.add}}
        body = {"name": "Spoilers", "ruleset": evening.ruleset, "options": options}
        created = self.ok(self.http.post("/campaigns", json=body), 201)
        self.cid = created["id"]
        self.gm = {"authorization": f"Bearer {created['gm_key']}"}
        self.ids: dict[str, str] = {}
        self.enrol("Bran", evening.pc, player="Ana")
        self.enrol("Mira", evening.pc)
        for name, sheet in evening.npcs[version].items():
            self.enrol(name, sheet, npc=True)
        self.keys = {
            "player": self.key({"role": "player", "characters": [self.ids["Bran"]]}),
            "viewer": self.key({"role": "viewer", "label": "tv"}),
        }
        for role, receiver in hooks.items():
            hook = {"url": receiver.url, "role": role}
            self.ok(self.http.post(f"{self.base}/webhooks", json=hook, headers=self.gm), 201)
        # The webhooks deliver the events the log holds after their registration.
        self.unhooked = {event["position"] for event in self.log()}
        self.fight = self.start("Ford", list(FORD))
        self.play()
        # A second fight left open (its odds read too), with each ruleset's own moves.
        self.open = self.start("Bridge", list(BRIDGES[evening.ruleset][0]))
        BRIDGES[evening.ruleset][1](self, f"/encounters/{self.open}")

    @staticmethod
    def ok(response: httpx.Response, status: int = 200) -> Any:
        assert response.status_code == status, response.text
        return response.json()

    @property
    def base(self) -> str:
        return f"/campaigns/{self.cid}"

    def post(self, path: str, body: Any, status: int = 200) -> Any:
        return self.ok(self.http.post(self.base + path, json=body, headers=self.gm), status)

    def enrol(self, name: str, sheet: dict[str, Any], **part: Any) -> None:
        self.ids[name] = self.post("/characters", {"name": name, "sheet": sheet, **part}, 201)["id"]

    def key(self, body: dict[str, Any]) -> str:
        return str(self.post("/keys", body, 201)["key"])

    def start(self, name: str, who: list[str]) -> str:
        sides = {"Bran": "party", "Mira": "party"}
        combatants = [{"character_id": self.ids[n], "side": sides.get(n, "foes")} for n in who]
        return str(self.post("/encounters", {"name": name, "combatants": combatants}, 201)["id"])

    def act(self, e: str, kind: str, actor: str | None, dice: dict[str, list[int]] | None = None,
            key: str = "gm", status: int = 201, **params: Any) -> int | None:  # fmt: skip
        """One action (parameters naming combatants by name); its number (None while it
        waits for the defender's answer)."""
        named = {k: self.ids.get(v, v) if isinstance(v, str) else v for k, v in params.items()}
        body = {"kind": kind, "actor": None if actor is None else self.ids[actor],
                "params": named, "dice": self.dice(dice or {})}  # fmt: skip
        headers = self.gm if key == "gm" else {"authorization": f"Bearer {self.keys[key]}"}
        answer = self.ok(self.http.post(self.base + e + "/actions", json=body, headers=headers),
                         status)  # fmt: skip
        return None if answer["action"] is None else int(answer["action"]["number"])

    def mark(self, e: str, target: str, name: str, **lasting: Any) -> None:
        watch = {"watch": self.ids[lasting.pop("watch")]} if "watch" in lasting else {}
        self.post(f"{e}/markers", {"target": self.ids[target], "name": name, **lasting, **watch},
                  201)  # fmt: skip

    def move(self, e: str, who: str, rank: int) -> None:
        self.post(f"{e}/combatants/{self.ids[who]}/move", {"rank": rank, "reason": "pressed"})

    def play(self) -> None:
        e = f"/encounters/{self.fight}"
        dice = {self.ids[name]: faces for name, faces in self.evening.initiative.items()}
        rolled = self.post(f"{e}/initiative", {"dice": dice})
        order = [c["id"] for c in rolled["turn"]["order"]]
        assert order == [self.ids[n] for n in ("Ogre", "Bran", "Mira", "Goblin 2")]
        before_last = 0
        for n, blow in enumerate(self.evening.blows):
            params = {"target": self.ids[blow.target], **blow.params}
            body = {"kind": "attack", "actor": self.ids[blow.actor], "params": params,
                    "dice": self.dice(blow.dice)}  # fmt: skip
            if n == len(self.evening.blows) - 1:
                before_last = self.ok(self.http.get(self.base + e, headers=self.gm))["version"]
            self.post(f"{e}/actions", body, 201)
            if n < len(self.evening.blows) - 1:
                self.post(f"{e}/turn", {})
        number, faces = self.evening.reroll
        self.post(f"{e}/actions/{number}/reroll", {"dice": self.dice(faces), "reason": "misread"})
        self.post(f"{e}/rewind", {"to_version": before_last, "reason": "the Goblin's blow"})
        self.post(f"{e}/end", {})
        number, faces = self.evening.carried
        self.post(f"{e}/actions/{number}/reroll", {"dice": self.dice(faces), "reason": "disputed"})

    def dice(self, named: dict[str, list[int]]) -> dict[str, list[int]]:
        """Rolls named with "{Bran}" for a combatant's id."""
        out = {}
        for roll, faces in named.items():
            for name, cid in self.ids.items():
                roll = roll.replace("{" + name + "}", cid)
            out[roll] = faces
        return out

    def log(self) -> list[Any]:
        """The campaign's event log, once the views hold every event written: the log
        is read from them, and a read made before they caught up misses the newest."""
        self.caught_up()
        path = f"{self.base}/events?after=0&limit=500"
        return list(self.ok(self.http.get(path, headers=self.gm))["events"])

    def caught_up(self) -> None:
        deadline = time.monotonic() + HANG_SECONDS
        path = f"{self.base}/events?after=0&limit=1"
        while (lag := self.ok(self.http.get(path, headers=self.gm))["projection"])["behind"]:
            assert time.monotonic() < deadline, f"the views did not catch up: {lag}"
            time.sleep(0.05)

    def reads(self) -> list[str]:
        """Every GET of the OpenAPI about a campaign, filled every way this table has."""
        paths = self.ok(self.http.get("/openapi.json"))["paths"]
        campaign = self.ok(self.http.get(self.base, headers=self.gm))
        tops = {
            e: self.ok(self.http.get(f"{self.base}/encounters/{e}", headers=self.gm))["version"]
            for e in (self.fight, self.open)
        }
        reads: list[str] = []
        for template, operations in paths.items():
            if "get" not in operations or template in NOT_CAMPAIGN_READS:
                continue
            filled = [template.replace("{campaign_id}", self.cid)
                      .replace("{encounter_id}", e)
                      .replace("{webhook_id}", NO_WEBHOOK)
                      .replace("{number}", "1") for e in tops]  # fmt: skip
            filled = list(dict.fromkeys(filled))
            if "{character_id}" in template:
                filled = [f.replace("{character_id}", c) for f in filled for c in self.ids.values()]
            assert all("{" not in f for f in filled), f"fill in {template} in this test"
            for path in filled:
                if template.endswith("/odds"):
                    reads += [f"{path}?against={c}" for c in self.ids.values()]
                elif template.endswith("/diff"):
                    reads += [f"{path}?from=1", f"{path}?from=2&to=5"]
                elif template.endswith("/vitals/at"):
                    reads.append(f"{path}?at=2099-01-01T00:00:00Z")
                elif template == "/campaigns/{campaign_id}":
                    reads += [path] + [f"{path}?version={v}"
                                       for v in range(1, campaign["version"] + 1)]  # fmt: skip
                elif template.endswith("/{encounter_id}"):
                    top = tops[path.rsplit("/", 1)[-1]]
                    reads += [path] + [f"{path}?version={v}" for v in range(1, top + 1)]
                elif template.endswith("/events"):
                    reads.append(f"{path}?after=0&limit=500")
                elif template.endswith("/feed"):
                    continue  # read as a stream below
                else:
                    reads.append(path)
        return reads

    def read_all(self, key: dict[str, str]) -> dict[str, str]:
        """Each read's raw body (refusals too), the live feed's events, by read."""
        bodies: dict[str, str] = {}
        for path in self.reads():
            answer = self.http.get(path, headers=key)
            assert answer.status_code < 500, f"{path}: {answer.text}"
            read = path.replace(self.cid, "{c}").replace(self.fight, "{e}")
            bodies[self.named(read.replace(self.open, "{e2}"))] = answer.text
        total = self.ok(self.http.get(f"{self.base}/audit", headers=self.gm))["total"]
        feed = read_events(self.http, f"{self.base}/feed?after=0", total, key)
        bodies["feed"] = "\n".join(event["data"] for event in feed)
        return bodies

    def named(self, text: str) -> str:
        """The bytes with this table's ids named, and instants, keys and digests out."""
        for name, cid in self.ids.items():
            text = text.replace(cid, f"<{name}>")
        for role, key in self.keys.items():
            text = text.replace(key, f"<{role} key>")
        text = SECRET_KEY.sub("<key>", text)
        text = UUID.sub("<id>", text)
        text = INSTANT.sub("<instant>", text)
        text = ELAPSED.sub('"elapsed_ms": 0', text)
        return "\n".join(sorted_keys(line) for line in KEY_ID.sub("<hex>", text).split("\n"))


# -- the second fight, left open: each ruleset's own moves, with NPCs in them ----------
FORD = ("Bran", "Mira", "Ogre", "Goblin 2")


def margin_bridge(t: Table, e: str) -> None:
    """Thrain (an NPC dwarf) wards the Goblin and takes Bran's blow through his own mail;
    Sylvan (an NPC elf) turns Mira's blow and answers it (what it deals Mira is Mira's);
    Bran's blow is read again (the dwarf then stops it dead)."""
    t.mark(e, "Goblin 2", "blessed", note="the priest's word", rounds=2, watch="Bran")
    t.act(e, "ward", "Thrain", effort=1)
    t.act(e, "riposte", "Sylvan")
    goblin = {"defense.{Goblin 2}.evasion": [2, 3], "defense.{Goblin 2}.guard": [2, 3]}
    blow = t.act(e, "attack", "Bran", {"attack": [6, 6, 6, 6], **goblin,
                                       "ward.{Thrain}.evasion": [6, 2, 2, 2],
                                       "ward.{Thrain}.guard": [6, 2, 2, 2, 2, 2]},
                 target="Goblin 2", weapon="sword")  # fmt: skip
    t.act(e, "attack", "Mira", {"attack": [6, 1, 1, 1],
                                "defense.{Sylvan}.evasion": [6, 6, 6, 1, 1, 1],
                                "defense.{Sylvan}.guard": [2]},
          target="Sylvan", weapon="sword")  # fmt: skip
    again = {"attack": [6, 6, 6, 6], **goblin, "ward.{Thrain}.evasion": [6, 6, 2, 2],
             "ward.{Thrain}.guard": [6, 6, 2, 2, 2, 2]}  # fmt: skip
    t.post(f"{e}/actions/{blow}/reroll", {"dice": t.dice(again), "reason": "misread"})
    t.move(e, "Goblin 2", 2)


def d20_bridge(t: Table, e: str) -> None:
    """The Ogre grapples Bran, who fails to escape (the Ogre's FD nowhere in the escape's
    parameters); Mira's shove moves the Ogre and breaks the hold; the Goblin takes a
    Defensive Stance; the escape is read again. Round 2: Bran trips the Goblin, who
    stands up."""
    t.mark(e, "Ogre", "blessed", note="the priest's word", rounds=2, watch="Bran")
    t.act(e, "grapple", "Ogre", {"grapple": [20]}, target="Bran")
    escape = t.act(e, "escape", "Bran", {"escape": [3]})
    t.act(e, "shove", "Mira", {"shove": [20]}, target="Ogre")
    t.act(e, "defensive_stance", "Goblin 2")
    t.post(f"{e}/actions/{escape}/reroll", {"dice": {"escape": [4]}, "reason": "misread"})
    t.post(f"{e}/round", {})
    t.act(e, "trip", "Bran", {"trip": [20]}, target="Goblin 2")
    t.act(e, "stand_up", "Goblin 2")
    t.move(e, "Ogre", 2)


def stamina_body_bridge(t: Table, e: str) -> None:
    """The Ogre recovers (Stamina the players never read), the GM marks its broken
    bones; Bran's blow on the Ogre (his player's) waits for the Ogre's answer, and the
    odds of Bran's attacks are read."""
    t.mark(e, "Ogre", "blessed", note="the priest's word", rounds=2, watch="Bran")
    recovered = t.act(e, "recover", "Ogre", {"recovery": [1, 2, 3]})
    t.act(e, "mark_wound", None, target="Ogre", wound="broken_bones", reason="the fall")
    t.post(f"{e}/actions/{recovered}/reroll", {"dice": {"recovery": [1, 1, 2]},
                                               "reason": "misread"})  # fmt: skip
    t.move(e, "Ogre", 2)
    t.act(e, "attack", "Bran", {"hit": [2, 2, 3]}, key="player", status=202, target="Ogre",
          weapon="sword")  # fmt: skip


BRIDGES: dict[str, tuple[tuple[str, ...], Callable[[Table, str], None]]] = {
    "margin": (("Bran", "Mira", "Goblin 2", "Thrain", "Sylvan"), margin_bridge),
    "d20": (FORD, d20_bridge),
    "stamina-body": (("Bran", "Ogre"), stamina_body_bridge),
}


def sorted_keys(line: str) -> str:
    """A JSON line with each object's keys in order (a map by id is in the ids' order,
    which differs between the evenings), and a narrative's closing lines of conditions
    gained and lost in order (they come in the characters' ids' order too); another line
    as it is."""
    try:
        return json.dumps(in_order(json.loads(line)), sort_keys=True)
    except ValueError:
        return line


def in_order(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: conditions_in_order(v) if k == "narrative" else in_order(v)
                for k, v in value.items()}  # fmt: skip
    if isinstance(value, list):
        return [in_order(v) for v in value]
    return value


def conditions_in_order(lines: Any) -> Any:
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        return in_order(lines)
    start = len(lines)
    while start and (" gains: " in lines[start - 1] or " loses: " in lines[start - 1]):
        start -= 1
    return [*lines[:start], *sorted(lines[start:])]


def delivered(receiver: Receiver, positions: list[int]) -> list[str]:
    """The bodies received once every event at these positions has been delivered (each
    delivery's webhook-id is msg_<position>), in the order they came."""
    wanted = {f"msg_{position}" for position in positions}
    deadline = time.monotonic() + HANG_SECONDS
    while True:
        with receiver.lock:
            got = {
                {k.lower(): v for k, v in r.headers.items()}.get("webhook-id")
                for r in receiver.received
            }
            if wanted <= got:
                return [r.body.decode() for r in receiver.received]
        if time.monotonic() > deadline:
            missing = sorted(wanted - got, key=lambda m: int(m.removeprefix("msg_")))
            raise AssertionError(
                f"of {len(wanted)} deliveries {len(missing)} did not come: {missing}"
            )
        time.sleep(0.05)


@dataclass
class Seen:
    """What each reader received in one evening, ids named."""

    by_role: dict[str, dict[str, str]]


def evening(ruleset: str, version: int, tmp: Path) -> Seen:
    env = {**os.environ, "SKALD_WEBHOOKS_ALLOW_PRIVATE": "true"}
    home = Path(tempfile.mkdtemp(prefix=f"{ruleset}-{version}-", dir=tmp))
    server = Server(home / "data", env).start()
    try:
        with Receiver() as player_rx, Receiver() as viewer_rx:
            table = Table(server, EVENINGS[ruleset], version,
                          {"player": player_rx, "viewer": viewer_rx})  # fmt: skip
            # Every write is made: what the webhooks owe is what the log holds beyond
            # what it held when they were registered (both read once the views caught up).
            hooked = [e["position"] for e in table.log() if e["position"] not in table.unhooked]
            seen: dict[str, dict[str, str]] = {}
            for role, key in (("gm", table.gm), *((r, {"authorization": f"Bearer {table.keys[r]}"})
                                                  for r in ROLES)):  # fmt: skip
                bodies = table.read_all(key)
                seen[role] = {path: table.named(body) for path, body in bodies.items()}
            for role, receiver in (("player", player_rx), ("viewer", viewer_rx)):
                hooks = delivered(receiver, hooked)
                seen[role]["webhook"] = table.named("\n".join(hooks))
            return Seen(seen)
    finally:
        server.stop()


class Evenings:
    """Each ruleset's two evenings, played the first time a test asks for them."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.played: dict[str, tuple[Seen, Seen]] = {}

    def __getitem__(self, ruleset: str) -> tuple[Seen, Seen]:
        if ruleset not in self.played:
            self.played[ruleset] = (evening(ruleset, 0, self.tmp), evening(ruleset, 1, self.tmp))
        return self.played[ruleset]


@pytest.fixture(scope="module")
def evenings(tmp_path_factory: pytest.TempPathFactory) -> Evenings:
    return Evenings(tmp_path_factory.mktemp("spoilers"))


def differences(one: dict[str, str], two: dict[str, str]) -> list[str]:
    """Each read whose bytes differ, with the first differing stretch of each."""
    found = []
    for path in sorted(set(one) | set(two)):
        a, b = one.get(path, ""), two.get(path, "")
        if a != b:
            at = next(i for i in range(min(len(a), len(b)) + 1) if a[i : i + 1] != b[i : i + 1])
            found.append(f"{path}: ...{a[max(0, at - 80) : at + 40]!r} vs {b[at : at + 40]!r}")
    return found


@pytest.mark.parametrize("ruleset", sorted(EVENINGS))
def test_no_npc_number_reaches_a_player_or_a_viewer(evenings: Evenings, ruleset: str) -> None:
    one, two = evenings[ruleset]
    assert differences(one.by_role["gm"], two.by_role["gm"])  # the GM reads the NPCs' numbers
    for role in ROLES:
        assert one.by_role[role].keys() == two.by_role[role].keys()
        assert len(one.by_role[role]) > 30  # every read, the feed and the webhooks
        leaked = differences(one.by_role[role], two.by_role[role])
        assert not leaked, f"{role} reads NPCs' numbers:\n" + "\n".join(leaked[:20])


# Lines built from each ruleset's parts that every reader reads as the GM does, NPCs'
# numbers aside (the GM's: tests/unit/test_told_*.py): names, outcome words, markers and
# their durations, ranks, the PCs' numbers. Told by their outcome instead ('Bran escape'),
# or blanked, they would be missing.
PUBLIC = {
    "margin": [
        "Bran attacks with sword at Goblin 2: 4 against 0, margin 4; Thrain intercepts, Thrain "
        "is hurt",
        "Bran attacks with sword at Goblin 2: 4 against 0, margin 4; Thrain intercepts and stops "
        "the blow dead",
        "Thrain's guard (active): 6 dice; rolled 6, 2, 2, 2, 2, 2: 1 success",
        "Ward: 4 - 2 = 2; Thrain takes the blow",
        "Mira attacks with sword at Sylvan: 1 against 3, margin -2; turned; Sylvan counters with "
        "sword: Mira takes 4",
        "Thrain takes up Ward for round 1",
        "Sylvan takes up Riposte for round 1",
    ],
    "d20": [
        "Ogre grapples Bran; Bran gains: grappled; Ogre gains: grappling",
        "Bran fails to escape Ogre",
        "Mira shoves Ogre 5 ft; the hold with Bran ends",
        (
            "Forceful Defense: defender FR does not exceed attacker FR +0; a double success is "
            "not ruled out"
        ),
        "Goblin 2 takes a Defensive Stance until round 1 ends",
        "Bran trips Goblin 2, who falls prone",
        "Goblin 2 stands up",
    ],
    "stamina-body": ["Ogre recovers Stamina", "Ogre now has broken bones"],
}
MARKED = {"margin": "Goblin 2", "d20": "Ogre", "stamina-body": "Ogre"}


@pytest.mark.parametrize("ruleset", sorted(EVENINGS))
def test_no_public_number_or_name_is_blanked(evenings: Evenings, ruleset: str) -> None:
    seen = evenings[ruleset][0].by_role
    marked = MARKED[ruleset]
    public = [
        *PUBLIC[ruleset],
        f"{marked}: blessed (2 rounds, to the end of Bran's turn): the priest's word",
        f"{marked} moves from rank 1 to rank 2",
    ]
    for role in ROLES:
        for path, body in seen[role].items():
            assert "#" not in body, f"{role} reads a blanked number in {path}"
        everything = "\n".join(seen[role].values())
        for said in ("Goblin 2", "(round 1)", "Bran", *public):
            assert said in everything, (role, said)
    feed = json.loads(seen["player"]["feed"].splitlines()[-1])
    assert feed  # the feed's last event read as JSON
