#!/usr/bin/python3
"""Unit tests for pi_oracle.py on small ELF files built here with gcc: an
object file (relocatable, like a .ko) and a linked executable (addresses,
like vmlinux) from one C file whose entries cover each rendering rule of
upstream pi_show(), and from one whose dynamic debug descriptors (struct
_ddebug in section __dyndbg) cover each print_kind.  The expected lines are
written out by hand from those rules, not produced by any of the readers
under test.  pi_count.py is checked on the same files."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pi_oracle  # noqa: E402
import pi_source_check  # noqa: E402

PI_COUNT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pi_count.py")
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


# Dynamic debug descriptors: struct _ddebug as the series lays it out, 40
# bytes, or 56 with the static key of CONFIG_JUMP_LABEL (-DKEY).  The
# printed string starts print_prefix_len bytes before .format, as pr_fmt()
# makes it ("mymod: " pasted before the format).  gcc keeps them in source
# order with -fno-toplevel-reorder, the order of the array, and side by
# side with aligned(8) on each (as the kernel's definition has it), not 32
# bytes apart.  lineno is
# 18 bits: class_id and flags are all ones, and must not leak into it.
DD_SOURCE = r"""
struct _ddebug {
	const char *modname, *function, *filename, *format;
	unsigned int lineno:18, class_id:6, flags:8;
	unsigned int print_prefix_len:14, print_kind:2;
#ifdef KEY
	struct { unsigned long enabled, entries; } key;
#endif
} __attribute__((aligned(8)));

#ifdef KEY
#define DD_KEY , .key = { 0x5555555555555555ul, 0xaaaaaaaaaaaaaaaaul }
#else
#define DD_KEY
#endif
#define D(name, fn, file, line, fmt, plen, kind) \
	static struct _ddebug name __attribute__((used, section("__dyndbg"), aligned(8))) = { \
		.modname = "mymod", .function = fn, .filename = file, .format = fmt, \
		.lineno = line, .class_id = 63, .flags = 0xff, \
		.print_prefix_len = plen, .print_kind = kind DD_KEY }
#define P16 "0123456789abcdef"
#define P320 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16 P16

D(d_kind0, "f_kind0", "dd.c", 10, "mymod: " "not indexed\n" + 7, 7, 0);
D(d_hex,   "f_hex",   "dd.c", 11, 0, 0, 0);
D(d_pr,    "f_pr",    "dd.c", 12, "mymod: " "hello %d\n" + 7, 7, 1);
D(d_plain, "f_plain", "dd.c", 13, "no prefix %s\n", 0, 1);
D(d_dev,   "f_dev",   "drivers/x.c", 14, "mymod: " "dev %s\n" + 7, 7, 2);
D(d_net,   "f_net",   "net/y.c", 15, "mymod: " "net %u\n" + 7, 7, 3);
D(d_esc,   "f_esc",   "dd.c", 262143, "esc\t\"\\: " "\0016 kept\xe9\x01\a\n" + 8, 8, 1);
D(d_long,  "f_long",  "dd.c", 17, P320 "long\n" + 320, 320, 2);

