"""Every path of dice through the real resolver, with its exact probability.

A :class:`ScriptedTray` is the tray the resolver already uses, fed a script of
faces for its first rolls. When the resolver asks for a roll beyond the script
(the first roll, or a conditional one: luck's second look, a Ward's
interception, a hazard save), the tray stops the resolution and names the roll;
the explorer then runs the resolver again once per distinct outcome of that roll
(see :mod:`domain.odds.faces`), script extended. Re-running from the start is
what lets the untouched rule code, with its own conditions and its own order,
decide which roll comes next.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Generic, TypeVar

from skald_campaign.domain.errors import InvalidInput
from skald_campaign.domain.odds.faces import Classes, FaceModel, Faces
from skald_campaign.domain.play.dice import DiceTray, Roll

ModelFor = Callable[[str], FaceModel]


@dataclass(frozen=True, slots=True)
class RunCost:
    """What one run of the resolver costs, in cost units (a ruleset's
    ``odds_run_cost``; domain/odds/cost.py charges a request by it)."""

    base: int  # cost units of one resolver run
    per_die: int  # and of each die it rolls

    def of(self, dice: int) -> int:
        return self.base + self.per_die * dice


ONE_RUN = RunCost(base=1, per_die=0)  # a budget counted in resolver runs (the tests' own)
MAX_LISTED = 20_000  # throws listed for one roll before merging (a 60-die margin pool: 1,891)


class TooLarge(InvalidInput):
    """Exact odds would take too long: refused before (or instead of) answering slowly."""

    def __init__(self, outcomes: int, limit: int, spent: int = 0) -> None:
        super().__init__(
            f"too large to compute exactly: {outcomes} outcomes (the limit is {limit}); "
            "fewer dice, effort or defenders bring it within reach"
        )
        self.outcomes = outcomes
        self.limit = limit
        self.spent = spent  # the cost units spent before it was refused


@dataclass(frozen=True)
class RollAsked:
    name: str
    count: int
    sides: int


class _NeedRoll(BaseException):
    """Not an error: the resolver reached a roll the script does not cover.

    A BaseException, so that no ``except Exception`` in rule code can swallow it.
    """

    def __init__(self, asked: RollAsked) -> None:
        super().__init__(asked.name)
        self.asked = asked


class ScriptedTray(DiceTray):
    """Supplies the script's faces in order; past its end, stops, or ``fill``s on.

    With ``fill``, a roll past the script takes the faces ``fill`` picks, and the
    tray remembers what was asked: one run then walks a whole path to its end and
    tells the explorer the roll asked at every step of it.
    """

    def __init__(
        self, script: Sequence[Faces], fill: Callable[[RollAsked], Faces] | None = None
    ) -> None:
        super().__init__(None)
        self._script = script
        self._fill = fill
        self._next = 0
        self.dice = 0  # dice rolled so far (what a run costs: domain/odds/cost.py)
        self.filled: list[tuple[RollAsked, Faces]] = []

    def roll(self, name: str, count: int, sides: int, modifier: int = 0) -> Roll:
        self.dice += count
        if self._next < len(self._script):
            faces = self._script[self._next]
        else:
            asked = RollAsked(name, count, sides)
            if self._fill is None:
                raise _NeedRoll(asked)
            faces = self._fill(asked)
            self.filled.append((asked, faces))
        self._next += 1
        self._supplied[name] = list(faces)
        return super().roll(name, count, sides, modifier)


R = TypeVar("R")  # what one run of the resolver returns (a Resolved)
Script = tuple[tuple[str, Faces], ...]  # each roll made so far: its name and faces
Key = Callable[[Script], Hashable | None]
Features = Hashable
Spent = Callable[[Script], dict[str, int]]
Shift = Callable[[Features, dict[str, int]], Features]


@dataclass(frozen=True)
class Memo:
    """What a path's future depends on (``key``), and what its past already spent.

    With ``spent`` (luck points by combatant, say), a shared subtree is kept relative
    to its own path's spending and ``shift`` adds the difference back for each path
    that uses it, so the key need not tell apart paths that differ only in what
    they already spent.
    """

    key: Key
    spent: Spent | None = None
    shift: Shift | None = None


@dataclass
class Distribution:
    """Features of the outcome -> exact probability, as integers over one denominator."""

    weights: dict[Features, int]
    denominator: int

    def probabilities(self) -> dict[Features, Fraction]:
        return {f: Fraction(w, self.denominator) for f, w in self.weights.items()}


@dataclass
class Exploration:
    distribution: Distribution
    runs: int  # times the resolver ran (paths sharing a key run once)
    cost: int  # the cost units they were charged
    paths: int  # the estimate of distinct paths of dice made before exploring


Step = RollAsked | Hashable  # what a path leads to: the next roll, or the outcome's features


class Explorer(Generic[R]):
    """One action's tree of dice paths, each distinct path (or key) resolved once.

    ``key`` (optional) names what of a path so far the rest of the resolution depends
    on; paths with equal keys share one resolution and one subtree (see
    :mod:`domain.odds.memo`). Each run is charged its ``cost`` (domain/odds/cost.py);
    past ``budget`` cost units it refuses: an exact answer would come too slowly.
    """

    def __init__(
        self,
        run: Callable[[DiceTray], R],
        features: Callable[[R], Features],
        model_for: ModelFor,
        *,
        memo: Memo | None = None,
        budget: int,
        cost: RunCost = ONE_RUN,
    ) -> None:
        self._run = run
        self._features = features
        self._model_for = model_for
        self._memo = memo
        self.budget = budget
        self.cost = cost
        self.spent = 0  # cost units spent so far
        self.runs = 0
        self.paths = 0
        self._steps: dict[Hashable, Step] = {}
        self._sizes: dict[Hashable, int] = {}
        self._found: dict[Hashable, Distribution] = {}
        self._classes: dict[tuple[str, int, int], Classes] = {}

    def _label(self, script: Script) -> Hashable:
        """The memo's key, or else the path itself (always safe to share, with the estimate)."""
        label = self._memo.key(script) if self._memo is not None else None
        return ("path", script) if label is None else ("key", label)

    def _spent(self, script: Script) -> dict[str, int]:
        if self._memo is None or self._memo.spent is None:
            return {}
        return self._memo.spent(script)

    def _shifted(self, found: Distribution, by: dict[str, int]) -> Distribution:
        shift = self._memo.shift if self._memo is not None else None
        if shift is None or not any(by.values()):
            return found
        weights: dict[Features, int] = {}
        for f, w in found.weights.items():
            moved = shift(f, by)
            weights[moved] = weights.get(moved, 0) + w
        return Distribution(weights, found.denominator)

    def step(self, script: Script) -> Step:
        label = self._label(script)
        if label in self._steps:
            return self._steps[label]
        self.runs += 1
        if self.spent + self.cost.base > self.budget:
            raise TooLarge(max(self.paths, self.runs), self.affordable(), self.spent)
        # The run goes on past the script with each roll's first outcome (the branch
        # the explorer takes first), so every step of that path is learnt at once.
        tray = ScriptedTray([faces for _, faces in script], fill=self._first_outcome)
        result = self._run(tray)
        self.spent += self.cost.of(tray.dice)
        if self.spent > self.budget:  # an answer never costs more than its budget
            raise TooLarge(max(self.paths, self.runs), self.affordable(), self.spent)
        path = script
        for asked, faces in tray.filled:
            self._steps.setdefault(self._label(path), asked)
            path = (*path, (asked.name, faces))
        # Kept relative to what this path already spent, like every shared subtree.
        spent = self._spent(path)
        found = self._features(result)
        if self._memo is not None and self._memo.shift is not None and spent:
            found = self._memo.shift(found, {who: -n for who, n in spent.items()})
        self._steps.setdefault(self._label(path), found)
        return self._steps[label]

    def affordable(self) -> int:
        """The resolver runs the budget pays for, at what this action's runs have cost."""
        per_run = max(self.cost.base, self.spent // self.runs) if self.runs else self.cost.base
        return max(1, self.budget // per_run)

    def _first_outcome(self, asked: RollAsked) -> Faces:
        return self.classes(asked)[0][0]

    def classes(self, asked: RollAsked) -> Classes:
        slot = (asked.name, asked.count, asked.sides)
        if slot not in self._classes:
            model = self._model_for(asked.name)
            listed = model.work(asked.count, asked.sides)
            # Each outcome of a roll costs a resolver run at least, and listing them costs
            # time of its own: a roll that could not fit either is refused unlisted.
            # Each outcome is a run that rolls these dice at least.
            limit = max(1, self.budget // self.cost.of(asked.count))
            if listed > max(limit, MAX_LISTED) or (model.total and listed > limit):
                raise TooLarge(max(listed, self.paths), limit, self.spent)
            self._classes[slot] = model.classes(asked.count, asked.sides)
        return self._classes[slot]

    def estimate(self, cap: int) -> int:
        """How many distinct paths of dice the action has, estimated from its extremes.

        Only the lowest and the highest outcome of each roll are followed (they are
        what trigger the conditional rolls: a blank pool's luck, a blow that beats
        every defense and meets a Ward, a failed check or a success that reaches a
        wall); a roll with ``n`` outcomes counts ``n`` times the mean of what its two
        extremes lead to (Knuth's estimate of a tree's size), capped at ``cap``.
        """
        self.paths = self._size((), cap)
        return self.paths

    def _size(self, script: Script, cap: int) -> int:
        label = self._label(script)
        if label in self._sizes:
            return self._sizes[label]
        asked = self.step(script)
        size = 1
        if isinstance(asked, RollAsked):
            classes = self.classes(asked)
            below = [
                self._size((*script, (asked.name, faces)), cap) for faces in _extremes(classes)
            ]
            size = min(cap, len(classes) * sum(below) // len(below))
        self._sizes[label] = size
        return size

    def explore(self) -> Exploration:
        return Exploration(
            self._shifted(self._distribution(()), self._spent(())),
            self.runs,
            self.spent,
            self.paths,
        )

    def _distribution(self, script: Script) -> Distribution:
        label = self._label(script)
        if label in self._found:
            return self._found[label]
        asked = self.step(script)
        if isinstance(asked, RollAsked):
            here = self._spent(script)
            branches = []
            for faces, share in self.classes(asked):
                child = (*script, (asked.name, faces))
                there = self._spent(child)
                extra = {who: n - here.get(who, 0) for who, n in there.items()}
                branches.append((share, self._shifted(self._distribution(child), extra)))
            found = _merge(branches)
        else:
            found = Distribution({asked: 1}, 1)
        self._found[label] = found
        return found


def _merge(branches: Sequence[tuple[Fraction, Distribution]]) -> Distribution:
    common = lcm(*(share.denominator * d.denominator for share, d in branches))
    weights: dict[Features, int] = {}
    for share, d in branches:
        scale = share.numerator * (common // (share.denominator * d.denominator))
        for f, w in d.weights.items():
            weights[f] = weights.get(f, 0) + w * scale
    return Distribution(weights, common)


def _extremes(classes: Classes) -> list[Faces]:
    ranked = sorted((sum(faces), faces) for faces, _ in classes)
    low, high = ranked[0][1], ranked[-1][1]
    return [low] if low == high else [low, high]
