#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The layout of printk-index's sources: no include cycle between modules.

A module is a .c file and its .h (cover.c and cover.h), and a private
header X_impl.h belongs to module X; a module depends on another when
one of its files includes the other's header.  A cycle means
two jobs that cannot be read, tested or replaced apart (#24: index.c and
elf_index.c called each other).  It sees includes, not calls: files
that share an _impl.h (the fmt_*.c; checker.c and the ck_*.c; the
cover*.c) are one job split by size and may call each other, which it
does not report (ck_rule.c's ck_rule_init() runs checker.c's product for
one fact of the rule, and checker.c uses ck_rule.c's bounds).  Prints each module's dependencies, the
files over LIMIT lines (a note, not a failure), and fails on a cycle.

usage: layout.py [-v] [TOOL_DIR]     (-v: each module's dependencies)
"""
import os
import re
import sys

LIMIT = 800


def module_of(base):
    return base[:-len("_impl")] if base.endswith("_impl") else base


def modules(top):
    deps, sizes = {}, {}
    for name in sorted(os.listdir(top)):
        base, ext = os.path.splitext(name)
        if ext not in (".c", ".h"):
            continue
        base = module_of(base)
        with open(os.path.join(top, name)) as f:
            text = f.read()
        sizes[name] = text.count("\n")
        mod = deps.setdefault(base, set())
        for inc in re.findall(r'^#include "([^"/]+)\.h"', text, re.M):
            if module_of(inc) != base:
                mod.add(module_of(inc))
    return deps, sizes


def find_cycle(deps):
    """A cycle as a list of modules, or None (depth-first search)."""
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in sorted(deps.get(m, ())):
            if state.get(d) == "open":
                return stack[stack.index(d):] + [d]
            if d not in state:
                cycle = visit(d)
                if cycle:
                    return cycle
        state[m] = "done"
        stack.pop()
        return None

    for m in sorted(deps):
        if m not in state:
            cycle = visit(m)
            if cycle:
                return cycle
    return None


def main():
    args = sys.argv[1:]
    verbose = bool(args) and args[0] == "-v"
    args = args[1:] if verbose else args
    top = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    deps, sizes = modules(top)
    for m in sorted(deps) if verbose else ():
        print("%-12s -> %s" % (m, " ".join(sorted(deps[m])) or "-"))
    for name in sorted(sizes):
        if sizes[name] > LIMIT:
            print("note: %s has %d lines (more than %d)" % (name, sizes[name], LIMIT))
    cycle = find_cycle(deps)
    if cycle:
        print("layout: include cycle: %s" % " -> ".join(cycle))
        return 1
    print("layout: %d modules, no include cycle" % len(deps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
