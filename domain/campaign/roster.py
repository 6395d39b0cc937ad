"""The campaign's checks on names, keys, the roster and wounds: what a command is refused
for, and what it records when it is not.

The Campaign aggregate (domain/campaign/aggregate.py) asks these before it records an event;
they read its records and change nothing.
"""

from __future__ import annotations

import hmac
import unicodedata
from collections.abc import Mapping, Sequence

from skald_campaign.domain.access import Access, Role, Unauthenticated, check_characters
from skald_campaign.domain.errors import ActionRefused, InvalidInput, NotFound
from skald_campaign.domain.records import Character, JSONObject, KeyGrant, Sheet, State
from skald_campaign.domain.rulesets.base import Ruleset
from skald_campaign.domain.validation import KEPT_INVISIBLE, refuse_hidden_characters

MAX_NAME = 120
MAX_CHARACTERS = 200


def check_name(name: str, what: str) -> str:
    cleaned = name.strip()
    if not cleaned:
        raise InvalidInput(f"{what} must not be empty")
    if len(cleaned) > MAX_NAME:
        raise InvalidInput(f"{what} is {len(cleaned)} characters long; at most {MAX_NAME}")
    refuse_hidden_characters(cleaned, what)
    return cleaned


_DROP_KEPT_INVISIBLE = dict.fromkeys(map(ord, KEPT_INVISIBLE))


def as_it_looks(name: str) -> str:
    """A name as a reader sees it: in NFC, without the invisible characters text may
    keep (joiners, direction marks), so "Bran" and "Bran" + U+200E are one name."""
    return unicodedata.normalize("NFC", name).translate(_DROP_KEPT_INVISIBLE)


def refuse_duplicate_name(characters: Mapping[str, Character], name: str) -> None:
    """One name, one character in a campaign, names compared as they look: in NFC, so
    "Zoë" typed with a combining diaeresis is the "Zoë" already there, and without the
    invisible characters text may keep."""
    wanted = as_it_looks(name)
    for other in characters.values():
        if as_it_looks(other.name) == wanted:
            raise ActionRefused(f"the campaign already has a character named {other.name}")


# -- keys --------------------------------------------------------------------------


def access(keys: Mapping[str, KeyGrant], key_id: str, key_hash: str) -> Access:
    """The access a presented key grants; hashes are compared in constant time."""
    key = keys.get(key_id)
    if key is None or not hmac.compare_digest(key.hash, key_hash):
        raise Unauthenticated("this key does not open this campaign")
    if key.revoked:
        raise Unauthenticated("this key was revoked by the GM")
    return Access(key_id, key.role, frozenset(key.characters), key.label)


def check_new_key(
    keys: Mapping[str, KeyGrant],
    roster: Mapping[str, Character],
    key_id: str,
    role: str,
    characters: Sequence[str],
    label: str,
) -> tuple[Role, list[str], str]:
    """A new key's role, the characters it is bound to (sorted) and its label."""
    if role not in ("player", "viewer"):
        raise InvalidInput(f"a key's role is player or viewer, not '{role}'")
    granted: Role = "player" if role == "player" else "viewer"
    if key_id in keys:
        raise InvalidInput("that key id is already in use")
    bound = sorted(check_characters(characters, roster))
    if role == "player" and not bound:
        raise InvalidInput("a player key must be bound to at least one character")
    if role == "viewer" and bound:
        raise InvalidInput("a viewer key reads everything and is bound to no character")
    refuse_hidden_characters(label, "label")
    return granted, bound, label.strip()[:MAX_NAME]


def check_revocable(keys: Mapping[str, KeyGrant], key_id: str) -> None:
    key = keys.get(key_id)
    if key is None:
        raise NotFound(f"no key '{key_id}' in this campaign")
    if key.role == "gm":
        raise ActionRefused("the GM key cannot be revoked")
    if key.revoked:
        raise ActionRefused(f"key '{key_id}' is already revoked")


# -- the roster ------------------------------------------------------------------------


def enrolled(roster: Mapping[str, Character], character_id: str) -> Character:
    try:
        return roster[character_id]
    except KeyError:
        raise NotFound(f"character '{character_id}' is not enrolled in this campaign") from None


def check_enrolment(rules: Ruleset, enrolled: int, sheet: JSONObject) -> Sheet:
    """The sheet as the rules validated it, if the campaign has room for one more."""
    if enrolled >= MAX_CHARACTERS:
        raise ActionRefused(f"a campaign holds at most {MAX_CHARACTERS} characters")
    return rules.validate_sheet(sheet)


def refuse_if_held(character: Character, what: str | None = None) -> Character:
    """The character, if no open encounter holds them: the encounter owns their tracks
    until it ends, so a change to them goes there (``what``), and they join no other."""
    held = character.in_encounter
    if held is None:
        return character
    if what is None:
        raise ActionRefused(f"{character.name} is already in open encounter {held}")
    raise ActionRefused(f"{character.name} is in open encounter {held}: {what} there")


def check_joining(open_encounters: Sequence[str], encounter_id: str, character: Character) -> None:
    if encounter_id not in open_encounters:
        raise ActionRefused(f"encounter {encounter_id} is not open")
    refuse_if_held(character)


def check_wound_mark(rules: Ruleset, character: Character, wound: str, present: bool) -> State:
    """The character's state with the wound marked (or its end), if the rules allow it."""
    if wound not in rules.wound_flags:
        known = ", ".join(sorted(rules.wound_flags)) or "none"
        raise InvalidInput(f"the {rules.id} ruleset tracks no wound '{wound}'; it tracks: {known}")
    if character.in_encounter is not None:
        raise ActionRefused(
            f"{character.name} is in an open encounter; record the wound there "
            "with the mark_wound action"
        )
    rules.refuse_wound_mark(character.name, character.state, wound, present)
    return {**character.state, wound: present}
