"""Per-operation request and response schemas."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    model_validator,
)

from skald_campaign.domain.validation import refuse_hidden_characters

NAME = Field(min_length=1, max_length=120)
MAX_VERSION = 2**31 - 1  # the stores keep versions in 32-bit-safe integers
MAX_DICE_PER_ROLL = 100
RollName = Annotated[str, StringConstraints(min_length=1, max_length=120)]
Faces = Annotated[list[StrictInt], Field(min_length=1, max_length=MAX_DICE_PER_ROLL)]
Dice = Annotated[dict[RollName, Faces], Field(max_length=40)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_hidden_characters(cls, data: Any) -> Any:
        """Every request body: no control or bidirectional character in any string."""
        refuse_hidden_characters(data)
        return data


class CreateCampaignBody(Body):
    name: str = NAME
    ruleset: str = Field(description="margin, stamina-body or d20", max_length=40)
    options: dict[str, Any] = Field(
        default_factory=dict, description="overrides of the ruleset's option defaults"
    )


class EnrolCharacterBody(Body):
    name: str = NAME
    sheet: dict[str, Any] = Field(description="the ruleset's character sheet")
    # Left out of the body's dump (and so of an Idempotency-Key's hash) when not given,
    # as before they existed.
    npc: StrictBool = Field(
        default=False,
        exclude_if=lambda npc: npc is False,
        description="T3: an NPC, whose tracks players and viewers see as a descriptor "
        "(unless the campaign's show_npc_numbers is on); default: a PC",
    )
    player: str | None = Field(
        default=None,
        max_length=120,
        exclude_if=lambda player: player is None,
        description="the player's name (a PC's), shown with the character",
    )


class CombatantBody(Body):
    character_id: str = Field(max_length=64)
    # Left out of the body's dump (an Idempotency-Key's hash) when not given, as before
    # it could be left out.
    side: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        exclude_if=lambda side: side is None,
        description="e.g. party, foes; default: foes for an NPC, party for a PC",
    )
    rank: StrictInt = Field(default=1, ge=1, le=20, description="1 is the front rank")


class StartEncounterBody(Body):
    name: str = NAME
    combatants: list[CombatantBody] = Field(min_length=1, max_length=50)


class ActionBody(Body):
    kind: str = Field(max_length=40, description="an action of the campaign's ruleset")
    actor: str | None = Field(default=None, max_length=64, description="the acting combatant")
    params: dict[str, Any] = Field(default_factory=dict, description="the action's parameters")
    dice: Dice | None = Field(
        default=None,
        description="physical dice by roll name; rolls not given are rolled by the server",
    )
    override_reason: str | None = Field(
        default=None,
        min_length=1,
        max_length=500,
        description="the GM's reason to let this actor act out of turn or again this round",
    )
    # Left out of the body's dump (an Idempotency-Key's hash) when not given.
    hidden: StrictBool = Field(
        default=False,
        exclude_if=lambda hidden: hidden is False,
        description="T3, the GM's only: roll this NPC's action hidden; players and viewers "
        "see its outcome, never its dice, skill or score",
    )


class OddsBody(Body):
    """An action's body without dice (docs/odds.md): its odds, nothing rolled or written."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "kind": "attack",
                    "actor": "3f0c1d2e-0000-4000-8000-000000000001",
                    "params": {"target": "3f0c1d2e-0000-4000-8000-000000000002"},
                }
            ]
        },
    )
    kind: str = Field(max_length=40, description="an action of the campaign's ruleset")
    actor: str | None = Field(default=None, max_length=64, description="the acting combatant")
    params: dict[str, Any] = Field(default_factory=dict, description="the action's parameters")


class CharacterOut(BaseModel):
    id: str
    name: str
    sheet: dict[str, Any]
    tracks: dict[str, int]
    maxima: dict[str, int]
    conditions: list[str]
    state: dict[str, Any]
    derived: dict[str, Any]
    equipment: dict[str, Any] = Field(
        default_factory=dict,
        description="the gear the sheet names, with its table columns (d20: the armor's and "
        "shield's cost in sp and encumbrance in cn); empty for rulesets without such tables",
    )
    in_encounter: str | None
    npc: bool = Field(default=False, exclude_if=lambda npc: npc is False, description="T3")
    player: str | None = Field(default=None, exclude_if=lambda player: player is None)


class CampaignOut(BaseModel):
    id: UUID
    name: str
    ruleset: str
    options: dict[str, Any]
    day: int
    version: int
    created_by: str
    characters: list[CharacterOut]
    encounters: list[dict[str, Any]]


