"""What `make run` prints about phones (scripts/serve_info.py --phones): Django's development server
on 127.0.0.1 reaches no phone, `make serve` does, at the hall's address (README, "make run")."""

import importlib.util
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "serve_info.py"


def load():
    spec = importlib.util.spec_from_file_location("serve_info", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_run_says_phones_need_make_serve_and_the_address():
    text = load().phones_text(8000, ["192.168.1.20"])
    assert "nur auf diesem Rechner erreichbar: http://127.0.0.1:8000/" in text
    assert "Für Handys: make serve" in text and "http://192.168.1.20:8000/" in text
    assert "make serve" in load().phones_text(8000, []) and "192.168" not in load().phones_text(8000, [])


def test_the_makefile_prints_it_before_runserver_on_127_0_0_1():
    makefile = (SCRIPT.parent.parent / "Makefile").read_text()
    run = makefile[makefile.index("\nrun: demo") : makefile.index("runserver")]
    assert "serve_info.py $(PORT) --phones" in run
    done = subprocess.run([sys.executable, str(SCRIPT), "8000", "--phones"], capture_output=True, text=True, check=True)
    assert "Für Handys: make serve" in done.stdout
