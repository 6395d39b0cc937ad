"""The webhook deliveries: each enabled webhook on a thread of its own (a slow or
failing receiver holds up no other), sending its campaign's events after the last
position it delivered, in position order, at least once.

Each delivery is signed to the Standard Webhooks specification (`standardwebhooks`):
`webhook-id` is stable per event (`msg_<position>`), so a receiver dedupes by it.
A failed attempt (a network error, the per-attempt timeout, a status other than 2xx,
a redirect, which is never followed, or a target the SSRF rule refuses) is retried
with exponential backoff and jitter (tenacity); after `failure_limit` failed attempts
in a row the webhook is disabled (an event, by 'system'), until the GM enables it.
The position delivered is kept after each success (projections/webhook_state.py), so
a worker killed at any point resumes where it was: the event in flight is sent again.
"""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import UTC, datetime
from uuid import UUID

import httpx
import standardwebhooks
import tenacity
from eventsourcing.utils import get_topic

from skald_campaign.application.application import SkaldApplication
from skald_campaign.application.event_log import LoggedEvent, Position, as_seen_by, read_logged
from skald_campaign.application.webhooks import WebhookPolicy, check_target
from skald_campaign.domain.events import WEBHOOK_EVENTS
from skald_campaign.domain.records import JSON
from skald_campaign.domain.webhooks import CampaignWebhooks, Webhook
from skald_campaign.projections.reader import ViewReader
from skald_campaign.projections.webhook_state import DeliveryState
from skald_campaign.workers.webhook_messages import body, test_event

log = logging.getLogger("skald.webhooks")
# Each class's stored topic (its TOPIC: the events are stored under it, not its module).
TOPICS = [get_topic(cls) for cls in WEBHOOK_EVENTS]
POLL_SECONDS = 0.2
LOOK_LIMIT = 1000  # webhook registrations and changes read at once
PAGE = 100
READ_CAP = 2048  # bytes of a receiver's answer kept for the log; the rest is never read


class DeliveryFailed(Exception):
    """An attempt that failed; `status` is the receiver's answer when there was one (the
    delivery log shows it), None when none came (refused address, network error)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class Abandoned(Exception):
    """The webhook was disabled or deleted, or the worker is stopping."""


class Backoff:
    """Sleep between attempts, unless the worker is stopping: it does not sit one out."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop

    def __call__(self, seconds: float) -> None:
        self.stop.wait(seconds)


class FailedTooOften(tenacity.stop.stop_base):
    """Stop retrying once the webhook has failed `failure_limit` attempts in a row."""

    def __init__(self, worker: WebhookWorker, hook: Webhook) -> None:
        self.worker, self.hook = worker, hook

    def __call__(self, retry_state: tenacity.RetryCallState) -> bool:
        return self.worker.state.failures(self.hook.id) >= self.worker.policy.failure_limit


