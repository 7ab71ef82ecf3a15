"""Every package's docstring names its modules, one line each (docs/architecture.md: "each folder's
`__init__.py` lists its modules"): a newcomer reads the list instead of the folder. A module added
without its line, or a line left for a module that is gone, fails here."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# package -> the folder whose modules it lists (management lists its commands)
PACKAGES = {
    "scoring": "scoring",
    "seating": "seating",
    "tournament": "tournament",
    "tournament/forms": "tournament/forms",
    "tournament/log": "tournament/log",
    "tournament/models": "tournament/models",
    "tournament/selectors": "tournament/selectors",
    "tournament/services": "tournament/services",
    "tournament/views": "tournament/views",
    "tournament/api": "tournament/api",
    "tournament/web": "tournament/web",
    "tournament/printing": "tournament/printing",
    "tournament/templatetags": "tournament/templatetags",
    "tournament/management": "tournament/management/commands",
}
# a line of the list: "- `name`: …" or "- `one`, `two`: …"
LISTED = re.compile(r"^- ((?:`\w+`(?:, )?)+):", re.MULTILINE)


def listed(package: str) -> set[str]:
    docstring = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))) or ""
    return {name for names in LISTED.findall(docstring) for name in re.findall(r"`(\w+)`", names)}


def modules(folder: str) -> set[str]:
    return {path.stem for path in (ROOT / folder).glob("*.py") if path.stem != "__init__"}


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_the_package_docstring_lists_every_module_and_no_other(package):
    names, present = listed(package), modules(PACKAGES[package])
    assert not present - names, f"{package}/__init__.py does not list {sorted(present - names)}"
    assert not names - present, f"{package}/__init__.py lists {sorted(names - present)}, which are not modules"
