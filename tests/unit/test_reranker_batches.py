"""How the cross-encoder cuts a call's pairs into batches (part of what an int8 score is)."""

from hypothesis import given
from hypothesis import strategies as st

from hindsight_common.adapters.onnx_reranker import even_batches


def test_twenty_pairs_make_two_batches_of_ten_not_sixteen_and_four() -> None:
    assert [len(b) for b in even_batches(list(range(20)), 16)] == [10, 10]
    assert [len(b) for b in even_batches(list(range(16)), 16)] == [16]
    assert [len(b) for b in even_batches(list(range(33)), 16)] == [11, 11, 11]
    assert even_batches([], 16) == []


@given(st.lists(st.integers(), max_size=200), st.integers(min_value=1, max_value=40))
def test_the_fewest_batches_in_order_and_even(rows: list[int], most: int) -> None:
    batches = even_batches(rows, most)
    assert [r for b in batches for r in b] == rows
    assert len(batches) == -(-len(rows) // most)
    sizes = [len(b) for b in batches]
    assert all(0 < s <= most for s in sizes) and (not sizes or max(sizes) - min(sizes) <= 1)
