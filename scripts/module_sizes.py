"""No module of the project is longer than 500 lines (migrations aside): `make lint` runs this.

Prints the longest modules; exits 1 naming every module above the limit (docs/architecture.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

LIMIT = 500
PACKAGES = ("scoring", "seating", "tournament", "config")


def sizes(root: Path) -> list[tuple[int, str]]:
    found = []
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            found.append((len(path.read_text(encoding="utf-8").splitlines()), str(path.relative_to(root))))
    return sorted(found, reverse=True)


def main() -> int:
    found = sizes(Path(__file__).resolve().parent.parent)
    over = [(n, name) for n, name in found if n > LIMIT]
    print("longest modules: " + ", ".join(f"{name} {n}" for n, name in found[:3]))
    for n, name in over:
        print(f"{name}: {n} lines, more than {LIMIT}: split it by what it holds (docs/architecture.md)",
              file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
