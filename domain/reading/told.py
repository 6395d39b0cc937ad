"""An action record's texts for one reader (RULINGS T3a): its summary and narrative as
parts, built from the stored record by its ruleset's package (the table's and the GM's
records by domain/reading/table.py), rendered for the reader. The stored record keeps
its bytes; the GM reads them as they always were.

The parts are built once, as the command that wrote the record is recorded
(``worked_out``, asked by domain/encounter/telling.py), and stored with the record
(``told``, domain/reading/told_form.py): the reads take them from there and ask no
ruleset. A record stored before (not recorded) has them built here at read time by the
ruleset installed, as before; with it missing, the engine's plain words.

Where the GM's narrator writes a record's plain lines (a kind with no narrator of its
own, or a record its narrator cannot read), so do the parts: the open dice, then the
summary's parts. Where no parts are built for a record (or what they render for the GM
is not exactly what the GM reads), the record's own lines are said only to readers who
may see the numbers of every NPC the action involves; the others read the open dice and
the summary the caller gives (its outcome, built from the record's typed changes).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TypeVar

import msgspec

from skald_campaign.domain.play.actions import conditions_from_json
from skald_campaign.domain.reading import breakdowns as bd
from skald_campaign.domain.reading import table as table_texts
from skald_campaign.domain.reading.breakdowns import read
from skald_campaign.domain.reading.narrative import (
    Plain,
    Sheeted,
    conditions_lines,
    faces,
    new_conditions_note,
    unids_lines,
    unused_lines,
)
from skald_campaign.domain.reading.texts import (
    Describe,
    Reader,
    Text,
    joined,
    render,
    render_lines,
    secret,
)
from skald_campaign.domain.reading.told_form import (
    PartForm,
    Standing,
    Told,
    as_json,
    recorded,
    text_form,
    text_of,
)
from skald_campaign.domain.records import JSONObject
from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import UNREADABLE, Ruleset, narrates_its_narrative

T = TypeVar("T")
Roster = Mapping[str, Sheeted]
Builder = Callable[[JSONObject, Roster], Text | None]
LinesBuilder = Callable[[JSONObject, Roster], list[Text] | None]
Parties = Callable[[JSONObject, Roster], set[str]]


def own(ruleset: str) -> Ruleset | None:
    """The campaign's ruleset, whose package builds its records' parts (None: a ruleset
    not installed, whose records read in the plain lines)."""
    return RULESETS.get(ruleset)


def first_built(
    builders: tuple[Callable[[JSONObject, Roster], T | None], ...],
    stored: JSONObject,
    combatants: Roster,
) -> T | None:
    """What the first builder that builds the record's parts builds; None if none does
    (a builder that cannot read the record counts as none)."""
    for builder in builders:
        try:
            built = builder(stored, combatants)
        except UNREADABLE:
            continue
        if built is not None:
            return built
    return None


def parties(ruleset: str, stored: JSONObject, combatants: Roster) -> set[str]:
    """The characters a record's texts speak of beyond its actor, its parameters and its
    changes (a Ward's dwarf, a hold's other party): their numbers are in its lines. As
    its command recorded them (domain/reading/told_form.py), else asked of the ruleset."""
    told = recorded(stored)
    if told is not None:
        return set(told.parties)
    rules = own(ruleset)
    return set() if rules is None else rules.parties(stored, combatants)


def secret_of(owners: Collection[str], text: Text) -> Text:
    """``text`` for a reader who may see every one of ``owners``' numbers; else nothing."""
    for owner in sorted(owners):
        text = secret(owner, *text)
    return text


class InitiativeEntry(bd.Part, frozen=True):
    id: str
    name: str
    total: int
    add: str | None = None


class Initiative(bd.Part, frozen=True):
    entries: list[InitiativeEntry]


class InitiativeRoll(bd.Part, frozen=True):
    dice: str


