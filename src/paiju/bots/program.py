"""An external bot program: a child process spoken to in lines over its stdin and stdout.

The bridge (``paiju bot run``) and the arena (``paiju arena``) both talk to bot programs
through ``Program``: write a line (or a whole input), read what the program writes back
within a time limit. A program that exits, closes its output or cannot be started raises
``ProgramCrashed``; one that is too slow raises ``ProgramTimeout`` (and keeps running: a late
answer is read and dropped by whoever asks next). The program's stderr is passed through.

Lines are read by a thread per process into a queue, so a time limit works the same on every
platform and the caller never blocks past it.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from collections.abc import Sequence
from typing import IO

#: How long a stopping program gets to exit after its stdin closes, before it is killed.
STOP_GRACE = 1.0


class ProgramError(Exception):
    """The program failed to give an answer (base class)."""


class ProgramCrashed(ProgramError):
    """The program exited, closed its output, or could not be started."""


class ProgramTimeout(ProgramError):
    """The program did not answer within the time limit."""


class Program:
    """One child process at a time, started on demand (``start``) and again after a crash."""

    def __init__(self, argv: Sequence[str], stderr: IO[str] | None = None) -> None:
        if not argv:
            raise ValueError("no program to run: give its command after --")
        self.argv = list(argv)
        self._stderr = stderr
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    @property
    def running(self) -> bool:
        """Whether a process is running now."""
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the process (stopping any previous one); ``ProgramCrashed`` if it cannot."""
        self.stop()
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise ProgramCrashed(f"cannot start {self.argv[0]!r}: {exc}") from exc
        self._proc = proc
        self._lines = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, self._lines), daemon=True).start()

    def send(self, text: str) -> None:
        """Write ``text`` (a newline is added) to the running process (started if need be)."""
        if not self.running:
            self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(text if text.endswith("\n") else text + "\n")
            proc.stdin.flush()
        except (OSError, ValueError) as exc:  # a closed pipe: the program is gone
            raise ProgramCrashed(self._exit_text()) from exc

    def read_line(self, timeout: float | None) -> str:
        """The next line the program writes (without its newline), within ``timeout`` seconds
        (``None``: no limit). ``ProgramTimeout`` or ``ProgramCrashed`` otherwise."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise ProgramTimeout(f"no answer within {timeout:.1f} s") from None
        if line is None:
            raise ProgramCrashed(self._exit_text())
        return line.rstrip("\r\n")

    def stop(self) -> None:
        """Close the process's stdin and wait briefly for it to exit; kill it otherwise."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _exit_text(self) -> str:
        proc = self._proc
        if proc is None:
            return "the program is not running"
        self._proc = None
        try:
            code = proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return "the program closed its output"
        return f"the program exited with status {code}"


def _pump(stream: IO[str] | None, lines: queue.Queue[str | None]) -> None:
    """Copy every line of ``stream`` into ``lines``; ``None`` marks the end."""
    if stream is not None:
        for line in stream:
            lines.put(line)
    lines.put(None)