/* What a linked program needs for ld to define them (vmlinux has them). */
extern struct _ddebug __start___dyndbg[], __stop___dyndbg[];
__attribute__((used)) static struct _ddebug *bounds[] = { __start___dyndbg, __stop___dyndbg };
"""

DD_LINES = (
    b'<7> dd.c:12 f_pr "mymod: hello %d\\n"\n'
    b'<7> dd.c:13 f_plain "no prefix %s\\n"\n'
    b'<7> drivers/x.c:14 f_dev "%s %s: mymod: dev %s\\n"\n'
    b'<7> net/y.c:15 f_net "%s %s %s%s: mymod: net %u\\n"\n'
    b'<7> dd.c:262143 f_esc "esc\\t\\"\\\\: \\0016 kept\\351\\001\\a\\n"\n'
    b'<7> dd.c:17 f_long "%s %s: ' + b"0123456789abcdef" * 20 + b'long\\n"\n'
)


class Descriptors(unittest.TestCase):
    """The lines of dynamic debug descriptors, after those of the entries."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.built = {}

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def build(self, name, source, *flags, link=False):
        """name built from source with flags: an object file, or with link
        a linked executable."""
        src = os.path.join(self.dir.name, name + ".c")
        with open(src, "w") as f:
            f.write(source)
        out = os.path.join(self.dir.name, name)
        cmd = ["gcc", "-O2", "-fno-toplevel-reorder", *flags, "-o", out, src]
        if link:
            cmd[1:1] = ["-no-pie", "-static", "-nostdlib", "-Wl,--entry=0"]
        else:
            cmd.insert(1, "-c")
        subprocess.run(cmd, check=True)
        return out

    def render(self, path):
        return pi_oracle.render(pi_oracle.read_entries(path))

    def run_tool(self, tool, *args):
        return subprocess.run([sys.executable, tool, *args], capture_output=True)

    def counts(self, path):
        """(oracle --count, pi_count.py) of path, which must agree."""
        oracle = self.run_tool(pi_oracle.__file__, "--count", path)
        count = self.run_tool(PI_COUNT, path)
        self.assertEqual((oracle.returncode, count.returncode), (0, 0), (oracle.stderr, count.stderr))
        self.assertEqual(oracle.stdout, count.stdout)
        return oracle.stdout

    def stride(self, path):
        """The stride of path's descriptors, as --descriptors says, which
        must count DD_SOURCE's eight."""
        out = self.run_tool(pi_oracle.__file__, "--descriptors", path)
        self.assertEqual(out.returncode, 0, out.stderr)
        count, stride = map(int, out.stdout.split())
        self.assertEqual(count, 8)
        return stride

    def test_relocatable(self):
        obj = self.build("dd.o", DD_SOURCE)
        self.assertEqual(self.stride(obj), 40)
        self.assertEqual(self.render(obj), pi_oracle.HEADER + DD_LINES)
        self.assertEqual(self.counts(obj), b"6 6\n")

    def test_relocatable_with_key(self):
        obj = self.build("ddkey.o", DD_SOURCE, "-DKEY")
        self.assertEqual(self.stride(obj), 56)
        self.assertEqual(self.render(obj), pi_oracle.HEADER + DD_LINES)
        self.assertEqual(self.counts(obj), b"6 6\n")

    def test_linked(self):
        exe = self.build("dd", SOURCE + DD_SOURCE, link=True)
        self.assertEqual(self.stride(exe), 40)
        self.assertEqual(self.render(exe), EXPECTED + DD_LINES)
        self.assertEqual(self.counts(exe), b"17 16\n")

    # A vmlinux without .printk_index was built without the index: its
    # descriptors are dynamic debug's alone, and no file lists them.
    def test_linked_without_index(self):
        exe = self.build("ddkey", DD_SOURCE, "-DKEY", link=True)
        self.assertEqual(self.stride(exe), 56)
        self.assertEqual(self.render(exe), pi_oracle.HEADER)
        self.assertEqual(self.counts(exe), b"0 0\n")

    # The index file: header, entries in array order, then descriptors in
    # array order.  TOTAL counts the entries and the indexed descriptors;
    # WITH_LINE the lines after the header.
    def test_entries_then_descriptors(self):
        for name, link in (("both.o", False), ("both", True)):
            with self.subTest(name):
                path = self.build(name, SOURCE + DD_SOURCE, "-DKEY", link=link)
                out = self.render(path)
                self.assertEqual(out, EXPECTED + DD_LINES)
                self.assertEqual(self.counts(path), b"17 16\n")
                self.assertEqual(int(self.counts(path).split()[1]), out.count(b"\n") - 1)
                self.assertEqual(self.run_tool(pi_oracle.__file__, path).stdout, out)

    def test_only_kind_0(self):
        # Descriptors of a kernel or module from before the series: no lines.
        source = DD_SOURCE.replace(".print_kind = kind", ".print_kind = 0")
        for name, link in (("old.o", False), ("old", True)):
            with self.subTest(name):
                path = self.build(name, source, link=link)
                self.assertEqual(self.render(path), pi_oracle.HEADER)
                self.assertEqual(self.counts(path), b"0 0\n")

    def test_entries_counted_alone(self):
        for name, link in (("idx.o", False), ("idx", True)):
            with self.subTest(name):
                self.assertEqual(self.counts(self.build(name, SOURCE, link=link)), b"11 10\n")

    # Bad descriptor arrays: the oracle refuses them, and so does pi_count.py
    # where it reads what is wrong (it reads no pointer of a descriptor).
    STRUCTS = DD_SOURCE[:DD_SOURCE.index("#ifdef KEY\n#define DD_KEY")]

    def refused(self, name, body, by_count=True, link=False):
        path = self.build(name, self.STRUCTS + body, link=link)
        with self.assertRaises(pi_oracle.OracleError):
            pi_oracle.read_entries(path)
        oracle = self.run_tool(pi_oracle.__file__, path)
        self.assertNotEqual(oracle.returncode, 0)
        self.assertIn(b"pi_oracle: ", oracle.stderr)
        if by_count:
            count = self.run_tool(PI_COUNT, path)
            self.assertNotEqual(count.returncode, 0)
            self.assertIn(b"pi_count: ", count.stderr)

    ONE = ('__attribute__((used, section("__dyndbg"), aligned(8))) static struct _ddebug %s'
           ' = { .format = "x", .function = "f", .filename = "a.c", .print_kind = 1 };\n')
    ZEROS = 'asm(".pushsection __dyndbg, \\"aw\\"\\n .balign 8\\n .zero %d\\n .popsection");\n'

    # 40 + 40 + 80 bytes: a whole number of either size.
    def test_sizes_disagree(self):
        self.refused("sizes.o", self.ONE % "a" + self.ONE % "a2" +
                     'struct big { struct _ddebug d; char more[40]; } __attribute__((aligned(8)));\n'
                     '__attribute__((used, section("__dyndbg"), aligned(8))) static struct big b;\n')

    # Six 40-byte descriptors 64 bytes apart, as gcc lays them out without
    # aligned(8): 360 bytes, a whole number of 40-byte descriptors.
    def test_padded_apart(self):
        one = self.ONE.replace(', aligned(8)', '')
        self.refused("padded.o", "".join(one % n for n in "abcdef"))

    def test_no_descriptor_symbol(self):
        self.refused("nosym.o", self.ZEROS % 40)
        self.refused("nosym", SOURCE + self.ZEROS % 40
                     + "extern char __start___dyndbg[], __stop___dyndbg[];\n"
                     + "__attribute__((used)) static char *bounds[] = { __start___dyndbg, __stop___dyndbg };\n",
                     link=True)

    def test_not_a_multiple_of_the_stride(self):
        self.refused("partial.o", self.ONE % "a" + self.ZEROS % 8)

    def test_indexed_without_format(self):
        self.refused("nofmt.o", self.ONE.replace('"x"', "0") % "a", by_count=False)

    def test_nul_in_prefix(self):
        self.refused("nul.o", self.ONE.replace('"x"', '"pre\\0" "x" + 4, .print_prefix_len = 4') % "a",
                     by_count=False)


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
              b'<7> pi_sample.c:111 pi_sample_netdev "%s %s %s%s: netdev debug, compiled out\\n"\n'
              b'<7> pi_sample.c:112 pi_sample_netdev "%s %s %s%s: netif debug, compiled out\\n"\n'
              b'<5> pi_sample.c:46 ')

    def test_dynamic_debug_sites(self):
        self.assertTrue(self.check(golden_edit=self.DYNDBG, dynamic_debug=True))

    def test_dynamic_debug_sites_missing(self):
        self.assertFalse(self.check(dynamic_debug=True))

    def test_dynamic_debug_sites_without_dynamic_debug(self):
        self.assertFalse(self.check(golden_edit=self.DYNDBG))


if __name__ == "__main__":
    unittest.main()
