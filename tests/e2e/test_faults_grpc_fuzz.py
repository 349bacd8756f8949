"""Malformed messages against the real gRPC server (``hindsight serve --grpc-port``): random
bytes, valid messages cut or with bytes flipped (wrong wire types, bad lengths), and
messages of every rpc built from its descriptor with hostile values (huge and control-
character strings, numbers at and past their range, times at the ends of the calendar).
Every answer is a clear status: never INTERNAL or UNKNOWN, and an error always says what
is wrong in its details.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import symbol_database
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings, strategies as st

from hindsight_common.settings import Settings
from hindsight_services.grpc_api import hindsight_pb2 as pb
from tests.e2e.conftest import Server

SERVICE = pb.DESCRIPTOR.services_by_name["Hindsight"]
METHODS = {m.name: m for m in SERVICE.methods}
BAD_CODES = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}
# make chaos (HINDSIGHT_CHAOS=1) runs more examples.
EXAMPLES = settings(max_examples=200 if os.environ.get("HINDSIGHT_CHAOS") == "1" else 40, deadline=None,
                    suppress_health_check=list(HealthCheck))

HOSTILE_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "../../etc/passwd", "a/b", "\u202e", "null", "-1", "1e999"]),
    st.integers(4_001, 300_000).map(lambda n: "x" * n),  # past every length limit
)
INT_EDGES = [0, 1, -1, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63), 2**64 - 1, 2**32 - 1]
# Timestamp seconds: the calendar's ends and past them (0001-01-01, 9999-12-31T23:59:59).
SECONDS = st.one_of(st.sampled_from([-62135596800, 253402300799, -62135596801, 253402300800, 0]),
                    st.integers(-(2**62), 2**62))


@pytest.fixture(scope="module")
def grpc_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("grpc-fuzz")
    server = Server(root / "data", root / "serve.log")
    server.start()
    try:
        yield f"127.0.0.1:{server.grpc_port}"
    finally:
        server.stop()


def nested(field: FieldDescriptor) -> Descriptor | None:
    """The message type of a message field (a map's entry type too); None for a scalar."""
    return field.message_type if field.type == FieldDescriptor.TYPE_MESSAGE else None


def is_map(field: FieldDescriptor) -> bool:
    return (message := nested(field)) is not None and message.GetOptions().map_entry


def value(field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if is_map(field):
        return st.dictionaries(HOSTILE_TEXT, st.text(max_size=10), max_size=2)
    if (message := nested(field)) is not None:
        if message.full_name == "google.protobuf.Timestamp":
            return st.builds(lambda s, n: {"seconds": s, "nanos": n}, SECONDS, st.integers(0, 999_999_999))
        return message_dict(message, depth + 1)
    if field.type == FieldDescriptor.TYPE_STRING:
        return HOSTILE_TEXT
    if field.type == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(allow_nan=True, allow_infinity=True, width=32)
    if field.type == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=64)
    bits = 64 if field.type in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64,
                                FieldDescriptor.TYPE_SINT64) else 32
    unsigned = field.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64)
    low, high = (0, 2**bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return st.one_of(st.sampled_from([v for v in INT_EDGES if low <= v <= high]), st.integers(low, high))


def message_dict(descriptor: Descriptor, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    if depth > 2:
        return st.just({})
    fields = {}
    for field in descriptor.fields:
        one = value(field, depth)
        if field.is_repeated and not is_map(field):
            one = st.lists(one, max_size=3)
        fields[field.name] = one
    return st.fixed_dictionaries({}, optional=fields)


def build(descriptor: Descriptor, data: dict[str, Any]) -> Message:
    cls = symbol_database.Default().GetSymbol(descriptor.full_name)
    msg: Message = cls()
    for name, v in data.items():
        field = descriptor.fields_by_name[name]
        try:
            if (message := nested(field)) is not None and not is_map(field):
                items = v if field.is_repeated else [v]
                built = [build(message, i) for i in items]
                if field.is_repeated:
                    getattr(msg, name).extend(built)
                else:
                    getattr(msg, name).CopyFrom(built[0])
            elif field.is_repeated and not isinstance(v, dict):
                getattr(msg, name).extend(v)
            elif isinstance(v, dict):
                getattr(msg, name).update(v)
            else:
                setattr(msg, name, v)
        except (ValueError, TypeError):
            pass  # protobuf itself refuses the value (e.g. a timestamp's nanos): leave it out
    return msg


async def call(address: str, method: str, payload: bytes) -> tuple[grpc.StatusCode, str]:
    async with grpc.aio.insecure_channel(address, options=[("grpc.max_send_message_length", 64 << 20)]) as channel:
        rpc: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(f"/{SERVICE.full_name}/{method}")
        try:
            await rpc(payload, timeout=60)
        except grpc.aio.AioRpcError as e:
            return e.code(), e.details() or ""
    return grpc.StatusCode.OK, ""


def check(address: str, method: str, payload: bytes) -> None:
    code, details = asyncio.run(call(address, method, payload))
    assert code not in BAD_CODES, f"{method}: {code.name}: {details}"
    assert code == grpc.StatusCode.OK or details.strip(), f"{method}: {code.name} without details"


@pytest.mark.parametrize("method", sorted(METHODS))
def test_hostile_messages_get_a_clear_status(grpc_address: str, method: str) -> None:
    @EXAMPLES
    @given(data=message_dict(METHODS[method].input_type))
    def hostile(data: dict[str, Any]) -> None:
        check(grpc_address, method, build(METHODS[method].input_type, data).SerializeToString())

    hostile()


@pytest.mark.parametrize("method", sorted(METHODS))
def test_random_and_mangled_bytes_get_a_clear_status(grpc_address: str, method: str) -> None:
    valid = pb.RecallRequest(query="where is Ann?", k=3).SerializeToString() if method == "Recall" else \
        pb.RetainRequest(interactions=[pb.Interaction(user="u", session="s", speaker="Ann", content="hi")]
                         ).SerializeToString()

    @EXAMPLES
    @given(payload=st.one_of(
        st.binary(max_size=200),
        st.integers(0, len(valid) - 1).map(lambda cut: valid[:cut]),
        st.tuples(st.integers(0, len(valid) - 1), st.integers(0, 255)).map(
            lambda flip: valid[: flip[0]] + bytes([flip[1]]) + valid[flip[0] + 1 :]),
    ))
    def mangled(payload: bytes) -> None:
        check(grpc_address, method, payload)

    mangled()


def test_a_message_over_the_size_limit_is_resource_exhausted(grpc_address: str) -> None:
    huge = pb.RecallRequest(query="x" * (Settings().max_body_bytes + 1)).SerializeToString()
    code, details = asyncio.run(call(grpc_address, "Recall", huge))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and details
