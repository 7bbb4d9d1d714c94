#!/usr/bin/env python3
"""Unit tests for the KTAP parser: what counts, and every way a run that did
not finish must be a failure."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def counts(text, nested=False):
    s = ktap.parse(text, nested=nested)
    return s.passed, s.failed, s.skipped


def ncounts(text):
    """Counts of a document whose top-level results stand for scripts."""
    return counts(text, nested=True)


NESTED_OK = """KTAP version 1
1..2
    KTAP version 1
    1..3
    ok 1 first
    ok 2 second # SKIP not here
    ok 3 third
ok 1 t-one
    KTAP version 1
    1..1
    ok 1 only
ok 2 t-two
"""


class KtapTest(unittest.TestCase):
    def test_nested_leaves_are_counted(self):
        self.assertEqual(ncounts(NESTED_OK), (3, 0, 1))

    def test_flat(self):
        self.assertEqual(counts("KTAP version 1\n1..2\nok 1 a\nnot ok 2 b\n"), (1, 1, 0))

    def test_dash_separator_and_crlf(self):
        self.assertEqual(counts("KTAP version 1\r\n1..1\r\nok 1 - a\r\n"), (1, 0, 0))

    def test_empty_output_fails(self):
        p, f, _ = counts("")
        self.assertEqual(p, 0)
        self.assertGreaterEqual(f, 2)   # no version, no plan

    def test_missing_plan_fails(self):
        self.assertEqual(counts("KTAP version 1\nok 1 a\n"), (1, 1, 0))

    def test_missing_version_fails(self):
        # no version line at all, and a plan and result before one
        self.assertEqual(counts("1..1\nok 1 a\n"), (1, 2, 0))

    def test_fewer_results_than_planned_fails(self):
        self.assertEqual(counts("KTAP version 1\n1..3\nok 1 a\nok 2 b\n"), (2, 1, 0))

    def test_more_results_than_planned_fails(self):
        self.assertEqual(counts("KTAP version 1\n1..1\nok 1 a\nok 2 b\n"), (2, 1, 0))

    def test_nested_group_short_of_its_plan_fails(self):
        text = NESTED_OK.replace("    ok 3 third\n", "")
        self.assertEqual(ncounts(text), (2, 1, 1))

    def test_unclosed_nested_group_fails(self):
        # The guest died inside the second script: its results are never
        # closed by a parent line and the top-level plan is short.
        text = NESTED_OK.split("ok 2 t-two")[0]
        self.assertEqual(ncounts(text), (3, 2, 1))

    def test_failing_parent_with_passing_leaves_counts_once(self):
        text = NESTED_OK.replace("ok 2 t-two", "not ok 2 t-two # exit status 2")
        self.assertEqual(ncounts(text), (3, 1, 1))

    def test_failing_leaf_and_parent_count_once(self):
        text = NESTED_OK.replace("    ok 1 only", "    not ok 1 only").replace(
            "ok 2 t-two", "not ok 2 t-two")
        self.assertEqual(ncounts(text), (2, 1, 1))

    def test_out_of_order_numbers_fail(self):
        self.assertEqual(counts("KTAP version 1\n1..2\nok 2 a\nok 1 b\n"), (2, 2, 0))

    def test_results_before_the_version_line_fail(self):
        s = ktap.parse("ok 1 a\nKTAP version 1\n1..1\nok 1 b\n", "v", nested=False)
        self.assertIn("v: results at depth 0 before a KTAP version line", s.failures)
        # nested: a script's results without its own version line
        text = NESTED_OK.replace("    KTAP version 1\n    1..1\n", "    1..1\n")
        self.assertEqual(ncounts(text), (3, 1, 1))

    def test_version_line_after_results_fails(self):
        text = NESTED_OK.replace("    ok 2 second # SKIP not here\n",
                                 "    ok 2 second # SKIP not here\n    KTAP version 1\n")
        self.assertGreaterEqual(ncounts(text)[1], 1)

    def test_script_without_nested_document_fails(self):
        # run-all's result for a script that printed nothing
        text = "KTAP version 1\n1..2\nok 1 t-empty\n    KTAP version 1\n    1..1\n    ok 1 x\nok 2 t-x\n"
        s = ktap.parse(text, "v", nested=True)
        self.assertEqual((s.passed, s.failed), (1, 1))
        self.assertEqual(s.failures, ["v: t-empty: no nested KTAP document (the script printed nothing)"])
        # the same document is fine where top-level results are leaves
        self.assertEqual(counts(text), (2, 0, 0))

    def test_free_text_and_comments_are_ignored(self):
        text = "KTAP version 1\n1..1\n# diag\nsome output\nok 1 a\n"
        self.assertEqual(counts(text), (1, 0, 0))

    def test_failure_names_the_path(self):
        s = ktap.parse(NESTED_OK.replace("    ok 1 first", "    not ok 1 first"), "v", nested=True)
        self.assertEqual(s.failures, ["v: not ok: t-one / first"])

    def test_cli_exit_status_and_summary(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write("KTAP version 1\n1..1\nnot ok 1 a\n")
        try:
            r = subprocess.run([sys.executable, os.path.join(HERE, "ktap.py"), "--flat", "--name", "x", f.name],
                               capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.splitlines()[-1], "ktap: x: 0 passed, 1 failed, 0 skipped")

    def test_cli_missing_file_fails(self):
        r = subprocess.run([sys.executable, os.path.join(HERE, "ktap.py"), "/nonexistent/x"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)


class SplatCheckTest(unittest.TestCase):
    def run_check(self, content, *options):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(content)
        try:
            return subprocess.run([os.path.join(HERE, "splat-check.sh"), *options, f.name],
                                  capture_output=True, text=True).returncode
        finally:
            os.unlink(f.name)

    def test_clean_log(self):
        self.assertEqual(self.run_check("Linux version 6.1\r\nRun /init as init process\r\n"), 0)

    # One report line per pattern of splat-check.sh, in the words the
    # kernel's detectors print them (6.1's lib/, mm/, kernel/ sources).
    REPORTS = {
        "WARNING:": "WARNING: CPU: 0 PID: 1 at kernel/printk/index.c:10 pi_show+0x1/0x2",
        "BUG:": "BUG: sleeping function called from invalid context at mm/slab.h:723",
        "Oops": "Oops: 0000 [#1] PREEMPT SMP NOPTI",
        "Call Trace:": " Call Trace:",
        "general protection fault": "general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP",
        "Kernel panic": "Kernel panic - not syncing: Fatal exception",
        "KASAN": "KASAN: maybe wild-memory-access in range [0x0003088000000000-0x0003088000000007]",
        "UBSAN": "UBSAN: shift-out-of-bounds in kernel/printk/index.c:42:7",
        "kmemleak: .*new suspected memory leak": "kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)",
        "unreferenced object 0x": "unreferenced object 0xffff888003a1c000 (size 64):",
        "INFO: possible": "INFO: possible recursive locking detected",
        "INFO: task .* blocked for more than": "INFO: task insmod:91 blocked for more than 120 seconds.",
        "ODEBUG:": "ODEBUG: free active (active state 0) object type: timer_list hint: 0x0",
        "list_(add|del) corruption": "list_del corruption. prev->next should be ffff888003a1c000, but was dead000000000122",
        "refcount_t: ": "refcount_t: underflow; use-after-free.",
        "kobject: .* is not initialized": "kobject: 'pi_sample' (00000000a1b2c3d4): is not initialized, yet kobject_put() is being called.",
        "sysfs: cannot create duplicate filename": "sysfs: cannot create duplicate filename '/kernel/printk_index/x'",
        "rcu: INFO: .*detected stalls": "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
    }

    @staticmethod
    def script_patterns():
        """The patterns splat-check.sh greps for, read from the script."""
        with open(os.path.join(HERE, "splat-check.sh")) as f:
            text = f.read()
        block = text.split("patterns=(", 1)[1].split("\n)", 1)[0]
        return re.findall(r"^\s*'([^']*)'", block, re.M)

    def test_every_pattern_has_a_report_line_that_fails(self):
        patterns = self.script_patterns()
        self.assertEqual(len(patterns), 18)
        self.assertEqual(sorted(patterns), sorted(self.REPORTS))
        for pattern in patterns:
            line = self.REPORTS[pattern]
            with self.subTest(pattern=pattern):
                # the line is this pattern's own (not caught by another only)
                self.assertTrue(any(re.search(pattern, part) for part in line.split("\r\n")))
                self.assertEqual(self.run_check("ok\r\n" + line + "\r\n"), 1)

    def test_each_report_kind_fails(self):
        for line in ["WARNING: CPU: 0 PID: 1 at kernel/printk/index.c:10 pi_show+0x1/0x2",
                     "BUG: KASAN: use-after-free in pi_read",
                     "Oops: 0000 [#1] SMP",
                     "Call Trace:",
                     "kmemleak: 2 new suspected memory leaks",
                     "unreferenced object 0xffff888003a1c000 (size 64):",
                     "WARNING: possible circular locking dependency detected",
                     "BUG: sleeping function called from invalid context",
                     "ODEBUG: free active (active state 0) object type: timer_list",
                     "refcount_t: underflow; use-after-free.",
                     "sysfs: cannot create duplicate filename '/kernel/printk_index/x'",
                     "Kernel panic - not syncing: Fatal exception"]:
            with self.subTest(line=line):
                self.assertEqual(self.run_check("ok\r\n" + line + "\r\n"), 1)

    def test_fault_injection_window_lets_only_stack_dumps_through(self):
        begin = "printk_index_test: fault injection begins\r\n"
        end = "printk_index_test: fault injection ends\r\n"
        dump = "insmod: page allocation failure: order:0\r\nCall Trace:\r\n"
        self.assertEqual(self.run_check(begin + dump + end), 0)
        self.assertEqual(self.run_check(begin + "WARNING: CPU: 1 at x\r\n" + end), 1)
        self.assertEqual(self.run_check(begin + "BUG: KASAN: slab-out-of-bounds\r\n" + end), 1)
        self.assertEqual(self.run_check(begin + end + dump), 1)
        self.assertEqual(self.run_check(dump + begin + end), 1)

    def test_expected_reports_only_inside_their_brackets(self):
        warn = ["--expect", "warn=WARNING: CPU: "]
        begin = "[    5.1] pi_provoke: begin warn\r\n"
        end = "[    5.3] pi_provoke: end warn\r\n"
        report = "WARNING: CPU: 0 PID: 91 at pi_provoke.c:80 pi_provoke_init+0x1d/0x1000 [pi_provoke]\r\nCall Trace:\r\n"
        self.assertEqual(self.run_check(begin + report + end, *warn), 0)
        # the same log without --expect: a test run, which fails
        self.assertEqual(self.run_check(begin + report + end), 1)
        # outside the bracket, or in one of another kind, it still fails
        self.assertEqual(self.run_check(begin + end + report, *warn), 1)
        other = "pi_provoke: begin oom\r\n" + report + "pi_provoke: end oom\r\n"
        self.assertEqual(self.run_check(other + begin + report + end, *warn), 1)
        # a bracket without its report, a missing end, a missing bracket
        self.assertEqual(self.run_check(begin + "Call Trace:\r\n" + end, *warn), 1)
        self.assertEqual(self.run_check(begin + report, *warn), 1)
        self.assertEqual(self.run_check("ok\r\n", *warn), 1)
        # two kinds, each in its bracket
        hang = ["--expect", "hang=INFO: task .* blocked for more than"]
        hung = ("pi_provoke: begin hang\r\nINFO: task pi_provoke_hang:95 blocked for more than 2 seconds.\r\n"
                "Call Trace:\r\npi_provoke: end hang\r\n")
        self.assertEqual(self.run_check(begin + report + end + hung, *warn, *hang), 0)
        self.assertEqual(self.run_check(begin + report + end + hung, *warn), 1)
        self.assertEqual(self.run_check("ok\r\n", "--expect", "nokind"), 2)

    def test_expected_bracket_lets_through_only_its_report(self):
        warn = ["--expect", "warn=WARNING: CPU: .* pi_provoke"]
        report = "WARNING: CPU: 0 PID: 91 at pi_provoke.c:80 pi_provoke_init+0x1d/0x1000 [pi_provoke]\r\nCall Trace:\r\n"
        begin, end = "pi_provoke: begin warn\r\n", "pi_provoke: end warn\r\n"
        self.assertEqual(self.run_check(begin + report + end, *warn), 0)
        # another report inside the bracket is a failure, as anywhere
        for other in ["BUG: kernel NULL pointer dereference, address: 0000000000000000",
                      "Kernel panic - not syncing: Fatal exception",
                      "INFO: task rmmod:77 blocked for more than 2 seconds."]:
            with self.subTest(other=other):
                self.assertEqual(self.run_check(begin + report + other + "\r\n" + end, *warn), 1)
        # a bracket begun inside another
        oom = ["--expect", "oom=invoked oom-killer"]
        nested = begin + "pi_provoke: begin oom\r\ndd invoked oom-killer: gfp_mask=0x0\r\n" + \
            "pi_provoke: end oom\r\n" + report + end
        self.assertEqual(self.run_check(nested, *warn, *oom), 1)
        # a regex with backslashes reaches awk as written
        bracket = ["--expect", "warn=\\[pi_provoke\\]$"]
        self.assertEqual(self.run_check(begin + report + end, *bracket), 0)

    def test_unreadable_or_empty_log_fails_closed(self):
        self.assertEqual(self.run_check(""), 2)
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([os.path.join(HERE, "splat-check.sh"), d], capture_output=True)
            self.assertEqual(r.returncode, 2)
        r = subprocess.run([os.path.join(HERE, "splat-check.sh"), "/nonexistent/log"],
                           capture_output=True)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
