"""``revisions.json`` joined from the live site's file: the same bytes as joined from its parts.

The live file's layout (each part's digest and size, in order) says where each part lies in it;
any new order of parts, some kept, some new, some removed or repeated, must come out as the
parts joined one by one would.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.pipeline.cache.inputs import content_hash
from site_builder.pipeline.sitewide.joined import _join, _Joined, _Part, _pieces, _Range

BLOBS = st.lists(st.binary(min_size=1, max_size=12), min_size=0, max_size=8, unique=True)


def _parts(blobs: list[bytes]) -> list[_Part]:
    return [_Part(content_hash(blob), len(blob), blob) for blob in blobs]


def _joined(path: Path, parts: list[_Part], live: tuple[str, tuple[tuple[str, int], ...]] | None) -> bytes:
    with _Joined(path) as out:
        _join(out, parts, live)
    return path.read_bytes()


@settings(max_examples=200, deadline=None)
@given(live=BLOBS, new=BLOBS, picks=st.lists(st.integers(min_value=0, max_value=15), max_size=12))
def test_any_new_order_of_kept_and_new_parts_gives_the_bytes_of_its_parts_joined(
    tmp_path_factory: pytest.TempPathFactory, live: list[bytes], new: list[bytes], picks: list[int]
) -> None:
    folder = tmp_path_factory.mktemp("joined")
    old = _parts(live)
    layout = tuple((part.digest, part.size) for part in old)
    _joined(folder / "live.json", old, None)
    pool = old + _parts([blob for blob in new if blob not in live])
    wanted = [pool[pick % len(pool)] for pick in picks] if pool else []

    assert _joined(folder / "new.json", wanted, (str(folder / "live.json"), layout)) == _joined(
        folder / "plain.json", wanted, None
    )


def test_one_part_replaced_takes_two_ranges_of_the_live_file() -> None:
    old = _parts([b"a" * 3, b"bb", b"c", b"dddd", b"e"])
    layout = tuple((part.digest, part.size) for part in old)
    edited = [*old[:2], *_parts([b"X"]), *old[3:]]

    pieces = _pieces(edited, layout)

    assert pieces == [_Range(4, 3 + 4 + 2), edited[2], _Range(4 + 3 + 4 + 2 + 4 + 1 + 4, 4 + 4 + 1)]
