"""What a ruleset's odds helpers build on (docs/odds.md; ``capabilities.OddsHelpers``):
how a roll's faces are read (``FaceModel``), a key over the rolls made so far
(``Memo``), the cost of one resolver run (``RunCost``), an attack the odds view lists
(``Choice``), and the readers of a breakdown's checks and counts."""

from __future__ import annotations

from skald_campaign.domain.odds.choices import Choice as Choice
from skald_campaign.domain.odds.cost import RunCost as RunCost
from skald_campaign.domain.odds.explore import Memo as Memo
from skald_campaign.domain.odds.explore import Script as Script
from skald_campaign.domain.odds.faces import MULTISET as MULTISET
from skald_campaign.domain.odds.faces import TOTAL as TOTAL
from skald_campaign.domain.odds.faces import FaceKey as FaceKey
from skald_campaign.domain.odds.faces import FaceModel as FaceModel
from skald_campaign.domain.odds.faces import Faces as Faces
from skald_campaign.domain.odds.readers import Extras as Extras
from skald_campaign.domain.odds.readers import Features as Features
from skald_campaign.domain.odds.readers import count as count
from skald_campaign.domain.odds.readers import object_at as object_at
from skald_campaign.domain.odds.readers import shift_luck as shift_luck
from skald_campaign.domain.odds.readers import success_at as success_at

__all__ = [
    "MULTISET",
    "TOTAL",
    "Choice",
    "Extras",
    "FaceKey",
    "FaceModel",
    "Faces",
    "Features",
    "Memo",
    "RunCost",
    "Script",
    "count",
    "object_at",
    "shift_luck",
    "success_at",
]
