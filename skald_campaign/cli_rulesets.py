"""`skald rulesets check`: each campaign's ruleset version on record beside the one
installed, and the recorded actions that come out differently under it (issue 38;
docs/rulesets.md, "Versions"). It reads the event store only (no Redis) and writes
nothing, so it runs beside a live server, before or after an upgrade."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated
from uuid import UUID

import typer

from skald_campaign.cli_data import Database, DataDir
from skald_campaign.cli_support import existing_store, fails_cleanly
from skald_campaign.listing import campaign_ids

rulesets_app = typer.Typer(help="The rulesets' versions the campaigns have on record.")


def standing_lines(standing: Mapping[str, object]) -> list[str]:
    """A campaign's standing (GET /campaigns/{id}/ruleset) as the command prints it."""
    head = (
        f"{standing['campaign_id']}  {standing['campaign']}: ruleset {standing['ruleset']}, "
        f"version {standing['recorded_version']} of {standing['distribution']} on record"
    )
    status, installed = standing["status"], standing["installed_version"]
    if status == "current":
        return [f"{head}, installed: current"]
    if status == "missing":
        return [f"{head}, not installed: read-only until it is installed again"]
    of = f"{installed} of {standing['installed_distribution']} installed"
    if status == "same_outcomes":
        return [
            f"{head}, {of}: every recorded action comes out as it did; "
            f"the next write records version {installed}"
        ]
    differing = standing["differing"]
    assert isinstance(differing, list)
    lines = [
        f"{head}, {of}: {len(differing)} recorded action(s) come out differently; "
        f"read-only until the GM accepts version {installed} "
        f"(POST /campaigns/{standing['campaign_id']}/ruleset/accept)"
    ]
    for entry in differing:
        assert isinstance(entry, Mapping)
        fight = f"encounter {entry['encounter']} ({entry['encounter_id']})"
        lines.append(f"  {fight}, action {entry['number']} {entry['kind']}, {entry['status']}:")
        lines.append(f"    was: {entry['before']}")
        lines.append(f"    now: {entry['after']}")
    return lines


@rulesets_app.command("check")
def check(
    campaign: Annotated[
        UUID | None, typer.Option(help="check only this campaign [every campaign]")
    ] = None,
    data_dir: DataDir = None,
    database: Database = None,
) -> None:
    """Each campaign's ruleset version on record and the actions that differ under it.

    Each fight is resolved again on its recorded dice; nothing is written. Exit status 1
    when a campaign is read-only (its actions differ, or its ruleset is not installed).
    """
    with fails_cleanly(), existing_store(data_dir, database) as application:
        ids = [campaign] if campaign is not None else list(campaign_ids(application))
        standings = [application.ruleset_standing(cid) for cid in ids]
    for standing in standings:
        for line in standing_lines(standing):
            typer.echo(line)
    if any(standing["read_only"] for standing in standings):
        raise typer.Exit(1)
