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


# --- the values made once a run: variants, code pages, a run's configuration ---------------------

@pytest.mark.parametrize("make", [
    lambda: __import__("handaudit.core.variants", fromlist=["VARIANTS"]).VARIANTS["F7S/8"],
    lambda: __import__("handaudit.findings.codes", fromlist=["CODES"]).CODES["raise-cap-exceeded"],
    lambda: __import__("handaudit.rules.params", fromlist=["PARAMETERS"]).PARAMETERS["rake_cap"],
    lambda: __import__("handaudit.run.common", fromlist=["RunConfig"]).RunConfig(out_dir="r", run_id="ab"),
    lambda: __import__("handaudit.config", fromlist=["ProjectConfig"]).ProjectConfig("h.toml", ("E1",)),
], ids=["Variant", "CodeInfo", "Param", "RunConfig", "ProjectConfig"])
def test_a_run_once_value_compares_pickles_copies_and_stays_as_made(make):
    """Value (compiled modules) and OpenValue (interpreted ones) classes, as frozen dataclasses
    were: equal and hashed by their fields, pickled through the constructor, copied by
    ``replace``, shown with every field, and refusing a change."""
    import pickle

    value = make()
    name = value.FIELDS[0]
    again = pickle.loads(pickle.dumps(value))
    assert again == value and again is not value and again.field_values() == value.field_values()
    if not isinstance(value.field_values()[-1], dict):  # (a code page's rules: a dict, unhashable)
        assert hash(again) == hash(value)
    changed = value.replace(**{name: "other"})
    assert getattr(changed, name) == "other" and changed != value
    assert changed.replace(**{name: getattr(value, name)}) == value
    assert repr(value).startswith(f"{type(value).__name__}({name}=")
    assert all(f"{field}=" in repr(value) for field in value.FIELDS)
    with pytest.raises(AttributeError):
        setattr(value, name, "changed")
    assert getattr(value, name) != "changed"
