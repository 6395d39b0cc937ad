"""What a player's or a viewer's key may see (RULINGS T3): the one read-side policy.

Every answer and every live event a non-GM key gets passes through ``Redaction.document``
(api/redacting.py applies it to every HTTP answer and to the feed; the event log and its
webhooks call it too), so a route cannot forget it. The GM's key gets everything.
``redaction_for(campaign, role)`` is None for the GM.

The policy works on the JSON itself, by the shapes every read shares, not route by route:

- **An NPC** (an object whose ``id`` or ``character_id`` is an NPC's, or the value under
  an NPC's id in a map) keeps its name, side, rank, conditions and every other word, but
  not its numbers: ``sheet``, ``tracks``, ``maxima``, ``state``, ``derived`` and
  ``equipment`` become ``{}``, and any other number in it ``null``, lists of numbers
  ``[]``; a ``descriptor`` (domain/reading/visibility.py) stands for its tracks. Unless the
  campaign's ``show_npc_numbers`` is on.
- **An action that involves an NPC** (its actor, its target, one whose tracks or state
  it changed, one who rolled initiative) keeps its kind, actor, parameters, open dice,
  status, conditions and the PCs' own tracks; its breakdown (the GM's working, step by
  step) is ``{}``, and its summary and narrative are built from parts for this reader
  (RULINGS T3a, domain/reading/told.py): each NPC number left out or its descriptor instead,
  everything public as the GM reads it. Unless ``show_npc_numbers`` is on.
- **What a command recorded of a record's texts** (``told``, domain/reading/told_form.py:
  the parts above, every number in them) is read here and never passed on: it is taken
  out of every record and entry a player's or a viewer's key reads, whatever
  ``show_npc_numbers`` says.
- **A hidden action** (``"hidden": true``, the GM's hidden roll) or a pending exchange of
  one: as above, and its dice (``rolls``) and what it showed before the answer
  (``shown``: the hit score) are removed too, whatever ``show_npc_numbers`` says; its
  summary is its outcome (domain/reading/outcomes.py), built from parts.
- **A text another object holds** (an audit or history entry's summary, a correction
  report's before and after) is told as the record that wrote it reads for this
  reader. No character of any line is scrubbed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from skald_campaign.domain.access import Role
from skald_campaign.domain.campaign.aggregate import Campaign
from skald_campaign.domain.play.actions import conditions_from_json
from skald_campaign.domain.reading import installed
from skald_campaign.domain.reading.installed import ReadRules
from skald_campaign.domain.reading.narrative import Sheeted, new_conditions_note
from skald_campaign.domain.reading.outcomes import outcome
from skald_campaign.domain.reading.recorded import kept_for
from skald_campaign.domain.reading.texts import Reader, render
from skald_campaign.domain.reading.told import parties, told_for
from skald_campaign.domain.reading.told_form import FIELD
from skald_campaign.domain.reading.visibility import descriptor
from skald_campaign.domain.records import JSON

# An NPC's numbers: replaced by {} (never removed, so each answer keeps its shape).
SECRET_FIELDS = ("sheet", "tracks", "maxima", "state", "derived", "equipment")
# Maps by character id of what SECRET_FIELDS hold: an NPC's entry becomes {}.
SECRET_MAPS = frozenset({"sheets"})
# Numbers an NPC's object may keep: where it is, not what it is.
PLACE_FIELDS = frozenset(
    {"id", "version", "number", "round", "day", "seq", "rank", "position", "changes"}
)
HIDDEN_LINE = "(rolled hidden)"
# What the views recorded a character's tracks read as (issue 38): an NPC's descriptor.
SEEN_AS = "seen_as"
# The parameters that name an action's target.
TARGETS = frozenset({"target", "defender", "holder"})
# What an action's command recorded of its texts (domain/reading/told_form.py): their
# parts, every number in them; a player's and a viewer's key never receive it.
TOLD = FIELD
# Where an action (record, audit entry) keeps its changes, by character id.
CHANGE_FIELDS = frozenset({"effects", "data", "tracks", "state", "conditions_before"})


@dataclass(frozen=True, slots=True)
class Known:
    """A character known only by its name (a policy given names, not sheets)."""

    name: str
    sheet: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Npc:
    name: str
    maxima: Mapping[str, int]


class SheetMaxima(Mapping[str, int]):
    """An NPC's tracks' maxima, asked of its ruleset the first time they are read: an
    answer whose tracks carry their own maxima, or a view's recorded word, needs none."""

    def __init__(self, rules: ReadRules | None, sheet: Mapping[str, JSON]) -> None:
        self._rules, self._sheet = rules, sheet
        self._found: dict[str, int] | None = None

    def _maxima(self) -> dict[str, int]:
        if self._found is None:
            self._found = {} if self._rules is None else self._rules.track_maxima(self._sheet)
        return self._found

    def __getitem__(self, name: str) -> int:
        return self._maxima()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._maxima())

    def __len__(self) -> int:
        return len(self._maxima())


