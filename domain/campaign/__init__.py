"""The campaign: its aggregate, its commands and reads, its roster, calendar and ruleset on record.

Every stored event and snapshot of a campaign names its class as
``domain.campaign:Campaign.<Event>`` (the module the aggregate lived in before the
package had rooms, issue 38); that topic resolves to this package, so the package
answers the name ``Campaign``.
"""

from skald_campaign.domain.campaign.aggregate import Campaign

__all__ = ["Campaign"]
