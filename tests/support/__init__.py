"""Test support shared by tests and benchmarks (README, sections Tests and Benchmarks).

For running the real ``python -m bot`` as a process:

- ``standin``: a local Discord stand-in (REST under ``/api/v10`` and a gateway websocket on
  127.0.0.1) that the real discord.py client logs in to, plus the readers of the bot's
  messages (``parse_custom_id`` is the one place that knows the bot's custom-id format).
- ``driver``: plays random legal games against the bot through the stand-in, reading the
  legal moves off the bot's buttons and selects.
- ``procs``: the bot as a child process (its environment, start, stop, SIGKILL, CPU and
  memory from /proc).

Used by ``tests/test_main.py``, ``tests/test_crash_kill9.py`` and the benchmarks
(``python -m benchmarks.wire_bench`` and ``benchmarks.table_bench``, run from the repo root).
"""
