// SPDX-License-Identifier: GPL-2.0
/*
 * Speed of "check": RULES rules (default 1,000) against a whole index.
 *
 *   bench_check INDEX [RULES]
 *
 * The rules are made from the index's own formats, deterministically (fixed
 * seed), the way people write them: a slice of a format's literal text,
 * conversions in it written as \d+, [0-9a-f]+ or .*, a word now and then
 * replaced by \w+ or .*, every tenth rule made stale by renaming a word.
 * Times rule compilation and the check of every rule against every format
 * on one core; prints rules/s and total seconds, and how many of the rules
 * made from a format found it as a strong match (must be all of them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "../checker.h"
#include "../index.h"
#include "../matcher.h"
#include "../source.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time of this process (user + system): what the goal is judged on,
 * since wall time on a shared host depends on what else runs there */
static double cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : 0;
}

static void quote(struct sbuf *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c >= 0x7f) {
			char b[8];

			snprintf(b, sizeof(b), "\\x%02x", c);
			sbuf_add(o, b, 4);
			continue;
		}
		if (strchr(".[]()*+?{}|^$\\", c))
			sbuf_addc(o, '\\');
		sbuf_addc(o, c);
	}
}

/* A rule from format f, or false if it has too little literal text. */
static bool make_rule(const struct fmt *f, bool stale, struct sbuf *o)
{
	uint32_t k, a, b, lit = 0;

	sbuf_reset(o);
	if (f->lit_nonspace < 12 || f->ntok == 0)
		return false;
	/* a window of tokens holding enough literal text */
	a = rnd(f->ntok);
	while (a > 0 && f->tok[a].kind != TK_LIT)
		a--;
	for (b = a; b < f->ntok && lit < 24; b++)
		if (f->tok[b].kind == TK_LIT)
			lit += f->tok[b].lit_len;
	if (lit < 12)
		return false;
	for (k = a; k < b; k++) {
		const struct fmt_tok *t = &f->tok[k];
		const char *s = f->lit + t->lit_off;
		size_t n = t->lit_len, i;

		switch (t->kind) {
		case TK_LIT:
			if (stale && n > 6) {
				/* rename: the rule still says the old word */
				quote(o, s, n / 2);
				sbuf_add(o, "Qz", 2);
				quote(o, s + n / 2, n - n / 2);
				stale = false;
				break;
			}
			i = rnd(8);
			if (i == 0 && n > 8) {
				quote(o, s, n / 2);
				sbuf_add(o, ".*", 2);
			} else if (i == 1 && n > 8) {
				/* the byte replaced must be one \w or \s matches */
				bool w = rx_is_word(s[n / 2]);

				quote(o, s, n / 2);
				sbuf_add(o, w ? "\\w*" : "\\s*", 3);
				if (!w && s[n / 2] != ' ' && s[n / 2] != '\t')
					quote(o, s + n / 2, 1);
				quote(o, s + n / 2 + 1, n - n / 2 - 1);
			} else {
				quote(o, s, n);
			}
			break;
		case TK_INT:
			if (t->width > 0 || t->width == W_STAR || (t->flags & (F_PLUS | F_SPACE)))
				sbuf_add(o, ".*", 2);
			else if (t->base == 10)
				sbuf_add(o, t->is_signed ? "-?\\d+" : "\\d+", t->is_signed ? 5 : 3);
			else
				sbuf_add(o, ".*", 2);
			break;
		default:
			sbuf_add(o, ".*", 2);
			break;
		}
	}
	return !stale;
}

