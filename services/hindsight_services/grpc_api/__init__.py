"""The gRPC interface of the gateway (``hindsight.v1.Hindsight``).

``server.build_server`` serves it over the same ``Query`` and ``Ingest`` handlers as
the HTTP API; ``convert`` maps messages to and from the API models. The
``hindsight_pb2*`` modules are generated from ``schemas/grpc/hindsight/v1/hindsight.proto``
by ``generate.sh`` — do not edit them.
"""
