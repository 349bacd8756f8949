"""Print the offline reflector's score.

    python -m hindsight_common.reflection [--held-out | --held-out-v2 | path]

Without an argument it scores the labelled set the rules were written against; `--held-out`
scores the set written after the rules were frozen; `--held-out-v2` scores the newer set
that no rule had seen when it was written, the fairest estimate.
"""

from __future__ import annotations

import sys
from importlib.resources import files

from hindsight_common.reflection.evaluation import (
    HELD_OUT_SET,
    HELD_OUT_V2_SET,
    ReflectorScore,
    evaluate,
)

_NAMED_SETS = {"--held-out": HELD_OUT_SET, "--held-out-v2": HELD_OUT_V2_SET}


def _report(score: ReflectorScore) -> str:
    lines = [f"utterances={score.utterances} expected={score.expected} "
             f"produced={score.produced} tp={score.true_positives} "
             f"P={score.precision:.3f} R={score.recall:.3f} F1={score.f1:.3f}"]
    lines += [f"  {k.kind:<10} expected={k.expected:<3} produced={k.produced:<3} "
              f"P={k.precision:.3f} R={k.recall:.3f} F1={k.f1:.3f}" for k in score.per_kind]
    lines += [f"  missed   {kind:<10} {key:<40} {text}" for text, kind, key in score.missed]
    lines += [f"  spurious {kind:<10} {key:<40} {text}" for text, kind, key in score.spurious]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """Score the set named on the command line (default: the labelled set) and print it."""
    path = argv[0] if argv else None
    if path in _NAMED_SETS:
        path = str(files("hindsight_common.reflection").joinpath(_NAMED_SETS[path]))
    print(_report(evaluate(path)))


if __name__ == "__main__":
    main(sys.argv[1:])
