"""Run every benchmark of bench/ in turn and sum up the goals.

Run: ``python bench/run_all.py [--quick]``. Each script runs in its own process (with this
interpreter), its output is shown as it comes, and at the end every ``GOAL`` line is repeated with
the script it came from. ``--quick`` passes smaller run counts (a smoke test; figures are noisier).
Exits 0 when every script ran (a missed goal is a figure, not a failure); 1 if one crashed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS: list[tuple[str, list[str], list[str]]] = [
    # (script, quick arguments, full arguments)
    ("bench_engine.py", ["--runs", "60"], []),
    ("bench_pathfind.py", ["--runs", "5"], []),
    ("bench_storage.py", ["--rounds", "200"], []),
    ("bench_render.py", ["--runs", "8"], []),
    ("bench_e2e.py", ["--runs", "15"], []),
    ("bench_throughput.py", ["--waves", "1"], []),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs per benchmark")
    args = parser.parse_args()
    goals: list[str] = []
    failed: list[str] = []
    for script, quick, full in SCRIPTS:
        print(f"== {script} ==", flush=True)
        started = time.perf_counter()
        proc = subprocess.Popen(  # noqa: S603 - our own scripts, with this interpreter
            [sys.executable, str(HERE / script), *(quick if args.quick else full)],
            cwd=HERE.parent,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            if line.startswith(("GOAL", "CHECK")):
                goals.append(f"{script:<20} {line.strip()}")
        if proc.wait() != 0:
            failed.append(script)
        print(f"   ({time.perf_counter() - started:.0f} s)\n", flush=True)
    print("== goals ==")
    for line in goals:
        print(line)
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
