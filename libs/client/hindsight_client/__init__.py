"""Python client for Hindsight, long-term memory for LLM agents.

    from hindsight_client import Hindsight

    with Hindsight("http://127.0.0.1:8080") as hs:
        hs.retain("I adopted a greyhound called Pixel", user="ann", session="s1", speaker="Ann")
        hs.wait_until_caught_up()
        for item in hs.recall("What is Ann's dog called?", user="ann", k=3).items:
            print(item.score, item.content)

``AsyncHindsight`` has the same methods, as coroutines. Errors derive from
``HindsightError`` (see ``hindsight_client._errors`` for the tree).
"""

from hindsight_client._async import AsyncHindsight
from hindsight_client._errors import (
    Conflict,
    Forbidden,
    HindsightError,
    InvalidRequest,
    NotFound,
    Problem,
    RateLimited,
    TransportError,
    Unauthorized,
    Unavailable,
)
from hindsight_client._models import (
    Appended,
    Consolidation,
    ConsumerStatus,
    ContextTurn,
    Forgetting,
    Interaction,
    Memory,
    MemoryDetail,
    MemoryHistory,
    MemoryPage,
    Provenance,
    RecallItem,
    RecallResult,
    RetainResult,
    Role,
    SessionContext,
    SourceTurn,
    Status,
)
from hindsight_client._sync import Hindsight

__version__ = "0.1.0"

__all__ = [
    "Appended",
    "AsyncHindsight",
    "Conflict",
    "Consolidation",
    "ConsumerStatus",
    "ContextTurn",
    "Forbidden",
    "Forgetting",
    "Hindsight",
    "HindsightError",
    "Interaction",
    "InvalidRequest",
    "Memory",
    "MemoryDetail",
    "MemoryHistory",
    "MemoryPage",
    "NotFound",
    "Problem",
    "Provenance",
    "RecallItem",
    "RecallResult",
    "RetainResult",
    "Role",
    "SessionContext",
    "SourceTurn",
    "Status",
    "TransportError",
    "RateLimited",
    "Unauthorized",
    "Unavailable",
]
