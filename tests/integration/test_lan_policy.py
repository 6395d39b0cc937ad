"""Who may create campaigns on a table served to the home network (issue 36, `skald serve
--lan` or `--advertise`): without an operator key, a request from this machine (loopback)
only; with one, its bearer from anywhere. Through the real app on a real store and Redis;
the client's address is the one the app is told the connection came from."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.services import build_services
from skald_campaign.settings import Settings
from tests.helpers import event_count

CAMPAIGN = {"name": "Crown", "ruleset": "stamina-body"}
OPERATOR = "operator-key-of-this-server-0123456789"
PHONE = ("192.0.2.50", 40000)  # another machine of the network
REFUSED = {
    "error": "forbidden",
    "message": "on a table served to the network (skald serve --lan), campaigns are created "
    "from the GM's own machine: open the GM screen there at http://localhost (or 127.0.0.1) "
    "on this server's port, or set SKALD_OPERATOR_KEY and send it as the bearer key",
}


def changed(settings: Settings, **overrides: object) -> Settings:
    return Settings(**{**settings.model_dump(), **overrides})


@pytest.mark.parametrize("served", [{"lan": True}, {"advertise": "https://skald.home.arpa"}])
def test_without_an_operator_key_only_this_machine_creates_campaigns(
    settings: Settings, served: dict[str, object]
) -> None:
    app = create_app(lambda: build_services(changed(settings, **served)))
    with TestClient(app, client=PHONE) as phone:
        before = event_count(phone)
        refused = phone.post("/campaigns", json=CAMPAIGN)
        assert (refused.status_code, refused.json()) == (403, REFUSED)
        assert event_count(phone) == before
    for here in ("127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"):
        with TestClient(app, client=(here, 40000)) as gm:
            created = gm.post("/campaigns", json=CAMPAIGN)
            assert created.status_code == 201, (here, created.text)


def test_with_an_operator_key_its_bearer_creates_from_the_network(settings: Settings) -> None:
    app = create_app(lambda: build_services(changed(settings, lan=True, operator_key=OPERATOR)))
    with TestClient(app, client=PHONE) as phone:
        assert phone.post("/campaigns", json=CAMPAIGN).status_code == 401
        operator = {"authorization": f"Bearer {OPERATOR}"}
        created = phone.post("/campaigns", json=CAMPAIGN, headers=operator)
        assert created.status_code == 201, created.text


def test_served_to_this_machine_only_creation_stays_open_and_nothing_is_advertised(
    settings: Settings,
) -> None:
    with TestClient(create_app(lambda: build_services(settings)), client=PHONE) as client:
        assert client.post("/campaigns", json=CAMPAIGN).status_code == 201
        # The pages build their links on their own address (skald serve without --lan).
        assert client.get("/server").json() == {"public_url": None}
