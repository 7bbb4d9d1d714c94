#!/usr/bin/env python3
"""What listing dynamic debug call sites costs a kernel's index, from its
vmlinux alone (bench row 9).

usage: dyndbg_cost.py VMLINUX

Prints one line "descriptors=N listed=M stride=S entries_at_sites=K": the
struct _ddebug descriptors between __start___dyndbg and __stop___dyndbg,
how many of them the index lists (a print_kind other than 0), the size of
one descriptor, and how many .printk_index entries have the file:line of a
descriptor, that is, a second record of a dynamic debug call site.  With
the series, sites are listed from their descriptors: K is 0, and S is what
the same configuration has without the series.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host"))
import pi_oracle  # noqa: E402


def main(path):
    with open(path, "rb") as f:
        elf = pi_oracle.ELFFile(f)
        img = pi_oracle.Image(elf)
        array = pi_oracle.descriptor_array(elf, img)
        size, stride = array[1:] if array else (0, 0)
        listed = pi_oracle.descriptors(elf, img)
        # The file:line of every descriptor, listed or not (a kernel
        # without the series lists none).
        sites = {pi_oracle.descriptor_site(img, p) for p in pi_oracle.descriptor_places(elf, img)}
        at_sites = sum((e.file, e.line) in sites for e in pi_oracle.index_entries(elf, img))
    print(f"descriptors={size // stride if stride else 0} listed={len(listed)} "
          f"stride={stride} entries_at_sites={at_sites}")

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: dyndbg_cost.py VMLINUX")
    main(sys.argv[1])
