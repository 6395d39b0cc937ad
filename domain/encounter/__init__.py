"""The encounter: its aggregate, the bodies of its events, its commands and its stored state.

Every stored event and snapshot of an encounter names its class as
``domain.encounter:Encounter.<Event>`` (the module the aggregate lived in before the
package had rooms, issue 38); that topic resolves to this package, so the package
answers the name ``Encounter``.
"""

from skald_campaign.domain.encounter.aggregate import Encounter

__all__ = ["Encounter"]
