"""No tracker numbers in the code (docs/architecture.md, "Rules that keep it readable"): a comment or docstring
says what a piece does and points to the docs, not to a number in the project's tracker, which a
newcomer cannot open. The docs may tell the history; the code, its templates, scripts and tests may not."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("config", "deploy", "scoring", "seating", "tournament", "scripts", "templates", "static", "tests")
SUFFIXES = {".py", ".html", ".js", ".css", ".sh", ".txt", ".conf"}
TRACKER = re.compile(r"\bissues? ?#?\d+", re.IGNORECASE)


def test_no_file_of_the_code_names_a_tracker_number():
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "migrations" in path.parts or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if TRACKER.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "tracker numbers in the code:\n" + "\n".join(found)