@dataclass(frozen=True, slots=True)
class Redaction:
    """What one campaign's players and viewers may see. ``npcs`` is empty when the
    campaign shows NPCs' numbers: then only hidden rolls are taken out."""

    ruleset_id: str
    npcs: Mapping[str, Npc]
    names: Mapping[str, str]  # every character's name, for the outcomes' summaries
    # The campaign's ruleset under its options, which word an NPC's descriptor (T3);
    # without one, the ruleset ``ruleset_id`` names under its default options, if it is
    # installed (domain/reading/installed.py: else the engine's hurt or unhurt).
    rules: ReadRules | None = None
    # Every character (its name and sheet), for the texts built from parts (domain/reading/told.py).
    roster: Mapping[str, Sheeted] = field(default_factory=dict)
    # Every action record the campaign's fights ever held (the records corrections
    # replaced too), by its summary: the record a correction report's line was written
    # from, read once a report is met (application/queries.py).
    written: Callable[[], Mapping[str, Mapping[str, JSON]]] = field(default=lambda: {})
    # The word each NPC's tracks read as where an aggregate recorded it (issue 38): by
    # the NPC's id and its tracks as the aggregate now holds them (the campaign's, each
    # fight's), read once an NPC's tracks are met; a word there asks no ruleset.
    seen: SeenOnce | None = None

    @property
    def reader(self) -> Reader:
        """How this reader reads a text's parts: no NPC's numbers, its descriptor."""
        return Reader(frozenset(self.npcs), self._describe)

    def _describe(self, owner: str, tracks: Mapping[str, int]) -> str:
        npc = self.npcs.get(owner)
        maxima = npc.maxima if npc is not None else {}
        return descriptor(self._rules(), tracks, maxima)

    def _rules(self) -> ReadRules | None:
        return installed.rules(self.ruleset_id) if self.rules is None else self.rules

    def document(self, value: JSON) -> JSON:
        """``value`` as a player or viewer may see it (a new value; ``value`` is kept)."""
        return self._walk(value, None)[0]

    # -- the walk: each step answers the new value and whether anything was taken out --

    def _walk(self, value: JSON, owner: str | None) -> tuple[JSON, bool]:
        if isinstance(value, Mapping):
            return self._mapping(value, owner)
        if isinstance(value, list | tuple):
            items = [self._walk(v, owner) for v in value]
            return [v for v, _ in items], any(c for _, c in items)
        return value, False

    def _mapping(self, value: Mapping[str, JSON], owner: str | None) -> tuple[JSON, bool]:
        if _is_action(value) and (_hidden(value) or self._involved(value)):
            return self._outcome(value), True
        if value.get("hidden") is True:  # a correction's report line on a hidden roll
            return {k: HIDDEN_LINE if k in ("before", "after") and v else v
                    for k, v in value.items()}, True  # fmt: skip
        if _is_report_line(value):
            return self._report_line(value)
        who = value.get("id", value.get("character_id"))
        if owner is None and isinstance(who, str) and who in self.npcs:
            owner = who
        out: dict[str, JSON] = {}
        changed = False
        for key, item in value.items():
            if key == TOLD and isinstance(item, Mapping):  # the GM's working, every number
                changed = True
                continue
            if key in SECRET_MAPS and isinstance(item, Mapping):  # every sheet, by id
                out[key] = {cid: {} if cid in self.npcs else v for cid, v in item.items()}
                changed = changed or any(cid in self.npcs for cid in item)
                continue
            if key in self.npcs and _has_number(item) and not isinstance(item, Mapping):
                out[key] = _numberless(item)  # a number under an NPC's id: its initiative
                changed = True
                continue
            inner_owner = key if key in self.npcs else None
            new, c = self._walk(item, inner_owner)
            out[key] = new
            changed = changed or c
        if owner is not None and owner in self.npcs:
            changed = self._strip_npc(out, owner) or changed
        if _is_action(value):
            changed = self._hide_npc_defenses(out) or changed
        elif "summary" in out:
            summary = self._entry_summary(value)
            changed = changed or summary != out["summary"]
            out["summary"] = summary
        return out, changed

    def _hide_npc_defenses(self, exchange: dict[str, JSON]) -> bool:
        """A pending attack on an NPC shows the attacker the hit, not the NPC's scores."""
        shown = exchange.get("shown")
        if (
            exchange.get("defender") in self.npcs
            and isinstance(shown, Mapping)
            and "scores" in shown
        ):
            exchange["shown"] = {**shown, "scores": {}}
            return True
        return False

    def _strip_npc(self, out: dict[str, JSON], npc_id: str) -> bool:
        shown = _descriptor_tracks(out.get("tracks"))
        # The word a view recorded for these very tracks (issue 38): no rules asked.
        recorded = out.pop(SEEN_AS, None)
        changed = recorded is not None
        for key, item in list(out.items()):
            if key in SECRET_FIELDS:
                out[key] = {}
                changed = True
            elif key not in PLACE_FIELDS and _has_number(item):
                out[key] = _numberless(item)
                changed = True
        if shown is not None:
            tracks, maxima = shown
            npc = self.npcs[npc_id]
            if not isinstance(recorded, str):
                recorded = None if self.seen is None else self.seen.get(seen_key(npc_id, tracks))
            out["descriptor"] = (
                recorded
                if isinstance(recorded, str)
                else descriptor(self._rules(), tracks, maxima or npc.maxima)
            )
        return changed

    def _report_line(self, line: Mapping[str, JSON]) -> tuple[JSON, bool]:
        """A correction report's line: its before and after are the summaries of two
        records, each told as this reader reads that record (a summary no record of this
        campaign wrote is said only as its action's kind)."""
        out = dict(line)
        for key in ("before", "after"):
            text = line.get(key)
            if not isinstance(text, str):
                continue
            record = self.written().get(text)
            if record is None:
                out[key] = str(line.get("kind", "action"))
            elif _hidden(record) or self._involved(record):
                out[key] = self.told(record)[0]
        return out, out != line

    def _involved(self, action: Mapping[str, JSON]) -> set[str]:
        """The NPCs whose numbers the action's texts and breakdown may state: its actor,
        its target, whoever's tracks or state it changed, whoever rolled initiative, and
        whoever else its texts speak of (a Ward's dwarf, a hold's other party)."""
        action = _with_told(action)
        found: set[str] = set()
        actor = action.get("actor")
        if isinstance(actor, str):
            found.add(actor)
        params = action.get("params")
        if isinstance(params, Mapping):
            found.update(v for k, v in params.items() if k in TARGETS and isinstance(v, str))
        for changes in _changes(action):
            for part in (changes.get("tracks"), changes.get("state")):
                if isinstance(part, Mapping):
                    found.update(part)
        breakdown = action.get("breakdown")
        if action.get("kind") == "initiative" and isinstance(breakdown, Mapping):
            entries = breakdown.get("entries")
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, Mapping) and isinstance(entry.get("id"), str):
                    found.add(str(entry["id"]))
        if self.npcs:
            found |= parties(self.ruleset_id, action, self.roster)
        return found & set(self.npcs)

    def _outcome(self, action: Mapping[str, JSON]) -> JSON:
        """The action (or pending exchange) as this reader may read it: its breakdown
        (the GM's working, step by step) left out, its texts built from parts."""
        hidden = _hidden(action)
        out: dict[str, JSON] = {}
        for key, item in action.items():
            if key == TOLD:  # the GM's working: every number in it, the NPCs' too
                continue
            if key in CHANGE_FIELDS:
                out[key] = self._without_npcs(_untold(item))
            elif key == "breakdown":
                out[key] = {}
            elif key == "rolls" and hidden:
                out[key] = []
            elif (key == "shown" and hidden) or (key == "dice" and hidden):
                out[key] = {}
            else:
                out[key] = self._walk(item, None)[0]
        self._hide_npc_defenses(out)
        summary, narrative = self.told(action)
        if "summary" in out:
            out["summary"] = summary
        if "narrative" in out:
            out["narrative"] = list[JSON](narrative)
        return out

    def told(self, action: Mapping[str, JSON]) -> tuple[str, list[str]]:
        """The action's summary and narrative as this reader reads them: built from
        parts (domain/reading/told.py); a hidden roll only as its outcome (T3)."""
        action = _with_told(action)
        line = self.outcome(action)
        if _hidden(action) or not isinstance(action.get("summary"), str):
            return line, [line]
        said = action.get("narrative")
        lines = [str(n) for n in said] if isinstance(said, list) else []
        stored = dict(action)
        return told_for(
            self.ruleset_id, stored, self.roster, self.reader, self._involved(action), line, lines
        )

    def _without_npcs(self, changes: JSON) -> JSON:
        """An action's changes without the NPCs' entries (their tracks and state)."""
        if isinstance(changes, Mapping):
            return {k: self._without_npcs(v) for k, v in changes.items() if k not in self.npcs}
        return changes

    def outcome(self, action: Mapping[str, JSON]) -> str:
        """The action's outcome as this reader reads it, built from parts
        (domain/reading/outcomes.py): 'Ogre attacks Bran with maul and hits: Bran is at 3 Stamina
        and 9 Body; Bran gains: stunned'. What a hidden roll shows, and what a record
        whose own texts are not built from parts says to a reader kept from its numbers."""
        action = _with_told(action)
        tracks = next((c["tracks"] for c in _changes(action) if "tracks" in c), None)
        changed: dict[str, dict[str, int]] = {}
        if isinstance(tracks, Mapping):
            for cid, values in tracks.items():
                if isinstance(values, Mapping):
                    changed[cid] = {
                        k: v
                        for k, v in values.items()
                        if isinstance(v, int) and not isinstance(v, bool)
                    }
        combatants = {
            **{cid: Known(name) for cid, name in self.names.items()},
            **self.roster,
        }
        said = render(outcome(self.ruleset_id, dict(action), combatants, changed), self.reader)
        try:
            gained = conditions_from_json(action.get("conditions") or {})
        except (KeyError, TypeError, ValueError, AttributeError):
            return said
        return said + new_conditions_note(gained, combatants, said)

    def _entry_summary(self, entry: Mapping[str, JSON]) -> JSON:
        """An entry's summary (an audit entry's, a history's, a log event's) is told as
        this reader reads the record that wrote it: the action the entry holds, or the
        campaign's record of that summary. A summary no record wrote (an enrolment, a
        day) states nothing of an NPC's numbers and stands."""
        summary = entry.get("summary")
        if not isinstance(summary, str):
            return summary
        found = _first_action(entry)
        if found is None or found.get("summary") != summary:
            named = any(npc.name in summary for npc in self.npcs.values())
            found = self.written().get(summary) if named else None
        if found is not None and (_hidden(found) or self._involved(found)):
            return self.told(found)[0]
        return summary