class WebhookWorker:
    def __init__(
        self,
        application: SkaldApplication,
        views: ViewReader,
        state: DeliveryState,
        policy: WebhookPolicy,
    ) -> None:
        self.application = application
        self.views = views
        self.state = state
        self.policy = policy
        self.hooks: dict[str, tuple[UUID, Webhook]] = {}
        self.seen = 0
        self.runners: dict[str, threading.Thread] = {}
        self.lock = threading.Lock()

    def current(self, webhook_id: str) -> tuple[UUID, Webhook] | None:
        with self.lock:
            return self.hooks.get(webhook_id)

    def discover(self) -> None:
        """Take in every registration and change since the last look.

        The look goes up to the store's end as it was when the look began, and `seen`
        moves there even when no webhook event was found: a filtered read from the last
        webhook event on re-read the whole history since it, five times a second (a
        campaign without webhooks: every event ever written)."""
        changed: set[UUID] = set()
        newest = self.application.recorder.max_notification_id() or 0
        while self.seen < newest:
            found = self.application.recorder.select_notifications(
                start=self.seen + 1, limit=LOOK_LIMIT, stop=newest, topics=TOPICS
            )
            changed.update(UUID(str(n.originator_id)) for n in found)
            self.seen = found[-1].id if len(found) == LOOK_LIMIT else newest
        for aggregate_id in changed:
            hooks: object = self.application.repository.get(aggregate_id)
            assert isinstance(hooks, CampaignWebhooks)
            with self.lock:
                for webhook_id, (campaign_id, _) in list(self.hooks.items()):
                    if campaign_id == hooks.campaign_id and webhook_id not in hooks.hooks:
                        del self.hooks[webhook_id]
                for hook in hooks.hooks.values():
                    before = self.hooks.get(hook.id)
                    if before is not None and not before[1].enabled and hook.enabled:
                        self.state.succeeded(hook.id)  # enabled again: a fresh run of attempts
                    self.hooks[hook.id] = (hooks.campaign_id, hook)

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.discover()
                self.start_runners(stop)
                self.send_tests(stop)
            except Exception:
                log.exception("the webhook worker's look-up failed; trying again")
            stop.wait(POLL_SECONDS)
        for runner in list(self.runners.values()):
            runner.join(self.policy.timeout + 5)

    def start_runners(self, stop: threading.Event) -> None:
        with self.lock:
            wanted = [h.id for _, h in self.hooks.values() if h.enabled]
        for webhook_id in wanted:
            runner = self.runners.get(webhook_id)
            if runner is None or not runner.is_alive():
                runner = threading.Thread(
                    target=self.deliver_all, args=(webhook_id, stop), daemon=True,
                    name=f"webhook {webhook_id}",
                )  # fmt: skip
                self.runners[webhook_id] = runner
                runner.start()

    def send_tests(self, stop: threading.Event) -> None:
        while (webhook_id := self.state.next_test()) is not None:
            message_id = f"msg_test_{uuid.uuid4().hex}"
            found = self.current(webhook_id)
            if found is None:
                continue
            campaign_id, hook = found
            event = test_event(str(campaign_id), message_id, datetime.now(UTC).isoformat())
            threading.Thread(
                target=self._send_test, args=(campaign_id, hook, event, message_id, stop),
                daemon=True,
            ).start()  # fmt: skip

    def _send_test(
        self, campaign_id: UUID, hook: Webhook, event: LoggedEvent, message_id: str,
        stop: threading.Event,
    ) -> None:  # fmt: skip
        with self._client() as client:
            entry = self._entry(event, message_id)
            try:
                entry["status_code"] = self.attempt(client, campaign_id, hook, event, message_id)
                entry["outcome"] = "delivered"
            except DeliveryFailed as failed:
                entry.update(outcome="failed", last_error=str(failed), status_code=failed.status)
            entry["attempts"] = 1
            self.state.finished(hook.id, entry)

    def _client(self) -> httpx.Client:
        return httpx.Client(
            follow_redirects=False, timeout=self.policy.timeout, trust_env=False,
            headers={"user-agent": "Skald-Webhooks/1"},
        )  # fmt: skip

    def deliver_all(self, webhook_id: str, stop: threading.Event) -> None:
        """Deliver a webhook's events in order until it is disabled or the worker stops."""
        try:
            with self._client() as client:
                while not stop.is_set():
                    found = self.current(webhook_id)
                    if found is None or not found[1].enabled:
                        return
                    if not self.deliver_page(client, *found, stop):
                        stop.wait(POLL_SECONDS)
        except Abandoned:
            return
        except Exception:
            log.exception("webhook %s: deliveries stopped; they resume shortly", webhook_id)

    def deliver_page(
        self, client: httpx.Client, campaign_id: UUID, hook: Webhook, stop: threading.Event
    ) -> bool:
        after = max(self.state.delivered(hook.id), hook.start)
        found, _ = self.views.positions(str(campaign_id), after, PAGE)
        if not found:
            return False
        page = read_logged(
            self.application.recorder, self.application.mapper, [Position(*p) for p in found]
        )
        names = self.names(campaign_id)
        # The role's view as of now (an NPC enrolled since counts), as the log's reads.
        seen = as_seen_by(self.application.redaction(campaign_id, hook.role), page)
        for event in seen:
            if hook.wants(event.type, event.aggregate_id):
                self.deliver(client, campaign_id, hook, event, names, stop)
            self.state.mark_delivered(hook.id, event.position)
        return True

    def names(self, campaign_id: UUID) -> dict[str, str]:
        campaign = self.application.campaign(campaign_id)
        return {cid: character.name for cid, character in campaign.characters.items()}

    def _entry(self, event: LoggedEvent, message_id: str) -> dict[str, JSON]:
        return {
            "message_id": message_id, "position": event.position, "type": event.type,
            "outcome": "sending", "attempts": 0, "last_error": None, "status_code": None,
            "time": datetime.now(UTC).isoformat(),
        }  # fmt: skip

    def deliver(
        self, client: httpx.Client, campaign_id: UUID, hook: Webhook, event: LoggedEvent,
        names: dict[str, str], stop: threading.Event,
    ) -> None:  # fmt: skip
        message_id = f"msg_{event.position}"
        content = body(hook.format, str(campaign_id), event, names)
        entry = self._entry(event, message_id)
        limit = self.policy.failure_limit
        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception_type(DeliveryFailed),
            wait=tenacity.wait_exponential_jitter(
                multiplier=self.policy.backoff_initial,
                max=self.policy.backoff_max,
                jitter=self.policy.backoff_initial,
            ),
            stop=tenacity.stop_any(tenacity.stop_when_event_set(stop), FailedTooOften(self, hook)),
            sleep=Backoff(stop),
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    latest = self.current(hook.id)
                    if stop.is_set() or latest is None or not latest[1].enabled:
                        raise Abandoned
                    entry["attempts"] = int(str(entry["attempts"])) + 1
                    self.state.in_progress(hook.id, entry)
                    try:
                        entry["status_code"] = self.attempt(
                            client, campaign_id, hook, event, message_id, content
                        )
                    except DeliveryFailed as failed:
                        entry["last_error"] = str(failed)
                        entry["status_code"] = failed.status
                        self.state.in_progress(hook.id, entry)
                        self.state.failed(hook.id)
                        raise
        except DeliveryFailed:
            entry["outcome"] = "failed"
            self.state.finished(hook.id, entry)
            if not stop.is_set():
                reason = f"{limit} failed attempts in a row; the last: {entry['last_error']}"
                self.application.set_webhook_enabled(campaign_id, hook.id, False, reason, "system")
            raise Abandoned from None
        entry["outcome"] = "delivered"
        self.state.succeeded(hook.id)
        self.state.finished(hook.id, entry)

    def attempt(
        self, client: httpx.Client, campaign_id: UUID, hook: Webhook, event: LoggedEvent,
        message_id: str, content: bytes | None = None,
    ) -> int:  # fmt: skip
        """One signed POST; its status, or DeliveryFailed saying why."""
        if content is None:
            content = body(hook.format, str(campaign_id), event, {})
        try:
            check_target(hook.url, self.policy.allow_private)
        except Exception as refused:
            raise DeliveryFailed(str(refused)) from None
        now = datetime.now(UTC)
        signature = standardwebhooks.Webhook(hook.secret).sign(message_id, now, content.decode())
        headers = {
            "content-type": "application/json",
            "webhook-id": message_id,
            "webhook-timestamp": str(int(now.timestamp())),
            "webhook-signature": signature,
        }
        try:
            with client.stream("POST", hook.url, content=content, headers=headers) as answer:
                kept = b""
                for chunk in answer.iter_bytes():
                    kept += chunk
                    if len(kept) >= READ_CAP:
                        break
        except httpx.HTTPError as error:
            raise DeliveryFailed(f"{type(error).__name__}: {error}") from None
        status = answer.status_code
        if 300 <= status < 400:
            where = answer.headers.get("location", "")
            raise DeliveryFailed(f"{status}: redirects are not followed (to '{where}')", status)
        if not 200 <= status < 300:
            text = kept[:200].decode(errors="replace")
            raise DeliveryFailed(f"{status}: {text}", status)
        return status
