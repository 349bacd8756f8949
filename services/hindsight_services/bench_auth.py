"""``hindsight bench auth``: what checking a credential costs, in figures.

Per call of the authenticator (no HTTP): an API key against the store the settings name
(SQLite in a fresh data directory; PostgreSQL with ``HINDSIGHT_LOG_BACKEND=kafka``), and a
JWT (RS256, JWKS from a file). Then the same cheap read route (``GET /v1/memories``,
limit 1) through the in-process embedded app with ``HINDSIGHT_AUTH`` off and required, so
the difference is what a request pays for its key (on a shared machine it is within the
noise of the route itself).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from hindsight_common.bench.locomo import percentile
from hindsight_common.factory import make_credentials
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import Authenticator, now
from hindsight_common.settings import Settings, load_settings
from hindsight_services.embedded import create_app


async def _timed(n: int, call: Callable[[], Awaitable[Any]]) -> dict[str, float]:
    for _ in range(min(50, n)):  # warm: connections, caches, the JWKS
        await call()
    took = []
    for _ in range(n):
        start = time.perf_counter()
        await call()
        took.append((time.perf_counter() - start) * 1e6)
    took.sort()
    return {"p50_us": percentile(took, 50), "p95_us": percentile(took, 95), "n": n}


def _jwt_settings(tmp: Path) -> dict[str, Any]:
    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa

    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key()))
    (tmp / "jwks.json").write_text(json.dumps({"keys": [{**jwk, "kid": "bench", "alg": "RS256"}]}))
    token = jwt.encode({"iss": "bench", "aud": "bench", "sub": "bench", "exp": int(time.time()) + 3600,
                        "tenant": "bench", "scope": "read"}, private, algorithm="RS256", headers={"kid": "bench"})
    return {"jwt_jwks": str(tmp / "jwks.json"), "jwt_issuer": "bench", "jwt_audience": "bench", "token": token}


async def run_auth_bench(n: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-auth-") as name:
        tmp = Path(name)
        jwt_parts = _jwt_settings(tmp)
        token = jwt_parts.pop("token")
        settings = load_settings(data_dir=tmp / "keys", rate_limit_per_s=0, auth="required", **jwt_parts)
        auth = Authenticator.from_settings(settings, lambda: make_credentials(settings))
        key, record = new_key("bench", ["read"], now())
        await auth.store.add(record)
        try:
            out[f"api key ({settings.log_backend} store)"] = await _timed(
                n, lambda: auth.authenticate(f"Bearer {key}"))
            out["jwt (RS256, JWKS file)"] = await _timed(n, lambda: auth.authenticate(f"Bearer {token}"))
        finally:
            await auth.store.close()
        for mode in ("off", "required"):
            # Embedded whatever the environment says: the route's cost, not a cluster's.
            app_settings = Settings(data_dir=tmp / mode, auth=mode, rate_limit_per_s=0, reranker="none",
                                    log_backend="sqlite", vector_backend="qdrant_edge",
                                    text_backend="sqlite_fts", graph_backend="sqlite")
            app = create_app(app_settings)
            async with app.router.lifespan_context(app):
                key, record = new_key("default", ["read"], now())
                await app.state.auth.store.add(record)
                headers = {"authorization": f"Bearer {key}"} if mode == "required" else {}
                async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench",
                                             headers=headers) as client:
                    async def browse() -> None:
                        r = await client.get("/v1/memories", params={"user": "ann", "limit": 1})
                        assert r.status_code == 200, r.text
                    out[f"GET /v1/memories, auth {mode}"] = await _timed(n, browse)
    return out


def print_auth_bench(rows: dict[str, Any], as_json: bool) -> None:
    for name, r in rows.items():
        print(f"{name:<34} p50 {r['p50_us']:9.1f} us   p95 {r['p95_us']:9.1f} us   ({r['n']} calls)")
    if as_json:
        print(json.dumps(rows))
