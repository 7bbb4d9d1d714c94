// SPDX-License-Identifier: GPL-2.0
/*
 * The KERN_CONT search's view of the index (cover_impl.h), built once:
 * each file (and module) numbered, the continuation formats of each file,
 * the generic formats that can be a base, and which entry a piece names.
 */
#include <stdlib.h>
#include <string.h>

#include "cover_impl.h"

static uint64_t place_hash(const struct pi_entry *e)
{
	return fnv1a(fnv1a(FNV_OFFSET, e->file, strlen(e->file)), e->module, strlen(e->module));
}

/*
 * A number for each file (and module) of the index, once: file_of[] for
 * every entry (bases are the index's entries), and for each continuation
 * format the distinct files of its entries, so that a line's search
 * compares numbers, not paths.
 */
void cover_files_init(struct cover_search *cs, const struct pi_index *idx)
{
	const struct matcher *m = cs->cont;
	size_t cap, i, nslot;
	uint32_t *slot, k, e, j, nfiles = 0;
	const struct pi_entry **key;

	for (cap = 16; cap < 2 * idx->n + 2; cap *= 2)
		;
	slot = xcalloc(cap, sizeof(*slot));
	key = xcalloc(idx->n + 1, sizeof(*key));
	nslot = cap;
	cs->file_of = xcalloc(idx->n + 1, sizeof(*cs->file_of));
	for (i = 0; i < idx->n; i++) {
		const struct pi_entry *en = &idx->v[i];
		size_t s = place_hash(en) & (nslot - 1);

		/* slots hold id + 1: 0 is free */
		while (slot[s] && (strcmp(key[slot[s] - 1]->file, en->file) ||
				   strcmp(key[slot[s] - 1]->module, en->module)))
			s = (s + 1) & (nslot - 1);
		if (!slot[s]) {
			key[nfiles] = en;
			slot[s] = ++nfiles;
		}
		cs->file_of[i] = slot[s] - 1;
	}
	cs->nfiles = nfiles;
	cs->grp_stamp = xcalloc(nfiles + 1, sizeof(*cs->grp_stamp));
	cs->grp_local = xcalloc(nfiles + 1, sizeof(*cs->grp_local));
	/* the continuation entries are copies: found by their place again */
	cs->fmt_file_start = xcalloc(m->nfmt + 1, sizeof(*cs->fmt_file_start));
	cs->fmt_files = xcalloc(m->idx->n + 1, sizeof(*cs->fmt_files));
	cs->ent_file = xcalloc(m->idx->n + 1, sizeof(*cs->ent_file));
	for (k = 0, j = 0; k < m->nfmt; k++) {
		cs->fmt_file_start[k] = j;
		for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
			const struct pi_entry *en = &m->idx->v[m->ents[e]];
			size_t s = place_hash(en) & (nslot - 1);
			uint32_t f, d;

			while (slot[s] && (strcmp(key[slot[s] - 1]->file, en->file) ||
					   strcmp(key[slot[s] - 1]->module, en->module)))
				s = (s + 1) & (nslot - 1);
			cs->ent_file[e] = slot[s] ? slot[s] - 1 : UINT32_MAX;
			if (!slot[s])
				continue;	/* not a copy of an index entry */
			f = slot[s] - 1;
			for (d = cs->fmt_file_start[k]; d < j && cs->fmt_files[d] != f; d++)
				;
			if (d == j)
				cs->fmt_files[j++] = f;
		}
	}
	cs->fmt_file_start[m->nfmt] = j;
	free(slot);
	free(key);
}

/* The continuation formats of each file, ascending (file_fmts from
 * file_fmt_start[file]). */
static void file_formats(struct cover_search *cs)
{
	const struct matcher *m = cs->cont;
	uint32_t k, j, f;

	cs->file_fmt_start = xcalloc(cs->nfiles + 2, sizeof(*cs->file_fmt_start));
	for (j = 0; j < cs->fmt_file_start[m->nfmt]; j++)
		cs->file_fmt_start[cs->fmt_files[j] + 2]++;
	for (f = 0; f < cs->nfiles; f++)
		cs->file_fmt_start[f + 2] += cs->file_fmt_start[f + 1];
	cs->file_fmts = xcalloc(cs->fmt_file_start[m->nfmt] + 1, sizeof(*cs->file_fmts));
	for (k = 0; k < m->nfmt; k++)
		for (j = cs->fmt_file_start[k]; j < cs->fmt_file_start[k + 1]; j++)
			cs->file_fmts[cs->file_fmt_start[cs->fmt_files[j] + 1]++] = k;
}

/* Has file f a specific continuation format? */
static bool file_has_specific(const struct cover_search *cs, uint32_t f)
{
	uint32_t j;

	for (j = cs->file_fmt_start[f]; j < cs->file_fmt_start[f + 1]; j++)
		if (!cs->cont->fmts[cs->file_fmts[j]].generic)
			return true;
	return false;
}

