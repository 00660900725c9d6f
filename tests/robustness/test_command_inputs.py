"""A corpus of bad command lines, files and standard input for every subcommand: each must end
with a non-zero status and a message, never a traceback (nor a silent success).

Each case is ``(argv, stdin)`` where ``{tmp}`` names the case's own folder, prepared by
:func:`_files` with broken inputs of every kind. The run happens in this process
(:func:`tests.robustness.conftest.call`), so an exception escaping a command fails the case.
"""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import pytest

from tests.robustness.conftest import MATCH, call

GOOD_MAT = MATCH.read_text()


def _files(folder: Path) -> None:
    """Every broken input the cases below name, written into ``folder``."""
    rng = random.Random(13)
    body = GOOD_MAT.split("\n", 2)[2]
    texts = {
        "empty.mat": "",
        "header.mat": " 3 point match\n",
        "long.mat": " 32768 point match\n\n" + body,
        "huge-length.mat": " 99999999999999999999999 point match\n\n" + body,
        "score.mat": GOOD_MAT.replace(": 0", ": 40000", 1),
        "cube.mat": GOOD_MAT.replace("Doubles => 2", "Doubles => 1048576", 1),
        "wins.mat": GOOD_MAT.replace("Wins 1 point", "Wins 99999999999 points", 1),
        "game-zero.mat": GOOD_MAT.replace("Game 1", "Game 0", 1),
        "game-huge.mat": GOOD_MAT.replace("Game 1", "Game 99999999999999999999", 1),
        "move-huge.mat": GOOD_MAT.replace("  1)", "99999999999999999999)", 1),
        "no-players.mat": " 1 point match\n\n Game 1\n  1) 31: 8/5 6/5\n",
        "plays-wrong.mat": " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 24/1 6/5\n",
        "points.mat": " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 99/5 6/5\n",
        "crlf.mat": GOOD_MAT.replace("\n", "\r\n").replace("Game 2", "Game 7"),
        "junk.mat": "".join(rng.choice("abc 0123456789:/)*\n") for _ in range(200_000)),
        "unicode.mat": " 1 point match\n\n Game 1\n \u202e\u0000x : 0   \ud7ff : 0\n",
        "config-port.toml": "[panel]\nport = 70000\n",
        "config-bad.toml": "[panel\nport = 1\n",
        "config-key.toml": "[panel]\nprot = 1\n",
        "config-type.toml": '[camera]\nfps = "fast"\n',
        "config-fps.toml": "[camera]\nfps = 0\n",
        "config-length.toml": "[match]\nlength = 40000\n",
        "config-players.toml": '[match]\nplayers = ["", "B"]\n',
        "config-networks.toml": '[panel]\ntrusted_networks = "10.0.0.0/8, cafe"\n',
        "calibration-junk.json": "{not json",
        "calibration-list.json": "[1, 2, 3]",
        "settings-junk.json": "[]",
    }
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    (folder / "binary.mat").write_bytes(bytes(rng.randrange(256) for _ in range(100_000)))
    (folder / "nul.mat").write_bytes(GOOD_MAT.encode()[:200] + b"\x00" + GOOD_MAT.encode()[200:])
    (folder / "png.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    (folder / "junk.sqlite").write_bytes(
        b"SQLite format 3\x00" + bytes(rng.randrange(256) for _ in range(8000))
    )
    (folder / "text.sqlite").write_text("hello\n")
    (folder / "empty.sqlite").write_bytes(b"")
    other = sqlite3.connect(folder / "other.sqlite")
    other.execute("CREATE TABLE photos (name TEXT)")
    other.commit()
    other.close()
    (folder / "dir").mkdir()
    (folder / "dir.mat").mkdir()
    os.symlink(folder / "nowhere", folder / "dangling.mat")


MAT_FILES = [
    "empty.mat", "header.mat", "long.mat", "huge-length.mat", "score.mat", "cube.mat",
    "wins.mat", "game-zero.mat", "game-huge.mat", "move-huge.mat",
    "no-players.mat", "plays-wrong.mat", "points.mat", "crlf.mat", "junk.mat", "unicode.mat",
    "binary.mat", "nul.mat", "png.png", "dir.mat", "dangling.mat", "missing.mat",
]  # fmt: skip
DATABASES = [
    "junk.sqlite",
    "text.sqlite",
    "empty.sqlite",
    "other.sqlite",
    "dir",
    "missing/x.sqlite",
]

