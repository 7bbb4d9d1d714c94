#!/usr/bin/python3
"""Check index files against the "index:" comments of a module's source.

Each printk-family call of the source carries a comment on its own line:

    pr_err("error %d\\n", n);	/* index: <3> pi_sample_levels "pi_sample: error %d\\n" */

that states its index line, level/flags, function and format, written as
the index shows it (escaped); "index: none" says the call has no entry.
"index: dyndbg <7> ..." says the call has that entry only in a kernel with
CONFIG_DYNAMIC_DEBUG (where the series indexes dynamic-debug sites) and
none otherwise: pass --dynamic-debug for such a kernel's index.
The file:line part is not written: it is the source's name and the line the
comment sits on, so a wrong __LINE__ cannot agree with it.  In a format,
{TEXT*N} stands for TEXT written N times (for formats too long to spell).

Each INDEX file must hold the header and exactly the annotated lines, no
more, no fewer, in any order (the order is the compiler's; the views are
compared with the ELF order elsewhere).  A printk-family call without an
annotation is an error too, so that a new call cannot go unchecked.

usage: pi_source_check.py [--dynamic-debug] SOURCE.c INDEX...
"""
import os
import re
import sys
from collections import Counter

HEADER = b'# <level/flags> filename:line function "format"'
ANNOTATION = re.compile(rb'/\* index: (dyndbg )?(.*) \*/\s*$')
EXPECTED = re.compile(rb'(<(?:-1|[0-7]|[0-7],c|c)>) (\w+) (".*")$')
REPEAT = re.compile(rb'\{([^{}*]+)\*([0-9]+)\}')
# Calls that make an index entry (or that must say "none").
CALL = re.compile(rb'\b(printk\w*|pr_\w+|dev_\w+|netdev_\w+|netif_\w+|WARN\w*)\s*\(')


def expected_lines(path, dynamic_debug=False):
    """The index lines the annotations of path state for a kernel with or
    without dynamic debug, and a list of errors."""
    name = os.path.basename(path).encode()
    lines, errors = [], []
    with open(path, "rb") as f:
        for n, text in enumerate(f, 1):
            m = ANNOTATION.search(text)
            code = text[:m.start()] if m else text
            stripped = code.lstrip()
            is_code = not stripped.startswith((b"*", b"/*", b"//", b"#"))
            if not m:
                if is_code and CALL.search(code):
                    errors.append(f"{path}:{n}: printk-family call without an index: comment")
                continue
            if m.group(2) == b"none" and not m.group(1):
                continue
            e = EXPECTED.match(m.group(2))
            if not e:
                errors.append(f"{path}:{n}: cannot parse annotation {m.group(2)!r}")
                continue
            if m.group(1) and not dynamic_debug:
                continue
            fmt = REPEAT.sub(lambda r: r.group(1) * int(r.group(2)), e.group(3))
            lines.append(b"%s %s:%d %s %s" % (e.group(1), name, n, e.group(2), fmt))
    return lines, errors


def check(source, index_files, dynamic_debug=False):
    want, errors = expected_lines(source, dynamic_debug)
    for e in errors:
        print(e)
    if not want:
        print(f"{source}: no annotations")
        return False
    ok = not errors
    for path in index_files:
        with open(path, "rb") as f:
            got = f.read().split(b"\n")
        if got[-1] == b"":
            got.pop()
        else:
            print(f"{path}: no newline at the end")
            ok = False
        if not got or got[0] != HEADER:
            print(f"{path}: the first line is not the header")
            ok = False
        # Multisets: a line the index repeats, or drops, must show.
        extra = Counter(got[1:]) - Counter(want)
        missing = Counter(want) - Counter(got[1:])
        for line in sorted(missing):
            print(f"{path}: missing: {line.decode(errors='replace')[:200]}")
        for line in sorted(extra):
            print(f"{path}: not in {source}: {line.decode(errors='replace')[:200]}")
        if extra or missing:
            ok = False
    return ok


if __name__ == "__main__":
    args = sys.argv[1:]
    dyndbg = bool(args) and args[0] == "--dynamic-debug"
    if dyndbg:
        args = args[1:]
    if len(args) < 2:
        sys.exit("usage: pi_source_check.py [--dynamic-debug] SOURCE.c INDEX...")
    sys.exit(0 if check(args[0], args[1:], dyndbg) else 1)
