#!/usr/bin/env python3
"""Count the printk index entries of a vmlinux straight from its ELF file.

Prints the number of entries in the .printk_index section and how many of
them have a format (the kernel prints a line only for those).  The guest
tests compare the kernel's own files against this count, so a reader that
drops or repeats entries cannot go unnoticed.  A kernel without the section
prints "0 0".
"""
import struct
import sys


def sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("pi_count: not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]
    strtab = hdrs[shstrndx]
    for h in hdrs:
        name_end = data.index(b"\0", strtab[4] + h[0])
        yield data[strtab[4] + h[0]:name_end].decode(), h


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    secs = list(sections(data))
    index = [h for name, h in secs if name == ".printk_index"]
    if not index:
        print("0 0")
        return
    _, _, _, _, off, size, *_ = index[0]
    SHT_NOBITS = 8

    def read_u64(addr):
        for _, h in secs:
            sh_type, sh_addr, sh_off, sh_size = h[1], h[3], h[4], h[5]
            if sh_type != SHT_NOBITS and sh_addr <= addr < sh_addr + sh_size:
                return struct.unpack_from("<Q", data, sh_off + addr - sh_addr)[0]
        raise SystemExit(f"pi_count: address {addr:#x} is in no section")

    entries = [struct.unpack_from("<Q", data, off + i)[0] for i in range(0, size, 8)]
    with_format = sum(1 for e in entries if read_u64(e) != 0)
    print(len(entries), with_format)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: pi_count.py VMLINUX")
    main(sys.argv[1])
