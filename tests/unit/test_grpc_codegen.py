"""The committed gRPC code is what services/hindsight_services/grpc_api/generate.sh makes from the .proto."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.server import HindsightServicer

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "services" / "hindsight_services" / "grpc_api"
GENERATED = ("hindsight_pb2.py", "hindsight_pb2.pyi", "hindsight_pb2_grpc.py")


def test_generated_code_matches_the_proto(tmp_path: Path) -> None:
    subprocess.run(
        ["bash", str(PACKAGE / "generate.sh"), str(tmp_path)],
        check=True, env={**os.environ, "PYTHON": sys.executable}, timeout=120,
    )
    for name in GENERATED:
        fresh = (tmp_path / name).read_text()
        committed = (PACKAGE / name).read_text()
        assert committed == fresh, (
            f"services/hindsight_services/grpc_api/{name} is out of date with schemas/grpc/hindsight/v1/hindsight.proto; "
            "run services/hindsight_services/grpc_api/generate.sh and commit the result"
        )
    assert "from . import hindsight_pb2" in (tmp_path / "hindsight_pb2_grpc.py").read_text()


def test_every_rpc_is_implemented() -> None:
    rpcs = {m.name for m in pb.DESCRIPTOR.services_by_name["Hindsight"].methods}
    assert rpcs >= {"Recall", "GetSessionContext", "Retain", "Reflect", "Forget", "ListMemories"}
    unimplemented = {
        name for name in rpcs
        if getattr(HindsightServicer, name) is getattr(pb_grpc.HindsightServicer, name)
    }
    assert unimplemented == set()