class ReadOnce:
    """A read made the first time it is needed, then kept (one answer's redaction)."""

    def __init__(self, read: Callable[[], Mapping[str, Mapping[str, JSON]]]) -> None:
        self._read = read
        self._value: Mapping[str, Mapping[str, JSON]] | None = None

    def __call__(self) -> Mapping[str, Mapping[str, JSON]]:
        if self._value is None:
            self._value = self._read()
        return self._value


def _with_told(action: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """The action with what its command recorded of its texts beside its fields: a
    record and an event hold it under ``told``, the campaign audit's entry in its
    ``data`` (projections/audit.py)."""
    if TOLD in action:
        return action
    data = action.get("data")
    if isinstance(data, Mapping) and isinstance(data.get(TOLD), Mapping):
        return {**action, TOLD: data[TOLD]}
    return action


def _untold(value: JSON) -> JSON:
    """``value`` without what a command recorded of its texts (the GM's working)."""
    if isinstance(value, Mapping) and TOLD in value:
        return {k: v for k, v in value.items() if k != TOLD}
    return value


def _is_report_line(value: Mapping[str, JSON]) -> bool:
    """A correction report's line (domain/play/corrections.py ``_entry``)."""
    return "before" in value and "after" in value and "status" in value and "kind" in value


def written_records(events: Sequence[Mapping[str, JSON]]) -> dict[str, Mapping[str, JSON]]:
    """Every action record in these events (as the audit shows them), by its summary."""
    found: dict[str, Mapping[str, JSON]] = {}

    def walk(value: JSON) -> None:
        if isinstance(value, Mapping):
            summary = value.get("summary")
            if _is_action(value) and isinstance(summary, str):
                found.setdefault(summary, value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    for event in events:
        walk(event)
    return found


def _hidden(action: Mapping[str, JSON]) -> bool:
    """Rolled hidden by the GM: the record says so, or the event an audit entry holds."""
    data = action.get("data")
    return action.get("hidden") is True or (
        isinstance(data, Mapping) and data.get("hidden") is True
    )


def _is_action(value: Mapping[str, JSON]) -> bool:
    """An action record or a pending exchange: the shapes that carry dice and effects."""
    return "kind" in value and "rolls" in value and ("summary" in value or "shown" in value)


def _changes(action: Mapping[str, JSON]) -> list[Mapping[str, JSON]]:
    """Where an action says whose tracks and state it changed: its record's ``effects``,
    an audit entry's ``data``, or the encounter audit's entry itself."""
    found = [action.get("effects"), action.get("data"), action]
    return [c for c in found if isinstance(c, Mapping)]


def _first_action(value: JSON) -> Mapping[str, JSON] | None:
    if isinstance(value, Mapping):
        if _is_action(value):
            return value
        for item in value.values():
            found = _first_action(item)
            if found is not None:
                return found
    return None


def _strings(value: JSON) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _has_number(value: JSON) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    if isinstance(value, Mapping):
        return any(_has_number(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_number(v) for v in value)
    return False


def _numberless(value: JSON) -> JSON:
    if isinstance(value, Mapping):
        return {}
    if isinstance(value, list | tuple):
        return []
    return None


def _descriptor_tracks(
    tracks: JSON,
) -> tuple[dict[str, int], dict[str, int]] | None:
    """An object's tracks as (current, maxima): {name: n} or vitals' {name: {current,
    max}}; None when it holds no tracks of either shape."""
    if not isinstance(tracks, Mapping) or not tracks:
        return None
    current: dict[str, int] = {}
    maxima: dict[str, int] = {}
    for name, value in tracks.items():
        if isinstance(value, int) and not isinstance(value, bool):
            current[name] = value
        elif isinstance(value, Mapping) and isinstance(value.get("current"), int):
            current[name] = int(str(value["current"]))
            top = value.get("max")
            if isinstance(top, int):
                maxima[name] = top
        else:
            return None
    return current, maxima


# An NPC's id and its tracks (their items, sorted): what a recorded word was recorded for.
Seen = tuple[str, tuple[tuple[str, int], ...]]


def seen_key(npc_id: str, tracks: Mapping[str, int]) -> Seen:
    return npc_id, tuple(sorted(tracks.items()))


def seen_words(
    campaign: Campaign, npcs: Iterable[str], fights: Iterable[object] = ()
) -> dict[Seen, str]:
    """The word each NPC's tracks read as, as the last event that touched it in the
    campaign, then in each fight, recorded it (domain/reading/recorded.py): keyed by the
    tracks that aggregate now holds for it, since its kept readings are those of its
    present tracks. The campaign's word first (read under its rules as they now stand);
    a fight's where the campaign has none for those tracks, unless two fights recorded
    different words for the same tracks (then none: the ruleset installed's, as before)."""
    found: dict[Seen, str] = {}
    for cid in npcs:
        kept = kept_for(campaign, cid)
        if kept is not None:
            found[seen_key(cid, campaign.character(cid).tracks)] = kept.descriptor
    from_fights: dict[Seen, str | None] = {}
    for fight in fights:
        combatants = getattr(fight, "combatants", {})
        for cid in npcs:
            combatant = combatants.get(cid)
            kept = None if combatant is None else kept_for(fight, cid)
            if combatant is None or kept is None:
                continue
            key = seen_key(cid, combatant.tracks)
            if key in found:
                continue
            word = from_fights.setdefault(key, kept.descriptor)
            if word != kept.descriptor:
                from_fights[key] = None
    found.update({k: w for k, w in from_fights.items() if w is not None})
    return found


# The campaign's fights, ``open_only`` or every one: read only when a word is looked for.
Fights = Callable[[bool], Iterable[object]]


def no_fights(open_only: bool) -> Iterable[object]:
    return ()


class SeenOnce:
    """``seen_words``, read once an NPC's tracks are met (one answer's): the campaign's
    first; then its open fights' (where an NPC's tracks differ from the campaign's while
    it fights: a player's page, the table and the overlay read the open fight on every
    change, and reading every fight the campaign ever had for each would grow with its
    history); every fight's only for tracks none of those recorded a word for (an ended
    fight's answer)."""

    def __init__(self, campaign: Campaign, npcs: Iterable[str], fights: Fights) -> None:
        self._campaign, self._npcs, self._fights = campaign, list(npcs), fights
        self._stages: list[dict[Seen, str]] = []

    def get(self, key: Seen) -> str | None:
        for stage in range(3):
            if stage == len(self._stages):
                fights = () if stage == 0 else self._fights(stage == 1)
                self._stages.append(seen_words(self._campaign, self._npcs, fights))
            if key in self._stages[stage]:
                return self._stages[stage][key]
        return None


def redaction_for(
    campaign: Campaign,
    role: Role,
    written: Callable[[], Mapping[str, Mapping[str, JSON]]] = dict,
    fights: Fights = no_fights,
) -> Redaction | None:
    """The policy for a key of this role on this campaign: None for the GM (everything).
    ``fights``: the campaign's encounters as they stand (its open ones, or every one),
    whose recorded words an NPC's tracks in a fight's answer read as (read once an NPC's
    tracks are met, the open ones first: ``SeenOnce``)."""
    if role == "gm":
        return None
    rules = installed.rules(campaign.ruleset_id, campaign.options)
    npcs: dict[str, Npc] = {}
    if campaign.options.get("show_npc_numbers") is not True:
        for cid in campaign.characters:
            character = campaign.character(cid)
            if character.npc:
                kept = kept_for(campaign, cid)
                maxima = kept.maxima if kept is not None else SheetMaxima(rules, character.sheet)
                npcs[cid] = Npc(character.name, maxima)
    roster = {cid: campaign.character(cid) for cid in campaign.characters}
    names = {cid: character.name for cid, character in roster.items()}
    seen = SeenOnce(campaign, npcs, fights)
    return Redaction(campaign.ruleset_id, npcs, names, rules, roster, ReadOnce(written), seen)
