"""deploy/kiosk-browser.sh: waits for the panel, then starts the browser in kiosk mode."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "kiosk-browser.sh"


@pytest.fixture
def panel_port() -> Iterator[int]:
    """A listening TCP port on 127.0.0.1 standing in for the panel."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield int(server.getsockname()[1])


def fake_browser(folder: Path) -> tuple[Path, Path]:
    """An executable that records its arguments, one a line; returns (program, record)."""
    record = folder / "arguments.txt"
    program = folder / "chromium"
    program.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\n', encoding="utf-8")
    program.chmod(0o755)
    return program, record


def run_script(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/bin/bash", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env=env,
    )


def test_browser_opens_the_panel_in_kiosk_mode(tmp_path: Path, panel_port: int) -> None:
    program, record = fake_browser(tmp_path)
    url = f"http://127.0.0.1:{panel_port}/"
    result = run_script(dict(os.environ, SHESHBESH_PANEL_URL=url, SHESHBESH_BROWSER=str(program)))
    assert result.returncode == 0, result.stderr
    arguments = record.read_text(encoding="utf-8").splitlines()
    assert "--kiosk" in arguments
    assert arguments[-1] == url


def test_browser_is_found_on_the_path(tmp_path: Path, panel_port: int) -> None:
    _, record = fake_browser(tmp_path)
    env = dict(
        os.environ,
        PATH=f"{tmp_path}:/usr/bin:/bin",
        SHESHBESH_PANEL_URL=f"http://127.0.0.1:{panel_port}/",
    )
    env.pop("SHESHBESH_BROWSER", None)
    assert run_script(env).returncode == 0
    assert record.exists()


def test_missing_browser_is_named(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "SHESHBESH_PANEL_URL": "http://127.0.0.1:9/"}
    result = run_script(env)
    assert result.returncode == 1
    assert "no browser found" in result.stderr


@pytest.mark.parametrize("url", ["https://127.0.0.1:8080/", "127.0.0.1:8080", "http://"])
def test_bad_panel_address_is_refused(url: str, tmp_path: Path) -> None:
    program, record = fake_browser(tmp_path)
    result = run_script(dict(os.environ, SHESHBESH_PANEL_URL=url, SHESHBESH_BROWSER=str(program)))
    assert result.returncode == 2
    assert url in result.stderr
    assert not record.exists()


def test_browser_waits_until_the_panel_listens(tmp_path: Path) -> None:
    program, record = fake_browser(tmp_path)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))  # reserved, not yet listening: connections are refused
        port = int(server.getsockname()[1])
        env = dict(
            os.environ,
            SHESHBESH_PANEL_URL=f"http://127.0.0.1:{port}/",
            SHESHBESH_BROWSER=str(program),
        )
        with subprocess.Popen(
            ["/bin/bash", str(SCRIPT)], env=env, stderr=subprocess.PIPE, text=True
        ) as script:
            assert script.stderr is not None
            assert "waiting for the panel" in script.stderr.readline()
            assert script.poll() is None
            assert not record.exists()
            server.listen(8)
            assert script.wait(timeout=30) == 0
    assert record.exists()
