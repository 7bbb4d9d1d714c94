// SPDX-License-Identifier: GPL-2.0
/* The binary: exit codes, messages, output shapes. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../index.h"
#include "test.h"

static char dir[] = "/tmp/printk-index-test.XXXXXX";
static char out[4096];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/*
 * Run "printk-index ARGS" in the temp dir, its input piped from the shell
 * command FROM when there is one; stdout+stderr go to out.
 */
static int run_from(const char *from, const char *args)
{
	char cmd[1024], path[300];
	FILE *f;
	size_t n;
	int st;

	snprintf(path, sizeof(path), "%s/out", dir);
	snprintf(cmd, sizeof(cmd), "cd %s && %s%s%s%s %s >out 2>&1", dir,
		 from ? from : "", from ? " | " : "",
		 t_binary[0] == '/' ? "" : "\"$OLDPWD\"/", t_binary, args);
	st = system(cmd);
	f = fopen(path, "r");
	n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = '\0';
	if (f)
		fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(const char *args)
{
	return run_from(NULL, args);
}

void test_cli(void)
{
	char cwd[512], cmd[4096];

	if (!mkdtemp(dir) || !getcwd(cwd, sizeof(cwd))) {
		T_FAIL("no temp dir");
		return;
	}
	setenv("OLDPWD", cwd, 1);

	put("old", PI_HEADER "\n"
	    "<3> a.c:10 f \"gone %d\\n\"\n"
	    "<4> a.c:20 g \"stays\\n\"\n"
	    "<6> b.c:30 h \"old text\\n\"\n");
	put("moved", PI_HEADER "\n"
	    "<3> a.c:11 f \"gone %d\\n\"\n"
	    "<4> a.c:21 g \"stays\\n\"\n"
	    "<6> b.c:31 h \"old text\\n\"\n");
	put("new", PI_HEADER "\n"
	    "<4> a.c:22 g \"stays\\n\"\n"
	    "<6> b.c:30 h \"new text\\n\"\n"
	    "<6> c.c:1 k \"brand new\\n\"\n");
	put("added", PI_HEADER "\n"
	    "<3> a.c:10 f \"gone %d\\n\"\n"
	    "<4> a.c:20 g \"stays\\n\"\n"
	    "<6> b.c:30 h \"old text\\n\"\n"
	    "<6> c.c:1 k \"brand new\\n\"\n");
	put("bad", PI_HEADER "\n<3> a.c:10 f \"ok\\n\"\n<3> a.c:10 f \"bro\\ken\\n\"\n");
	put("trunc", PI_HEADER "\n<3> a.c:10 f \"cut");
	put("log", "[    1.000000] gone 42\n<4>[    1.1] stays\nrandom words\n 6,1,2,-;x\n"
	    " SUBSYSTEM=pci\n\n");

	/* list */
	CHECK_INT(run("list old"), 0);
	CHECK_HAS(out, "<4> a.c:20 g \"stays\\n\"");
	CHECK_INT(run("list old new"), 0);
	CHECK_HAS(out, PI_HEADER_COMBINED "\nold <3> a.c:10 f");
	CHECK_HAS(out, "new <6> c.c:1 k \"brand new\\n\"");
	CHECK_INT(run("list -j old"), 0);
	CHECK_HAS(out, "[{\"module\":\"old\",\"level\":3,\"cont\":false,\"file\":\"a.c\",\"line\":10,\"function\":\"f\",\"format\":\"gone %d\\n\"}");
	CHECK_INT(run("list bad"), 2);
	CHECK_HAS(out, "printk-index: bad:3: column 18: unknown escape '\\k'");
	CHECK_INT(run("list trunc"), 2);
	CHECK_HAS(out, "printk-index: trunc:2: truncated line");
	CHECK_INT(run("list nonexistent"), 2);
	CHECK_HAS(out, "printk-index: nonexistent: No such file or directory");
	CHECK_INT(run("list /dev/null"), 2);
	CHECK_HAS(out, "missing header (empty file)");
	/*
	 * A pipe, a FIFO: the input is sniffed (ELF or text) without losing
	 * what was read, and several such inputs are read one after another.
	 */
	CHECK_INT(run_from("cat old", "list /dev/stdin"), 0);
	CHECK_HAS(out, PI_HEADER "\n<3> a.c:10 f \"gone %d\\n\"\n");
	snprintf(cmd, sizeof(cmd), "cd %s && mkfifo fifo && (timeout 20 cat old > fifo &)", dir);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(run_from("cat added", "list fifo /dev/stdin"), 0);
	CHECK_HAS(out, "fifo <3> a.c:10 f \"gone %d\\n\"\n");
	CHECK_HAS(out, "stdin <6> c.c:1 k \"brand new\\n\"\n");
	CHECK_INT(run_from("cat \"$OLDPWD\"/fuzz/seeds/fuzz_elf/dyndbg.elf", "list /dev/stdin"), 0);
	CHECK_HAS(out, "<6> dd.c:102 dd_init \"sub: entry two\\n\"\n");
	/* extract -o: two objects of one module name would share a file */
	CHECK_INT(run("extract -o dup \"$OLDPWD\"/fuzz/seeds/fuzz_elf/pi_sample.elf "
		      "\"$OLDPWD\"/fuzz/seeds/fuzz_elf/dyndbg.elf \"$OLDPWD\"/fuzz/seeds/fuzz_elf/pi_sample.elf"), 2);
	CHECK_HAS(out, "pi_sample.elf are both module 'pi_sample', which -o writes to one file\n");
	CHECK_INT(run("list dup"), 2);	/* nothing written */
	CHECK_INT(run_from("true", "list /dev/stdin"), 2);
	CHECK_HAS(out, "/dev/stdin:1: missing header (empty file)");
	CHECK_INT(run_from("cat old", "diff /dev/stdin moved"), 0);
	CHECK_HAS(out, "3 moved");
	CHECK_INT(run_from("cat old", "match --index /dev/stdin log"), 0);
	CHECK_HAS(out, "1 attributed stdin a.c:10 f +0");
	CHECK_INT(run("frobnicate"), 2);
	CHECK_HAS(out, "unknown or ambiguous command 'frobnicate'");
	CHECK_INT(run(""), 2);
	CHECK_INT(run("li old"), 0);	/* unambiguous prefix */
	CHECK_INT(run("list --bogus old"), 2);

	/* diff: exit 1 only when something was removed or changed */
	CHECK_INT(run("diff old old"), 0);
	CHECK_HAS(out, "0 removed, 0 added, 0 changed, 0 moved, 3 unchanged");
	CHECK_INT(run("diff old moved"), 0);
	CHECK_HAS(out, "3 moved");
	CHECK_INT(run("diff -v old moved"), 0);
	CHECK_HAS(out, "moved    old a.c:10 -> 11 f \"gone %d\\n\"");
	CHECK_INT(run("diff old added"), 0);
	CHECK_HAS(out, "added    added <6> c.c:1 k \"brand new\\n\"");
	CHECK_INT(run("diff old new"), 1);
	CHECK_HAS(out, "removed  old <3> a.c:10 f \"gone %d\\n\"");
	CHECK_HAS(out, "changed  old b.c:30 h\n         - <6> \"old text\\n\"\n         + <6> \"new text\\n\"");
	CHECK_HAS(out, "1 removed, 1 added, 1 changed, 1 moved, 1 unchanged");
	CHECK_INT(run("diff -j old new"), 1);
	CHECK_HAS(out, "\"summary\":{\"removed\":1,\"added\":1,\"changed\":1,\"moved\":1,\"unchanged\":1}");
	CHECK_INT(run("diff old"), 2);
	CHECK_INT(run("diff old bad"), 2);
	CHECK_HAS(out, "bad:3:");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/d1 %s/d2 && cp %s/old %s/d1/vmlinux && cp %s/new %s/d2/vmlinux",
		 dir, dir, dir, dir, dir, dir);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(run("diff d1 d2"), 1);
	CHECK_HAS(out, "removed  vmlinux <3> a.c:10 f");

	/* match */
	CHECK_INT(run("match --index old log"), 0);
	CHECK_HAS(out, "1 attributed old a.c:10 f +0\n");
	CHECK_HAS(out, "2 attributed old a.c:20 g +0\n");
	CHECK_HAS(out, "3 unattributed - - - +0\n");
	CHECK_HAS(out, "4 unattributed - - - +0\n");
	CHECK_HAS(out, "4 lines: 2 attributed, 0 generic-only, 2 unattributed (2 skipped)");
	/* " 6,1,2,-;x": a kmsg record, its leading blank tolerated */
	CHECK_HAS(out, "printk-index: 1 line fits no log shape and no format with literal text prints it: 3 (--format NAME forces a shape)\n");
	CHECK_INT(run("match -j --index old log"), 0);
	CHECK_HAS(out, "{\"lineno\":1,\"input\":\"dmesg\",\"shaped\":true,\"level\":null,\"message\":\"gone 42\",\"status\":\"attributed\",\"class\":\"attributed\",\"prefix\":false,\"others\":0,\"entry\":{\"module\":\"old\"");
	CHECK_HAS(out, "{\"lineno\":3,\"input\":\"raw\",\"shaped\":false,");
	CHECK_HAS(out, "{\"summary\":{\"lines\":4,\"attributed\":2,\"generic_only\":0,\"unattributed\":2,\"catch_all_only\":0,\"skipped\":2,"
		  "\"shapes\":{\"raw\":1,\"dmesg\":1,\"dmesg-r\":1,\"kmsg\":1},\"no_shape\":1,\"binary\":0,\"no_shape_lines\":[3]}}]");
	/* more than half of the lines fit no shape: every line is still
	 * answered, and the exit status says it */
	put("mostly", "x 1.0 gone 42\n[    1.0] gone 1\nrandom words\n");
	CHECK_INT(run("match --index old mostly"), 2);
	CHECK_HAS(out, "1 unattributed - - - +0\n2 attributed old a.c:10 f +0\n3 unattributed - - - +0\n");
	CHECK_HAS(out, "printk-index: 2 lines fit no log shape and no format with literal text prints them: 1, 3 (");
	/* --format: forced shapes; CRLF line ends */
	put("crlf", "Dec 05 13:10:02 host kernel: gone 7\r\n[    1.0] stays\r\n");
	CHECK_INT(run("match --index old crlf"), 0);
	CHECK_HAS(out, "1 attributed old a.c:10 f +0\n2 attributed old a.c:20 g +0\n");
	CHECK_INT(run("match --index old --format journal crlf"), 0);
	CHECK_HAS(out, "1 attributed old a.c:10 f +0\n2 unattributed - - - +0\n");
	CHECK_HAS(out, "1 line fits no log shape and no format with literal text prints it: 2 (");
	CHECK_INT(run("match --index old --format raw log"), 0);
	CHECK_HAS(out, "1 unattributed - - - +0\n");
	CHECK(!strstr(out, "no log shape"));
	/* classes: a line only catch-all formats (no literal text but
	 * blanks) print is unattributed, its candidates shown with -v */
	put("classes", PI_HEADER "\n"
	    "<6> a.c:1 f \"gone %d\\n\"\n"
	    "<-1> b.c:2 any \"%s\\n\"\n"
	    "<4> c.c:3 ind \"    %s\\n\"\n"
	    "<6> d.c:4 gen \"%s: %d\\n\"\n");
	put("clog", "[    1.0] gone 3\n[    1.1] disk: 5\n[    1.2] hello world\n"
	    "[    1.3]     indented\nRandom English sentence\n");
	CHECK_INT(run("match --index classes clog"), 0);
	CHECK_STR(out, "1 attributed classes a.c:1 f +0\n"
		  "2 generic classes d.c:4 gen +0\n"
		  "3 unattributed - - - +0\n"
		  "4 unattributed - - - +0\n"
		  "5 unattributed - - - +0\n"
		  "printk-index: 5 lines: 1 attributed, 1 generic-only, 3 unattributed (3 of them printed by catch-all formats only) (0 skipped)\n"
		  "printk-index: 1 line fits no log shape and no format with literal text prints it: 5 (--format NAME forces a shape)\n");
	CHECK_INT(run("match -v --index classes clog"), 0);
	CHECK_HAS(out, "3 unattributed - - - +0\n"
		  "    dmesg level -1: \"hello world\"\n"
		  "    only catch-all formats print it (1 entries), e.g. classes b.c:2 any <-1> \"%s\\n\"\n");
	CHECK_HAS(out, "4 unattributed - - - +0\n"
		  "    dmesg level -1: \"    indented\"\n"
		  "    only catch-all formats print it (2 entries), e.g. classes c.c:3 ind <4> \"    %s\\n\"\n");
	CHECK_INT(run("match -j --index classes clog"), 0);
	CHECK_HAS(out, "{\"lineno\":2,\"input\":\"dmesg\",\"shaped\":true,\"level\":null,\"message\":\"disk: 5\",\"status\":\"generic\",\"class\":\"generic\",\"prefix\":false,\"others\":0,\"entry\":{\"module\":\"classes\"");
	CHECK_HAS(out, "{\"lineno\":3,\"input\":\"dmesg\",\"shaped\":true,\"level\":null,\"message\":\"hello world\",\"status\":\"unattributed\",\"class\":\"catch-all\",\"prefix\":false,\"others\":0,\"entry\":null}");
	CHECK_HAS(out, "{\"lineno\":5,\"input\":\"raw\",\"shaped\":false,\"level\":null,\"message\":\"Random English sentence\",\"status\":\"unattributed\",\"class\":\"catch-all\",");
	CHECK_HAS(out, "\"unattributed\":3,\"catch_all_only\":3,");
	CHECK_INT(run("match -j -v --index classes clog"), 0);
	CHECK_HAS(out, "\"entry\":null,\"candidates\":2,\"candidate\":{\"module\":\"classes\",\"level\":4,\"cont\":false,\"file\":\"c.c\",\"line\":3,\"function\":\"ind\",\"format\":\"    %s\\n\"}}");
	/* bad input: a folder as LOG is the error alone */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sub %s/idx && cp %s/old %s/idx/vmlinux && "
		 "echo '# notes' > %s/idx/README.md", dir, dir, dir, dir, dir);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(run("match --index old sub"), 2);
	CHECK_STR(out, "printk-index: sub: Is a directory\n");
	/* --index DIR: a file without an index header is skipped, said */
	CHECK_INT(run("match --index idx log"), 0);
	CHECK_HAS(out, "printk-index: note: idx/README.md: not an index file (no index header), skipped\n");
	CHECK_HAS(out, "1 attributed vmlinux a.c:10 f +0\n");
	/* binary input: counted, warned about; every line still answered */
	put("binary", "\x01\x02\x7f\n[    1.0] gone 4\nab\x03" "cd\n");
	CHECK_INT(run("match --index old binary"), 2);
	CHECK_HAS(out, "1 unattributed - - - +0\n2 attributed old a.c:10 f +0\n3 unattributed - - - +0\n");
	CHECK_HAS(out, "printk-index: warning: binary: 2 lines are not text (control bytes): binary input?\n");
	/* --help on every subcommand: its usage, exit 0 */
	CHECK_INT(run("list --help"), 0);
	CHECK_HAS(out, "Usage: printk-index list  [-j] [SOURCE...]\n");
	CHECK_INT(run("match -h"), 0);
	CHECK_HAS(out, "Usage: printk-index match [-j] [-v] [--format NAME] [--index SOURCE] [FILE|-]\n");
	CHECK_INT(run("match --follow --help"), 0);
	CHECK_HAS(out, "printk-index match --follow [--from-start]");
	CHECK_INT(run("diff --help"), 0);
	CHECK_HAS(out, "Usage: printk-index diff  [-j] [-v] OLD NEW\n");
	CHECK_INT(run("extract --help"), 0);
	CHECK_HAS(out, "Usage: printk-index extract [-j] [-o OUTDIR]");
	/* node-problem-detector JSON with an empty key and an empty pattern:
	 * read, not a crash (both were NULL pointers in strcmp()/memcpy()) */
	put("npd.json", "{\"rules\":[{\"\": 1, \"pattern\": \"gone\"}, {\"pattern\": \"\"}]}");
	CHECK_INT(run("check --index old npd.json"), 1);
	CHECK_HAS(out, "printk-index: 2 rules: 0 live, 0 live-by-arguments, 0 unknown, 2 stale\n");
	CHECK_INT(run("check --help"), 0);
	CHECK_HAS(out, "Usage: printk-index check [-j] [-v] [--strict] [--anchored]");
	/* a real serial console log (CRLF, no time stamps) of the test
	 * guest, against the index of the kernel that printed it */
	snprintf(cmd, sizeof(cmd), "%s%s%s match --index %s/tests/data/guest-default/vmlinux "
		 "%s/tests/data/guest-default/boot.console 2>%s/gsum | cmp - %s/tests/data/guest-default/boot.match",
		 t_binary[0] == '/' ? "" : cwd, t_binary[0] == '/' ? "" : "/", t_binary, cwd, cwd, dir, cwd);
	CHECK_INT(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "grep -qx 'printk-index: 103 lines: 88 attributed, 3 generic-only, "
		 "12 unattributed (12 of them printed by catch-all formats only) (0 skipped)' %s/gsum", dir);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(run("match --index old --format bogus log"), 2);
	CHECK_HAS(out, "unknown log format 'bogus'");
	{
		/* a reported line longer than print_line()'s stack buffer */
		char idx[1024], want[1024], fn[601];

		memset(fn, 'f', 600);
		fn[600] = '\0';
		snprintf(idx, sizeof(idx), PI_HEADER "\n<6> a.c:7 %s \"long one\\n\"\n", fn);
		put("long", idx);
		put("longlog", "long one\n");
		CHECK_INT(run("match --index long longlog"), 0);
		snprintf(want, sizeof(want), "1 attributed long a.c:7 %s +0\n", fn);
		CHECK_HAS(out, want);
	}
	CHECK_INT(run("match --index old < log"), 0);
	CHECK_INT(run("match --index bad log"), 2);
	CHECK_INT(run("match --index old nolog"), 2);
	CHECK_HAS(out, "nolog: No such file or directory");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}
