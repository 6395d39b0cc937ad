"""The access check reads a campaign it brought up to date moments ago without asking
the store again; a key changed by this process counts from the next request, one changed
by another process within ACCESS_RECHECK_SECONDS (SQLite and PostgreSQL)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from skald_campaign.application import application as application_module
from skald_campaign.application.commands import IssueKey, RevokeKey
from skald_campaign.domain.access import Unauthenticated
from tests.integration.test_store import open_app, setup_fight, store_env

__all__ = ["store_env"]  # the fixture, shared with test_store.py


def test_a_fresh_campaign_is_not_read_again(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = open_app(store_env)
    try:
        cid, _, _ = setup_fight(app)
        app.issue_key(IssueKey(cid, "k1", "h1", "viewer"))
        assert app.access(cid, "k1", "h1").role == "viewer"  # brings it up to date
        reads: list[Any] = []
        original = app.repository.get
        monkeypatch.setattr(
            app.repository, "get", lambda *a, **k: reads.append(a) or original(*a, **k)
        )
        for _ in range(5):
            assert app.access(cid, "k1", "h1").role == "viewer"
        assert reads == []
        app.revoke_key(RevokeKey(cid, "k1"))  # this process: counts at once
        with pytest.raises(Unauthenticated):
            app.access(cid, "k1", "h1")
        assert len(reads) >= 1
    finally:
        app.close()


def test_a_key_revoked_by_another_process_counts_within_the_recheck_time(
    store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(application_module, "ACCESS_RECHECK_SECONDS", 0.2)
    here, there = open_app(store_env), open_app(store_env)
    try:
        cid, _, _ = setup_fight(here)
        here.issue_key(IssueKey(cid, "k1", "h1", "viewer"))
        assert here.access(cid, "k1", "h1").role == "viewer"
        there.revoke_key(RevokeKey(cid, "k1"))
        time.sleep(0.25)
        with pytest.raises(Unauthenticated):
            here.access(cid, "k1", "h1")
    finally:
        here.close()
        there.close()
