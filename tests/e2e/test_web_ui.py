"""The web UI end to end: the real gateway on a free port, the system Chromium driving the page.

Needs Debian's Chromium at /usr/bin/chromium (``apt-get install -y chromium``); Playwright is
only the remote control and never downloads a browser. Without either, these tests fail
with a message saying what to install; they never skip.

The screenshot each run takes lands in the test's temporary folder; to refresh the one in
the README, run with ``HINDSIGHT_UI_SCREENSHOT=docs/ui.png``.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from hindsight_common.ports.embedder import Embedder
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import Settings
from hindsight_services.embedded import create_app
from tests.support.auth import store_keys

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright

    PLAYWRIGHT_IMPORT_ERROR = ""
except ImportError as e:  # reported as a failure by the browser fixture, never as a skip
    PLAYWRIGHT_IMPORT_ERROR = str(e)

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
WAIT_MS = 15_000

SESSION_ONE = [
    {"speaker": "Ann", "role": "user", "content": "I love hiking in the Alps.",
     "occurred_at": "2024-05-01T10:00:00Z", "external_id": "t1"},
    {"speaker": "Bot", "role": "assistant", "content": "That sounds wonderful. Which route?",
     "occurred_at": "2024-05-01T10:01:00Z", "external_id": "t2"},
    {"speaker": "Ann", "role": "user", "content": "I work as a nurse in Leeds.",
     "occurred_at": "2024-05-01T10:02:00Z", "external_id": "t3"},
]
MARKUP = "My greyhound Pixel chews <b>shoes</b> & <img src=x> socks"
# An open session, long enough that the timeline needs more than one page.
SESSION_TWO = [
    {"speaker": "Ann", "role": "user", "content": MARKUP, "occurred_at": "2024-05-02T09:00:00Z",
     "external_id": "g0"},
    *({"speaker": "Ann", "role": "user", "content": f"Garden note {i}: watered the tomatoes.",
       "occurred_at": f"2024-05-02T09:{i:02d}:00Z", "external_id": f"g{i}"} for i in range(1, 21)),
]


@dataclass
class Gateway:
    url: str
    data_dir: Path | None = None
    turn_ids: dict[str, str] = field(default_factory=dict)  # content -> event id

    def get(self, path: str, **params: Any) -> Any:
        r = httpx.get(f"{self.url}{path}", params=params, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(f"{self.url}{path}", json=body, timeout=60)


class ThreadedGateway:
    """The embedded gateway (which serves the UI), served by uvicorn in a background thread
    on a socket bound here (port 0), so no other process can take the port meanwhile."""

    def __init__(self, data_dir: Path, embedder: Embedder, **settings: Any) -> None:
        self.data_dir = data_dir
        app = create_app(Settings(data_dir=data_dir, **settings), embedder)  # serves the UI itself
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(app, lifespan="on", log_config=None, access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, name="ui-gateway", daemon=True
        )

    def start(self, timeout_s: float = 120) -> None:
        self.thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the gateway did not start (see the log above)")
            time.sleep(0.05)
        assert httpx.get(f"{self.url}/healthz", timeout=10).status_code == 200

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=60)
        self.sock.close()
        assert not self.thread.is_alive(), "the gateway did not shut down"


def seed(gateway: Gateway) -> None:
    """Two sessions of Ann's through the HTTP API; the first is closed, so reflection
    learns semantic memories from it."""
    turns = [{"user": "ann", "session": "s1", **t} for t in SESSION_ONE]
    turns += [{"user": "ann", "session": "s2", **t} for t in SESSION_TWO]
    r = gateway.post("/v1/interactions", {"interactions": turns})
    assert r.status_code == 201, r.text
    for turn, event in zip(turns, r.json()["events"], strict=True):
        gateway.turn_ids[turn["content"]] = event["event_id"]
    r = gateway.post("/v1/sessions/s1:close", {"user": "ann"})
    assert r.status_code == 201, r.text
    deadline = time.monotonic() + 60
    while True:
        semantic = gateway.get("/v1/memories", user="ann", type="semantic")["items"]
        if len(semantic) >= 2 and gateway.get("/v1/status")["caught_up"]:
            return
        assert time.monotonic() < deadline, f"reflection did not catch up: {semantic}"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[Gateway]:
    served = ThreadedGateway(tmp_path_factory.mktemp("ui") / "data", embedder)
    served.start()
    try:
        gateway = Gateway(served.url, served.data_dir)
        seed(gateway)
        yield gateway
    finally:
        served.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if PLAYWRIGHT_IMPORT_ERROR:
        pytest.fail(f"Playwright for Python is missing ({PLAYWRIGHT_IMPORT_ERROR}): "
                    "pip install -e .[dev] installs it (no browser download is needed)")
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}; the UI tests drive the system Chromium. "
                    "Install it with: apt-get update && apt-get install -y chromium")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser, gateway: Gateway) -> Iterator[Page]:
    """A fresh browser context (empty localStorage) per test. Fails the test when the page
    threw, or the browser refused something (a Content-Security-Policy violation)."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, base_url=gateway.url)
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    # A failed API call also logs "Failed to load resource": expected where a test provokes it.
    tab.on("console", lambda msg: problems.append(f"console: {msg.text}")
           if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    try:
        yield tab
    finally:
        context.close()
    assert not problems, problems


def open_ui(page: Page, gateway: Gateway, user: str = "ann", path: str = "/ui") -> None:
    page.goto(gateway.url + path)
    page.fill("#user", user)
    page.click("#scope-form button[type=submit]")
    expect(page.locator("#status")).to_contain_text(f"user {user}", timeout=WAIT_MS)


def search(page: Page, query: str, k: int = 10) -> None:
    page.fill("#query", query)
    page.fill("#k", str(k))
    page.click("#search-form button[type=submit]")
    expect(page.locator("#list-title")).to_have_text(f"Search results for “{query}”")


def test_page_and_assets_are_served_with_their_content_types(gateway: Gateway) -> None:
    root = httpx.get(f"{gateway.url}/", timeout=10)
    assert root.status_code == 307 and root.headers["location"] == "/ui"
    page = httpx.get(f"{gateway.url}/ui", timeout=10)
    assert page.status_code == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert '<script type="module" src="/ui/app.js">' in page.text
    for name, content_type in (("app.js", "text/javascript"), ("api.js", "text/javascript"),
                               ("style.css", "text/css")):
        asset = httpx.get(f"{gateway.url}/ui/{name}", timeout=10)
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(content_type), name
        again = httpx.get(f"{gateway.url}/ui/{name}", headers={"if-none-match": asset.headers["etag"]})
        assert again.status_code == 304
    for missing in ("nope.js", "ui_routes.py"):
        r = httpx.get(f"{gateway.url}/ui/{missing}", timeout=10)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", missing
    assert httpx.get(f"{gateway.url}/ui/..%2Fui_routes.py", timeout=10).status_code == 404


def test_search_shows_results_and_how_each_path_ranked_them(gateway: Gateway, page: Page) -> None:
    open_ui(page, gateway, path="/")
    expect(page).to_have_url(f"{gateway.url}/ui")
    query = "Where does Ann work?"
    search(page, query, k=5)
    want = gateway.post("/v1/recall", {"user": "ann", "query": query, "k": 5}).json()["items"]
    rows = page.locator("#results > li")
    expect(rows).to_have_count(len(want))
    expect(rows.locator(".item-content")).to_have_text([i["content"] for i in want])
    assert any("nurse in Leeds" in i["content"] for i in want[:2])
    for row, item in zip(rows.all(), want, strict=True):
        for path, rank in item["ranks"].items():
            expect(row.locator(f'.explain [data-path="{path}"] strong')).to_have_text(f"#{rank}")
        for path in {"vector", "bm25"} - set(item["ranks"]):
            expect(row.locator(f'.explain [data-path="{path}"]')).to_have_text(f"{path} —")
    expect(page.locator("#status")).to_have_text(f"{len(want)} results for user ann, best first.")

    page.uncheck('#search-form input[value="episodic"]')
    search(page, query, k=5)
    semantic = gateway.post("/v1/recall", {"user": "ann", "query": query, "k": 5,
                                           "types": ["semantic"]}).json()["items"]
    expect(rows.locator(".item-content")).to_have_text([i["content"] for i in semantic])
    assert {row.get_attribute("data-type") for row in rows.all()} == {"semantic"}


def test_a_semantic_memory_opens_with_its_source_turns(
    gateway: Gateway, page: Page, tmp_path: Path
) -> None:
    open_ui(page, gateway)
    search(page, "Who loves hiking?")  # no person named: the speaker path (turns only) stays out
    result = page.locator("#results > li[data-type=semantic]").filter(has_text="hiking")
    expect(result).to_have_count(1)
    result.locator("a.item").click()

    [memory] = gateway.get("/v1/memories", user="ann", kind="preference")["items"]
    expect(page).to_have_url(f"{gateway.url}/ui#memory={memory['id']}")
    detail = page.locator("#detail")
    expect(detail.locator("h2")).to_have_text("Memory")
    expect(detail.locator(".detail-content")).to_have_text(memory["content"])
    facts = detail.locator(".facts")
    expect(facts).to_contain_text("preference")
    expect(facts).to_contain_text(f"{round(memory['confidence'] * 100)}%")
    if memory["key"]:
        expect(facts).to_contain_text(memory["key"])
    expect(facts.locator(".session")).to_have_text("s1")
    expect(detail.locator(".provenance")).to_contain_text("Learned from 1 turn.")
    sources = detail.locator(".sources > li")
    expect(sources.locator(".turn-content")).to_have_text(["I love hiking in the Alps."])
    expect(sources.locator(".speaker")).to_have_text(["Ann"])
    expect(sources.locator(".external-id")).to_have_text(["t1"])
    expect(sources.locator("time")).to_have_text(["2024-05-01 10:00 UTC"])
    expect(result.locator("a.item")).to_have_attribute("aria-current", "true")

    shot = page.screenshot(path=str(tmp_path / "ui.png"), full_page=False)
    assert shot.startswith(b"\x89PNG") and len(shot) > 10_000
    if target := os.environ.get("HINDSIGHT_UI_SCREENSHOT"):
        Path(target).write_bytes(shot)

    # From the provenance to the turn itself, and back.
    sources.get_by_role("link", name="Open this turn").click()
    expect(detail.locator("h2")).to_have_text("Turn")
    page.go_back()
    expect(detail.locator("h2")).to_have_text("Memory")


def test_a_turn_opens_with_its_session(gateway: Gateway, page: Page) -> None:
    turn_id = gateway.turn_ids["I work as a nurse in Leeds."]
    open_ui(page, gateway, path=f"/ui#memory={turn_id}")
    detail = page.locator("#detail")
    expect(detail.locator("h2")).to_have_text("Turn")
    expect(detail.locator(".sources .turn-content")).to_have_text(["I work as a nurse in Leeds."])
    expect(detail.locator(".sources .external-id")).to_have_text(["t3"])
    conversation = detail.locator(".conversation > li")
    expect(conversation.locator(".turn-content")).to_have_text([t["content"] for t in SESSION_ONE])
    expect(conversation.locator(".external-id")).to_have_text(["t1", "t2", "t3"])
    expect(detail.locator('.conversation > li[aria-current="true"] .turn-content')).to_have_text(
        "I work as a nurse in Leeds.")


def test_timeline_is_newest_first_pages_and_filters_by_kind_key_and_tag(
    gateway: Gateway, page: Page
) -> None:
    everything = gateway.get("/v1/memories", user="ann", type=["episodic", "semantic"], limit=500)["items"]
    assert len(everything) > 20  # more than one page
    open_ui(page, gateway)
    rows = page.locator("#results > li")
    expect(rows.locator(".item-content")).to_have_text([i["content"] for i in everything[:20]])
    page.click("#more")
    expect(rows.locator(".item-content")).to_have_text([i["content"] for i in everything])
    expect(page.locator("#more")).to_be_hidden()

    page.select_option("#kind", "fact")
    page.click("#filter-form button[type=submit]")
    facts = [i for i in everything if i["kind"] == "fact"]
    assert facts and any("nurse" in i["content"] for i in facts)
    expect(rows.locator(".item-content")).to_have_text([i["content"] for i in facts])
    expect(rows.locator(".badge-kind")).to_have_text(["fact"] * len(facts))
    expect(page.locator("#status")).to_contain_text("matching the filters")

    page.select_option("#kind", "")
    page.fill("#key", facts[0]["key"])
    page.click("#filter-form button[type=submit]")
    expect(rows.locator(".item-content")).to_have_text([facts[0]["content"]])

    page.fill("#key", "")
    page.fill("#tag", "no-such-tag")
    page.click("#filter-form button[type=submit]")
    expect(rows).to_have_count(0)
    expect(page.locator("#status")).to_have_text("No memories matching the filters for user ann.")

    page.click("#filter-form button[type=reset]")
    expect(rows).to_have_count(20)


def test_api_errors_are_shown_with_what_to_fix(gateway: Gateway, page: Page) -> None:
    open_ui(page, gateway)
    error = page.locator("#error")
    search(page, "Where does Ann work?", k=1000)
    expect(error).to_be_visible()
    expect(error).to_contain_text("Search failed: k too large")
    expect(error.locator(".problems li")).to_have_text(["k: at most 100, got 1000"])
    expect(error).to_contain_text("HTTP 422 invalid_request")

    page.fill("#user", "ann/smith")
    search(page, "Where does Ann work?", k=5)
    expect(error.locator(".problems code")).to_have_text(["user"])

    page.fill("#user", "ann")
    search(page, "Where does Ann work?", k=5)
    expect(error).to_be_hidden()

    page.goto(f"{gateway.url}/ui#memory=00000000-0000-0000-0000-000000000000")
    expect(error).to_contain_text(
        "Opening the memory failed: no memory 00000000-0000-0000-0000-000000000000 in tenant default")
    expect(error).to_contain_text("HTTP 404 not_found")


def test_text_from_memories_is_shown_as_text_never_as_markup(gateway: Gateway, page: Page) -> None:
    open_ui(page, gateway)
    search(page, "greyhound chews shoes")
    row = page.locator("#results > li").filter(has_text="chews")  # the turn, not what was learned from it
    expect(row.locator(".item-content")).to_have_text(MARKUP)
    assert page.locator("#results b, #results img").count() == 0


def test_tenant_and_user_are_remembered_and_scope_the_view(gateway: Gateway, page: Page) -> None:
    open_ui(page, gateway)
    page.fill("#tenant", "elsewhere")
    page.click("#scope-form button[type=submit]")
    expect(page.locator("#status")).to_have_text("No memories for user ann in tenant elsewhere.")
    page.reload()
    expect(page.locator("#tenant")).to_have_value("elsewhere")
    expect(page.locator("#user")).to_have_value("ann")
    expect(page.locator("#status")).to_have_text("No memories for user ann in tenant elsewhere.")


def test_with_auth_required_the_page_loads_and_sends_the_key_it_is_given(
    tmp_path: Path, embedder: Embedder, page: Page
) -> None:
    key, record = new_key("default", ["read"], now())
    served = ThreadedGateway(tmp_path / "data", embedder, auth="required")
    store_keys(Settings(data_dir=tmp_path / "data").credentials_path, record)
    served.start()
    try:
        page.goto(served.url + "/ui")  # the shell is open; its calls are not, without a key
        expect(page.locator("#error")).to_contain_text("requires an API key")
        page.fill("#api-key", key)
        page.fill("#user", "ann")
        page.click("#scope-form button[type=submit]")
        expect(page.locator("#status")).to_contain_text("user ann")
        expect(page.locator("#error")).to_be_hidden()
        assert page.evaluate("sessionStorage.getItem('hindsight.apiKey')") == key
        assert page.evaluate("localStorage.getItem('hindsight.apiKey')") is None
    finally:
        served.stop()


def test_a_changed_preference_shows_what_it_replaced(gateway: Gateway, page: Page) -> None:
    for session, content, day in (("d1", "I prefer Python for scripting.", 1),
                                  ("d2", "Actually, I now prefer Go for scripting.", 20)):
        turn = {"user": "dan", "session": session, "speaker": "Dan", "content": content,
                "occurred_at": f"2024-05-{day:02d}T10:00:00Z"}
        assert gateway.post("/v1/interactions", {"interactions": [turn]}).status_code == 201
        assert gateway.post(f"/v1/sessions/{session}:close", {"user": "dan"}).status_code == 201
    deadline = time.monotonic() + 60
    while not ((live := gateway.get("/v1/memories", user="dan")["items"]) and live[0]["supersedes"]
               and gateway.get("/v1/status")["caught_up"]):
        assert time.monotonic() < deadline, f"no supersession: {live}"
        time.sleep(0.1)
    [go] = live
    [python] = go["supersedes"]
    open_ui(page, gateway, user="dan", path=f"/ui#memory={go['id']}")
    facts = page.locator("#detail .facts")
    expect(facts).to_contain_text("Replaces")
    facts.locator(f'a[href="#memory={python}"]').click()
    expect(page.locator("#detail .detail-content")).to_contain_text("Python")
    expect(facts).to_contain_text("superseded")
    expect(facts.locator(f'a[href="#memory={go["id"]}"]')).to_have_count(1)  # "Replaced by"
    expect(facts).to_contain_text("Replaced by")


def test_the_pin_button_pins_and_unpins_a_memory(gateway: Gateway, page: Page) -> None:
    turn = {"user": "eve", "session": "e1", "speaker": "Eve", "content": "I love sailing on the lake.",
            "occurred_at": "2024-05-03T10:00:00Z"}
    assert gateway.post("/v1/interactions", {"interactions": [turn]}).status_code == 201
    assert gateway.post("/v1/sessions/e1:close", {"user": "eve"}).status_code == 201
    deadline = time.monotonic() + 60
    while not (live := gateway.get("/v1/memories", user="eve")["items"]):
        assert time.monotonic() < deadline, "no memory for eve"
        time.sleep(0.1)
    [memory] = live
    open_ui(page, gateway, user="eve", path=f"/ui#memory={memory['id']}")
    detail = page.locator("#detail")
    detail.locator('button[data-action="pin"]').click()
    # The page opens the memory again once the event is applied: now it says so, and offers Unpin.
    expect(detail.locator(".facts")).to_contain_text("Pinned")
    assert gateway.get(f"/v1/memories/{memory['id']}")["memory"]["pinned"] is True
    detail.locator('button[data-action="unpin"]').click()
    expect(detail.locator('button[data-action="pin"]')).to_have_count(1)
    expect(detail.locator(".facts")).not_to_contain_text("Pinned")
    assert gateway.get(f"/v1/memories/{memory['id']}")["memory"]["pinned"] is False


def test_a_forgotten_memory_is_listed_when_asked_and_restored_with_its_button(gateway: Gateway, page: Page) -> None:
    turn = {"user": "fay", "session": "f1", "speaker": "Fay", "content": "I love rowing on the river.",
            "occurred_at": "2024-05-04T10:00:00Z"}
    assert gateway.post("/v1/interactions", {"interactions": [turn]}).status_code == 201
    assert gateway.post("/v1/sessions/f1:close", {"user": "fay"}).status_code == 201
    deadline = time.monotonic() + 60
    while not (live := gateway.get("/v1/memories", user="fay")["items"]):
        assert time.monotonic() < deadline, "no memory for fay"
        time.sleep(0.1)
    [memory] = live
    assert gateway.post(f"/v1/memories/{memory['id']}:forget", {"user": "fay"}).status_code == 202
    while gateway.get("/v1/memories", user="fay")["items"]:
        assert time.monotonic() < deadline, "the forget never reached the projections"
        time.sleep(0.1)
    # Forgotten memories are an admin's to see (auth is off here, but a key sent is checked).
    key, record = new_key("default", ["read", "write", "admin"], now())
    assert gateway.data_dir is not None
    store_keys(Settings(data_dir=gateway.data_dir).credentials_path, record)
    page.goto(gateway.url + "/ui")
    page.fill("#api-key", key)
    page.fill("#user", "fay")
    page.click("#scope-form button[type=submit]")
    expect(page.locator("#status")).to_contain_text("user fay", timeout=WAIT_MS)
    page.locator('input[name="timeline-include"][value="forgotten"]').check()
    page.click("#filter-form button[type=submit]")
    page.locator(f'a[href="#memory={memory["id"]}"]').first.click()
    detail = page.locator("#detail")
    expect(detail.locator(".detail-content")).to_contain_text("rowing")
    detail.locator('button[data-action="restore"]').click()
    # Once the restore is applied the page opens the memory again: live, with Pin offered.
    expect(detail.locator('button[data-action="pin"]')).to_have_count(1)
    assert [m["id"] for m in gateway.get("/v1/memories", user="fay")["items"]] == [memory["id"]]