class CampaignCreatedOut(CampaignOut):
    gm_key: str = Field(description="the GM's key, shown this once; keep it safe")


class CombatantOut(BaseModel):
    id: str
    name: str
    side: str
    rank: int
    present: bool = Field(default=True, description="false once they have left the fight")
    tracks: dict[str, int]
    maxima: dict[str, int]
    conditions: list[str]
    state: dict[str, Any]


class EncounterSummaryOut(BaseModel):
    id: UUID
    campaign_id: UUID
    name: str
    ruleset: str
    day: int
    round: int
    ended: bool
    version: int
    combatants: list[CombatantOut]


class EncounterOut(EncounterSummaryOut):
    actions_total: int = Field(description="how many actions the encounter has in all")
    actions_offset: int = Field(description="the first action in this page, counted from 0")
    actions: list[dict[str, Any]] = Field(description="a page of the actions, oldest first")
    corrections: list[dict[str, Any]]
    turn: dict[str, Any] = Field(default_factory=dict, description="the order and whose turn")
    exchanges: list[dict[str, Any]] = Field(
        default_factory=list, description="attacks that waited for a declaration, and how"
    )
    markers: list[dict[str, Any]] = Field(
        default_factory=list,
        description="markers standing on combatants (RULINGS T2), with the rounds left",
    )
    end_reason: str | None = Field(default=None, description="why the GM ended the fight")


class ActionOut(BaseModel):
    """An action's answer stays the same size however long the encounter grows: the
    action (or the exchange waiting for a declaration), and the encounter's facts with
    only the combatants it touched."""

    status: Literal["resolved", "pending"] = "resolved"
    action: dict[str, Any] | None = Field(default=None, description="the resolved action")
    exchange: dict[str, Any] | None = Field(
        default=None, description="when pending: the exchange and whose declaration it needs"
    )
    encounter: EncounterSummaryOut = Field(
        description="the encounter after the action; `combatants` holds only those it touched"
    )


# The GM screen's own single-letter keys (gm.js): next and previous turn, undo.
SCREEN_KEYS: frozenset[str] = frozenset({"n", "p", "u"})


class RatingShown(BaseModel):
    """One rating a player's page shows of the player's own character (RULINGS T3), read
    from the character view's `derived`."""

    model_config = ConfigDict(extra="forbid")

    rating: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+(\.[a-z0-9_]+)*$")] = Field(
        description="where it is in `derived`, its keys joined by dots (`av.vs_missiles`): "
        "a number, or a rating whose `value` is the total (its `terms` are shown as the "
        "entry's title, its `situational` terms beside it, and a `by_weapon` list as one "
        "entry per weapon)"
    )
    label: str = Field(min_length=1, max_length=40, description="the seed's name for it")
    signed: bool = Field(default=False, description="a bonus, shown with its sign: `+4`")


class RulesetPresentation(BaseModel):
    """How the pages show a ruleset, as the ruleset publishes it (``Ruleset.presentation``).
    Every field may be left out: an action is then shown under its own name ("stand up"
    for ``stand_up``), in the order the ruleset lists its actions."""

    model_config = ConfigDict(extra="forbid")

    labels: dict[str, str] = Field(
        default_factory=dict,
        description="the words on a button, by action kind or by a defender's declared "
        'answer (`parry`; `none` reads "No defence" when not given)',
    )
    panel_titles: dict[str, str] = Field(
        default_factory=dict,
        description="an action's panel title where it differs from its button's label",
    )
    param_titles: dict[str, str] = Field(
        default_factory=dict,
        description="a parameter's label in an action's form, by parameter name (else its "
        "schema's title)",
    )
    panel: list[Annotated[str, StringConstraints(pattern=r"^(declare:)?[a-z0-9_]+$")]] = Field(
        default_factory=list,
        description="the GM's combat panel's buttons in this order, each an action kind or "
        "`declare:<answer>` (a button that answers the attack waiting for a defence); the "
        "actions left out follow in the ruleset's order",
    )
    server_recorded: list[str] = Field(
        default_factory=list,
        description="actions the server records by itself (a round's bleeding): no button",
    )
    self_targeted: list[str] = Field(
        default_factory=list,
        description="actions done to the actor as often as to another (their own wound): "
        "the target list offers the actor first",
    )
    initiative_add: list[str] = Field(
        default_factory=list,
        description="the sheet fields a rolled initiative may add (the new-campaign form's "
        "choice), in the order the page offers them: the options' `initiative.add` values "
        "(left out: the ruleset's `initiative_adds`)",
    )
    templates: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="starter sheets for a quick NPC by name, each a sheet the ruleset accepts",
    )
    ratings: list[RatingShown] = Field(
        default_factory=list,
        description="the derived ratings the player's page shows on the card of the "
        "player's own character, in this order (none: it shows none; an NPC's never reach "
        "a player, T3)",
    )
    shortcuts: dict[Annotated[str, StringConstraints(pattern=r"^[a-z]$")], str] = Field(
        default_factory=dict,
        description="the GM screen's keys that open an action's form, by key letter "
        '(`{"h": "attack"}`): for the selected combatant where the action is `self_targeted`, '
        "else for whoever's turn it is; the screen's own keys ("
        + ", ".join(sorted(SCREEN_KEYS))
        + ") are not a ruleset's to give",
        # The published schema refuses what the model refuses: another key than one
        # letter, or one of the screen's own.
        json_schema_extra={
            "additionalProperties": False,
            "propertyNames": {"not": {"enum": [key for key in sorted(SCREEN_KEYS)]}},
        },
    )

    @model_validator(mode="after")
    def _keys_left_to_the_screen(self) -> RulesetPresentation:
        taken = sorted(SCREEN_KEYS & self.shortcuts.keys())
        if taken:
            raise ValueError(f"shortcuts: {', '.join(taken)} are the GM screen's own keys")
        return self


