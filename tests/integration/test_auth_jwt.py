"""JWTs as credentials on the real gateway: signed with a real RSA key, checked against a
JWKS read from a file and from an http URL (a local HTTP server), with issuer, audience,
expiry, tenant and scope claims."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from hindsight_common.errors import ConfigurationError
from hindsight_common.ports.embedder import Embedder
from hindsight_common.settings import Settings
from hindsight_services.embedded import create_app
from tests.integration.conftest import App, running

ISSUER, AUDIENCE = "https://idp.example", "hindsight"
PRIVATE = rsa.generate_private_key(public_exponent=65537, key_size=2048)
OTHER = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def jwks(*keys: tuple[Any, str]) -> dict[str, Any]:
    out = []
    for private, kid in keys:
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key()))
        out.append({**jwk, "kid": kid, "use": "sig", "alg": "RS256"})
    return {"keys": out}


def token(private: Any = PRIVATE, kid: str = "k1", **claims: Any) -> str:
    body = {"iss": ISSUER, "aud": AUDIENCE, "sub": "agent-7", "exp": int(time.time()) + 300,
            "tenant": "acme", "scope": "openid read write", **claims}
    body = {k: v for k, v in body.items() if v is not None}
    return jwt.encode(body, private, algorithm="RS256", headers={"kid": kid})


def bearer(t: str) -> dict[str, str]:
    return {"authorization": f"Bearer {t}"}


@pytest.fixture
def jwks_file(tmp_path: Path) -> Path:
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps(jwks((PRIVATE, "k1"))))
    return path


@pytest.fixture
def settings(tmp_path: Path, jwks_file: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", auth="required", rate_limit_per_s=0,
                    jwt_jwks=str(jwks_file), jwt_issuer=ISSUER, jwt_audience=AUDIENCE)


async def test_a_valid_token_acts_on_its_tenant_with_its_scopes(app: App) -> None:
    good = token()
    turn = {"user": "ann", "session": "s1", "speaker": "Ann", "content": "I keep bees in Lisbon."}
    r = await app.client.post("/v1/interactions", json={"interactions": [turn]}, headers=bearer(good))
    assert r.status_code == 201, r.text
    await app.runtime.wait_caught_up()
    items = (await app.client.post("/v1/recall", json={"query": "bees", "user": "ann"},
                                   headers=bearer(good))).json()["items"]
    assert items
    [doc] = await app.runtime.text.get("acme", [items[0]["id"]])  # stored under the token's tenant
    assert doc.tenant == "acme"
    other = await app.client.post("/v1/recall", json={"query": "bees", "tenant": "globex"}, headers=bearer(good))
    assert other.status_code == 403 and "'globex'" in other.json()["error"]["message"]
    admin = await app.client.get("/v1/admin/keys", headers=bearer(good))  # "openid" is ignored, no admin
    assert admin.status_code == 403 and "'admin' scope" in admin.json()["error"]["message"]
    assert "jwt:agent-7" in admin.json()["error"]["message"]


@pytest.mark.parametrize("bad, says", [
    (lambda: token(aud="someone-else"), "audience"),
    (lambda: token(iss="https://evil.example"), "issuer"),
    (lambda: token(exp=int(time.time()) - 10), "expired"),
    (lambda: token(tenant=None), "'tenant' claim"),
    (lambda: token(exp=None), "'exp' claim"),
    (lambda: token(OTHER), "not valid"),  # signed by a key the JWKS does not hold, same kid
    (lambda: token(OTHER, kid="k9"), "kid 'k9'"),
    (lambda: jwt.encode({"iss": ISSUER, "aud": AUDIENCE, "sub": "x", "exp": int(time.time()) + 60,
                         "tenant": "acme", "scope": "read"}, "secret" * 8, algorithm="HS256"), "algorithm"),
    (lambda: "not.a.jwt", "neither an API key nor a JWT"),
])
async def test_a_bad_token_is_refused_saying_why(app: App, bad: Any, says: str) -> None:
    r = await app.client.get("/v1/status", headers=bearer(bad()))
    assert r.status_code == 401, r.text
    assert says in r.json()["error"]["message"]


class _Jwks(BaseHTTPRequestHandler):
    document: dict[str, Any] = {}
    hits = 0

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        type(self).hits += 1
        body = json.dumps(self.document).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def jwks_url() -> Iterator[str]:
    _Jwks.document, _Jwks.hits = jwks((PRIVATE, "k1")), 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Jwks)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/.well-known/jwks.json"
    finally:
        server.shutdown()
        server.server_close()


async def test_the_jwks_is_fetched_from_a_url_once_and_cached(
    tmp_path: Path, jwks_url: str, embedder: Embedder
) -> None:
    settings = Settings(data_dir=tmp_path / "url", auth="required", jwt_jwks=jwks_url,
                        jwt_issuer=ISSUER, jwt_audience=AUDIENCE)
    async with running(settings, embedder) as app:
        for _ in range(3):
            assert (await app.client.get("/v1/status", headers=bearer(token()))).status_code == 200
        assert _Jwks.hits == 1
        # an unknown kid refetches at most every 30 s: a made-up kid cannot hammer the IdP
        for _ in range(3):
            assert (await app.client.get("/v1/status", headers=bearer(token(kid="nope")))).status_code == 401
        assert _Jwks.hits == 1


def test_jwt_settings_that_cannot_work_are_refused(tmp_path: Path, jwks_file: Path) -> None:
    with pytest.raises(ConfigurationError, match="HINDSIGHT_JWT_ISSUER"):
        create_app(Settings(data_dir=tmp_path, jwt_jwks=str(jwks_file)))
    with pytest.raises(ConfigurationError, match="asymmetric"):
        create_app(Settings(data_dir=tmp_path, jwt_jwks=str(jwks_file), jwt_issuer=ISSUER,
                            jwt_audience=AUDIENCE, jwt_algorithms="HS256"))
