#!/usr/bin/env python3
"""Count the call sites of a printk index straight from an ELF file.

Prints "TOTAL WITH_LINE":
  TOTAL      the call sites the index holds: the entries of the
             .printk_index section, plus the dynamic debug descriptors
             (struct _ddebug) whose print_kind is not 0;
  WITH_LINE  how many lines they give in the index file after its header:
             the entries that have a format (the kernel prints a line only
             for those) and every such descriptor.
The guest tests compare the kernel's own files against this count, so a
reader that drops or repeats lines cannot go unnoticed.  A kernel without
the index prints "0 0".

It reads the raw ELF structures itself (no pyelftools, nothing shared with
pi_oracle.py).  vmlinux: pointers are addresses, the descriptors lie from
__start___dyndbg to __stop___dyndbg.  A module (relocatable): pointers are
RELA relocations, the descriptors are the section __dyndbg.  In both, the
descriptors' size (the array stride) is the size of the object symbols in
the array.
"""
import struct
import sys

ET_REL = 1
SHT_SYMTAB, SHT_RELA, SHT_NOBITS = 2, 4, 8
STT_OBJECT = 1
SHN_LORESERVE = 0xff00
# struct _ddebug: the u32 of print_prefix_len:14 and print_kind:2 is at 36.
DD_PRINT_WORD = 36


def fail(msg):
    raise SystemExit(f"pi_count: {msg}")


class Elf:
    def __init__(self, data):
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            fail("not a 64-bit little-endian ELF file")
        self.data = data
        self.rel = struct.unpack_from("<H", data, 0x10)[0] == ET_REL
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        # (name, type, flags, addr, offset, size, link, info, align, entsize)
        self.hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                     for i in range(shnum)]
        names = self.hdrs[shstrndx][4]
        self.names = [self.cstr(names + h[0]) for h in self.hdrs]
        self.syms = []
        self.relas = {}
        for h in self.hdrs:
            if h[1] == SHT_SYMTAB:
                strtab = self.hdrs[h[6]][4]
                for i in range(h[4], h[4] + h[5], 24):
                    name, info, _, shndx, value, size = struct.unpack_from("<IBBHQQ", data, i)
                    self.syms.append((self.cstr(strtab + name), info & 0xf, shndx, value, size))
        if self.rel:
            for h in self.hdrs:
                if h[1] == SHT_RELA:
                    table = self.relas.setdefault(h[7], {})
                    for i in range(h[4], h[4] + h[5], 24):
                        off, info, addend = struct.unpack_from("<QQq", data, i)
                        table[off] = (info >> 32, addend)

    def cstr(self, at):
        return self.data[at:self.data.index(b"\0", at)]

    def section(self, name):
        for i, n in enumerate(self.names):
            if n == name:
                return i
        return None

    def file_offset(self, place, length):
        """File offset of length bytes at place (section, offset)."""
        h = self.hdrs[place[0]]
        if h[1] == SHT_NOBITS or place[1] + length > h[5]:
            fail(f"{length} bytes at {place} are not in the file")
        return h[4] + place[1]

    def u(self, fmt, place):
        return struct.unpack_from(fmt, self.data, self.file_offset(place, struct.calcsize(fmt)))[0]

    def place_of(self, addr):
        for i, h in enumerate(self.hdrs):
            if h[1] != SHT_NOBITS and h[2] & 2 and h[3] <= addr < h[3] + h[5]:
                return i, addr - h[3]
        fail(f"address {addr:#x} is in no section")

    def pointer(self, place):
        """Where the pointer at place points: a place, or None for NULL."""
        value = self.u("<Q", place)
        if not self.rel:
            return self.place_of(value) if value else None
        r = self.relas.get(place[0], {}).get(place[1])
        if r is None:
            if value:
                fail(f"unrelocated pointer at {place}")
            return None
        _, _, shndx, sym_value, _ = self.syms[r[0]]
        return shndx, sym_value + r[1]


def index_lines(elf):
    """(entries, entries with a format) of .printk_index."""
    sec = elf.section(b".printk_index")
    if sec is None:
        return 0, 0
    size = elf.hdrs[sec][5]
    if size % 8:
        fail(f".printk_index is {size} bytes, not a whole number of pointers")
    total = with_format = 0
    for off in range(0, size, 8):
        entry = elf.pointer((sec, off))
        if entry is None:
            fail(f".printk_index[{off // 8}] is NULL")
        total += 1
        # The format pointer is the entry's first field.
        with_format += elf.pointer(entry) is not None
    return total, with_format


def descriptor_lines(elf):
    """The dynamic debug descriptors with a print_kind other than 0."""
    if elf.rel:
        sec = elf.section(b"__dyndbg")
        if sec is None:
            return 0
        start, size = 0, elf.hdrs[sec][5]
        objects = [s for s in elf.syms if s[2] == sec and s[1] == STT_OBJECT]
    else:
        found = {}
        for name, _, shndx, value, _ in elf.syms:
            if name in (b"__start___dyndbg", b"__stop___dyndbg") and 0 < shndx < SHN_LORESERVE:
                found.setdefault(name, set()).add(value)
        if not found:
            return 0
        if len(found) != 2 or any(len(v) != 1 for v in found.values()):
            fail("__start___dyndbg and __stop___dyndbg: not exactly one of each")
        lo, = found[b"__start___dyndbg"]
        hi, = found[b"__stop___dyndbg"]
        if hi <= lo:
            if hi < lo:
                fail("__stop___dyndbg lies before __start___dyndbg")
            return 0
        sec, start = elf.place_of(lo)
        size = hi - lo
        objects = [s for s in elf.syms if s[1] == STT_OBJECT and 0 < s[2] < SHN_LORESERVE
                   and lo <= s[3] < hi]
    if size == 0:
        return 0
    sizes = {s[4] for s in objects}
    if len(sizes) != 1:
        fail(f"cannot tell the size of a descriptor: its symbols say {sorted(sizes) or 'nothing'}")
    stride = sizes.pop()
    if stride < DD_PRINT_WORD + 4 or size % stride:
        fail(f"a {size}-byte descriptor array of {stride}-byte descriptors")
    # Each descriptor's symbol must be where the stride puts one.
    first = 0 if elf.rel else lo
    if any((s[3] - first) % stride for s in objects):
        fail(f"descriptors not {stride} bytes apart")
    return sum(1 for at in range(start, start + size, stride)
               if elf.u("<I", (sec, at + DD_PRINT_WORD)) >> 14 & 3)


def main(path):
    with open(path, "rb") as f:
        elf = Elf(f.read())
    total, lines = index_lines(elf)
    # A vmlinux without .printk_index was built without the index: its
    # descriptors are dynamic debug's alone, and no file lists them.
    descs = descriptor_lines(elf) if elf.rel or elf.section(b".printk_index") is not None else 0
    print(total + descs, lines + descs)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: pi_count.py VMLINUX|MODULE.ko")
    main(sys.argv[1])
