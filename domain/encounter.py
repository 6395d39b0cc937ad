"""The Encounter aggregate: combatants, rounds and every resolved action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.dice import DiceTray, Roller
from domain.errors import ActionRefused, NotFound
from domain.rulesets import get_ruleset
from domain.rulesets.base import CombatantView, EncounterView, Ruleset


class Encounter(Aggregate):
    @event("Started")
    def __init__(
        self,
        campaign_id: UUID,
        name: str,
        ruleset: str,
        options: dict[str, Any],
        combatants: dict[str, dict[str, Any]],
        by: str,
    ) -> None:
        self.campaign_id = campaign_id
        self.name = name
        self.ruleset_id = ruleset
        self.options = options
        self.combatants = combatants
        self.round = 1
        self.actions: list[dict[str, Any]] = []
        self.ended = False
        self.started_by = by

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset_id)

    def conditions_of(self, combatant_id: str) -> tuple[str, ...]:
        c = self.combatants[combatant_id]
        return self.rules.conditions(c["sheet"], c["tracks"], c["state"])

    def view(self) -> EncounterView:
        return EncounterView(
            round=self.round,
            options=self.options,
            combatants={
                cid: CombatantView(
                    id=cid,
                    name=c["name"],
                    side=c["side"],
                    rank=c["rank"],
                    sheet=c["sheet"],
                    tracks=dict(c["tracks"]),
                    state=dict(c["state"]),
                    conditions=self.conditions_of(cid),
                )
                for cid, c in self.combatants.items()
            },
        )

    def _refuse_if_ended(self) -> None:
        if self.ended:
            raise ActionRefused(f"encounter '{self.name}' has ended; start a new one")

    def act(
        self,
        kind: str,
        actor: str | None,
        params: Mapping[str, Any],
        dice: Mapping[str, list[int]] | None,
        roller: Roller,
        by: str,
    ) -> dict[str, Any]:
        """Resolve an action, rolling whatever the caller did not supply, and record it."""
        self._refuse_if_ended()
        rules = self.rules
        action_type = rules.action_type(kind)
        valid = rules.validate_params(kind, params)
        view = self.view()
        if actor is not None:
            if actor not in self.combatants:
                raise NotFound(f"actor '{actor}' is not a combatant in this encounter")
            rules.refuse_if_cannot_act(view.combatants[actor], kind)
        tray = DiceTray(roller, dice)
        outcome = action_type.resolve(view, actor, valid, tray)
        rolls = tray.close()
        touched = sorted(set(outcome.tracks) | set(outcome.state))
        before = {cid: list(view.combatants[cid].conditions) for cid in touched}
        self._action_resolved(
            number=len(self.actions) + 1,
            round=self.round,
            kind=kind,
            actor=actor,
            params=valid.model_dump(mode="json"),
            rolls=rolls,
            summary=outcome.summary,
            breakdown=outcome.breakdown,
            tracks=outcome.tracks,
            state=outcome.state,
            conditions_before=before,
            by=by,
        )
        return self.actions[-1]

    @event("ActionResolved")
    def _action_resolved(
        self,
        number: int,
        round: int,
        kind: str,
        actor: str | None,
        params: dict[str, Any],
        rolls: list[dict[str, Any]],
        summary: str,
        breakdown: dict[str, Any],
        tracks: dict[str, dict[str, int]],
        state: dict[str, dict[str, Any]],
        conditions_before: dict[str, list[str]],
        by: str,
    ) -> None:
        for cid, values in tracks.items():
            self.combatants[cid]["tracks"] = values
        for cid, values in state.items():
            self.combatants[cid]["state"] = values
        self.actions.append(
            {
                "number": number,
                "round": round,
                "kind": kind,
                "actor": actor,
                "params": params,
                "rolls": rolls,
                "summary": summary,
                "breakdown": breakdown,
                "by": by,
                "conditions": {
                    cid: {"before": conditions_before[cid], "after": list(self.conditions_of(cid))}
                    for cid in conditions_before
                },
            }
        )

    def next_round(self, by: str) -> None:
        self._refuse_if_ended()
        self._round_started(self.round + 1, by)

    @event("RoundStarted")
    def _round_started(self, round: int, by: str) -> None:
        self.round = round

    def end(self, by: str) -> None:
        self._refuse_if_ended()
        self._ended(by)

    @event("Ended")
    def _ended(self, by: str) -> None:
        self.ended = True
