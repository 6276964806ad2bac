#!/usr/bin/env python3
"""trace_check.py TRACE.json [ROW.csv] [TRACE2.json ROW2.csv ...]: check clustersim traces.

Format (the Trace Event Format as chrome://tracing and Perfetto read it):
every event has a known phase and the fields that phase requires (X: name,
ph, ts, dur, pid, tid; M: name, args; s/f: id, ts, pid, tid, and f has
"bp": "e"), no negative duration, ts and dur in whole nanoseconds written
in microseconds (and the last slice ends at the step time of the title, in
microseconds), slices on one thread nest (no partial overlap), every flow id
has exactly one "s" and one "f", each inside a slice of its thread, the "f"
not before the "s", every thread and process with slices is named, and each
process is a node ("node N" for pid N).

Time accounting (with ROW.csv, `clustersim run --format csv` of the traced
candidate, one row): on each stage's compute thread the slices' self time
by category (compute -> t_compute_s, zero3 -> t_comm_dp_s, comm_tp, comm_ep, comm_cp,
comm_dp, optimizer), the gaps before its last operation ends (t_bubble_s)
and after its last slice (t_wait_s). Averaged over stages they must match
the row (the row averages stages too) within ROUND_S + 1e-5 relative; on
every stage they must add up to the step (nothing unaccounted) within
ROUND_S; the critical stage (the one that ends last) must match the row
within CRIT_FRAC of the step time: the row is an average, and stages differ
(the last holds the output layer and the loss, bubbles differ by position).
Prints the worst errors. Exit status 1 on any failure.

With several pairs (one process for them all: a test checks many plans),
each pair's lines are prefixed "TRACE.json: " and end with one line
"TRACE.json: ok" or "TRACE.json: N failures".
"""
import contextlib
import csv
import io
import json
import re
import sys

ROUND_S = 1e-5      # the CSV's six significant digits, and a ns per slice
CRIT_FRAC = 0.15    # the row averages stages: the critical stage differs by their spread
COLUMNS = ["t_compute_s", "t_comm_tp_s", "t_comm_ep_s", "t_comm_cp_s", "t_comm_dp_s",
           "t_optimizer_s", "t_bubble_s", "t_wait_s", "t_straggler_s"]
CAT_COLUMN = {"compute": "t_compute_s", "zero3": "t_comm_dp_s", "comm_tp": "t_comm_tp_s",
              "comm_ep": "t_comm_ep_s", "comm_cp": "t_comm_cp_s", "comm_dp": "t_comm_dp_s",
              "optimizer": "t_optimizer_s", "straggler": "t_straggler_s"}
REQUIRED = {"X": ["name", "ph", "ts", "dur", "pid", "tid"], "M": ["name", "args"],
            "s": ["id", "ts", "pid", "tid"], "f": ["id", "ts", "pid", "tid", "bp"]}

errors = []


def fail(msg):
    if len(errors) < 20:
        print("FAIL:", msg)
    errors.append(msg)


def ns(us):
    v = us * 1000.0
    if abs(v - round(v)) > 1e-3:
        fail("time %r us is not whole nanoseconds" % us)
    return int(round(v))


def check_format(doc):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents list")
        return None
    threads, procs, slices, flows = {}, {}, {}, {}
    for e in doc["traceEvents"]:
        ph = e.get("ph")
        if ph not in REQUIRED:
            fail("unknown phase %r" % ph)
            continue
        missing = [k for k in REQUIRED[ph] if k not in e]
        if missing:
            fail("%s event without %s: %r" % (ph, missing, e))
            continue
        if ph == "M":
            if e["name"] == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
            elif e["name"] == "process_name":
                procs[e["pid"]] = e["args"]["name"]
        elif ph == "X":
            if not isinstance(e["name"], str) or not e["name"]:
                fail("slice without a name: %r" % e)
            if e["dur"] < 0:
                fail("negative duration: %r" % e)
            slices.setdefault((e["pid"], e["tid"]), []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e))
        else:
            if ph == "f" and e["bp"] != "e":
                fail("flow end without bp e: %r" % e)
            flows.setdefault(e["id"], []).append(e)
    for key, v in slices.items():
        if key not in threads:
            fail("thread %r has slices and no thread_name" % (key,))
        if key[0] not in procs or procs[key[0]] != "node %d" % key[0]:
            fail("process %r is not named 'node %d': %r" % (key[0], key[0], procs.get(key[0])))
        v.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for a, b, e in v:
            while stack and stack[-1][1] <= a:
                stack.pop()
            if stack and stack[-1][1] < b:
                fail("slices overlap without nesting on %r: %r and %r" % (key, stack[-1][2]["name"], e["name"]))
            stack.append((a, b, e))

    def enclosed(e):
        t = ns(e["ts"])
        return any(a <= t and (t < b or a == b == t) for a, b, _ in slices.get((e["pid"], e["tid"]), []))

    for fid, ev in flows.items():
        phs = sorted(x["ph"] for x in ev)
        if phs != ["f", "s"]:
            fail("flow id %r has phases %r, not one s and one f" % (fid, phs))
            continue
        s = next(x for x in ev if x["ph"] == "s")
        f = next(x for x in ev if x["ph"] == "f")
        if ns(f["ts"]) < ns(s["ts"]):
            fail("flow %r ends before it starts" % fid)
        if not enclosed(s) or not enclosed(f):
            fail("flow %r is not inside a slice of its thread" % fid)
    # microseconds: the last slice ends at the title's step time
    title = doc.get("otherData", {}).get("title", "")
    m = re.search(r"step ([0-9.]+) s", title)
    if not m:
        fail("no step time in the title %r" % title)
    else:
        end_us = max(b for v in slices.values() for _, b, _ in v) / 1000.0
        if abs(end_us / 1e6 - float(m.group(1))) > 0.0006:
            fail("last slice ends at %.1f us, the step is %s s" % (end_us, m.group(1)))
    n_x = sum(len(v) for v in slices.values())
    print("format: %d slices on %d threads, %d flows" % (n_x, len(slices), len(flows)))
    return threads, slices


