"""Exact odds of an action before its dice are rolled (issue 17; see docs/odds.md).

:func:`action_odds` runs the ruleset's own resolver along every distinct path of
dice (:mod:`.explore`), reading each roll only as finely as the rules do
(:mod:`.faces`, :mod:`.models`) and sharing the paths the rules cannot tell apart
(:mod:`.memo`); :mod:`.readers` and :mod:`.report` turn the outcomes into a chart.
"""

from skald_campaign.domain.odds.cost import COST_BUDGET
from skald_campaign.domain.odds.explore import TooLarge
from skald_campaign.domain.odds.odds import action_odds

__all__ = ["COST_BUDGET", "TooLarge", "action_odds"]
