#!/usr/bin/python3
"""The printk index of a vmlinux or module .ko, read from the ELF file alone.

An oracle for the tests: it prints the bytes that the kernel's index file
(/sys/kernel/printk_index/<name>, <debugfs>/printk/index/<name>) must hold
for that object.  It is written independently of the code under test, from
two upstream sources only:

  - struct pi_entry in include/linux/printk.h (6.1): a packed struct of
    fmt, func, file (pointers), line (unsigned int), level and
    subsys_fmt_prefix (pointers); .printk_index is an array of pointers to
    such entries;
  - pi_show() in kernel/printk/index.c of upstream 6.1, before this
    project's series: the header line, the level/flags taken from
    entry->level or else from the KERN_SOH prefixes of fmt
    (printk_parse_prefix()), the format escaped with
    seq_escape_str(ESCAPE_ANY | ESCAPE_NAP | ESCAPE_APPEND, "\\"\\\\"),
    entries without a format skipped, entries in array order.

It shares no code with the kernel's pi_entry_format() or with the
printk-index tool, so that a bug common to those two cannot also be here.

/usr/bin/python3 on purpose: pyelftools is Debian's python3-pyelftools,
which another python3 earlier in PATH would not see.

usage: pi_oracle.py ELF             the index file's bytes on stdout
       pi_oracle.py --count ELF     "ENTRIES WITH_FORMAT" (as pi_count.py)
       pi_oracle.py --layout ELF    "ENTRIES ALIGNED4 MIN_GAP" (see layout())
"""
import bisect
import struct
import sys
from collections import namedtuple

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection

HEADER = b'# <level/flags> filename:line function "format"\n'

# struct pi_entry is __packed: no padding, 44 bytes on a 64-bit kernel.
PI_ENTRY = struct.Struct("<QQQIQQ")
FIELD_OFFSETS = {"fmt": 0, "func": 8, "file": 16, "level": 28, "subsys_fmt_prefix": 36}
LINE_OFFSET = 24
R_X86_64_64 = 1

# Strings are bytes (the kernel prints them as bytes); a missing pointer is None.
Entry = namedtuple("Entry", "fmt func file line level subsys_fmt_prefix")


class OracleError(Exception):
    pass


