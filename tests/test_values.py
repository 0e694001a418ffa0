"""Value.replace: a copy with some fields changed, through the constructor (dataclasses.replace's part)."""

import pytest

from handaudit.grammar.chunk import Chunk


def test_replace_changes_only_the_named_fields():
    chunk = Chunk("a.phhs", "7", 6, b"variant = 'NT'\n", 40, ("duplicate-hand", "again"))
    moved = chunk.replace(source="s3://bucket/a.phhs")
    assert moved == Chunk("s3://bucket/a.phhs", "7", 6, b"variant = 'NT'\n", 40, ("duplicate-hand", "again"))
    assert chunk.source == "a.phhs"  # the original is a value: unchanged
    assert chunk.replace() == chunk and chunk.replace() is not chunk


def test_replace_refuses_a_field_the_value_does_not_have():
    with pytest.raises(TypeError, match="Chunk has no field 'path'"):
        Chunk("a.phh", "", 0, b"", 1).replace(path="b.phh")
