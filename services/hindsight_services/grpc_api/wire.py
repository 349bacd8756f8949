"""The Hindsight service's rpc handlers, with the request bytes parsed here.

gRPC's own deserializer turns a request that is not a valid protobuf of its type (random
bytes, a cut message, a field of the wrong wire type) into ``UNKNOWN: Unexpected
DecodeError``, which says neither that the caller is at fault nor what to send. The
handlers registered here take the raw bytes and answer ``INVALID_ARGUMENT`` naming the
expected message type instead; a parsed request goes to the servicer's method as usual.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from google.protobuf import symbol_database
from google.protobuf.message import DecodeError, Message

from hindsight_services.grpc_api import hindsight_pb2 as pb

SERVICE = pb.DESCRIPTOR.services_by_name["Hindsight"]


def _handler(method: Callable[[Any, grpc.aio.ServicerContext[Any, Any]], Awaitable[Message]],
             request_type: type[Message], response_type: type[Message]) -> grpc.RpcMethodHandler[Any, Any]:
    async def parsed(raw: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> Message:
        try:
            request = request_type.FromString(raw)
        except DecodeError as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                f"the request is not a valid {request_type.DESCRIPTOR.full_name} "
                                f"protobuf message ({e}); send one encoded as the .proto describes")
        return await method(request, context)

    return grpc.unary_unary_rpc_method_handler(parsed, response_serializer=response_type.SerializeToString)


def add_servicer(servicer: object, server: grpc.aio.Server) -> None:
    """Register every rpc of the Hindsight service on ``server``, served by ``servicer``."""
    symbols = symbol_database.Default()
    handlers = {
        m.name: _handler(getattr(servicer, m.name), symbols.GetSymbol(m.input_type.full_name),
                         symbols.GetSymbol(m.output_type.full_name))
        for m in SERVICE.methods
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),))
