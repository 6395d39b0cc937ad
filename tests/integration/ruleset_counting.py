"""A built-in ruleset with some of its methods counted by name, for tests that prove the
read side asks the rules nothing (tests/integration/test_told_recorded.py,
test_gets_without_rules.py): install it with ``RULESETS.added(counting(...))``."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from skald_campaign.domain.rulesets import RULESETS
from skald_campaign.domain.rulesets.base import JsonMapping, Ruleset
from skald_campaign.domain.rulesets.d20 import D20
from skald_campaign.domain.rulesets.margin import Margin
from skald_campaign.domain.rulesets.stamina_body import StaminaBody

R = TypeVar("R", bound=Ruleset)


def counting(base: type[R], names: Iterable[str], calls: Counter[str]) -> R:
    """The built-in ruleset ``base``, every call of each of ``names`` counted in ``calls``;
    under any options too (margin makes one ruleset object per campaign's options: each
    is counted)."""

    def counted(name: str) -> Any:
        method = getattr(base, name)

        def call(self: Any, *args: Any) -> Any:
            calls[name] += 1
            return method(self, *args)

        return call

    def under(self: Any, options: JsonMapping) -> Ruleset:
        made = base.under(self, options)
        if made is self or isinstance(made, Counting):
            return made
        key = id(made)
        if key not in configured:  # the original kept beside it: its id is not reused
            again = copy.copy(made)
            again.__class__ = Counting
            configured[key] = (made, again)
        return configured[key][1]

    members: dict[str, Any] = {name: counted(name) for name in names}
    Counting = type(f"Counting{base.__name__}", (base,), {**members, "under": under})
    configured: dict[int, tuple[Ruleset, Ruleset]] = {}
    ruleset: R = Counting()
    return ruleset


@contextmanager
def built_ins_counted(names: Iterable[str], calls: Counter[str]) -> Iterator[None]:
    """The three built-ins with ``names`` counted in ``calls`` (cleared), for the block."""
    names = tuple(names)
    with (
        RULESETS.added(counting(D20, names, calls)),
        RULESETS.added(counting(Margin, names, calls)),
        RULESETS.added(counting(StaminaBody, names, calls)),
    ):
        calls.clear()
        yield
