"""deploy/install.sh: shell syntax, --dry-run, and real runs into a staging root (--prefix)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INSTALL = DEPLOY / "install.sh"

#: what install.sh lays down: destination (under the root) -> (source in the clone, mode)
INSTALLED_COPIES = {
    "etc/sheshbesh/sheshbesh.toml": ("deploy/sheshbesh.toml", 0o640),
    "etc/sheshbesh/sheshbesh.toml.example": ("deploy/sheshbesh.toml", 0o644),
    "etc/sheshbesh/pinmap.toml": ("hardware/pinmap.toml", 0o644),
    "etc/systemd/system/sheshbesh.service": ("deploy/sheshbesh.service", 0o644),
    "etc/systemd/system/sheshbesh-kiosk.service": ("deploy/sheshbesh-kiosk.service", 0o644),
    "etc/udev/rules.d/99-sheshbesh-leds.rules": ("deploy/99-sheshbesh-leds.rules", 0o644),
    "opt/sheshbesh/libexec/sheshbesh-kiosk-browser": ("deploy/kiosk-browser.sh", 0o755),
}
#: symbolic links: link (under the root) -> target (a path on the Pi)
INSTALLED_LINKS = {
    "usr/local/bin/sheshbesh": "/opt/sheshbesh/bin/sheshbesh",
    "var/lib/sheshbesh/hardware/pinmap.toml": "/etc/sheshbesh/pinmap.toml",
}


def install(*arguments: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
        env=env,
    )


def files_under(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


def test_install_script_has_valid_bash_syntax() -> None:
    result = subprocess.run(
        ["bash", "-n", str(INSTALL)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("script", ["install.sh", "kiosk-browser.sh"])
def test_scripts_pass_shellcheck(script: str) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    result = subprocess.run(
        ["shellcheck", "--severity=style", str(DEPLOY / script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_dry_run_into_a_prefix_prints_every_step_and_writes_nothing(tmp_path: Path) -> None:
    result = install("--prefix", str(tmp_path), "--dry-run")
    assert result.returncode == 0, result.stderr
    assert files_under(tmp_path) == []
    for destination, (source, mode) in INSTALLED_COPIES.items():
        assert f"install -m 0{mode:o} {ROOT / source} {tmp_path / destination}" in result.stdout
    assert f"-m venv --system-site-packages {tmp_path}/opt/sheshbesh" in result.stdout
    assert "pip install --disable-pip-version-check --upgrade /tmp/sheshbesh-build/source" in (
        result.stdout
    )
    assert "--only-binary=bgsage bgsage" in result.stdout  # analysis: a wheel or nothing
    # --prefix stages files only: nothing about packages, users or services
    for command in ("apt-get", "useradd", "usermod", "chown", "systemctl", "udevadm"):
        assert f"would run: {command}" not in result.stdout


def test_dry_run_on_the_system_lists_the_system_steps() -> None:
    if Path("/etc/sheshbesh").exists():
        pytest.skip("sheshbesh is installed on this machine; this test wants a clean one")
    result = install("--dry-run", "--kiosk")
    assert result.returncode == 0, result.stderr
    enable = "would run: systemctl enable sheshbesh.service sheshbesh-kiosk.service"
    assert enable in result.stdout
    assert "would run: systemctl daemon-reload" in result.stdout
    assert "would run: udevadm control --reload-rules" in result.stdout
    assert "chown root:sheshbesh /etc/sheshbesh/sheshbesh.toml" in result.stdout
    assert not Path("/etc/sheshbesh").exists()
    assert not Path("/etc/systemd/system/sheshbesh.service").exists()


def test_install_into_a_prefix_lays_down_the_files(tmp_path: Path) -> None:
    result = install("--prefix", str(tmp_path), "--no-venv")
    assert result.returncode == 0, result.stderr
    for destination, (source, mode) in INSTALLED_COPIES.items():
        path = tmp_path / destination
        assert path.read_bytes() == (ROOT / source).read_bytes(), destination
        assert stat.S_IMODE(path.stat().st_mode) == mode, destination
    for link, target in INSTALLED_LINKS.items():
        assert os.readlink(tmp_path / link) == target, link
    assert (tmp_path / "var/lib/sheshbesh").is_dir()
    assert "--no-system: skipped" in result.stdout


def test_a_second_install_keeps_the_edited_config(tmp_path: Path) -> None:
    assert install("--prefix", str(tmp_path), "--no-venv").returncode == 0
    config = tmp_path / "etc/sheshbesh/sheshbesh.toml"
    edited = config.read_text(encoding="utf-8").replace('kind = "fake"', 'kind = "serial"', 1)
    config.write_text(edited, encoding="utf-8")
    before = files_under(tmp_path)

    again = install("--prefix", str(tmp_path), "--no-venv")

    assert again.returncode == 0, again.stderr
    assert config.read_text(encoding="utf-8") == edited
    assert f"keeping {config}" in again.stdout
    assert files_under(tmp_path) == before


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--prefix"], "--prefix needs a value"),
        (["--python", "/nonexistent/python3", "--no-system", "--dry-run"], "no Python at"),
    ],
)
def test_bad_arguments_are_refused_by_name(arguments: list[str], message: str) -> None:
    result = install(*arguments)
    assert result.returncode != 0
    assert message in result.stderr


def test_a_plain_user_is_told_to_use_sudo(request: pytest.FixtureRequest) -> None:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the script as another user")
    # a folder the other user can read (pytest's tmp_path sits under a private folder)
    copy = Path(tempfile.mkdtemp(prefix="sheshbesh-clone-"))
    request.addfinalizer(lambda: shutil.rmtree(copy))
    copy.chmod(0o755)
    for relative in [*{source for source, _ in INSTALLED_COPIES.values()}, "pyproject.toml"]:
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / relative, copy / relative)
    shutil.copy(INSTALL, copy / "deploy/install.sh")
    result = subprocess.run(
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "bash",
            str(copy / "deploy/install.sh"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd="/",
    )
    assert result.returncode == 1
    assert "run as root: sudo" in result.stderr


@pytest.mark.slow
def test_install_builds_a_working_virtualenv(tmp_path: Path) -> None:
    # Offline: the project alone (its dependencies come from the system or are not needed by
    # `sheshbesh legal`), built with the venv's own setuptools.
    env = dict(os.environ, PIP_NO_DEPS="1", PIP_NO_INDEX="1", PIP_NO_BUILD_ISOLATION="0")
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    had_build = (ROOT / "build").exists()
    result = install("--prefix", str(tmp_path), env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "sheshbesh.toml is valid" in result.stdout

    program = tmp_path / "opt/sheshbesh/bin/sheshbesh"  # the unit's ExecStart
    assert os.access(program, os.X_OK)
    config = (tmp_path / "opt/sheshbesh/pyvenv.cfg").read_text(encoding="utf-8")
    assert "include-system-site-packages = true" in config
    legal = subprocess.run(
        [str(program), "legal", "--batch"],
        input="4HPwATDgc/ABMA 31\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,  # away from the clone: the installed copy answers
        env=env,
    )
    assert legal.returncode == 0, legal.stderr
    assert len(legal.stdout.split()) == 16  # the distinct positions after an opening 31
    assert (ROOT / "build").exists() == had_build, "the build must not write into the clone"


@pytest.mark.slow
def test_install_refuses_a_broken_config_by_name(tmp_path: Path) -> None:
    env = dict(os.environ, PIP_NO_DEPS="1", PIP_NO_INDEX="1", PIP_NO_BUILD_ISOLATION="0")
    config = tmp_path / "etc/sheshbesh/sheshbesh.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[lights]\nkind = "laser"\n', encoding="utf-8")
    result = install("--prefix", str(tmp_path), env=env)
    assert result.returncode == 1
    assert "[lights] kind is 'laser'" in result.stderr
    assert f"fix {config}" in result.stderr


def fake_lgpio(folder: Path) -> dict[str, str]:
    """An environment whose Python imports an ``lgpio`` module, as Raspberry Pi OS's does."""
    (folder / "lgpio.py").write_text('"""Stands in for python3-lgpio."""\n', encoding="utf-8")
    return dict(os.environ, PYTHONPATH=str(folder))


