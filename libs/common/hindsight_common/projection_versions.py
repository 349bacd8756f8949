"""How the versions of an aliased projection (an Elasticsearch index, a Qdrant
collection) are named, for an online rebuild (pure).

Version 1 is ``<alias>_v1``, what the adapters create first. A rebuild fills version
N > 1 through a staging alias ``<alias>_v<N>``; the adapter, given that alias, creates
its data as ``<alias>_v<N>_v1``. The swap then moves ``<alias>`` onto that name.
"""

from __future__ import annotations

import re


def staging_alias(alias: str, version: int) -> str:
    """The alias an adapter is given to fill ``version``."""
    return f"{alias}_v{version}"


def data_name(alias: str, version: int) -> str:
    """The index or collection that holds ``version``."""
    return f"{alias}_v1" if version == 1 else f"{staging_alias(alias, version)}_v1"


def version_of(alias: str, name: str) -> int | None:
    """The version an index or collection name holds; None for a name of no version."""
    match = re.fullmatch(re.escape(alias) + r"_v(\d+)(?:_v1)?", name)
    if match is None or data_name(alias, int(match.group(1))) != name:
        return None
    return int(match.group(1))
