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
       pi_oracle.py --count ELF     "TOTAL WITH_LINE" (as pi_count.py):
                                    TOTAL: the call sites the index holds,
                                    .printk_index entries plus descriptors
                                    of a print_kind other than 0 (0: the
                                    object has no index at all); WITH_LINE:
                                    the lines they give, that is the lines
                                    of the index file after its header
                                    (entries without a format have none)
       pi_oracle.py --layout ELF    "ENTRIES ALIGNED4 MIN_GAP" (see layout()),
                                    of the pi_entry records only
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

# struct _ddebug (include/linux/dynamic_debug.h), 8-byte aligned: modname,
# function, filename and format pointers, then two u32 of bitfields:
# lineno:18 class_id:6 flags:8, and print_prefix_len:14 print_kind:2; with
# CONFIG_JUMP_LABEL a 16-byte static key follows.  The stride (40 or 56)
# is read from the ELF file, never assumed.
DD_FUNCTION, DD_FILENAME, DD_FORMAT, DD_LINE_WORD, DD_PRINT_WORD = 8, 16, 24, 32, 36
DD_MIN_SIZE = 40
DD_LEVEL = b"\0017"            # KERN_DEBUG
# print_kind -> the prefix its __dynamic_*() function prints first (the
# entry's subsys_fmt_prefix); kind 0, not indexed, has no line.
DD_PREFIX = {1: None, 2: b"%s %s: ", 3: b"%s %s %s%s: "}


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


# Elf64_Sym: st_name, st_info, st_other, st_shndx, st_value, st_size.
ELF64_SYM = struct.Struct("<IBBHQQ")
STT_OBJECT = 1
SHN_LORESERVE = 0xff00
Symbol = namedtuple("Symbol", "name is_object shndx value size")


def symbols(elf):
    """The symbols of the symbol table, [] without one; shndx None for an
    undefined or special (absolute, common) symbol.  Unpacked here rather
    than with pyelftools, which takes seconds for the 60000 of a vmlinux."""
    tab = elf.get_section_by_name(".symtab")
    if tab is None:
        return []
    names = elf.get_section(tab["sh_link"]).data()
    out = []
    for name, info, _, shndx, value, size in ELF64_SYM.iter_unpack(tab.data()):
        out.append(Symbol(names[name:names.index(b"\0", name)], info & 0xf == STT_OBJECT,
                          shndx if 0 < shndx < SHN_LORESERVE else None, value, size))
    return out


def descriptor_array(elf, img):
    """(place, size, stride) of the struct _ddebug array, None without one:
    in a .ko the section __dyndbg, in vmlinux the bytes from
    __start___dyndbg to __stop___dyndbg; the stride is the size of the
    object symbols that lie in the array, which must all be the same."""
    syms = symbols(elf)
    if img.relocatable:
        index = next((i for i, sec in enumerate(elf.iter_sections()) if sec.name == "__dyndbg"), None)
        if index is None:
            return None
        place, size = (index, 0), elf.get_section(index)["sh_size"]
        if size == 0:
            return None
        inside = [s for s in syms if s.shndx == index]
    else:
        bounds = {}
        for s in syms:
            if s.name in (b"__start___dyndbg", b"__stop___dyndbg") and s.shndx is not None:
                bounds.setdefault(s.name, set()).add(s.value)
        if not bounds:
            return None
        if len(bounds) != 2 or any(len(v) != 1 for v in bounds.values()):
            raise OracleError(f"__start___dyndbg/__stop___dyndbg: not one of each ({bounds})")
        start, = bounds[b"__start___dyndbg"]
        stop, = bounds[b"__stop___dyndbg"]
        if stop < start:
            raise OracleError("__stop___dyndbg is before __start___dyndbg")
        size = stop - start
        if size == 0:
            return None     # address_place(start) may be past every section
        place = img.address_place(start)
        if img.address_place(stop - 1)[0] != place[0]:
            raise OracleError("the __dyndbg array spans two sections")
        inside = [s for s in syms if s.shndx is not None and start <= s.value < stop]
    sizes = {s.size for s in inside if s.is_object}
    if not sizes:
        raise OracleError(f"the __dyndbg array ({size} bytes) has no descriptor symbol to take its stride from")
    if len(sizes) != 1:
        raise OracleError(f"the descriptors of the __dyndbg array disagree on their size: {sorted(sizes)}")
    stride, = sizes
    if stride < DD_MIN_SIZE:
        raise OracleError(f"descriptors of {stride} bytes, a struct _ddebug has at least {DD_MIN_SIZE}")
    if size % stride:
        raise OracleError(f"the __dyndbg array is {size} bytes, not a multiple of its descriptors' {stride}")
    # Descriptors padded apart (gcc aligns a 40-byte aggregate to 32 bytes
    # unless told aligned(8)) would be read at the wrong places.
    for s in inside:
        if s.is_object and (s.value - (0 if img.relocatable else start)) % stride:
            raise OracleError(f"descriptor {s.name.decode(errors='replace')} is not a whole number"
                              f" of {stride}-byte descriptors into the __dyndbg array")
    if place[1] + size > len(img.section_data(place[0])):
        raise OracleError("the __dyndbg array runs past its section")
    return place, size, stride


