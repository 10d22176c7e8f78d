// SPDX-License-Identifier: GPL-2.0
/*
 * Command faults: a command that completes with a bad status and
 * syndrome instead of running (--fault-cmd-status at start-up, or set
 * while the device runs), and the requests that let one emulator serve a
 * whole matrix of such faults over --events-ctl (events_ctl_poll()):
 *
 *   fail OPCODE NTH STATUS SYNDROME
 *                  the NTH command OPCODE from now on (1: the next one)
 *                  fails with STATUS and SYNDROME, once; the commands
 *                  before and after it run.  Replaces any fault set before.
 *   fail off       no injected status from now on.
 *   census         the commands the firmware executed so far, one line
 *                  "NAME OPCODE COUNT" per opcode seen (the exit report's
 *                  cmd_NAME counts), written to DIR/census; a requester
 *                  diffs two of them to learn what a run sent.
 *   state          live_objects and pages_held as the exit report counts
 *                  them (a leak check while the device runs), and the
 *                  fault set: its opcode, NTH and how many of that opcode
 *                  came since it was set ("fired" once that reaches NTH).
 *
 * A failed command does nothing: as firmware that refuses a command, the
 * device keeps the state it had before it (mlx5 treats any status but
 * OK as "not done", see mlx5_cmd_check() in upstream cmd.c).
 *
 * emu.lock held.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"

/* the command fails (true) instead of running, as the fault says */
bool fault_cmd_status(struct emu *e, struct cmd_ctx *c)
{
	struct fault_cfg *f = &e->opt.fault;

	if (f->status_op != c->op)
		return false;
	f->status_seen++;
	if (f->status_nth && f->status_seen != f->status_nth)
		return false;
	c->status = f->status;
	c->syndrome = f->syndrome;
	PSET(c->out, MLX5X_CMD_OUT_STATUS, c->status);
	PSET(c->out, MLX5X_CMD_OUT_SYNDROME, c->syndrome);
	cmd_detail(c, "(injected)");
	return true;
}

/* "OPCODE NTH STATUS SYNDROME" or "off" */
static int fail_set(struct emu *e, const char *arg, char *why, size_t len)
{
	struct fault_cfg *f = &e->opt.fault;
	unsigned long nth;
	long status, synd;
	char name[32];
	char *end;
	int op, n;

	if (!strcmp(arg, "off")) {
		f->status_op = -1;
		snprintf(why, len, "no injected status");
		return 0;
	}
	if (sscanf(arg, "%31s %lu %li %li %n", name, &nth, &status, &synd,
		   &n) != 4 || arg[n] || !nth || status < 1 || status > 0xff ||
	    synd < 0 || synd > 0xffffffffL)
		goto bad;
	op = cmd_parse_opcode(name, &end);
	if (*end || !cmd_lookup((uint16_t)op, NULL))
		goto bad;
	f->status_op = op;
	f->status_nth = (uint32_t)nth;
	f->status_seen = 0;
	f->status = (uint8_t)status;
	f->syndrome = (uint32_t)synd;
	snprintf(why, len, "%s(0x%x) #%lu from now fails with status 0x%lx syndrome 0x%08lx",
		 cmd_op_name((uint16_t)op), op, nth, status, synd);
	return 0;
bad:
	snprintf(why, len, "bad fail '%s' (OPCODE NTH>=1 STATUS 1..0xff SYNDROME, or off)",
		 arg);
	return -1;
}

static int census_write(struct emu *e, char *why, size_t len)
{
	char tmp[4096], path[4096];
	unsigned int i, ops = 0;
	uint64_t total = 0;
	FILE *fp;

	snprintf(tmp, sizeof(tmp), "%s/census.tmp", e->opt.events_ctl);
	snprintf(path, sizeof(path), "%s/census", e->opt.events_ctl);
	fp = fopen(tmp, "w");
	if (!fp) {
		snprintf(why, len, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	for (i = 0; i < cmd_table_size(); i++) {
		const struct cmd_desc *d = cmd_table_entry(i);

		if (!e->cmd_count[i])
			continue;
		fprintf(fp, "%s 0x%x %" PRIu64 "\n", d->name, d->op,
			e->cmd_count[i]);
		total += e->cmd_count[i];
		ops++;
	}
	/* a reader sees the whole census or none (rename) */
	if (fclose(fp) || rename(tmp, path)) {
		snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(why, len, "census: %u opcodes, %" PRIu64 " commands", ops,
		 total);
	return 0;
}

static void fault_state(struct emu *e, char *why, size_t len)
{
	const struct fault_cfg *f = &e->opt.fault;
	uint64_t pages = (uint64_t)e->hca.npages + e->hca.pages_dropped;

	if (f->status_op < 0) {
		snprintf(why, len, "live_objects=%" PRIu64 " pages_held=%" PRIu64 " fail=off",
			 emu_live_objects(e), pages);
		return;
	}
	snprintf(why, len, "live_objects=%" PRIu64 " pages_held=%" PRIu64 " fail=%s nth=%u seen=%u %s",
		 emu_live_objects(e), pages,
		 cmd_op_name((uint16_t)f->status_op), f->status_nth,
		 f->status_seen,
		 f->status_seen >= f->status_nth ? "fired" : "pending");
}

bool fault_ctl_word(const char *word)
{
	return !strcmp(word, "fail") || !strcmp(word, "census") ||
	       !strcmp(word, "state");
}

/* one fault request (fault_ctl_word() said it is one); 0 or -1 + why */
int fault_ctl_run(struct emu *e, const char *word, const char *arg,
		  char *why, size_t len)
{
	if (!strcmp(word, "fail"))
		return fail_set(e, arg, why, len);
	if (*arg) {
		snprintf(why, len, "%s takes no argument", word);
		return -1;
	}
	if (!strcmp(word, "census"))
		return census_write(e, why, len);
	fault_state(e, why, len);
	return 0;
}
