"""Print the offline reflector's score.

    python -m hindsight_common.reflection [--dev-v3 | --dev-v4 | --held-out | --held-out-v2 |
                                           --held-out-v3 | --held-out-v4 | --dev-v5 |
                                           --dev-v5b | --held-out-v5 | --dev-v6b |
                                           --held-out-v6 | path]

Without an argument it scores the labelled set the rules were written against; `--dev-v3`
the development set the widened rules were iterated on; `--dev-v4` the one the precision
round was iterated on; `--held-out` the set written after the first rules were frozen;
`--dev-v5` / `--dev-v5b` the fifth round's, `--dev-v6b` the sixth's; `--held-out-v2` to
`--held-out-v6` sets each
written before a round of rule changes (README.md says which runs of them were blind).
"""

from __future__ import annotations

import sys
from importlib.resources import files

from hindsight_common.reflection.evaluation import (
    DEV_V3_SET,
    DEV_V4_SET,
    DEV_V5_SET,
    DEV_V5B_SET,
    DEV_V6B_SET,
    HELD_OUT_SET,
    HELD_OUT_V2_SET,
    HELD_OUT_V3_SET,
    HELD_OUT_V4_SET,
    HELD_OUT_V5_SET,
    HELD_OUT_V6_SET,
    ReflectorScore,
    evaluate,
)

_NAMED_SETS = {"--dev-v3": DEV_V3_SET, "--dev-v4": DEV_V4_SET, "--held-out": HELD_OUT_SET,
               "--held-out-v2": HELD_OUT_V2_SET, "--held-out-v3": HELD_OUT_V3_SET,
               "--held-out-v4": HELD_OUT_V4_SET, "--dev-v5": DEV_V5_SET,
               "--dev-v5b": DEV_V5B_SET, "--held-out-v5": HELD_OUT_V5_SET,
               "--dev-v6b": DEV_V6B_SET, "--held-out-v6": HELD_OUT_V6_SET}


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
