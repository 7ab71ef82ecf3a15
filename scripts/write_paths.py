"""Writes that bypass Django's signals stay where the change counter still moves: `make lint` runs this.

A model's `save()` and `delete()` send signals, so a write outside the services still moves the
tournament's change counter (`tournament/web/outside_writes.py`). `QuerySet.update()`, `bulk_create()`,
`bulk_update()`, `QuerySet._raw_delete()` and raw SQL (`connection.cursor()`, `RawSQL`, `.raw()`) send
none. (A queryset's `delete()` does send pre_delete and post_delete for every row: it is never Django's
signal-less fast delete here, since outside_writes listens to every model's post_delete.)

In tournament/ those writes are allowed only in the modules of `ALLOWED`, each with its reason, and in
tournament/services/ only inside a recording: lexically inside `with audit.recording(...)`, or in a
function that calls `audit.require(...)` (a step that writes for its caller and refuses to run outside
a recording). Migrations are not checked.

Found statically from the syntax tree: a queryset is recognised by its chain (`X.objects…`, `….filter(…)`,
`….all()` and the other queryset methods), so an `update` of a queryset first kept in a variable is not
seen. Exits 1 naming file, line and call of each write outside the allowed places (docs/architecture.md,
"The change counter").
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = "tournament"

# modules outside tournament/services/ that may bypass the signals, and why the counter is still right
ALLOWED = {
    "tournament/log/audit.py": "record_bulk: the historical records of a bulk write, inside its recording",
    "tournament/models/changes.py": "DataChange.objects.append: the counter's own turn row (CounterTurn)",
    "tournament/web/database_cache.py": "the shared cache's own table, not a tournament's data",
    "tournament/web/publish_sender.py": "the outbox's bookkeeping (when an entry was sent), not a tournament's data",
    "tournament/selectors/written_sql.py": "the reads written out as SQL, each with its reason (SELECT only)",
}

# what a queryset chain is made of (a call of one of these, or a manager `objects`)
QUERYSET_METHODS = {
    "all",
    "filter",
    "exclude",
    "order_by",
    "select_related",
    "prefetch_related",
    "select_for_update",
    "using",
    "annotate",
    "alias",
    "distinct",
    "defer",
    "only",
    "none",
    "reverse",
    "values",
    "values_list",
    "union",
    "intersection",
    "difference",
    "extra",
}


def is_queryset(node: ast.expr) -> bool:
    """`node` is a queryset or manager by its chain: `X.objects`, `….filter(…)`, `….all()` and so on."""
    if isinstance(node, ast.Attribute):
        return node.attr == "objects" or node.attr.endswith("_set")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in QUERYSET_METHODS
    return False


def bypass(call: ast.Call) -> str | None:
    """The name of the write if `call` bypasses the signals, else None."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "RawSQL":
        return "RawSQL(...)"
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in ("bulk_create", "bulk_update"):
        return f".{func.attr}(...)"
    if func.attr in ("raw", "cursor", "RawSQL"):
        return f".{func.attr}(...)"
    if func.attr == "update" and is_queryset(func.value):
        return "QuerySet.update(...)"
    if func.attr == "_raw_delete":
        return "QuerySet._raw_delete(...)"
    return None


def _is_recording(item: ast.withitem) -> bool:
    expr = item.context_expr
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "recording"
        and isinstance(expr.func.value, ast.Name)
        and expr.func.value.id == "audit"
    )


def _requires(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "require"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "audit"
        for node in ast.walk(function)
    )


def writes(tree: ast.AST) -> Iterator[tuple[ast.Call, str, bool]]:
    """(call, what, inside a recording) for each write of `tree` that bypasses the signals."""

    def visit(node: ast.AST, recorded: bool) -> Iterator[tuple[ast.Call, str, bool]]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            recorded = recorded or _requires(node)
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(_is_recording(item) for item in node.items):
            for item in node.items:
                yield from visit(item, recorded)
            for statement in node.body:
                yield from visit(statement, True)
            return
        if isinstance(node, ast.Call):
            what = bypass(node)
            if what is not None:
                yield node, what, recorded
        for child in ast.iter_child_nodes(node):
            yield from visit(child, recorded)

    yield from visit(tree, False)


def problems(root: Path) -> list[str]:
    found = []
    for path in sorted((root / PACKAGE).rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if "migrations" in path.parts or name in ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=name)
        in_services = name.startswith(f"{PACKAGE}/services/")
        for call, what, recorded in writes(tree):
            if not in_services:
                found.append(
                    f"{name}:{call.lineno}: {what} sends no signals, so the change counter would not "
                    f"move: write through a service (tournament/services/), or add the module to "
                    f"ALLOWED in scripts/write_paths.py with the reason the counter still moves"
                )
            elif not recorded:
                found.append(
                    f"{name}:{call.lineno}: {what} sends no signals: run it inside `with "
                    f"audit.recording(...)`, or in a function that calls audit.require(...) first"
                )
    return found


def main() -> int:
    found = problems(Path(__file__).resolve().parent.parent)
    for line in found:
        print(line, file=sys.stderr)
    if not found:
        print("writes that bypass the signals: only inside recordings and in the allowed modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
