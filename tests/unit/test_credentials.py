"""API keys as pure functions: their shape, hashing, scopes, tenant binding, rate limits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hindsight_common.admin import require_admin
from hindsight_common.errors import Forbidden, InvalidInput
from hindsight_common.security.credentials import (
    KEY_PREFIX,
    Principal,
    bearer_token,
    hash_key,
    key_id_of,
    key_matches,
    new_key,
    parse_scopes,
)
from hindsight_common.security.credentials_access import require_scope, tenant_for
from hindsight_common.security.credentials_limits import RateLimiter, retry_after_header

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_new_key_is_random_prefixed_named_by_its_id_and_stored_only_as_a_hash() -> None:
    key, record = new_key("acme", "read,write", T0, name="agent")
    other, _ = new_key("acme", "read", T0)
    assert key.startswith(KEY_PREFIX) and key != other
    assert key_id_of(key) == record.key_id and record.key_id in key
    assert len(key) == len(KEY_PREFIX) + 12 + 1 + 43  # 256 random bits of secret
    assert record.key_hash == hash_key(key) and key not in record.key_hash
    assert record.tenant == "acme" and record.scopes == {"read", "write"} and record.name == "agent"
    shown = record.describe()
    assert key not in str(shown) and record.key_hash not in str(shown)
    assert shown["scopes"] == ["read", "write"]


def test_only_the_exact_key_matches_its_record() -> None:
    key, record = new_key("acme", ["admin"], T0)
    assert key_matches(record, key)
    assert not key_matches(record, key[:-1] + ("A" if key[-1] != "A" else "B"))
    other, _ = new_key("acme", ["admin"], T0)
    assert not key_matches(record, other)


@pytest.mark.parametrize("text", ["", "hsk_", "hsk_zzzzzzzzzzzz_" + "a" * 43, "sk-abc", "hsk_0123456789ab_short"])
def test_anything_not_shaped_like_a_key_has_no_key_id(text: str) -> None:
    assert key_id_of(text) is None


def test_bearer_tokens_are_read_only_from_the_bearer_scheme() -> None:
    assert bearer_token("Bearer abc") == "abc"
    assert bearer_token("bearer  abc ") == "abc"
    assert bearer_token("Basic abc") is None
    assert bearer_token("Bearer ") is None
    assert bearer_token(None) is None


def test_scopes_are_checked_and_named() -> None:
    assert parse_scopes("read, erase") == {"read", "erase"}
    with pytest.raises(InvalidInput) as bad:
        parse_scopes("read,root")
    assert "root" in bad.value.problems[0].message
    with pytest.raises(InvalidInput):
        parse_scopes(" , ")
    with pytest.raises(InvalidInput):
        new_key("bad/tenant", "read", T0)


def test_a_key_acts_only_on_its_own_tenant() -> None:
    p = Principal("0123456789ab", "acme", frozenset({"read"}))
    assert tenant_for(p, None, "default") == "acme"
    assert tenant_for(p, "acme", "default") == "acme"
    with pytest.raises(Forbidden) as refused:
        tenant_for(p, "globex", "default")
    assert "'acme'" in str(refused.value) and "'globex'" in str(refused.value)
    # anonymous (auth off): the tenant asked for, else the default
    assert tenant_for(None, "globex", "default") == "globex"
    assert tenant_for(None, None, "default") == "default"


def test_a_missing_scope_is_named() -> None:
    p = Principal("0123456789ab", "acme", frozenset({"read"}))
    require_scope(p, "read", "POST /v1/recall")
    with pytest.raises(Forbidden) as refused:
        require_scope(p, "write", "POST /v1/interactions")
    assert "'write'" in str(refused.value) and "0123456789ab" in str(refused.value)
    require_scope(None, "write", "POST /v1/interactions")  # anonymous, auth off
    with pytest.raises(Forbidden, match="admin"):
        require_scope(None, "admin", "GET /v1/admin/keys")


def test_admin_options_need_the_admin_scope() -> None:
    require_admin(Principal("0123456789ab", "acme", frozenset({"read", "admin"})), "include")
    for principal, why in ((None, "no API key was sent"),
                           (Principal("0123456789ab", "acme", frozenset({"read"})), "lacks the 'admin' scope")):
        with pytest.raises(Forbidden) as refused:
            require_admin(principal, "include")
        assert why in str(refused.value) and refused.value.problems[0].field == "include"


def test_the_token_bucket_admits_a_burst_then_the_rate() -> None:
    now = [100.0]
    limiter = RateLimiter(rate_per_s=2.0, burst=3, clock=lambda: now[0])
    assert [limiter.take("k") for _ in range(3)] == [0.0, 0.0, 0.0]
    wait = limiter.take("k")
    assert wait == pytest.approx(0.5) and retry_after_header(wait) == "1"
    assert limiter.take("other") == 0.0  # buckets are per key
    now[0] += 0.5
    assert limiter.take("k") == 0.0 and limiter.take("k") > 0
    now[0] += 60
    assert [limiter.take("k") for _ in range(3)] == [0.0, 0.0, 0.0]  # refilled to the burst, no more
    assert limiter.take("k") > 0