class Image:
    """Pointer and string reads in an ELF file.  A place is (section index,
    offset in that section): in vmlinux a pointer is an address, mapped to
    the section it falls in; in a .ko (relocatable) a pointer field holds
    zero and a RELA relocation says what it points to."""

    def __init__(self, elf):
        self.elf = elf
        self.relocatable = elf["e_type"] == "ET_REL"
        if elf.elfclass != 64 or not elf.little_endian:
            raise OracleError("not a 64-bit little-endian ELF file")
        self.data = {}
        # For vmlinux: allocated sections by start address.
        spans = sorted((s["sh_addr"], s["sh_size"], i)
                       for i, s in enumerate(elf.iter_sections())
                       if s["sh_flags"] & 2 and s["sh_type"] != "SHT_NOBITS" and s["sh_size"])
        self.starts = [a for a, _, _ in spans]
        self.spans = spans
        # For a .ko: section index -> {offset: (target place)}.
        self.relocs = {}
        if self.relocatable:
            for sec in elf.iter_sections():
                if isinstance(sec, RelocationSection):
                    self._add_relocs(sec)

    def _add_relocs(self, sec):
        if not sec.is_RELA():
            raise OracleError(f"{sec.name}: REL relocations, expected RELA")
        symtab = self.elf.get_section(sec["sh_link"])
        table = self.relocs.setdefault(sec["sh_info"], {})
        for r in sec.iter_relocations():
            table[r["r_offset"]] = (r["r_info_type"], symtab.get_symbol(r["r_info_sym"]), r["r_addend"])

    def section_data(self, index):
        if index not in self.data:
            sec = self.elf.get_section(index)
            if sec["sh_type"] == "SHT_NOBITS":
                raise OracleError(f"pointer into {sec.name}, which has no data in the file")
            self.data[index] = sec.data()
        return self.data[index]

    def address_place(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        if i >= 0:
            start, size, index = self.spans[i]
            if addr < start + size:
                return index, addr - start
        raise OracleError(f"address {addr:#x} is in no section with data")

    def pointer(self, place):
        """The place the 8-byte pointer at place points to, None for NULL."""
        index, off = place
        value, = struct.unpack_from("<Q", self.section_data(index), off)
        if not self.relocatable:
            return None if value == 0 else self.address_place(value)
        rel = self.relocs.get(index, {}).get(off)
        if rel is None:
            if value:
                raise OracleError(f"unrelocated pointer {value:#x} in a relocatable file")
            return None
        rtype, sym, addend = rel
        if rtype != R_X86_64_64:
            raise OracleError(f"relocation type {rtype} at {place}, expected R_X86_64_64")
        shndx = sym["st_shndx"]
        if not isinstance(shndx, int):
            raise OracleError(f"pointer to symbol {sym.name!r} outside the module ({shndx})")
        return shndx, sym["st_value"] + addend

    def string(self, place):
        if place is None:
            return None
        data = self.section_data(place[0])
        end = data.find(b"\0", place[1])
        if end < 0:
            raise OracleError(f"string at {place} has no terminating NUL")
        return bytes(data[place[1]:end])


def entry_places(elf, img):
    """The places of the entries .printk_index points to, in array order;
    [] without one."""
    index = None
    for i, sec in enumerate(elf.iter_sections()):
        if sec.name == ".printk_index":
            index = i
    if index is None:
        return []
    size = elf.get_section(index)["sh_size"]
    if size % 8:
        raise OracleError(f".printk_index is {size} bytes, not a whole number of pointers")
    places = []
    for off in range(0, size, 8):
        at = img.pointer((index, off))
        if at is None:
            raise OracleError(f".printk_index[{off // 8}] is NULL")
        sec, base = at
        if base + PI_ENTRY.size > len(img.section_data(sec)):
            raise OracleError(f"entry {off // 8} runs past its section")
        places.append(at)
    return places


def read_entries(path):
    """The entries of path's .printk_index in array order; [] without one."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        img = Image(elf)
        entries = []
        for sec, base in entry_places(elf, img):
            fields = {name: img.string(img.pointer((sec, base + o)))
                      for name, o in FIELD_OFFSETS.items()}
            line, = struct.unpack_from("<I", img.section_data(sec), base + LINE_OFFSET)
            entries.append(Entry(line=line, **fields))
        return entries


def layout(path):
    """How the entries lie in memory: "ENTRIES ALIGNED4 MIN_GAP", with the
    number of entries at a 4-byte aligned place and the smallest distance
    between two entries of one section (0 with fewer than two).  An entry
    is 44 bytes: 44 apart when entries lie side by side, 64 when the
    compiler aligns them to 32 bytes."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        img = Image(elf)
        places = sorted(entry_places(elf, img))
        aligned = 0
        for sec, base in places:
            start = elf.get_section(sec)["sh_addr"] + base
            aligned += start % 4 == 0
        gaps = [b[1] - a[1] for a, b in zip(places, places[1:]) if a[0] == b[0]]
        return f"{len(places)} {aligned} {min(gaps, default=0)}"


def parse_prefix(text):
    """printk_parse_prefix(): (level, cont, prefix length) of the KERN_SOH
    headers at the start of text.  The first digit wins; 'c' is KERN_CONT."""
    level, cont, n = -1, False, 0
    while n + 1 < len(text) and text[n] == 1 and text[n + 1] in b"01234567c":
        if text[n + 1] == ord("c"):
            cont = True
        elif level == -1:
            level = text[n + 1] - ord("0")
        n += 2
    return level, cont, n


# string_escape_mem() with ESCAPE_ANY | ESCAPE_NAP | ESCAPE_APPEND and only
# = "\"\\": printable ASCII passes through except the two characters of
# @only; then the ESCAPE_SPACE and ESCAPE_SPECIAL letters; anything else as
# three octal digits (ESCAPE_NULL never applies: the input is a C string).
ESCAPE_LETTER = {ord("\n"): b"n", ord("\r"): b"r", ord("\t"): b"t", ord("\v"): b"v",
                 ord("\f"): b"f", ord("\\"): b"\\", 0x07: b"a", 0x1b: b"e", ord('"'): b'"'}


def escape(text):
    out = bytearray()
    for c in text:
        if 0x20 <= c <= 0x7e and c not in b'"\\':
            out.append(c)
        elif c in ESCAPE_LETTER:
            out += b"\\" + ESCAPE_LETTER[c]
        else:
            out += b"\\%03o" % c
    return bytes(out)


def render_entry(e):
    """pi_show() for one entry: b"" for an entry without a format."""
    if e.fmt is None:
        return b""
    if e.level is not None:
        level, cont, _ = parse_prefix(e.level)
        prefix_len = 0
    else:
        level, cont, prefix_len = parse_prefix(e.fmt)
    if cont:
        flags = b"<c>" if level == -1 else b"<%d,c>" % level
    else:
        flags = b"<%d>" % level
    # seq_printf("%s:%d %s"): vsnprintf prints "(null)" for a NULL string,
    # and the line is an unsigned int printed with %d.
    line = e.line - (1 << 32) if e.line >= 1 << 31 else e.line
    out = b"%s %s:%d %s \"" % (flags, e.file or b"(null)", line, e.func or b"(null)")
    if e.subsys_fmt_prefix is not None:
        out += escape(e.subsys_fmt_prefix)
    return out + escape(e.fmt[prefix_len:]) + b'"\n'


def render(entries):
    return HEADER + b"".join(render_entry(e) for e in entries)


def main(argv):
    mode = argv[1] if argv[1:2] in (["--count"], ["--layout"]) else None
    args = argv[2:] if mode else argv[1:]
    if len(args) != 1:
        sys.exit("usage: pi_oracle.py [--count|--layout] VMLINUX|MODULE.ko")
    try:
        if mode == "--layout":
            print(layout(args[0]))
            return
        entries = read_entries(args[0])
    except (OracleError, ELFError, OSError) as e:
        sys.exit(f"pi_oracle: {args[0]}: {e}")
    if mode == "--count":
        print(len(entries), sum(1 for e in entries if e.fmt is not None))
    else:
        sys.stdout.buffer.write(render(entries))


if __name__ == "__main__":
    main(sys.argv)
