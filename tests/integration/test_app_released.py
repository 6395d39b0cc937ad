"""An app that has stopped is freed with everything it held (its backend, the event
store's application and its caches): nothing outlives it but what the process had before.

FastAPI keeps what it learns of each endpoint in caches of its own (4,096 entries each).
/health was a closure over its app, defined inside create_app: each app made one entry,
which kept that app and its whole backend alive. The suite makes an app per test; its
process grew to 2.8 GB and spent minutes in the garbage collector (its last unit tests,
0.3 s alone, took 3 minutes there), and CI ran out of its 90 minutes."""

from __future__ import annotations

import gc
import weakref

from fastapi.testclient import TestClient

from skald_campaign.api.app import create_app
from skald_campaign.application.application import SkaldApplication
from skald_campaign.services import build_services
from skald_campaign.settings import Settings


def test_an_app_that_served_and_stopped_is_freed_with_its_backend(settings: Settings) -> None:
    app = create_app(lambda: build_services(settings))
    with TestClient(app, raise_server_exceptions=True) as client:
        assert client.get("/health").status_code == 200
        made = client.post("/campaigns", json={"name": "Freed", "ruleset": "margin"})
        assert made.status_code == 201, made.text
        application = app.state.backend.application
        assert isinstance(application, SkaldApplication)
        freed_app, freed_application = weakref.ref(app), weakref.ref(application)
    del app, client, made, application
    gc.collect()
    assert freed_app() is None
    assert freed_application() is None


def test_many_apps_made_and_stopped_leave_none_alive(settings: Settings) -> None:
    """Past any one cache entry: ten apps, each served a request, none left."""
    refs = []
    for _ in range(10):
        app = create_app(lambda: build_services(settings))
        with TestClient(app, raise_server_exceptions=True) as client:
            assert client.get("/health").status_code == 200
        refs.append(weakref.ref(app))
        del app, client
    gc.collect()
    assert [ref for ref in refs if ref() is not None] == []
