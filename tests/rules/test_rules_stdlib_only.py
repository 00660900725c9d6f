"""The rules engine imports nothing outside the standard library (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys, sysconfig, os
paths = sysconfig.get_paths()
before = set(sys.modules)
import controller.rules
import controller.rules.sheshbesh, controller.rules.explain, controller.rules.notation
import controller.rules.movegen, controller.rules.ids, controller.rules.match, controller.rules.game
stdlib = os.path.realpath(paths["stdlib"])
# In a virtualenv "platstdlib" is the venv's lib folder, which holds site-packages: never trust it.
site_dirs = {os.path.realpath(paths[key]) for key in ("purelib", "platlib")}
outside = []
for name in sorted(set(sys.modules) - before):
    module = sys.modules[name]
    top = name.split(".")[0]
    path = getattr(module, "__file__", None)
    if top == "controller":
        if not name.startswith("controller.rules") and name != "controller":
            outside.append(name)
        continue
    if path is None:
        continue  # built into the interpreter
    real = os.path.realpath(path)
    in_site = any(real.startswith(site) for site in site_dirs)
    if in_site or not real.startswith(stdlib):
        outside.append(name + " " + real)
print(json.dumps(outside))
"""


def _outside(probe: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    return list(json.loads(result.stdout))


def test_rules_imports_only_the_standard_library() -> None:
    outside = _outside(PROBE)
    assert outside == [], f"controller.rules pulled in non-stdlib modules: {outside}"


def test_the_probe_notices_a_third_party_import() -> None:
    # The probe itself must be able to fail: smuggle in a package from site-packages.
    probe = PROBE.replace(
        "import controller.rules\n", "import controller.rules\nimport hypothesis\n", 1
    )
    assert any(name.startswith("hypothesis") for name in _outside(probe))
