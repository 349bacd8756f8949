"""How the cross-encoder cuts a call's pairs into runs (part of what an int8 score is)."""

from hypothesis import given
from hypothesis import strategies as st

from hindsight_common.adapters.onnx_reranker import token_batches


def test_an_even_number_of_runs_the_fewest_of_at_most_the_batch_size() -> None:
    assert [len(b) for b in token_batches([30] * 20, 16)] == [10, 10]
    assert [len(b) for b in token_batches([30] * 33, 16)] == [8, 9, 8, 8]
    assert [len(b) for b in token_batches([30] * 16, 16)] == [8, 8]
    assert token_batches([30], 16) == [[0]]
    assert token_batches([], 16) == []


def test_runs_hold_equal_tokens_so_short_pairs_come_more_to_a_run() -> None:
    # Ten turns read alone (20 tokens) and ten read after the turn before (60): two runs
    # of ten pairs would be 200 and 600 tokens, leaving one core idle for half the call.
    lengths = [60, 20] * 10
    runs = token_batches(lengths, 16)
    assert [sum(lengths[i] for i in run) for run in runs] == [380, 420]
    assert [i for run in runs for i in run] == sorted(range(20), key=lambda i: lengths[i])


@given(st.lists(st.integers(min_value=3, max_value=256), max_size=120), st.integers(min_value=1, max_value=40))
def test_shortest_first_every_pair_once_and_the_tokens_shared_out(lengths: list[int], most: int) -> None:
    runs = token_batches(lengths, most)
    assert [i for run in runs for i in run] == sorted(range(len(lengths)), key=lambda i: lengths[i])
    fewest = -(-len(lengths) // most)
    assert len(runs) == (fewest + 1 if fewest % 2 and fewest < len(lengths) else fewest)
    assert all(runs)
    if runs:
        share = sum(lengths) / len(runs)
        assert all(sum(lengths[i] for i in run) <= share + max(lengths) for run in runs)