def initiative(record: JSONObject, combatants: Roster) -> Text | None:
    """'Initiative (1d20 + dodge): Bran 15, Ogre 19': each total its combatant's (it holds
    the added sheet value); the dice and the field added are the table's option."""
    if record.get("kind") != "initiative":
        return None
    entries = read(record.get("breakdown"), Initiative).entries
    rolls = read(record.get("rolls"), list[InitiativeRoll])
    if not rolls or not entries:
        return None
    add = entries[0].add
    listed = joined(((e.name, *secret(e.id, f" {e.total}")) for e in entries), ", ")
    return (f"Initiative ({rolls[0].dice}{' + ' + add if add else ''}): ", *listed)


def built_summary(ruleset: str, stored: JSONObject, combatants: Roster) -> Text | None:
    """The summary's parts as its command recorded them (domain/reading/told_form.py),
    else as the first builder builds them: the table's, initiative's, the ruleset's."""
    told = recorded(stored)
    if told is not None:
        return None if told.summary is None else text_of(told.summary)
    rules = own(ruleset)
    builders: tuple[Builder, ...] = (table_texts.summary, initiative)
    if rules is not None:
        builders += (rules.summary,)
    return first_built(builders, stored, combatants)


def built_narrative(ruleset: str, stored: JSONObject, combatants: Roster) -> list[Text] | None:
    """The ruleset's narrative lines as the command recorded them, else as its package
    builds them (None: none built)."""
    told = recorded(stored)
    if told is not None:
        return None if told.narrative is None else [text_of(line) for line in told.narrative]
    rules = own(ruleset)
    return first_built(() if rules is None else (rules.narrative,), stored, combatants)


def summary_parts(ruleset: str, stored: JSONObject, combatants: Roster) -> Text | None:
    """The record's summary as parts, or None when none are built for it. Parts that do
    not render, for the GM, to the stored summary are not used (the summary is said as
    it was written, or not at all)."""
    built = built_summary(ruleset, stored, combatants)
    if built is None:
        return None
    summary = stored.get("summary")
    if not isinstance(summary, str):
        return None
    said = render(built)
    if summary == said:
        return built
    # The conditions the action brought on close the stored summary (domain/play/resolution.py
    # with_new_conditions: "; Bran gains: stunned"), words every reader reads; a record
    # that carries them (an answer's, not an event's) is checked against them.
    note = summary[len(said) :]
    if not summary.startswith(said) or not note.startswith("; "):
        return None
    conditions = stored.get("conditions")
    if conditions is not None:
        try:
            changes = conditions_from_json(conditions)
        except UNREADABLE:
            return None
        if new_conditions_note(changes, combatants, said) != note:
            return None
    elif " gains: " not in note:
        return None
    return (*built, note)


def roll_lines(stored: JSONObject, combatants: Roster) -> list[Text]:
    """The open dice: 'hit: 3d6 rolled 1, 2, 2 = 5' (the table saw them)."""
    plain = read(stored, Plain)
    return [
        (f"{roll.name}: {roll.dice} rolled {faces(roll.faces)} = {roll.total}",)
        for roll in plain.rolls
    ]


def plain_lines(stored: JSONObject, combatants: Roster, summary: Text | None) -> list[Text] | None:
    """The plain lines (domain/reading/narrative.py generic) as parts: the open dice, then the
    summary's parts. None without those parts, or when a roll's dice add a number to
    its faces (a weapon's '1d6+1': whose the 1 is, the line does not say)."""
    if summary is None:
        return None
    plain = read(stored, Plain)
    if any("+" in roll.dice or "-" in roll.dice for roll in plain.rolls):
        return None
    return [*roll_lines(stored, combatants), summary]


def narrative_parts(
    ruleset: str,
    stored: JSONObject,
    combatants: Roster,
    involved: Collection[str],
    summary: Text,
    said: list[str],
    parts: Text | None = None,
) -> list[Text]:
    """The narrative as parts. ``said`` is the narrative as the GM reads it, ``summary``
    the summary as this reader may read it (``parts``: the summary's parts, when built),
    ``involved`` the NPCs the action involves. The ruleset's lines, or the plain lines,
    are used only where they render for the GM exactly to ``said``."""
    lines = built_narrative(ruleset, stored, combatants)
    extra = [(line,) for line in unused_lines(stored) + conditions_lines(stored, combatants)]
    for built in (lines, plain_lines(stored, combatants, parts)):
        if built is not None and unids_lines(render_lines([*built, *extra]), combatants) == said:
            return [*built, *extra]
    # No parts: the lines the GM reads go to those who see every NPC's numbers here.
    told: list[Text] = [secret_of(involved, (line,)) for line in said]
    hidden = [*roll_lines(stored, combatants), summary]
    return [*told, *(secret_of_none(involved, line) for line in hidden), *extra]


