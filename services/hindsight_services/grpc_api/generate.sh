#!/usr/bin/env bash
# Regenerate the Python gRPC code in this folder from schemas/grpc/hindsight/v1/hindsight.proto.
#
#   services/hindsight_services/grpc_api/generate.sh [OUT_DIR]   (default: this folder)
#
# Uses grpc_tools.protoc from $PYTHON (default: .venv/bin/python, else python3); the
# generated files are committed, and tests/unit/test_grpc_codegen.py fails when they
# drift from the .proto. protoc writes the service module with an absolute import
# (`from hindsight.v1 import hindsight_pb2`); it is rewritten to a package-relative one
# so the code works inside hindsight_services.grpc_api.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$(mkdir -p "${1:-$here}" && cd "${1:-$here}" && pwd)"
if [[ -z "${PYTHON:-}" ]]; then
  if [[ -x "$root/.venv/bin/python" ]]; then PYTHON="$root/.venv/bin/python"; else PYTHON=python3; fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# `python -m grpc_tools.protoc` adds the include path of the well-known types itself.
(cd "$root/schemas/grpc" && "$PYTHON" -m grpc_tools.protoc -I . \
  --python_out="$work" --pyi_out="$work" --grpc_python_out="$work" \
  hindsight/v1/hindsight.proto)

gen="$work/hindsight/v1"
sed -e 's/^from hindsight\.v1 import hindsight_pb2 as /from . import hindsight_pb2 as /' \
  "$gen/hindsight_pb2_grpc.py" > "$out/hindsight_pb2_grpc.py"
if grep -q '^from hindsight\.v1 import' "$out/hindsight_pb2_grpc.py"; then
  echo "generate.sh: could not make the import in hindsight_pb2_grpc.py package-relative" >&2
  exit 1
fi
cp "$gen/hindsight_pb2.py" "$gen/hindsight_pb2.pyi" "$out/"