int main(int argc, char **argv)
{
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct ck_set set;
	struct ck_rule *rules;
	struct ck_search *s;
	uint32_t *src, nrules = 1000, n = 0, i, fi;
	size_t strong = 0, weak = 0, found = 0, made_stale = 0, no_strong = 0;
	struct sbuf o = { 0 };
	double t0, t_build, t_compile, t_check, c0, c_all, c_check;

	if (argc < 2) {
		fprintf(stderr, "usage: %s INDEX [RULES]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		nrules = strtoul(argv[2], NULL, 0);
	pi_index_init(&idx);
	if (pi_load_source(&idx, argv[1], &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	c0 = cpu();
	t0 = now();
	matcher_build(&m, &idx);
	ck_set_init(&set, m.fmts, m.nfmt);
	t_build = now() - t0;

	rules = xcalloc(nrules, sizeof(*rules));
	src = xcalloc(nrules, sizeof(*src));
	t0 = now();
	while (n < nrules) {
		bool stale = n % 10 == 9;

		fi = rnd(m.nfmt);
		if (!make_rule(&m.fmts[fi], stale, &o))
			continue;
		if (ck_rule_init(&rules[n], o.p, o.len, RX_SEARCH, &err)) {
			fprintf(stderr, "generated rule /%s/: %s\n", o.p, err.msg);
			return 2;
		}
		src[n++] = stale ? UINT32_MAX : fi;
	}
	t_compile = now() - t0;

	s = ck_search_new();
	c_check = cpu();
	t0 = now();
	for (i = 0; i < n; i++) {
		size_t ns = 0;
		double tr = now();
		uint64_t p0 = ck_stat_products, s0 = ck_stat_nodes;

		ck_set_prepare(&set, &rules[i]);

		for (fi = 0; fi < m.nfmt; fi++) {
			struct ck_result res;

			ck_check_set(s, &rules[i], &set, fi, &res, NULL);
			if (res.v == CK_STRONG) {
				ns++;
				found += fi == src[i];
			}
			weak += res.v == CK_WEAK;
		}
		if (getenv("CK_SLOW") && now() - tr > 0.005)
			fprintf(stderr, "slow %.1f ms, %llu products, %llu states: rule K=%u %s\n",
				(now() - tr) * 1e3, (unsigned long long)(ck_stat_products - p0),
				(unsigned long long)(ck_stat_nodes - s0), rules[i].K, rules[i].pat);
		if (getenv("CK_MISS") && src[i] != UINT32_MAX) {
			struct ck_result res;

			ck_product(s, &rules[i], &set.cf[src[i]], &res, NULL);
			if (res.v != CK_STRONG)
				fprintf(stderr, "own format %s: /%s/ vs \"%s\"\n",
					res.v == CK_WEAK ? "weak" : "none", rules[i].pat,
					set.cf[src[i]].lit_exact);
		}
		strong += ns;
		if (!ns)
			no_strong++;
		made_stale += src[i] == UINT32_MAX;
	}
	t_check = now() - t0;
	c_all = cpu() - c0;
	c_check = cpu() - c_check;

	printf("index: %u entries, %u distinct formats, prepared in %.1f ms\n",
	       (unsigned)idx.n, m.nfmt, t_build * 1e3);
	printf("rules: %u (%zu made stale), compiled in %.1f ms\n", n, made_stale, t_compile * 1e3);
	printf("check: %.3f s (%.3f s CPU), %.0f rules/s; %zu strong, %zu weak pairs; %zu rules stale\n",
	       t_check, c_check, n / t_check, strong, weak, no_strong);
	printf("products: %llu run, %llu of them as bitset reachability, the others %.0f states each on average; %llu bound DPs\n",
	       (unsigned long long)ck_stat_products, (unsigned long long)ck_stat_bits,
	       ck_stat_products > ck_stat_bits ?
	       (double)ck_stat_nodes / (ck_stat_products - ck_stat_bits) : 0.0,
	       (unsigned long long)ck_stat_dp);
	printf("quality: %zu of %zu rules found their own format strong\n", found,
	       (size_t)(n - made_stale));
	printf("total: %.3f s wall, %.3f s CPU (index prepared, rules compiled, checked)\n",
	       t_build + t_compile + t_check, c_all);
	printf("goal: 1000 rules < 2 s CPU on one core: %s\n",
	       c_all < 2.0 * n / 1000 ? "met" : "NOT met");

	ck_search_free(s);
	for (i = 0; i < n; i++)
		ck_rule_free(&rules[i]);
	ck_set_free(&set);
	free(rules);
	free(src);
	sbuf_free(&o);
	matcher_free(&m);
	pi_index_free(&idx);
	return found == n - made_stale ? 0 : 1;
}
