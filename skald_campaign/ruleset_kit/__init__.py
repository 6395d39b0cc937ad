"""The ruleset contract kit: the tests every ruleset passes, for a ruleset author to run.

Like the recorder test cases of eventsourcing that a persistence module subclasses,
this is a class of tests a ruleset's own test suite subclasses, naming its ruleset
and a few samples (docs/rulesets.md, "Write your own ruleset")::

    from skald_campaign.ruleset_kit import ActionSample, BadInput, RulesetContract

    class TestHitPoints(RulesetContract):
        ruleset = HitPoints()
        sheets = ({"hp": 12, "defense": 13, ...}, {"hp": 9, "defense": 11, ...})
        samples = (ActionSample("attack", {"target": "$target"}, {"attack": [15]}),)
        bad_sheets = (BadInput({"hp": 0, ...}, "sheet.hp"),)
        bad_params = (BadInput({"target": 3}, "attack.target", kind="attack"),)

pytest collects the subclass (its name starts with ``Test``) and runs every test below
against the ruleset: resolution from given dice is deterministic; nothing rolls while
the store applies the recorded events; a void, a reroll with the recorded dice and a
rewind each leave the fight exactly as the same fight played without the corrected
action (through Skald's own application, stored in SQLite in a temporary folder);
bad sheets and parameters are refused naming the field; the exact odds Skald offers
for each sample sum to exactly 1; the engine's table options (rolled initiative,
actions per round, skipping a combatant who cannot act) work with the ruleset; every
condition the tracks bring on has a descriptor, the one word players and viewers read
for an NPC's tracks (RULINGS T3); and every text part the ruleset's narration builds has
a rendering for a reader who may not see an NPC's numbers (RULINGS T3a).

This package imports pytest: it is for tests (Skald's ``test`` extra) and Skald's
runtime never imports it.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

import pytest

from skald_campaign.ruleset_api import (
    ActionRefused,
    CombatantView,
    DiceTray,
    EncounterView,
    InvalidInput,
    Outcome,
    Ruleset,
)

__all__ = ["ActionSample", "BadInput", "FailingRoller", "RulesetContract", "registered"]

ACTOR = "$actor"
TARGET = "$target"


@dataclass(frozen=True)
class ActionSample:
    """One action to try: its kind, its parameters and the dice the table rolled.

    In ``params``, the strings ``"$actor"`` and ``"$target"`` stand for the ids of the
    acting combatant (the contract's first sheet, on the heroes' side) and of the other
    one (its second sheet, on the foes' side). ``actor`` None: the GM's action, no actor.
    The dice are every roll the action makes, by roll name: none may be left unused.
    """

    kind: str
    params: Mapping[str, Any]
    dice: Mapping[str, Sequence[int]]
    actor: str | None = ACTOR


@dataclass(frozen=True)
class BadInput:
    """A sheet (or, with ``kind``, an action's parameters) the ruleset must refuse, and
    the field the refusal names, as Skald's 422 names it (``sheet.hp``, ``attack.target``)."""

    value: Mapping[str, Any]
    field: str
    kind: str | None = None


class FailingRoller:
    """A roller for where nothing may roll: every call fails the test, naming the roll."""

    def __init__(self, where: str) -> None:
        self.where = where

    def randint(self, a: int, b: int) -> int:
        pytest.fail(f"a die ({a}-{b}) was rolled {self.where}; every face was given")


@dataclass
class _Fight:
    """One campaign and one encounter in a SkaldApplication stored in SQLite."""

    app: Any
    campaign_id: UUID
    encounter_id: UUID
    ids: tuple[str, str]
    versions: list[int] = field(default_factory=list)
    third: str | None = None


class RulesetContract:
    """Subclass it as ``TestYourRuleset`` and set the class attributes below."""

    # The ruleset under test (an instance, as its entry point names it).
    ruleset: ClassVar[Ruleset]
    # At least two valid sheets: the first acts (heroes), the second is the target (foes).
    sheets: ClassVar[Sequence[Mapping[str, Any]]]
    # Actions with the dice the table rolled; each is tried from the start of a fight.
    samples: ClassVar[Sequence[ActionSample]]
    bad_sheets: ClassVar[Sequence[BadInput]] = ()
    bad_params: ClassVar[Sequence[BadInput]] = ()
    # The campaign's options (the ruleset's own and the table's), as a GM would send them.
    options: ClassVar[Mapping[str, Any]] = {}
    # A sheet field an initiative roll may add (None: the ruleset names none).
    initiative_add: ClassVar[str | None] = None
    # Tracks that leave a combatant of the second sheet unable to act at all (its
    # ruleset's ``cannot_act_at_all``), for the skipping test; None: no such state.
    unable_tracks: ClassVar[Mapping[str, int] | None] = None

    @pytest.fixture(autouse=True)
    def _skald_finds_the_ruleset(self) -> Iterator[None]:
        with registered(self.ruleset):
            yield

    # -- the tests -------------------------------------------------------------------

    def test_sheets_validate_and_every_track_starts_full(self) -> None:
        assert len(self.sheets) >= 2, "the contract needs two sheets: an actor and a target"
        for sheet in self.sheets:
            stored = self.ruleset.validate_sheet(sheet)
            maxima = self.ruleset.track_maxima(stored)
            assert maxima, "a character has at least one track"
            assert all(isinstance(v, int) and not isinstance(v, bool) for v in maxima.values())
            assert self.ruleset.validate_sheet(stored) == stored, "a stored sheet reads as itself"

    def test_resolution_is_deterministic_from_given_dice(self) -> None:
        for sample in self._samples():
            first, rolls = self._resolve(sample)
            again, rolls_again = self._resolve(sample)
            assert (first, rolls) == (again, rolls_again), sample.kind
            assert {r["name"]: r["faces"] for r in rolls} == _dice(sample, self._view()[1])
            assert all(r["supplied"] for r in rolls), sample.kind

    def test_applying_never_rolls(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        from skald_campaign.domain.play.standing import forget_all

        for n, sample in enumerate(self._samples()):
            fight = self._fight(tmp_path / f"apply-{n}.sqlite")
            self._perform(fight, sample)
            played = self._combatants(fight.app, fight)
            # Read back by another application on the same store: the recorded events
            # are applied with a roller that fails, and with the random module failing;
            # as in another process, with no conditions worked out yet to reuse.
            forget_all()
            for name in ("randint", "random", "choice", "randrange", "shuffle", "sample"):
                monkeypatch.setattr(random, name, _fails(name))
            reader = self._application(tmp_path / f"apply-{n}.sqlite", "while applying")
            assert self._combatants(reader, fight) == played, sample.kind
            monkeypatch.undo()

    def test_a_void_replays_identically(self, tmp_path: Path) -> None:
        from skald_campaign.application.commands import VoidAction

        for n, sample in enumerate(self._samples()):
            twice = self._fight(tmp_path / f"void-{n}.sqlite")
            self._perform(twice, sample)
            self._next_round(twice)
            self._perform(twice, sample)
            twice.app.void_action(
                VoidAction(twice.campaign_id, twice.encounter_id, 1, "the kit voids it")
            )
            # As if the first action had never been taken.
            self._assert_as_played(tmp_path, f"void-{n}", twice, sample, next_round_first=True)

    def test_a_reroll_with_the_recorded_dice_replays_identically(self, tmp_path: Path) -> None:
        from skald_campaign.application.commands import RerollAction

        for n, sample in enumerate(self._samples()):
            fight = self._fight(tmp_path / f"reroll-{n}.sqlite")
            self._perform(fight, sample)
            dice = _dice(sample, fight.ids)
            fight.app.reroll_action(
                RerollAction(fight.campaign_id, fight.encounter_id, 1, "the kit rerolls", dice)
            )
            self._assert_as_played(tmp_path, f"reroll-{n}", fight, sample)

    def test_a_rewind_replays_identically(self, tmp_path: Path) -> None:
        from skald_campaign.application.commands import RewindEncounter

        for n, sample in enumerate(self._samples()):
            fight = self._fight(tmp_path / f"rewind-{n}.sqlite")
            self._perform(fight, sample)
            self._next_round(fight)
            self._perform(fight, sample)
            back_to = fight.versions[0]  # the encounter's version after the first action
            fight.app.rewind_encounter(
                RewindEncounter(fight.campaign_id, fight.encounter_id, back_to, "the kit rewinds")
            )
            self._assert_as_played(tmp_path, f"rewind-{n}", fight, sample)

    def test_bad_sheets_are_refused_naming_the_field(self) -> None:
        for bad in self.bad_sheets:
            with pytest.raises(InvalidInput) as refused:
                self.ruleset.validate_sheet(bad.value)
            assert bad.field in _fields(refused.value), (bad.field, str(refused.value))

    def test_bad_params_are_refused_naming_the_field(self) -> None:
        for bad in self.bad_params:
            assert bad.kind is not None, "a BadInput for params names its action's kind"
            with pytest.raises(InvalidInput) as refused:
                self.ruleset.validate_params(bad.kind, bad.value)
            assert bad.field in _fields(refused.value), (bad.field, str(refused.value))

    def test_an_unknown_action_is_refused_naming_the_actions(self) -> None:
        with pytest.raises(InvalidInput) as refused:
            self.ruleset.validate_params("no-such-action", {})
        assert all(kind in str(refused.value) for kind in self.ruleset.actions)

    def test_the_odds_offered_sum_to_exactly_one(self) -> None:
        from skald_campaign.domain.odds.explore import TooLarge
        from skald_campaign.domain.odds.odds import action_odds

        offered = 0
        for sample in self._samples():
            view, ids = self._view()
            params = _placed(sample.params, ids)
            actor = ids[0] if sample.actor == ACTOR else sample.actor
            try:
                odds = action_odds(self._rules(), view, sample.kind, actor, params)
            except TooLarge:
                continue  # Skald answers that exact odds would cost too much: none offered
            offered += 1
            results = odds["results"]
            assert isinstance(results, list)
            assert sum(_chance(row) for row in results) == 1, (sample.kind, results)
            damage = odds["damage"]
            assert isinstance(damage, list)
            for track in damage:
                assert isinstance(track, dict)
                rows = track["distribution"]
                assert isinstance(rows, list)
                # Rows of probability 0 are left out; "no loss" is one when it can happen.
                assert sum(_chance(row) for row in rows) == 1, (sample.kind, track)
        if not offered:
            pytest.skip("Skald offers no exact odds for these samples")

    def test_rolled_initiative_orders_by_the_given_dice(self, tmp_path: Path) -> None:
        from skald_campaign.application.table_commands import RollInitiative

        initiative: dict[str, Any] = {"mode": "roll", "dice": "1d20"}
        if self.initiative_add is not None:
            initiative["add"] = self.initiative_add
        fight = self._fight(tmp_path / "initiative.sqlite", extra={"initiative": initiative})
        actor, target = fight.ids
        encounter = fight.app.roll_initiative(
            RollInitiative(
                fight.campaign_id,
                fight.encounter_id,
                {f"initiative.{actor}": [1], f"initiative.{target}": [20]},
            )
        )
        assert encounter.order == [target, actor]

    def test_actions_per_round_limits_an_actor(self, tmp_path: Path) -> None:
        sample = self._first_by_an_actor()
        fight = self._fight(tmp_path / "per-round.sqlite", extra={"actions_per_round": 1})
        self._perform(fight, sample)
        with pytest.raises(ActionRefused):
            self._perform(fight, sample)
        self._next_round(fight)
        self._perform(fight, sample)  # a new round, a new action

    def test_a_combatant_who_cannot_act_is_skipped(self, tmp_path: Path) -> None:
        from skald_campaign.application.table_commands import NextTurn, SetTurnOrder

        if self.unable_tracks is None:
            pytest.skip("the contract names no tracks that leave a combatant unable to act")
        stored = self.ruleset.validate_sheet(self.sheets[1])
        maxima = self.ruleset.track_maxima(stored)
        conditions = self.ruleset.conditions(stored, {**maxima, **self.unable_tracks}, {})
        assert self.ruleset.cannot_act_words(conditions) is not None, conditions
        unable = {**self.sheets[1]}
        fight = self._fight(tmp_path / "skip.sqlite", third=unable)
        actor, target = fight.ids
        third = fight.third
        assert third is not None
        self._adjust(fight, target, dict(self.unable_tracks))
        fight.app.set_turn_order(
            SetTurnOrder(fight.campaign_id, fight.encounter_id, (actor, target, third))
        )
        encounter = fight.app.next_turn(NextTurn(fight.campaign_id, fight.encounter_id))
        assert encounter.order[encounter.turn_index] == third

    def test_every_condition_has_a_descriptor(self) -> None:
        """RULINGS T3: a player and a viewer read an NPC's tracks as one word, the
        ruleset's ``track_descriptor`` (NpcDescriptors) or else Skald's hurt or unhurt.
        For every tracks each sheet can be at (each track from its maximum down to one
        below minus its maximum), the word states no number; a condition the tracks
        bring on (one the character does not have at full tracks) is described, never
        by the word full tracks read as; and a word that names one of the ruleset's
        conditions is said only of a character who has it."""
        from skald_campaign.domain.reading.visibility import descriptor

        rules = self._rules()
        for n, sheet in enumerate(self.sheets):
            stored = rules.validate_sheet(sheet)
            maxima = rules.track_maxima(stored)
            state = rules.start_state(stored)
            at_full = set(rules.conditions(stored, maxima, state))
            full_word = descriptor(rules, maxima, maxima)
            seen = [
                (tracks, set(rules.conditions(stored, tracks, state)))
                for tracks in _every_tracks(maxima)
            ]
            names = {c for _, found in seen for c in found}
            names |= rules.incapacitating | rules.cannot_act_at_all
            for tracks, found in seen:
                word = descriptor(rules, tracks, maxima)
                where = f"sheet {n} at {tracks}: {sorted(found)} read as {word!r}"
                assert word and word.strip() == word, f"an empty descriptor: {where}"
                assert not re.search(r"[0-9]", word), f"a descriptor states a number: {where}"
                if found - at_full:
                    assert word != full_word, f"a condition with no descriptor: {where}"
                if word in names:
                    assert word in found, f"a descriptor names a condition not had: {where}"

    def test_every_text_part_has_a_reader_safe_rendering(self, tmp_path: Path) -> None:
        """RULINGS T3a: the texts the ruleset's narration builds of each sample's record
        (``summary``, ``narrative``, ``outcome``; Narration) are made of parts each
        reader can render: plain words, a ``Secret`` or a ``Descriptor`` of a combatant
        of the fight. For the GM they read exactly as the record's own summary and
        narrative (else Skald cannot use them, and players and viewers read the bare
        outcome); for a reader who may not see the target's numbers, they state none
        of its tracks, maxima or losses (but as the open dice's or the parameters' numbers)."""
        from skald_campaign.domain.reading.narrative import (
            conditions_lines,
            unids_lines,
            unused_lines,
        )
        from skald_campaign.domain.reading.narrators import narrate
        from skald_campaign.domain.reading.texts import GM, Reader, render, render_lines
        from skald_campaign.domain.reading.told import summary_parts

        for n, sample in enumerate(self._samples()):
            fight = self._fight(tmp_path / f"texts-{n}.sqlite")
            self._perform(fight, sample)
            encounter = fight.app.encounter(fight.campaign_id, fight.encounter_id)
            roster = dict(encounter.combatants)
            record = encounter.actions[-1].as_json()
            rules = self._rules()
            built: list[Any] = []
            summary = rules.summary(record, roster)
            if summary is not None:
                _check_parts(summary, roster, sample.kind)
                built.append(summary)
                assert summary_parts(rules.id, record, roster) is not None, (
                    sample.kind,
                    "the summary's parts do not read as the record's summary",
                    render(summary),
                    record.get("summary"),
                )
            lines = rules.narrative(record, roster)
            if lines is not None:
                for line in lines:
                    _check_parts(line, roster, sample.kind)
                built.extend(lines)
                extra = [
                    (line,) for line in unused_lines(record) + conditions_lines(record, roster)
                ]
                said = unids_lines(render_lines([*lines, *extra]), roster)
                assert said == narrate(rules.id, record, roster), (sample.kind, said)
            outcome = rules.outcome(record, roster)
            if outcome is not None:
                _check_parts(outcome, roster, sample.kind)
                built.append(outcome)
            target = fight.ids[1]
            maxima = rules.track_maxima(rules.validate_sheet(self.sheets[1]))
            now = dict(encounter.combatants[target].tracks)
            secret = _numbers_of(now, maxima) - _faces(record, roster)
            readers = [GM, *(Reader(frozenset({cid})) for cid in roster)]
            readers.append(Reader(frozenset(roster)))
            for text in built:
                for reader in readers:
                    assert isinstance(render(text, reader), str)
                hidden = render(text, Reader(frozenset({target}), _described))
                stated = {int(x) for x in re.findall(r"[0-9]+", hidden)} & secret
                assert not stated, (sample.kind, "an NPC's numbers stated", hidden, stated)

    # -- how the tests play -----------------------------------------------------------

    def _samples(self) -> Sequence[ActionSample]:
        assert self.samples, "the contract needs at least one sample action"
        return self.samples

    def _first_by_an_actor(self) -> ActionSample:
        for sample in self._samples():
            if sample.actor is not None:
                return sample
        pytest.skip("no sample has an actor")

    def _rules(self) -> Ruleset:
        return self.ruleset.under(self.ruleset.validate_options(self.options))

    def _view(self) -> tuple[EncounterView, tuple[str, str]]:
        rules = self._rules()
        ids = ("kit-actor", "kit-target")
        combatants: dict[str, CombatantView] = {}
        for cid, side, sheet in zip(ids, ("heroes", "foes"), self.sheets, strict=False):
            stored = rules.validate_sheet(sheet)
            tracks = rules.track_maxima(stored)
            state = rules.start_state(stored)
            conditions = rules.conditions(stored, tracks, state)
            combatants[cid] = CombatantView(
                cid, cid, side, 1, stored, tracks, state, tuple(conditions)
            )
        options = rules.validate_options(self.options)
        return EncounterView(1, combatants, options), ids

    def _resolve(self, sample: ActionSample) -> tuple[Outcome, list[dict[str, Any]]]:
        view, ids = self._view()
        rules = self._rules()
        params = rules.validate_params(sample.kind, _placed(sample.params, ids))
        tray = DiceTray(FailingRoller("while resolving"), _dice(sample, ids))
        actor = ids[0] if sample.actor == ACTOR else sample.actor
        outcome = rules.action_type(sample.kind).resolve(view, actor, params, tray)
        return outcome, [dict(r) for r in tray.close()]

    def _application(self, path: Path, where: str) -> Any:
        from skald_campaign.application.application import SkaldApplication

        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
        return SkaldApplication(env=env, roller=FailingRoller(where))

    def _fight(
        self,
        path: Path,
        *,
        extra: Mapping[str, Any] | None = None,
        third: Mapping[str, Any] | None = None,
    ) -> _Fight:
        from skald_campaign.application.commands import (
            Combatant,
            CreateCampaign,
            EnrolCharacter,
            StartEncounter,
        )

        options = {**self.options, **(extra or {})}
        app = self._application(path, "in a fight where every face was given")
        campaign = app.create_campaign(CreateCampaign("Kit", self.ruleset.id, options))
        ids = []
        for name, sheet in zip(("Actor", "Target"), self.sheets, strict=False):
            _, cid = app.enrol_character(EnrolCharacter(campaign.id, name, dict(sheet)))
            ids.append(cid)
        combatants = [Combatant(ids[0], "heroes"), Combatant(ids[1], "foes")]
        extra_id = None
        if third is not None:
            _, extra_id = app.enrol_character(EnrolCharacter(campaign.id, "Third", dict(third)))
            combatants.append(Combatant(extra_id, "foes"))
        encounter = app.start_encounter(StartEncounter(campaign.id, "Kit", tuple(combatants)))
        return _Fight(app, campaign.id, encounter.id, (ids[0], ids[1]), third=extra_id)

    def _perform(self, fight: _Fight, sample: ActionSample) -> None:
        from skald_campaign.application.commands import PerformAction

        params = dict(_placed(sample.params, fight.ids))
        actor = fight.ids[0] if sample.actor == ACTOR else sample.actor
        dice = _dice(sample, fight.ids)
        encounter, _ = fight.app.perform_action(
            PerformAction(fight.campaign_id, fight.encounter_id, sample.kind, params, actor, dice)
        )
        fight.versions.append(encounter.version)

    def _adjust(self, fight: _Fight, character_id: str, tracks: dict[str, int]) -> None:
        from skald_campaign.application.commands import AdjustTracks

        fight.app.adjust_tracks(
            AdjustTracks(fight.campaign_id, character_id, "the kit", set=tracks)
        )

    def _combatants(self, app: Any, fight: _Fight) -> dict[str, Any]:
        encounter = app.encounter(fight.campaign_id, fight.encounter_id)
        return {
            cid: (
                dict(c.as_json()["tracks"]),
                dict(c.as_json()["state"]),
                encounter.conditions_of(cid),
            )
            for cid, c in encounter.combatants.items()
        }

    def _next_round(self, fight: _Fight) -> None:
        from skald_campaign.application.commands import NextRound

        fight.app.next_round(NextRound(fight.campaign_id, fight.encounter_id))

    def _assert_as_played(
        self,
        tmp_path: Path,
        name: str,
        corrected: _Fight,
        sample: ActionSample,
        next_round_first: bool = False,
    ) -> None:
        """The corrected fight stands as a fresh one where ``sample`` was played once (in
        round 2 when ``next_round_first``), and reads so from its store."""
        once = self._fight(tmp_path / f"{name}-once.sqlite")
        if next_round_first:
            self._next_round(once)
        self._perform(once, sample)
        expected = _renamed(self._combatants(once.app, once), once.ids, corrected.ids)
        assert self._combatants(corrected.app, corrected) == expected, (name, sample.kind)
        reader = self._application(tmp_path / f"{name}.sqlite", "while reading a correction")
        assert self._combatants(reader, corrected) == expected, (name, sample.kind)


# -- helpers ----------------------------------------------------------------------------


@contextmanager
def registered(ruleset: Ruleset) -> Iterator[None]:
    """Skald plays ``ruleset`` under its id for as long as this lasts: the one under test,
    installed or not (an installed one of the same id is set aside meanwhile). Every
    reader of the registry (the campaign, its version check, the reads) then finds it."""
    from skald_campaign.domain.rulesets import RULESETS

    with RULESETS.added(ruleset):
        yield


def _every_tracks(maxima: Mapping[str, int]) -> Iterator[dict[str, int]]:
    """Every tracks from the maxima down to one below minus each maximum: all of them
    together where there are at most 20,000, else each track alone (the others full)
    and all of them at once."""
    names = list(maxima)
    ranges = [range(maxima[name], -maxima[name] - 2, -1) for name in names]
    count = 1
    for values in ranges:
        count *= len(values)
    if count <= 20_000:
        for together in itertools.product(*ranges):
            yield dict(zip(names, together, strict=True))
        return
    for name, values in zip(names, ranges, strict=True):
        for value in values:
            yield {**maxima, name: value}
    for step in range(max(maxima.values(), default=0) * 2 + 2):
        yield {name: maxima[name] - step for name in names}


def _check_parts(text: Any, roster: Mapping[str, Any], kind: str) -> None:
    from skald_campaign.domain.reading.texts import Descriptor, Secret

    assert isinstance(text, tuple), (kind, "a text is a tuple of parts", text)
    for part in text:
        if isinstance(part, str):
            continue
        if isinstance(part, Secret):
            assert part.owner in roster, (kind, "a secret of no combatant", part)
            _check_parts(part.parts, roster, kind)
            _check_parts(part.instead, roster, kind)
            continue
        assert isinstance(part, Descriptor), (kind, "a part no reader can render", part)
        assert part.owner in roster, (kind, "a descriptor of no combatant", part)
        assert all(isinstance(v, int) for v in part.tracks.values()), (kind, part)


def _described(owner: str, tracks: Mapping[str, int]) -> str:
    return "described"


def _numbers_of(now: Mapping[str, int], maxima: Mapping[str, int]) -> set[int]:
    """The target's numbers a reader who may not see them must not read: its tracks now,
    their maxima (where it started) and what each one lost."""
    lost = {maxima[name] - value for name, value in now.items() if name in maxima}
    return {*now.values(), *maxima.values(), *(n for n in lost if n > 0)}


def _faces(record: Mapping[str, Any], roster: Mapping[str, Any]) -> set[int]:
    """What every reader reads of the record (RULINGS T3a): the open dice (how many were
    thrown, of how many sides, their faces) and the numbers of the action's parameters.
    A parameter naming a combatant by its id (a uuid4) is read as its name: the digits
    of the id are no number (else a target whose id held "12" let its 12 HP be stated)."""
    found: set[int] = set()
    for roll in record.get("rolls") or []:
        if isinstance(roll, Mapping):
            found |= {int(f) for f in roll.get("faces") or []}
            found |= {int(x) for x in re.findall(r"[0-9]+", str(roll.get("dice", "")))}
    return found | _numbers_in(record.get("params"), roster)


def _numbers_in(value: Any, roster: Mapping[str, Any]) -> set[int]:
    if isinstance(value, str):
        return set() if value in roster else {int(x) for x in re.findall(r"[0-9]+", value)}
    if isinstance(value, Mapping):
        return {n for item in value.values() for n in _numbers_in(item, roster)}
    if isinstance(value, list | tuple):
        return {n for item in value for n in _numbers_in(item, roster)}
    return {int(x) for x in re.findall(r"[0-9]+", str(value))}


def _fails(name: str) -> Any:
    def fail(*args: object, **kwargs: object) -> object:
        pytest.fail(f"random.{name} was called while the store applied recorded events")

    return fail


def _placed(params: Mapping[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    def place(value: Any) -> Any:
        if value == ACTOR:
            return ids[0]
        if value == TARGET:
            return ids[1]
        if isinstance(value, Mapping):
            return {k: place(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [place(v) for v in value]
        return value

    return {name: place(value) for name, value in params.items()}


def _dice(sample: ActionSample, ids: Sequence[str]) -> dict[str, list[int]]:
    """The sample's dice, the ids placed in the roll names (``defense.$target.guard``)."""
    return {
        name.replace(ACTOR, ids[0]).replace(TARGET, ids[1]): list(faces)
        for name, faces in sample.dice.items()
    }


def _renamed(found: dict[str, Any], old: Sequence[str], new: Sequence[str]) -> dict[str, Any]:
    names = dict(zip(old, new, strict=True))
    return {names.get(cid, cid): value for cid, value in found.items()}


def _fields(error: InvalidInput) -> list[str]:
    problems = getattr(error, "problems", None)
    if problems is None:
        return [str(error)]
    return [str(problem.field) for problem in problems]


def _chance(row: object) -> Fraction:
    assert isinstance(row, dict)
    return Fraction(str(row["probability"]))
