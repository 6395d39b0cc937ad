"""The campaign's checks on names, keys and wounds: what a command is refused for.

The Campaign aggregate (domain/campaign.py) asks these before it records an event;
they read its records and change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.access import Role, check_characters
from domain.errors import ActionRefused, InvalidInput, NotFound
from domain.records import Character, KeyGrant, State
from domain.rulesets.base import Ruleset
from domain.validation import refuse_hidden_characters

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
    bound = sorted(check_characters(list(characters), roster))
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


def check_wound_mark(
    rules: Ruleset, ruleset_id: str, character: Character, wound: str, present: bool
) -> State:
    """The character's state with the wound marked (or its end), if the rules allow it."""
    if wound not in rules.wound_flags:
        known = ", ".join(sorted(rules.wound_flags)) or "none"
        raise InvalidInput(
            f"the {ruleset_id} ruleset tracks no wound '{wound}'; it tracks: {known}"
        )
    if character.in_encounter is not None:
        raise ActionRefused(
            f"{character.name} is in an open encounter; record the wound there "
            "with the mark_wound action"
        )
    rules.refuse_wound_mark(character.name, character.state, wound, present)
    return {**character.state, wound: present}


def refuse_if_in_encounter(character: Character, what: str) -> None:
    # The encounter owns the tracks of the characters it holds; the change goes there.
    if character.in_encounter is not None:
        raise ActionRefused(
            f"{character.name} is in open encounter {character.in_encounter}: {what} there"
        )
