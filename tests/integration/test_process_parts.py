"""A process's parts (``compose.Parts``): what they build, they close."""

from __future__ import annotations

from pathlib import Path

from hindsight_common.adapters.openai_chat import OpenAIChatLLM
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.reflection.llm_reflector import LLMReflector
from hindsight_common.settings import Settings
from hindsight_services import compose


async def test_the_chat_model_is_built_once_shared_and_closed_with_the_process(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, reflector="llm", llm_base_url="http://127.0.0.1:9/v1", llm_model="m")
    log = SqliteLog(tmp_path / "log.sqlite3")
    parts = compose.Parts(settings, log)
    llm = parts.llm
    assert isinstance(llm, OpenAIChatLLM) and parts.llm is llm  # one client for the process
    consumer = await compose.reflect(parts)
    assert consumer.group == "reflect"
    reflector = compose.make_reflector(settings, parts.llm)
    assert isinstance(reflector, LLMReflector) and reflector._llm is llm  # noqa: SLF001 - the shared one
    client = llm._client  # noqa: SLF001 - the transport it owns
    assert not client.is_closed
    await parts.close()
    assert client.is_closed  # released on shutdown, not left to the garbage collector
    await log.close()
    assert compose.Parts(Settings(data_dir=tmp_path), log).llm is None  # none configured: none built