class RulesetOut(BaseModel):
    id: str
    title: str
    options: dict[str, Any]
    sheet_schema: dict[str, Any]
    actions: dict[str, dict[str, Any]]
    day_plan_schema: dict[str, Any] | None = Field(
        default=None,
        description="how a character may spend a day between fights (the plan that "
        "`POST .../days` takes in `default` and per character); null: the ruleset's days "
        "take no plan",
    )
    counters: dict[str, str] = Field(
        default_factory=dict,
        description="the counters a character's `state` keeps beside its tracks (margin: "
        "`fatigue`, `luck`), each with what it is: the pages show them on the cards, and the "
        "GM sets or adjusts them through `POST .../characters/{chid}/tracks` as a track",
    )
    presentation: RulesetPresentation = Field(
        default_factory=RulesetPresentation,
        description="how the pages show the ruleset: its buttons' words, the panel's "
        "order, starter sheets, the initiative fields (the ruleset's own presentation)",
    )


class VoidBody(Body):
    reason: str = Field(min_length=1, max_length=500, description="why; it stays on record")


class RerollBody(VoidBody):
    dice: Dice | None = Field(
        default=None, description="the new faces by roll name; omitted rolls are rolled anew"
    )


class RewindBody(VoidBody):
    to_version: StrictInt = Field(
        ge=1, le=MAX_VERSION, description="the encounter version to go back to"
    )


class CorrectionOut(BaseModel):
    correction: dict[str, Any]
    report: list[dict[str, Any]]
    encounter: EncounterOut


class AuditPage(BaseModel):
    total: int
    offset: int
    limit: int
    entries: list[dict[str, Any]]


class DiffOut(BaseModel):
    from_version: int
    to_version: int
    round: dict[str, int]
    combatants: dict[str, dict[str, Any]]
    actions: list[dict[str, Any]]


class AdvanceDaysBody(Body):
    days: StrictInt = Field(default=1, ge=1, le=365)
    default: dict[str, Any] = Field(
        default_factory=dict,
        description="the day plan for everyone (the ruleset's defaults fill the rest)",
    )
    characters: dict[str, dict[str, Any]] = Field(
        default_factory=dict, max_length=200, description="per-character overrides of the plan"
    )


class AdvanceDaysOut(BaseModel):
    day: int
    days_advanced: int
    plans: dict[str, dict[str, Any]]
    campaign: CampaignOut


class WoundBody(Body):
    wound: str = Field(max_length=40, description="e.g. piercing_wound, broken_bones")
    present: StrictBool = Field(default=True, description="false: treated or ended")
    reason: str = Field(min_length=1, max_length=500)


class IssueKeyBody(Body):
    role: Literal["player", "viewer"]
    characters: list[str] = Field(default_factory=list, max_length=50)
    label: str = Field(default="", max_length=120, description="e.g. the player's name")


class QrBody(Body):
    link: str = Field(
        min_length=1,
        max_length=2000,
        description="the link to draw (a key's link carries the key after '#'): in the "
        "body, never in an address",
    )


class KeyOut(BaseModel):
    id: str
    role: str
    characters: list[str]
    label: str
    revoked: bool


class IssuedKeyOut(KeyOut):
    key: str = Field(description="shown this once; only its hash is kept")


# -- the table (issue 13): turn order, declarations, roll preview --------------------


class OrderBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "order": [
                        "3f0c1d2e-0000-4000-8000-000000000001",
                        "3f0c1d2e-0000-4000-8000-000000000002",
                    ]
                }
            ]
        },
    )
    order: list[str] = Field(
        min_length=1, max_length=50, description="combatant ids, first to act first"
    )


class DeclareBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"choice": "parry", "dice": {"Bran's parry": [3, 3, 3]}}]},
    )
    choice: str = Field(min_length=1, max_length=40, description="e.g. parry, dodge or none")
    dice: Dice | None = Field(
        default=None, description="the defender's physical dice by roll name (e.g. defense)"
    )


class WithdrawBody(Body):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"reason": "the goblin flees instead"}]}
    )
    reason: str = Field(min_length=1, max_length=500, description="why; it stays on record")


class RollPreviewBody(Body):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "kind": "attack",
                    "actor": "3f0c1d2e-0000-4000-8000-000000000001",
                    "params": {"target": "3f0c1d2e-0000-4000-8000-000000000002", "weapon": "club"},
                }
            ]
        },
    )
    kind: str = Field(max_length=40, description="an action of the campaign's ruleset")
    actor: str | None = Field(default=None, max_length=64, description="the acting combatant")
    params: dict[str, Any] = Field(default_factory=dict, description="the action's parameters")


class RollOut(BaseModel):
    name: str = Field(description="the roll's human name; supply dice under it")
    roll: str = Field(description="the rules' own name for the roll (also accepted)")
    dice: str
    count: int
    sides: int
    when: str | None = Field(default=None, description="for a roll that may follow: when")


class RollPreviewOut(BaseModel):
    rolls: list[RollOut] = Field(description="rolls the action needs whatever the dice show")
    may_follow: list[RollOut] = Field(description="rolls that follow only on some dice")


class RerollRollsOut(RollPreviewOut):
    """The rolls a reroll of a recorded action takes, worked out from the action as it was
    resolved (its round, the state it met), as the reroll resolves it again; not from the
    fight as it stands now. Supply a reroll's dice under these names (or the short
    ``roll`` names), exactly ``count`` faces of 1..``sides`` each (docs/corrections.md)."""

    number: int = Field(description="the action's number")


# -- webhooks (api/routes/webhooks.py) ---------------------------------------------------


class WebhookBody(Body):
    url: str = Field(min_length=1, max_length=2000, description="an http(s) URL to POST to")
    events: list[str] = Field(
        default_factory=list, max_length=100, description="event types (none: every type)"
    )
    encounter_id: str | None = Field(default=None, description="only this encounter's events")
    role: Literal["gm", "player", "viewer"] = Field(
        default="viewer", description="whose view of each event is sent"
    )
    format: Literal["json", "discord"] = "json"


class WebhookOut(BaseModel):
    id: str
    url: str
    events: list[str]
    encounter_id: str | None
    role: str
    format: str
    enabled: bool
    disabled_reason: str


class RegisteredWebhookOut(WebhookOut):
    secret: str = Field(description="'whsec_...': verifies each delivery; shown only now")


class DisableWebhookBody(Body):
    reason: str = Field(default="disabled by the GM", max_length=500)


class DeliveriesOut(BaseModel):
    webhook_id: str
    delivered_through: int = Field(description="the last position delivered (or skipped)")
    failures_in_a_row: int
    deliveries: list[dict[str, object]] = Field(
        description="newest first: message_id, position, type, outcome, attempts, "
        "status_code, last_error, time"
    )


class RulesetStandingOut(BaseModel):
    """A campaign's ruleset as it has it on record, beside the one installed (issue 38)."""

    campaign_id: str
    campaign: str
    ruleset: str
    distribution: str = Field(description="the distribution on record")
    recorded_version: str = Field(description="the version on record")
    installed_distribution: str | None = Field(description="none: the ruleset is missing")
    installed_version: str | None = Field(description="none: the ruleset is missing")
    status: str = Field(
        description="current; same_outcomes (every recorded action comes out as it did: "
        "the next write records the installed version); differs, or missing: read-only"
    )
    read_only: bool
    differing: list[dict[str, Any]] = Field(
        description="the recorded actions that come out differently under the installed "
        "version: encounter_id, encounter, number, kind, before, after, status"
    )
    accept: dict[str, Any] | None = Field(description="the GM's request that accepts it")
    command: str = Field(description="the operator's command listing every campaign's")


class AcceptRulesetBody(Body):
    version: str = Field(
        min_length=1,
        max_length=64,
        description="the installed version, as GET .../ruleset names it",
    )
