#!/usr/bin/env python3
"""Parse the KTAP a guest printed and count its results.

Guest tests nest: test/guest/run-all prints one result per test script and
each script's own KTAP indented by four spaces under it.  Leaves (results
without subtests) are what gets counted.  Anything that means the run did not
say everything it should have is a failure, never a pass: no version line, or
a plan or result before it (at any depth), no plan, fewer or more results
than planned, a nested group its parent never closed, or no output at all.
Each top-level result stands for a script and must carry the script's own
nested document (a script that printed nothing has none); --flat lifts that
rule for documents that do not nest.

usage: ktap.py [--name NAME] [--flat] OUTPUT_FILE
Prints one line per failure and a summary line
"ktap: NAME: P passed, F failed, S skipped"; exits 1 when F > 0.
"""
import argparse
import re
import sys
from dataclasses import dataclass, field

RESULT = re.compile(r"^(not ok|ok) (\d+)(?: -)?(?: ([^#]*?))?\s*(?:#\s*(.*))?$")
PLAN = re.compile(r"^1\.\.(\d+)$")
VERSION = re.compile(r"^(KTAP version 1|TAP version 1[34])$")


@dataclass
class Group:
    """The results at one nesting depth since its parent's last result."""
    version: bool = False
    plan: int | None = None
    results: int = 0
    failed_leaves: int = 0
    failed_names: list = field(default_factory=list)


@dataclass
class Summary:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: list = field(default_factory=list)

    def fail(self, what):
        self.failed += 1
        self.failures.append(what)


def parse(text, name="guest", nested=True):
    """Count the leaf results of a KTAP document; see the module docstring.
    With nested, each top-level result must have a nested document."""
    summary = Summary()
    groups = {}
    seen_version = False

    def group(depth):
        """The group at depth, which must have started with a version line."""
        g = groups.get(depth)
        if g is None:
            g = groups[depth] = Group(version=depth == 0 and seen_version)
            if not g.version:
                summary.fail(f"{name}: results at depth {depth} before a KTAP version line")
        return g

    def close(depth, parent_desc):
        """Check the group below a result at depth-1 against its plan."""
        g = groups.pop(depth, None)
        for deeper in [d for d in groups if d > depth]:
            groups.pop(deeper)
            summary.fail(f"{name}: {parent_desc}: results at depth {deeper} were never closed")
        if g is None:
            return None
        for failed in g.failed_names:
            summary.fail(f"{name}: not ok: {parent_desc} / {failed}")
        if g.plan is None:
            summary.fail(f"{name}: {parent_desc}: subtests without a plan")
        elif g.plan != g.results:
            summary.fail(f"{name}: {parent_desc}: planned {g.plan} subtests, got {g.results}")
        return g

    for raw in text.splitlines():
        line = raw.rstrip("\r")
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if not stripped or stripped.startswith("#"):
            continue
        depth = indent // 4
        if VERSION.match(stripped):
            if depth == 0:
                if seen_version:
                    summary.fail(f"{name}: a second top-level KTAP version line")
                seen_version = True
            if depth in groups:
                summary.fail(f"{name}: a KTAP version line after results at depth {depth}")
            groups[depth] = Group(version=True)
            continue
        m = PLAN.match(stripped)
        if m:
            g = group(depth)
            if g.plan is not None:
                summary.fail(f"{name}: two plans at depth {depth}")
            g.plan = int(m.group(1))
            continue
        m = RESULT.match(stripped)
        if not m:
            continue    # free-form output between results is allowed
        okay = m.group(1) == "ok"
        desc = (m.group(3) or "").strip() or f"test {m.group(2)}"
        directive = (m.group(4) or "").strip()
        g = group(depth)
        g.results += 1
        if int(m.group(2)) != g.results:
            summary.fail(f"{name}: result {m.group(2)} ({desc}) out of order, expected {g.results}")
        children = close(depth + 1, desc)
        leaf = children is None or children.results == 0
        if nested and depth == 0 and children is None:
            summary.fail(f"{name}: {desc}: no nested KTAP document (the script printed nothing)")
            continue
        if leaf and directive.upper().startswith("SKIP"):
            summary.skipped += 1
        elif leaf and okay:
            summary.passed += 1
        elif not okay and (leaf or children.failed_leaves == 0):
            # A parent that failed although every subtest passed (a script
            # that crashed after its last result) counts as one failure.
            what = desc if leaf else f"{desc} ({directive or 'no subtest failed'})"
            if depth == 0:
                summary.fail(f"{name}: not ok: {what}")
            else:
                g.failed_names.append(what)
            g.failed_leaves += 1
        elif not okay:
            g.failed_leaves += 1

    if not seen_version:
        summary.fail(f"{name}: no KTAP version line: the tests never started")
    top = groups.pop(0, None)
    for depth in sorted(groups):
        for failed in groups[depth].failed_names:
            summary.fail(f"{name}: not ok: {failed}")
        summary.fail(f"{name}: results at depth {depth} were never closed (the run stopped early)")
    if top is None or top.plan is None:
        summary.fail(f"{name}: no top-level plan")
    elif top.plan != top.results:
        summary.fail(f"{name}: planned {top.plan} tests, got {top.results}")
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--name", default="guest")
    ap.add_argument("--flat", action="store_true",
                    help="top-level results need no nested document")
    ap.add_argument("output")
    args = ap.parse_args()
    try:
        with open(args.output, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        text = ""
        print(f"ktap: {args.name}: cannot read {args.output}: {e}")
    s = parse(text, args.name, nested=not args.flat)
    for what in s.failures:
        print(f"FAIL {what}")
    print(f"ktap: {args.name}: {s.passed} passed, {s.failed} failed, {s.skipped} skipped")
    sys.exit(1 if s.failed else 0)


if __name__ == "__main__":
    main()
