"""Property tests: the readers of outside input raise only their own clear errors, whatever
they are given (hypothesis generates the input; a traceback of any other kind fails)."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.commands.legal import batch_line
from controller.events import EVENT_TYPES, Event
from controller.record.export import MatchExportError, match_from_events
from controller.record.matfile import MatFileError, decode_mat, read_mat
from controller.record.store import Record, RecordError
from controller.table.config import ConfigError, config_from_dict
from tests.robustness.conftest import MATCH

GOOD_MAT = MATCH.read_text()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@FUZZ
@given(st.text(max_size=2000))
def test_any_text_is_a_match_file_or_a_list_of_problems(text: str) -> None:
    try:
        read_mat(text)
    except MatFileError as error:
        assert 1 <= len(error.problems) <= 50
        assert all(problem.startswith("line ") for problem in error.problems)


@FUZZ
@given(st.data())
def test_a_real_match_file_with_one_line_mangled(data: st.DataObject) -> None:
    lines = GOOD_MAT.splitlines()
    index = data.draw(st.integers(0, len(lines) - 1))
    lines[index] = data.draw(
        st.text(alphabet="0123456789 :/*()=>abdefgiknoprstuwABDGTW\t", max_size=60)
    )
    try:
        read_mat("\n".join(lines))
    except MatFileError as error:
        assert error.problems


@FUZZ
@given(st.binary(max_size=3000))
def test_any_bytes_decode_or_are_refused(data: bytes) -> None:
    try:
        text = decode_mat(data)
    except MatFileError as error:
        assert "NUL" in error.problems[0]
    else:
        assert isinstance(text, str)


@FUZZ
@given(st.text(max_size=120))
def test_any_batch_line_gets_one_answer_line(line: str) -> None:
    answer = batch_line(line)
    assert "\n" not in answer.strip("\n") or answer.startswith("error:")


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["camera", "vision", "match", "lights", "panel", "record", "nope"]),
        st.dictionaries(
            st.sampled_from(
                ["source", "fps", "port", "length", "players", "kind", "pin_hash", "x"]
            ),
            json_values,
            max_size=4,
        )
        | json_values,
        max_size=4,
    )
)
def test_any_settings_are_taken_or_refused_by_name(data: dict[str, Any]) -> None:
    try:
        config_from_dict(data)
    except ConfigError as error:
        assert str(error)


@FUZZ
@given(
    st.lists(
        st.tuples(st.sampled_from(sorted(EVENT_TYPES)), st.dictionaries(
            st.sampled_from(["id", "players", "length", "game", "score", "player", "dice", "play",
                             "cube", "winner", "points", "to_sequence", "variant", "kind"]),
            json_values, max_size=5)),
        max_size=12,
    )
)  # fmt: skip
def test_any_event_stream_exports_or_names_its_problems(
    raw: list[tuple[str, dict[str, Any]]],
) -> None:
    events = [Event(kind, data, float(n), n + 1) for n, (kind, data) in enumerate(raw)]
    try:
        match_from_events(events)
    except MatchExportError as error:
        assert all(problem.startswith("event ") for problem in error.problems)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=6000), st.integers(0, 8191))
def test_any_bytes_as_a_record_are_refused_untouched(noise: bytes, offset: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.sqlite"
        connection = sqlite3.connect(path)
        connection.execute("CREATE TABLE t (x)")
        connection.execute("INSERT INTO t VALUES (randomblob(5000))")
        connection.commit()
        connection.close()
        data = bytearray(path.read_bytes())
        data[offset : offset + len(noise)] = noise
        path.write_bytes(bytes(data))
        for read_only in (True, False):
            try:
                with Record(path, read_only=read_only) as record:
                    record.events()
            except RecordError:
                pass
            assert path.read_bytes() == bytes(data)