def secret_of_none(owners: Collection[str], text: Text) -> Text:
    """``text`` for a reader who may not see some of ``owners``' numbers; else nothing."""
    inner: Text = ()
    for owner in sorted(owners):
        inner = secret(owner, *inner, instead=text)
    return inner


def told_for(
    ruleset: str,
    stored: JSONObject,
    combatants: Roster,
    reader: Reader,
    involved: Collection[str],
    outcome: str,
    said: list[str],
) -> tuple[str, list[str]]:
    """The record's summary and narrative as ``reader`` reads them. ``outcome`` is the
    summary to say where no parts are built for the stored one; ``said`` the narrative
    the GM reads."""
    parts = summary_parts(ruleset, stored, combatants)
    summary: Text = (outcome,) if parts is None else parts
    summary_told = unids_lines([render(summary, reader)], combatants)
    lines = narrative_parts(ruleset, stored, combatants, involved, summary, said, parts)
    narrative = unids_lines(render_lines(lines, reader), combatants)
    return (summary_told[0] if summary_told else outcome), narrative or summary_told


def worked_out(
    rules: Ruleset, stored: JSONObject, combatants: Roster, describe: Describe
) -> JSONObject:
    """What the reads ask of the ruleset's narration for this record, asked once, as its
    command is recorded (issue 38; domain/reading/told_form.py): the summary's parts,
    the narrative's, the plain narrative, the outcome, the parties, and the standing of
    each character whose tracks it changed. ``describe`` words an NPC's descriptor (T3)
    as the fight's rules read it now."""
    summary = first_built((table_texts.summary, initiative, rules.summary), stored, combatants)
    narrative = first_built((rules.narrative,), stored, combatants)
    # The narrative's lines, rendered once: a ruleset whose plain narrative is exactly
    # these (``narrate_is_narrative``) is not asked to build them again.
    unrendered = False
    try:
        lines = None if narrative is None else [render(line) for line in narrative]
    except (TypeError, AttributeError):
        lines, unrendered = None, True
    narrate: list[str] | None
    if rules.narrate_is_narrative and narrates_its_narrative(type(rules)):
        narrate = lines
    else:
        try:
            narrate = rules.narrate(stored, combatants)
        except UNREADABLE:
            narrate = None
    try:
        outcome = rules.outcome(stored, combatants)
    except UNREADABLE:
        outcome = None
    effects = stored.get("effects")
    changed = effects.get("tracks") if isinstance(effects, dict) else stored.get("tracks")
    standing: dict[str, Standing] = {}
    if isinstance(changed, dict):
        for owner, tracks in changed.items():
            if isinstance(tracks, dict):
                numbers = {
                    k: v
                    for k, v in tracks.items()
                    if isinstance(v, int) and not isinstance(v, bool)
                }
                standing[owner] = Standing(rules.standing(numbers), describe(owner, numbers))
    # A text whose parts are not parts (a narration's defect, which the contract kit
    # names) is recorded as none built: its reads say the plain words.
    try:
        narrative_form = (
            None if narrative is None or unrendered else [text_form(n, describe) for n in narrative]
        )
    except (TypeError, AttributeError):
        lines = narrative_form = None
    told = Told(
        summary=form_of(summary, describe),
        narrative=narrative_form,
        outcome=form_of(outcome, describe),
        parties=sorted(rules.parties(stored, combatants)),
        standing=standing,
    )
    if narrate != lines:  # recorded apart only where it is not the narrative's lines
        told = msgspec.structs.replace(told, narrate=narrate)
    return as_json(told)


def form_of(text: Text | None, describe: Describe) -> list[PartForm] | None:
    """``text``'s stored form; None for none, or for parts that are not parts."""
    if text is None:
        return None
    try:
        return text_form(text, describe)
    except (TypeError, AttributeError):
        return None