def test_gpio_uses_the_systems_lgpio_when_it_imports(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    with_lgpio = install(
        "--prefix", str(tmp_path / "root"), "--dry-run", env=fake_lgpio(tmp_path / "lib")
    )
    assert with_lgpio.returncode == 0, with_lgpio.stderr
    assert "GPIO: lgpio comes from the system (python3-lgpio)" in with_lgpio.stdout
    assert r"source\[pi\]" not in with_lgpio.stdout  # pip is not asked to build it again


@pytest.mark.parametrize(
    ("option", "expected", "absent"),
    [
        ("--no-analysis", "analysis: left out (--no-analysis)", "bgsage"),
        ("--analysis", "pip install --disable-pip-version-check --upgrade bgsage", "only-binary"),
    ],
)
def test_the_analysis_extra_can_be_left_out_or_insisted_on(
    tmp_path: Path, option: str, expected: str, absent: str
) -> None:
    result = install("--prefix", str(tmp_path), "--dry-run", option)
    assert result.returncode == 0, result.stderr
    assert expected in result.stdout
    assert absent not in result.stdout


def test_the_analysis_build_tools_are_asked_for_only_where_bgsage_has_no_wheel() -> None:
    if Path("/etc/sheshbesh").exists():
        pytest.skip("sheshbesh is installed on this machine; this test wants a clean one")
    result = install("--dry-run", "--analysis")
    assert result.returncode == 0, result.stderr
    build_tools = "g++ cmake python3-dev"
    if os.uname().machine == "x86_64":
        assert build_tools not in result.stdout
    elif "apt-get install" in result.stdout:
        assert build_tools in result.stdout