CASES: list[tuple[list[str], str]] = [
    *[(["replay", "{tmp}/" + name], "") for name in MAT_FILES],
    *[(["replay", "--json", "--rules-only", "{tmp}/" + name], "") for name in MAT_FILES],
    *[
        (["demo", "--match", "{tmp}/" + name, "--no-panel", "--speed", "max"], "")
        for name in MAT_FILES
    ],
    *[(["analyse", "{tmp}/" + name, "--quiet"], "") for name in MAT_FILES if name.endswith(".mat")],
    *[(["export", "-", "--db", "{tmp}/" + name], "") for name in DATABASES],
    *[(["export", "m1", "--db", "{tmp}/" + name], "") for name in DATABASES],
    *[(["analyse", "m1", "--record", "{tmp}/" + name, "--quiet"], "") for name in DATABASES],
    *[(["replay", str(MATCH), "--record", "{tmp}/" + name], "") for name in DATABASES],
    *[
        (["demo", "--db", "{tmp}/" + name, "--no-panel", "--speed", "max"], "")
        for name in DATABASES
    ],
    (["demo", "--fps", "0"], ""),
    (["demo", "--fps", "-5"], ""),
    (["demo", "--fps", "nan"], ""),
    (["demo", "--fps", "inf"], ""),
    (["demo", "--fps", "1e308"], ""),
    (["demo", "--speed", "1e-300"], ""),
    (["demo", "--speed", "0"], ""),
    (["demo", "--speed", "-1"], ""),
    (["demo", "--speed", "nan"], ""),
    (["demo", "--speed", "inf"], ""),
    (["demo", "--speed", "fast"], ""),
    (["demo", "--port", "65536"], ""),
    (["demo", "--port", "-1"], ""),
    (["demo", "--port", "99999999999999999999"], ""),
    (["demo", "--port", "http"], ""),
    (["demo", "--seed", "-1"], ""),
    (["demo", "--seed", "4294967296"], ""),
    (["demo", "--seed", "1.5"], ""),
    (["demo", "--host", "no.such.host.invalid", "--port", "0", "--speed", "max"], ""),
    (["demo", "--host", "256.1.1.1", "--port", "0", "--speed", "max"], ""),
    (["demo", "--log", "{tmp}/missing/x.log", "--no-panel", "--speed", "max"], ""),
    (["demo", "--log", "{tmp}/dir", "--no-panel", "--speed", "max"], ""),
    (["run", "--port", "65536"], ""),
    (["run", "--port", "-80"], ""),
    (["run", "--frames", "-1"], ""),
    (["run", "--reconnect-seconds", "0"], ""),
    (["run", "--reconnect-seconds", "nan"], ""),
    (["run", "--give-up-after", "-1"], ""),
    (["run", "--config", "{tmp}/missing.toml"], ""),
    (["run", "--config", "{tmp}/dir"], ""),
    (["run", "--config", "{tmp}/binary.mat"], ""),
    *[
        (["run", "--config", "{tmp}/" + name], "")
        for name in (
            "config-port.toml",
            "config-bad.toml",
            "config-key.toml",
            "config-type.toml",
            "config-fps.toml",
            "config-length.toml",
            "config-players.toml",
            "config-networks.toml",
        )
    ],
    *[
        (["run", "--calibration", "{tmp}/" + name, "--db", "{tmp}/r.sqlite", "--no-panel"], "")
        for name in (
            "missing.json",
            "calibration-junk.json",
            "calibration-list.json",
            "png.png",
            "dir",
        )
    ],
    (["legal"], ""),
    (["legal", "4HPwATDgc/ABMA"], ""),
    (["legal", "4HPwATDgc/ABMA", "77"], ""),
    (["legal", "4HPwATDgc/ABMA", "0"], ""),
    (["legal", "4HPwATDgc/ABMA", "3-1-2"], ""),
    (["legal", "////////////", "31"], ""),
    (["legal", "4HPwATDgc/ABM=", "31"], ""),
    (
        [
            "legal",
            "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9",
            "31",
        ],
        "",
    ),
    (["legal", "XGID=", "31"], ""),
    (["legal", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"], ""),
    (["legal", "XGID=" + "a" * 5000], ""),
    (["legal", "XGID=-b----E-C---eE---c-e----B-:9:9:9:99:99:99:9:9:99999999"], ""),
    (["legal", "--batch", "4HPwATDgc/ABMA"], ""),
    (["set-pin", "--stdin"], "12\n"),
    (["set-pin", "--stdin"], "\n"),
    (["set-pin", "--stdin"], " 1234 \n"),
    (["set-pin", "--stdin"], "1" * 65 + "\n"),
    (["set-pin", "--stdin", "--pin-file", "{tmp}/dir"], "1234\n"),
    (["set-pin", "--stdin", "--pin-file", "{tmp}/empty.mat/pin"], "1234\n"),
    (["analyse", "{tmp}/missing.mat", "--quiet"], ""),
    (["analyse", str(MATCH), "--threads", "0"], ""),
    (["analyse", str(MATCH), "--threads", "100000"], ""),
    (["analyse", str(MATCH), "--costliest", "-1"], ""),
    (["analyse", str(MATCH), "--level", "9ply"], ""),
    (["export", "m1", "--format", "sgf"], ""),
    (["nonsense"], ""),
    ([], ""),
]

BATCH_LINES = [
    "",
    "4HPwATDgc/ABMA 31 extra",
    "4HPwATDgc/ABMA 99",
    "4HPwATDgc/ABMA",
    "!!!!!!!!!!!!!! 31",
    "4HPwATDgc/ABMA\x00 31",
    "A" * 100_000 + " 31",
    "\ufeff4HPwATDgc/ABMA 31",
    "//////////8A 31",
    "4HPwATDgc/ABMA 3\u0661",
]


def _expand(argv: list[str], folder: Path) -> list[str]:
    return [part.replace("{tmp}", str(folder)) for part in argv]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bad-inputs")
    _files(path)
    return path


def _has_analysis() -> bool:
    try:
        import bgsage  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("argv,stdin", CASES, ids=[" ".join(case[0])[:80] for case in CASES])
def test_bad_input_is_refused_in_words(argv: list[str], stdin: str, folder: Path) -> None:
    if argv and argv[0] == "analyse" and not _has_analysis():
        pytest.skip("the analysis engine (bgsage) is not installed")
    done = call(_expand(argv, folder), stdin)
    assert done.status != 0, f"exit 0 for bad input; stdout: {done.out[-300:]!r}"
    assert "Traceback" not in done.err
    message = (done.err or done.out).strip()
    assert message, "refused without a word"
    assert len(message.splitlines()) <= 60, "an unbounded list of problems"


def test_a_batch_of_bad_lines_gets_one_error_line_each() -> None:
    done = call(["legal", "--batch"], "\n".join(BATCH_LINES) + "\n4HPwATDgc/ABMA 31\n")
    answers = done.out.splitlines()
    assert done.status == 0
    assert len(answers) == len([line for line in BATCH_LINES if line.strip()]) + 1
    assert all(answer.startswith("error:") for answer in answers[:-1])
    assert not answers[-1].startswith("error:")


def test_fifty_megabytes_of_random_text_as_a_match_file(tmp_path: Path) -> None:
    """Bounded memory (refused unread) and a bounded error list."""
    path = tmp_path / "random.mat"
    rng = random.Random(5)
    chunk = bytes(rng.randrange(32, 127) for _ in range(1 << 20)).replace(b"~", b"\n")
    with path.open("wb") as out:
        for _ in range(50):
            out.write(chunk)
    done = call(["replay", str(path)])
    assert done.status == 1 and "larger than 16 MiB" in done.err
    smaller = tmp_path / "random-small.mat"
    smaller.write_bytes(chunk * 4)
    done = call(["replay", str(smaller)])
    assert done.status == 1 and "reading stopped" in done.err
    assert len(done.err.splitlines()) <= 60


def test_a_byte_order_mark_and_latin1_names_are_read_right(tmp_path: Path) -> None:
    bom = tmp_path / "bom.mat"
    bom.write_bytes(b"\xef\xbb\xbf" + GOOD_MAT.encode())
    assert call(["replay", str(bom)]).status == 0
    names = tmp_path / "latin1.mat"
    names.write_bytes(GOOD_MAT.replace("Alice", "Zoë Ångström").encode("latin-1"))
    done = call(["replay", str(names)])
    assert done.status == 0 and "Zoë Ångström" in done.out
