"""A background worker: the referee hands over turns and never waits for the engine.

One daemon thread takes jobs from an unbounded queue, so :meth:`AnalysisWorker.submit_turns`
returns at once whatever the engine is doing. Each job's result arrives in a
:class:`~concurrent.futures.Future` and, if given, through ``when_analysed`` (called on the worker
thread). The engine is made at the first job, so even loading it never delays the caller; when it
cannot be made (the extra is not installed) every job fails with
:class:`AnalysisNotInstalledError` and :attr:`AnalysisWorker.problem` says why.

bgsage keeps Python's global interpreter lock while it computes (up to half a second for one
deep checker play), which would stall the referee's own thread. So by default
(``separate_process=True``) the engine runs in one child process and the worker thread only waits
for it; then ``make_analyser`` must be picklable (a module-level function or a
:func:`functools.partial` of one).

Example::

    with AnalysisWorker(functools.partial(make_analyser, "0ply")) as worker:
        future = worker.submit_turns(game_turns, players, length)  # returns at once
        ...
        analysis = future.result()
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from controller.analysis.engine import Analyser
from controller.analysis.errors import AnalysisError
from controller.analysis.match import (
    MatchAnalysis,
    Progress,
    Turn,
    analyse_turn,
    collect_verdicts,
)
from controller.analysis.verdicts import GNUBG_THRESHOLDS, CubeVerdict, PlayVerdict, Thresholds

AnalyserFactory = Callable[[], Analyser]


@dataclass(frozen=True, slots=True)
class _Job:
    turns: tuple[Turn, ...]
    players: tuple[str, str]
    length: int
    source: str
    future: Future[MatchAnalysis]
    progress: Progress | None


_STOP = object()

# The engine of a child process, made at its first turn.
_child_analyser: Analyser | None = None


def _child_engine(make_analyser: AnalyserFactory) -> Analyser:
    global _child_analyser
    if _child_analyser is None:
        _child_analyser = make_analyser()
    return _child_analyser


def _child_name(make_analyser: AnalyserFactory) -> str:
    return _child_engine(make_analyser).name


def _child_judge(
    make_analyser: AnalyserFactory, turns: tuple[Turn, ...], thresholds: Thresholds
) -> list[tuple[CubeVerdict | None, PlayVerdict | None]]:
    analyser = _child_engine(make_analyser)
    return [analyse_turn(analyser, turn, thresholds) for turn in turns]


#: Turns sent to the child process at a time: fewer round trips, progress still fine-grained.
CHUNK = 8


class AnalysisWorker:
    """Analyses batches of turns (a game, a match, one decision) in the background.

    ``make_analyser`` is called once, on the worker thread or in the child process.
    ``when_analysed(analysis)`` is called on the worker thread after each job.
    """

    def __init__(
        self,
        make_analyser: AnalyserFactory,
        thresholds: Thresholds = GNUBG_THRESHOLDS,
        when_analysed: Callable[[MatchAnalysis], None] | None = None,
        separate_process: bool = True,
    ) -> None:
        self._make_analyser = make_analyser
        self._thresholds = thresholds
        self.when_analysed = when_analysed
        self.separate_process = separate_process
        self._jobs: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        self._analyser: Analyser | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._engine_name = ""
        self.problem: AnalysisError | None = None
        #: The last exception a ``when_analysed`` listener raised (the worker carries on).
        self.listener_error: Exception | None = None
        self._pending = 0
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="analysis-worker", daemon=True)
        self._thread.start()

    def submit_turns(
        self,
        turns: Sequence[Turn],
        players: tuple[str, str] = ("White", "Black"),
        length: int = 0,
        source: str = "",
        progress: Progress | None = None,
    ) -> Future[MatchAnalysis]:
        """Queue ``turns`` for analysis and return at once. Raises ``RuntimeError`` once closed."""
        future: Future[MatchAnalysis] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the analysis worker is closed")
            self._pending += 1
        self._jobs.put(_Job(tuple(turns), players, length, source, future, progress))
        return future

    @property
    def pending(self) -> int:
        """Jobs queued or running."""
        with self._lock:
            return self._pending

    def wait_for_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued job is done; False if ``timeout`` passed first."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self, timeout: float | None = None) -> None:
        """Finish queued jobs, then stop the thread (and the engine's process)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._jobs.put(_STOP)
        self._thread.join(timeout)

    def __enter__(self) -> AnalysisWorker:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- on the worker thread ------------------------------------------------------------------

    def _judge_here(self, turns: tuple[Turn, ...]) -> tuple[str, Callable[[Turn], Any]]:
        if self._analyser is None:
            self._analyser = self._make_analyser()
        analyser = self._analyser
        thresholds = self._thresholds
        return analyser.name, lambda turn: analyse_turn(analyser, turn, thresholds)

    def _judge_in_child(self, turns: tuple[Turn, ...]) -> tuple[str, Callable[[Turn], Any]]:
        if self._pool is None:
            # spawn, not fork: the parent runs threads (referee, panel), and a forked copy of a
            # lock held by one of them would never be released in the child.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        pool = self._pool
        make, thresholds = self._make_analyser, self._thresholds
        if not self._engine_name:
            self._engine_name = pool.submit(_child_name, make).result()
        # Queue every chunk now; the verdicts are taken in turn order as they come back.
        futures = [
            pool.submit(_child_judge, make, turns[start : start + CHUNK], thresholds)
            for start in range(0, len(turns), CHUNK)
        ]
        verdicts = (verdict for future in futures for verdict in future.result())
        return self._engine_name, lambda turn: next(verdicts)

    def _judge(self, turns: tuple[Turn, ...]) -> tuple[str, Callable[[Turn], Any]]:
        if self.problem is not None:
            raise self.problem
        try:
            if self.separate_process:
                return self._judge_in_child(turns)
            return self._judge_here(turns)
        except AnalysisError as error:
            self.problem = error
            raise

    def _run(self) -> None:
        try:
            while True:
                job = self._jobs.get()
                if job is _STOP:
                    return
                assert isinstance(job, _Job)
                try:
                    if job.future.set_running_or_notify_cancel():
                        self._do(job)
                finally:
                    with self._idle:
                        self._pending -= 1
                        self._idle.notify_all()
        finally:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)

    def _do(self, job: _Job) -> None:
        try:
            name, judge = self._judge(job.turns)
            analysis = MatchAnalysis(job.players, job.length, name, self._thresholds, job.source)
            collect_verdicts(analysis, judge, job.turns, job.progress)
        except Exception as error:  # delivered to the caller through the future
            if isinstance(error, BrokenProcessPool):
                # The engine's process died (out of memory, say): start afresh next time.
                self._pool = None
                self._engine_name = ""
            job.future.set_exception(error)
            return
        job.future.set_result(analysis)
        callback = self.when_analysed
        if callback is not None:
            try:
                callback(analysis)
            except Exception as error:  # a broken listener must not stop the worker
                self.listener_error = error
