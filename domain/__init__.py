"""Skald's domain: pure rules, dice and event-sourced aggregates.

Nothing here performs I/O of its own; persistence is configured through the
eventsourcing library's environment by the composition root.
"""

import sys

from eventsourcing.utils import register_topic

# Every aggregate and event class names the topic it is stored under (its `TOPIC`,
# unchanged since the package was the top-level `domain`); an old topic resolved before
# its module is imported finds the module under Skald's import name.
register_topic("domain", sys.modules[__name__])
