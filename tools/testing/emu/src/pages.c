// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware pages: the device asks for boot and init pages (QUERY_PAGES),
 * and at run time for more or fewer (PAGE_REQUEST events, events.c); the
 * driver gives them (MANAGE_PAGES GIVE) and takes them back (MANAGE_PAGES
 * TAKE).  The device keeps the addresses, checks each is a 4 KiB page of
 * guest memory it does not hold already, and never touches a page it was
 * not given.
 */
#include <errno.h>
#include <stdlib.h>

#include "cmd.h"
#include "log.h"

#define EMU_FILE_ID FILE_PAGES

void pages_reset(struct emu *e)
{
	e->hca.boot_pages = e->opt.boot_pages;
	e->hca.init_pages = e->opt.init_pages;
	e->hca.regular_pages = 0;
	e->hca.releasable = 0;
}

static bool holds(struct emu_hca *h, uint64_t addr)
{
	uint32_t i;

	for (i = 0; i < h->npages; i++)
		if (h->pages[i] == addr)
			return true;
	return false;
}

static int reserve(struct emu_hca *h, uint32_t more)
{
	uint32_t cap = h->pages_cap ? h->pages_cap : 64;
	uint64_t *p;

	if (h->npages + more <= h->pages_cap)
		return 0;
	while (cap < h->npages + more)
		cap *= 2;
	p = realloc(h->pages, cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	h->pages = p;
	h->pages_cap = cap;
	return 0;
}

static int check_function(struct cmd_ctx *c)
{
	if (PGET(c->in, MLX5X_PAGES_IN_EMBEDDED_CPU_FUNCTION) ||
	    PGET(c->in, MLX5X_PAGES_IN_FUNCTION_ID))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	return 0;
}

int h_query_pages(struct cmd_ctx *c)
{
	struct emu_hca *h = &c->e->hca;
	int64_t want;

	if (check_function(c))
		return c->status;
	switch (c->op_mod) {
	case MLX5X_PAGES_BOOT:
		want = (int64_t)h->boot_pages - h->npages;
		break;
	case MLX5X_PAGES_INIT:
		want = (int64_t)h->boot_pages + h->init_pages - h->npages;
		break;
	case MLX5X_PAGES_REGULAR:
		want = 0;
		break;
	default:
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
	if (want < 0)
		want = 0;
	PSET(c->out, MLX5X_QUERY_PAGES_OUT_FUNCTION_ID, 0);
	put_be32(c->out + MLX5X_QUERY_PAGES_OUT_NUM_PAGES_OFF, (uint32_t)want);
	cmd_detail(c, "num_pages=%lld", (long long)want);
	return 0;
}

static int give(struct cmd_ctx *c, uint32_t n)
{
	struct emu_hca *h = &c->e->hca;
	uint32_t i, j;

	if (n > (c->inlen - MLX5X_MANAGE_PAGES_IN_LEN) / MLX5X_PAS_LEN)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_INP_LEN);
	/* check the whole list before taking any page */
	for (i = 0; i < n; i++) {
		uint64_t a = get_be64(c->in + MLX5X_PAGES_IN_PAS_OFF +
				      i * MLX5X_PAS_LEN);

		if (a & (MLX5X_FW_PAGE_SIZE - 1) ||
		    !gm_check(&c->e->gm, a, MLX5X_FW_PAGE_SIZE,
			      GM_PROT_READ | GM_PROT_WRITE) || holds(h, a))
			return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
		for (j = 0; j < i; j++)
			if (get_be64(c->in + MLX5X_PAGES_IN_PAS_OFF +
				     j * MLX5X_PAS_LEN) == a)
				return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
	if (reserve(h, n))
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	for (i = 0; i < n; i++)
		h->pages[h->npages++] = get_be64(c->in + MLX5X_PAGES_IN_PAS_OFF +
						 i * MLX5X_PAS_LEN);
	h->pages_given += n;
	cmd_detail(c, "give %u held=%u", n, h->npages);
	return 0;
}

/*
 * While the HCA is initialized firmware returns only pages it released
 * with a PAGE_REQUEST (num_pages < 0), at most what the driver asks for:
 * output_num_entries may be below input_num_entries (0 included), as
 * mlx5_core's reclaim expects.  After TEARDOWN_HCA it needs none and
 * returns everything asked for.
 */
static int take(struct cmd_ctx *c, uint32_t n)
{
	struct emu_hca *h = &c->e->hca;
	uint32_t i, give_back;

	if (n > (c->outlen - MLX5X_MANAGE_PAGES_OUT_LEN) / MLX5X_PAS_LEN)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_OUTP_LEN);
	give_back = MIN(n, h->npages);
	if (h->initialized)
		give_back = MIN(give_back, h->releasable);
	for (i = 0; i < give_back; i++)
		put_be64(c->out + MLX5X_MANAGE_PAGES_OUT_PAS_OFF +
			 i * MLX5X_PAS_LEN, h->pages[--h->npages]);
	put_be32(c->out + MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_OFF,
		 give_back);
	h->releasable -= MIN(h->releasable, give_back);
	h->pages_taken += give_back;
	cmd_detail(c, "take %u of %u held=%u releasable=%u", give_back, n,
		   h->npages, h->releasable);
	return 0;
}

int h_manage_pages(struct cmd_ctx *c)
{
	uint32_t n = get_be32(c->in + MLX5X_PAGES_IN_INPUT_NUM_ENTRIES_OFF);

	if (check_function(c))
		return c->status;
	switch (c->op_mod) {
	case MLX5X_PAGES_GIVE:
		return give(c, n);
	case MLX5X_PAGES_TAKE:
		return take(c, n);
	case MLX5X_PAGES_CANT_GIVE:
		emu_warn("driver could not give pages");
		return 0;
	default:
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
}
