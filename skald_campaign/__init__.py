"""Skald, under its one import name. Its folders are its packages (skald_campaign.domain,
.application, .projections, .api, .workers: the repository's top-level folders, linked here);
its own modules are the composition root: settings, the CLI, store and transcoder set-up,
embedded Redis. Those import the other packages and are imported by none of them; this
file only names the distribution, so importing any package under it costs nothing.
"""

# The distribution's name on the package registry: `skald` there is another project's (an
# experiment logger that also installs an import package named `skald`), so Skald is
# distributed as skald-campaign and imported as skald_campaign (issue 38).
DISTRIBUTION = "skald-campaign"
