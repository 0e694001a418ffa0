"""Every rulebook parameter has a consumer: some module outside ``handaudit/rules/`` reads it.

A parameter that the loader accepts, checks and documents but nothing reads is worse than none: a
user sets it and the verdicts silently ignore it (``odd_chip_button`` was such a one). So this
scans ``handaudit/`` (``rules/`` excepted: the loader and the tables read every parameter by name)
for reads ``<rulebook>.<parameter>``, where ``<rulebook>`` is a name, or an attribute, called
``book`` or ``rulebook``: what the replay and the settlement call the
:class:`~handaudit.rules.rulebook.Rulebook` they are given (:func:`test_rulebooks_are_named_so`
keeps that convention true).

:data:`KNOWN_DEAD` names each parameter that has no consumer yet, why, and the issue that will
give it one. The list can only shrink: a parameter on it that gains a consumer fails the test
too, so that the entry is removed.
"""

from __future__ import annotations

import ast

from handaudit.rules.params import PARAMETERS

from helpers import REPO

PACKAGE = REPO / "handaudit"
RULEBOOK_NAMES = ("book", "rulebook")

# parameter -> why nothing reads it, and the issue that will fix that
KNOWN_DEAD: dict[str, str] = {}


def _modules() -> list[tuple[str, ast.Module]]:
    """Every module of the package outside rules/, parsed."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith("handaudit/rules/"):
            continue
        out.append((rel, ast.parse(path.read_text(encoding="utf-8"), rel)))
    return out


def _base_name(node: ast.expr) -> str | None:
    """``book`` for ``book``, ``self.book`` or ``rules.book``; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _consumers() -> dict[str, list[str]]:
    """Parameter -> the places (``path:line``) that read it from a rulebook."""
    found: dict[str, list[str]] = {name: [] for name in PARAMETERS}
    for rel, tree in _modules():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr in PARAMETERS
                    and _base_name(node.value) in RULEBOOK_NAMES):
                found[node.attr].append(f"{rel}:{node.lineno}")
    return found


def test_every_parameter_has_a_consumer():
    consumers = _consumers()
    dead = sorted(name for name, places in consumers.items() if not places)
    unexpected = [name for name in dead if name not in KNOWN_DEAD]
    assert not unexpected, (
        f"rulebook parameters with no consumer outside handaudit/rules/: {', '.join(unexpected)}. Read each "
        f"one where the replay or the settlement applies it (as book.<name> or rulebook.<name>), or, if it "
        f"is knowingly dead for now, add it to KNOWN_DEAD with the reason and the issue that will fix it")
    revived = {name: consumers[name] for name in KNOWN_DEAD if consumers.get(name)}
    assert not revived, (
        f"parameters on KNOWN_DEAD now have a consumer, remove them from the list: {revived}")


def test_known_dead_names_real_parameters_with_a_reason():
    for name, why in KNOWN_DEAD.items():
        assert name in PARAMETERS, f"KNOWN_DEAD names {name!r}, which is not a rulebook parameter"
        assert "issue" in why, f"KNOWN_DEAD[{name!r}] must name the issue that will give it a consumer"


def _is_rulebook_annotation(ann: ast.expr | None) -> bool:
    if ann is None:
        return False
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        return ann.value == "Rulebook"
    return _base_name(ann) == "Rulebook"


def test_rulebooks_are_named_so():
    """What the scan above relies on: a parameter, or an attribute, annotated ``Rulebook`` is called
    ``book`` or ``rulebook`` (so a read of it is found)."""
    misnamed = []
    for rel, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
                    if _is_rulebook_annotation(arg.annotation) and arg.arg not in RULEBOOK_NAMES:
                        misnamed.append(f"{rel}:{arg.lineno} {node.name}({arg.arg})")
            elif isinstance(node, ast.AnnAssign) and _is_rulebook_annotation(node.annotation):
                name = _base_name(node.target)
                if name not in RULEBOOK_NAMES:
                    misnamed.append(f"{rel}:{node.lineno} {name}")
    assert not misnamed, f"name a Rulebook book or rulebook: {misnamed}"


def test_no_parameter_is_read_with_getattr():
    """Outside rules/, a parameter is read as an attribute of a typed Rulebook, never with
    ``getattr(obj, "<parameter>", default)``: a silent default hides a missing consumer and can
    disagree with every built-in book (the settlement's odd_chip_stud default did)."""
    found = []
    for rel, tree in _modules():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                    and node.args[1].value in PARAMETERS):
                found.append(f"{rel}:{node.lineno} getattr(..., {node.args[1].value!r})")
    assert not found, found


def test_the_scan_finds_the_known_consumers():
    """The scan is not vacuous: it finds the replay's and the settlement's reads."""
    consumers = _consumers()
    assert any(p.startswith("handaudit/validator/") for p in consumers["limit_raises"]), consumers["limit_raises"]
    assert any(p.startswith("handaudit/settlement/") for p in consumers["odd_chip_stud"]), consumers["odd_chip_stud"]
    assert any(p.startswith("handaudit/settlement/") for p in consumers["rake_limit_percent"])
