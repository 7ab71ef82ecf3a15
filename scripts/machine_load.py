"""How busy this machine is, for the scripts that print figures (bench, bench_pdf, loadtest): other
work on the machine makes every figure worse, so each run says how idle the CPUs were."""

import time


def idle_percent(seconds: float = 1.0) -> str:
    """How idle the CPUs are right now (Linux /proc/stat), as "57%"; "?" where that cannot be read."""
    def sample():
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:]]
        return values[3] + values[4], sum(values)

    try:
        idle1, total1 = sample()
        time.sleep(seconds)
        idle2, total2 = sample()
    except OSError:
        return "?"
    return f"{100 * (idle2 - idle1) // max(total2 - total1, 1)}%"