def stage_times(v):
    """Seconds by column on one compute thread (slices sorted, nested)."""
    out = dict.fromkeys(COLUMNS, 0.0)
    # self time: a slice's duration less its direct children's
    stack, selft = [], {}
    for i, (a, b, e) in enumerate(v):
        while stack and v[stack[-1]][1] <= a:
            stack.pop()
        selft[i] = b - a
        if stack:
            selft[stack[-1]] -= b - a
        stack.append(i)
    ops_busy, ops_end, tail_start, last_end = 0, 0, None, 0
    for i, (a, b, e) in enumerate(v):
        cat = e.get("cat")
        if cat not in CAT_COLUMN:
            fail("compute thread slice of category %r" % cat)
            continue
        out[CAT_COLUMN[cat]] += selft[i] / 1e9
        top = not any(a2 <= a and b <= b2 and (a2, b2) != (a, b) for a2, b2, _ in v[max(0, i - 64):i])
        if cat == "compute" and top and "micro_batch" in e.get("args", {}):
            ops_busy += b - a
            ops_end = max(ops_end, b)
        elif top and cat in ("comm_dp", "optimizer", "straggler") and tail_start is None:
            tail_start = a
        last_end = max(last_end, b)
    stage_end = tail_start if tail_start is not None else ops_end
    out["t_bubble_s"] = (stage_end - ops_busy) / 1e9
    return out, last_end


def check_accounting(threads, slices, row, step_s):
    stages = [(k, v) for k, v in slices.items() if threads.get(k, "").endswith(" compute")]
    per, ends = [], []
    for _, v in stages:
        t, end = stage_times(v)
        per.append(t)
        ends.append(end)
    step_ns = max(ends)
    for t, end in zip(per, ends):
        t["t_wait_s"] = (step_ns - end) / 1e9
        total = sum(t[c] for c in COLUMNS)
        if abs(total - step_s) > ROUND_S:
            fail("a stage's time adds up to %.6f s, the step is %.6f s" % (total, step_s))
    worst_avg, worst_crit = (0, ""), (0, "")
    crit = per[ends.index(max(ends))]
    for c in COLUMNS:
        want = float(row[c] or 0)
        avg = sum(t[c] for t in per) / len(per)
        e = abs(avg - want)
        if e > ROUND_S + 1e-5 * abs(want):
            fail("%s: stages average %.6f s in the trace, %.6f s in the row" % (c, avg, want))
        if e > worst_avg[0]:
            worst_avg = (e, c)
        ec = abs(crit[c] - want) / step_s
        if ec > CRIT_FRAC:
            fail("%s: critical stage %.6f s, row %.6f s (%.2f%% of the step)" % (c, crit[c], want, 100 * ec))
        if ec > worst_crit[0]:
            worst_crit = (ec, c)
    print("accounting: %d stages; stage average worst |error| %.2e s (%s); critical stage worst %.3f%% of the step (%s)"
          % (len(per), worst_avg[0], worst_avg[1] or "-", 100 * worst_crit[0], worst_crit[1] or "-"))


def check(trace, row):
    """Check one trace (and its row, if given); the failures are in errors."""
    del errors[:]
    doc = json.load(open(trace))
    got = check_format(doc)
    if got and row is not None:
        rows = list(csv.DictReader(open(row)))
        if len(rows) != 1:
            fail("%s: %d rows, want 1" % (row, len(rows)))
        else:
            check_accounting(got[0], got[1], rows[0], float(rows[0]["step_time_s"]))


def main():
    args = sys.argv[1:]
    if len(args) <= 2:
        check(args[0], args[1] if len(args) > 1 else None)
        if errors:
            print("%d failures" % len(errors))
            sys.exit(1)
        return
    if len(args) % 2:
        sys.exit("trace_check.py: several traces come in TRACE.json ROW.csv pairs")
    bad = 0
    for trace, row in zip(args[0::2], args[1::2]):
        lines = io.StringIO()
        with contextlib.redirect_stdout(lines):
            check(trace, row)
        for line in lines.getvalue().splitlines():
            print("%s: %s" % (trace, line))
        print("%s: %s" % (trace, "%d failures" % len(errors) if errors else "ok"))
        bad += bool(errors)
    sys.exit(1 if bad else 0)


main()
