"""The one timing rule of the benchmarks: the best of a few runs (the least disturbed by other processes)."""

import time


def best(fn, repeat: int = 3) -> float:
    """Minimum wall time of ``repeat`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
