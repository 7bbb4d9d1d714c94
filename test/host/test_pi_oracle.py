#!/usr/bin/python3
"""Unit tests for pi_oracle.py on small ELF files built here with gcc: an
object file (relocatable, like a .ko) and a linked executable (addresses,
like vmlinux) from one C file whose entries cover each rendering rule of
upstream pi_show().  The expected lines are written out by hand from those
rules, not produced by any of the readers under test."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pi_oracle  # noqa: E402
import pi_source_check  # noqa: E402

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "modules", "pi_sample")

# Entries in an explicit array, so that their order is the array's.
SOURCE = r'''
struct pi_entry {
	const char *fmt, *func, *file;
	unsigned int line;
	const char *level, *subsys_fmt_prefix;
} __attribute__((packed));

#ifndef ENTRY_ALIGN
#define ENTRY_ALIGN
#endif
#define E(name, ...) static const struct pi_entry name ENTRY_ALIGN = { __VA_ARGS__ }
E(e_level,  "\0016hello %d\n", "f1", "a.c", 10, 0, 0);
E(e_plain,  "no level", "f2", "a.c", 11, 0, 0);
E(e_cont,   "\001c more", "f3", "a.c", 12, 0, 0);
E(e_lcont,  "\001c\0014 cont at 4", "f4", "a.c", 13, 0, 0);
E(e_first,  "\0013\0015 first digit wins", "f5", "a.c", 14, 0, 0);
E(e_subsys, "dev %s\n", "f6", "b/c.c", 15, "\0013", "%s %s: ");
E(e_keep,   "\0016 kept when level is set", "f7", "a.c", 16, "\0012", 0);
E(e_nofmt,  0, "f8", "a.c", 17, 0, 0);
E(e_esc,    "q\"b\\ t\t a\a e\033 v\v f\f r\r hi\xe9\xff lo\x01\x7f~ \n", "f9", "a.c", 18, 0, 0);
E(e_bad,    "\0018 not a level, \001", "f10", "a.c", 19, 0, 0);
E(e_defcont, "x", "f11", "a.c", 4294967295u, "\001c", "pre\t");

__attribute__((used, section(".printk_index")))
static const struct pi_entry *index_[] = {
	&e_level, &e_plain, &e_cont, &e_lcont, &e_first, &e_subsys,
	&e_keep, &e_nofmt, &e_esc, &e_bad, &e_defcont,
};
'''

EXPECTED = (
    b'# <level/flags> filename:line function "format"\n'
    b'<6> a.c:10 f1 "hello %d\\n"\n'
    b'<-1> a.c:11 f2 "no level"\n'
    b'<c> a.c:12 f3 " more"\n'
    b'<4,c> a.c:13 f4 " cont at 4"\n'
    b'<3> a.c:14 f5 " first digit wins"\n'
    b'<3> b/c.c:15 f6 "%s %s: dev %s\\n"\n'
    b'<2> a.c:16 f7 "\\0016 kept when level is set"\n'
    b'<-1> a.c:18 f9 "q\\"b\\\\ t\\t a\\a e\\e v\\v f\\f r\\r hi\\351\\377 lo\\001\\177~ \\n"\n'
    b'<-1> a.c:19 f10 "\\0018 not a level, \\001"\n'
    b'<c> a.c:-1 f11 "pre\\tx"\n'
)


class OracleOnBuiltElf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        src = os.path.join(cls.dir.name, "idx.c")
        with open(src, "w") as f:
            f.write(SOURCE)
        cls.obj = os.path.join(cls.dir.name, "idx.o")
        cls.exe = os.path.join(cls.dir.name, "idx")
        subprocess.run(["gcc", "-O2", "-c", "-o", cls.obj, src], check=True)
        subprocess.run(["gcc", "-O2", "-no-pie", "-static", "-nostdlib",
                        "-Wl,--entry=0", "-o", cls.exe, src], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_relocatable(self):
        self.assertEqual(pi_oracle.render(pi_oracle.read_entries(self.obj)), EXPECTED)

    def test_linked(self):
        self.assertEqual(pi_oracle.render(pi_oracle.read_entries(self.exe)), EXPECTED)

    def test_count(self):
        out = subprocess.run([sys.executable, pi_oracle.__file__, "--count", self.obj],
                             check=True, capture_output=True).stdout
        self.assertEqual(out, b"11 10\n")

    # gcc -O2 on x86-64 places each 44-byte entry at a 32-byte boundary
    # (64 bytes apart); given an alignment of 4, side by side (44 apart).
    def test_layout_padded_by_the_compiler(self):
        self.assertEqual(pi_oracle.layout(self.obj), "11 11 64")
        self.assertEqual(pi_oracle.layout(self.exe), "11 11 64")

    def test_layout_side_by_side(self):
        src = os.path.join(self.dir.name, "idx.c")
        obj = os.path.join(self.dir.name, "idx4.o")
        subprocess.run(["gcc", "-O2", "-DENTRY_ALIGN=__attribute__((aligned(4)))",
                        "-c", "-o", obj, src], check=True)
        self.assertEqual(pi_oracle.layout(obj), "11 11 44")
        self.assertEqual(pi_oracle.render(pi_oracle.read_entries(obj)), EXPECTED)

    def test_no_index_is_header_only(self):
        src = os.path.join(self.dir.name, "none.c")
        with open(src, "w") as f:
            f.write("int x;\n")
        obj = os.path.join(self.dir.name, "none.o")
        subprocess.run(["gcc", "-c", "-o", obj, src], check=True)
        self.assertEqual(pi_oracle.render(pi_oracle.read_entries(obj)), pi_oracle.HEADER)


class Escape(unittest.TestCase):
    def test_every_byte(self):
        # Printable ASCII but '"' and '\\' as is; 0x80-0xff and the control
        # characters without a letter in octal.
        for c in range(1, 256):
            got = pi_oracle.escape(bytes([c]))
            if c in b'"\\':
                self.assertEqual(got, b"\\" + bytes([c]))
            elif 0x20 <= c < 0x7f:
                self.assertEqual(got, bytes([c]))
            elif c in b"\n\r\t\v\f\a\x1b":
                self.assertEqual(len(got), 2, c)
            else:
                self.assertEqual(got, b"\\" + oct(c)[2:].zfill(3).encode(), c)


class SourceTable(unittest.TestCase):
    """pi_source_check.py on pi_sample.c and its golden, without a kernel
    build: the golden as checked in passes, and each kind of damage fails."""

    def check(self, source_edit=None, golden_edit=None, dynamic_debug=False):
        with open(os.path.join(SAMPLE, "pi_sample.c"), "rb") as f:
            src = f.read()
        with open(os.path.join(SAMPLE, "pi_sample.golden"), "rb") as f:
            golden = f.read()
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, data, edit in (("pi_sample.c", src, source_edit), ("g", golden, golden_edit)):
                if edit:
                    self.assertIn(edit[0], data)
                    data = data.replace(edit[0], edit[1], 1)
                paths.append(os.path.join(d, name))
                with open(paths[-1], "wb") as f:
                    f.write(data)
            return pi_source_check.check(paths[0], paths[1:], dynamic_debug)

    def test_golden_agrees(self):
        self.assertTrue(self.check())

    def test_wrong_line_number(self):
        self.assertFalse(self.check(golden_edit=(b"pi_sample.c:44 ", b"pi_sample.c:45 ")))

    def test_wrong_level(self):
        self.assertFalse(self.check(golden_edit=(b"<5> pi_sample.c:46 ", b"<4> pi_sample.c:46 ")))

    def test_wrong_format(self):
        self.assertFalse(self.check(golden_edit=(b"\\351\\377", b"\\351\\376")))

    def test_long_format_one_short(self):
        self.assertFalse(self.check(source_edit=(b"{0123456789abcdef*320}", b"{0123456789abcdef*319}")))

    def test_line_dropped(self):
        self.assertFalse(self.check(golden_edit=(b"<c> pi_sample.c:55 pi_sample_continuation \" %d\"\n", b"")))

    def test_call_not_annotated(self):
        self.assertFalse(self.check(source_edit=(b'\t/* index: <1> pi_sample_levels "pi_sample: alert %d\\n" */', b"")))


    # The golden is of a kernel without dynamic debug: the netdev_dbg()
    # and netif_dbg() sites ("index: dyndbg") are not in it, and a kernel
    # with dynamic debug must have them.
    DYNDBG = (b'<5> pi_sample.c:46 ',
              b'<7> pi_sample.c:109 pi_sample_netdev "%s %s %s%s: netdev debug, compiled out\\n"\n'
              b'<7> pi_sample.c:110 pi_sample_netdev "%s %s %s%s: netif debug, compiled out\\n"\n'
              b'<5> pi_sample.c:46 ')

    def test_dynamic_debug_sites(self):
        self.assertTrue(self.check(golden_edit=self.DYNDBG, dynamic_debug=True))

    def test_dynamic_debug_sites_missing(self):
        self.assertFalse(self.check(dynamic_debug=True))

    def test_dynamic_debug_sites_without_dynamic_debug(self):
        self.assertFalse(self.check(golden_edit=self.DYNDBG))


if __name__ == "__main__":
    unittest.main()