/* The continuation formats of each file, and, per generic open format
 * of the index, its entries whose file has a specific one: what lets a
 * generic base in (generic_base()). After cover_files_init(). */
void cover_generic_bases_init(struct cover_search *cs)
{
	const struct matcher *all = cs->all;
	uint32_t k, e, f;

	file_formats(cs);
	cs->gen_start = xcalloc(all->nfmt + 1, sizeof(*cs->gen_start));
	for (k = 0; k < all->nfmt; k++) {
		cs->gen_start[k] = cs->ngen;
		if (!all->fmts[k].generic || !all->fmts[k].open_end)
			continue;
		for (e = all->ent_start[k]; e < all->ent_start[k + 1]; e++) {
			f = cs->file_of[all->ents[e]];
			if (!file_has_specific(cs, f))
				continue;
			cs->gen = xreallocarray(cs->gen, (cs->ngen + 1), sizeof(*cs->gen));
			cs->gen[cs->ngen++] = (struct gen_base){ &all->idx->v[all->ents[e]], f };
		}
	}
	cs->gen_start[all->nfmt] = cs->ngen;
	cs->lits_stamp = xcalloc(cs->nfiles + 1, sizeof(*cs->lits_stamp));
	cs->lits_ok = xcalloc(cs->nfiles + 1, sizeof(*cs->lits_ok));
}

/* How often each byte is in the index's literals: a byte few formats
 * print is one few lines have. */
static void literal_counts(const struct matcher *all, uint32_t count[256])
{
	uint32_t k, t, j;

	for (k = 0; k < all->nfmt; k++) {
		const struct fmt *f = &all->fmts[k];

		for (t = 0; t < f->ntok; t++)
			for (j = 0; f->tok[t].kind == TK_LIT && j < f->tok[t].lit_len; j++)
				count[(unsigned char)f->lit[f->tok[t].lit_off + j]]++;
	}
}

/*
 * Where cover_rows() finds a line's candidates without looking at every
 * continuation format: each format listed under one byte all its
 * renderings contain, the one the index's literals have least (a line
 * without that byte has no piece of it), or under 256 when it needs none
 * (each file's formats are file_fmts). Ascending, as the candidates are
 * listed. After cover_files_init().
 */
void cover_cands_init(struct cover_search *cs)
{
	const struct matcher *m = cs->cont;
	uint32_t count[256] = { 0 }, *key, k, c;

	literal_counts(cs->all, count);
	key = xcalloc(m->nfmt + 1, sizeof(*key));
	/* counted at [bucket + 2], then placed from [bucket + 1] on: the
	 * bucket ends up at [bucket], [bucket + 1] (as file_fmt_start) */
	cs->key_start = xcalloc(259, sizeof(*cs->key_start));
	for (k = 0; k < m->nfmt; k++) {
		key[k] = 256;
		for (c = 0; c < 256; c++)
			if (cls_has(m->fmts[k].need, c) && (key[k] == 256 || count[c] < count[key[k]]))
				key[k] = c;
		cs->key_start[key[k] + 2]++;
	}
	for (c = 0; c < 257; c++)
		cs->key_start[c + 2] += cs->key_start[c + 1];
	cs->key_fmts = xcalloc(m->nfmt + 1, sizeof(*cs->key_fmts));
	for (k = 0; k < m->nfmt; k++)
		cs->key_fmts[cs->key_start[key[k] + 1]++] = k;
	free(key);
	cs->cand_mark = xcalloc(m->nfmt / 64 + 1, sizeof(*cs->cand_mark));
}

/* 1 when one of format k's entries is in the base's function: pr_cont()
 * pieces come from the same code as their base. */
uint32_t cover_near_base(struct cover_search *cs, uint32_t k,
			 const struct pi_entry *base)
{
	const struct matcher *m = cs->cont;
	uint32_t e, file;

	if (!base)
		return 0;
	/* the file and module as their number first: most differ */
	file = cs->file_of[base - cs->all->idx->v];
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++)
		if (cs->ent_file[e] == file && !strcmp(m->idx->v[m->ents[e]].func, base->func))
			return 1;
	return 0;
}

/* A continuation piece's entry: from the file of the piece before it (prev)
 * if one is, then its module. */
const struct pi_entry *cover_pick_piece(const struct matcher *m, uint32_t k,
					const struct pi_entry *prev)
{
	const struct pi_entry *pick = NULL;
	uint32_t e;
	int rank = -1;

	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];
		bool same_mod = prev && !strcmp(ent->module, prev->module);
		int r = same_mod && !strcmp(ent->file, prev->file) ? 2 : same_mod;

		if (r > rank) {
			rank = r;
			pick = ent;
		}
	}
	return pick;
}