def descriptor_places(elf, img):
    """The place of every dynamic debug descriptor, in array order."""
    array = descriptor_array(elf, img)
    if array is None:
        return []
    (sec, base), size, stride = array
    return [(sec, at) for at in range(base, base + size, stride)]


def descriptor_site(img, place):
    """(file, line) of the descriptor at place."""
    sec, at = place
    word, = struct.unpack_from("<I", img.section_data(sec), at + DD_LINE_WORD)
    return img.string(img.pointer((sec, at + DD_FILENAME))), word & 0x3ffff


def descriptors(elf, img):
    """The index entries that the dynamic debug descriptors stand for, in
    array order, those of print_kind 0 left out: level KERN_DEBUG, the
    kind's prefix as subsys_fmt_prefix, and as format the string that
    starts print_prefix_len bytes before the descriptor's format."""
    places = descriptor_places(elf, img)
    entries = []
    for n, (sec, at) in enumerate(places):
        word, = struct.unpack_from("<I", img.section_data(sec), at + DD_PRINT_WORD)
        prefix_len, kind = word & 0x3fff, word >> 14 & 3
        if kind == 0:
            continue
        fmt = img.pointer((sec, at + DD_FORMAT))
        if fmt is None:
            raise OracleError(f"descriptor {n}: print_kind {kind} without a format")
        if fmt[1] < prefix_len:
            raise OracleError(f"descriptor {n}: print_prefix_len {prefix_len}"
                              " reaches before its format's section")
        # pr_fmt() pastes string literals: the prefix cannot hold a NUL,
        # which would cut the printed string short of the format.
        if b"\0" in img.section_data(fmt[0])[fmt[1] - prefix_len:fmt[1]]:
            raise OracleError(f"descriptor {n}: a NUL in the print_prefix_len"
                              f" ({prefix_len}) bytes before its format")
        file, line = descriptor_site(img, (sec, at))
        entries.append(Entry(fmt=img.string((fmt[0], fmt[1] - prefix_len)),
                             func=img.string(img.pointer((sec, at + DD_FUNCTION))),
                             file=file, line=line, level=DD_LEVEL,
                             subsys_fmt_prefix=DD_PREFIX[kind]))
    return entries


def index_entries(elf, img):
    """The entries of the .printk_index section, in array order."""
    entries = []
    for sec, base in entry_places(elf, img):
        fields = {name: img.string(img.pointer((sec, base + o)))
                  for name, o in FIELD_OFFSETS.items()}
        line, = struct.unpack_from("<I", img.section_data(sec), base + LINE_OFFSET)
        entries.append(Entry(line=line, **fields))
    return entries


def read_entries(path):
    """What path's index holds, in the file's order: the entries of its
    .printk_index in array order, then those its dynamic debug descriptors
    stand for (descriptors()); [] without either."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        img = Image(elf)
        entries = index_entries(elf, img)
        # A vmlinux without .printk_index was built without the index: its
        # descriptors are dynamic debug's alone, and no file lists them.
        if elf["e_type"] == "ET_EXEC" and elf.get_section_by_name(".printk_index") is None:
            return entries
        return entries + descriptors(elf, img)


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


def descriptor_layout(path):
    """How the dynamic debug descriptors lie: "DESCRIPTORS STRIDE" ("0 0"
    without any).  A struct _ddebug is 40 bytes, 56 with the static key of
    CONFIG_JUMP_LABEL."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        array = descriptor_array(elf, Image(elf))
    if array is None:
        return "0 0"
    _, size, stride = array
    return f"{size // stride} {stride}"


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
    mode = argv[1] if argv[1:2] in (["--count"], ["--layout"], ["--descriptors"]) else None
    args = argv[2:] if mode else argv[1:]
    if len(args) != 1:
        sys.exit("usage: pi_oracle.py [--count|--layout|--descriptors] VMLINUX|MODULE.ko")
    try:
        if mode == "--layout":
            print(layout(args[0]))
            return
        if mode == "--descriptors":
            print(descriptor_layout(args[0]))
            return
        entries = read_entries(args[0])
    except (OracleError, ELFError, OSError) as e:
        sys.exit(f"pi_oracle: {args[0]}: {e}")
    if mode == "--count":
        # Every entry from a descriptor has a format (descriptors()).
        print(len(entries), sum(1 for e in entries if e.fmt is not None))
    else:
        sys.stdout.buffer.write(render(entries))


if __name__ == "__main__":
    main(sys.argv)
