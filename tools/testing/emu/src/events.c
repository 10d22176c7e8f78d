// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware-initiated events, as the PRM defines them and mlx5_core and
 * mlx5_ib consume them:
 *
 *   pages N        PAGE_REQUEST EQE (type 0xb): num_pages > 0 asks the
 *                  driver for N more pages (MANAGE_PAGES GIVE), < 0
 *                  releases |N| pages the driver may take back with
 *                  MANAGE_PAGES TAKE while the HCA runs (fewer if it asks
 *                  fewer; firmware never returns more than it released).
 *   pages-burst K:N  K such EQEs back to back.
 *   port down|up   the link drops (logical state DOWN, physical Polling)
 *                  or comes back (ACTIVE, LinkUp): the HCA vport context
 *                  reports the new state and a PORT_CHANGE EQE (type 0x9,
 *                  sub_type DOWN 1 / ACTIVE 4, port in data byte 8 bits
 *                  7:4) goes to the EQ subscribed to it.
 *   internal-error the firmware fails: health syndrome 0x1 "firmware
 *                  internal error" with the recover-flow-request bit
 *                  (what mlx5_core's health poll treats as fatal), and an
 *                  INTERNAL_ERROR EQE (type 0x8) for an EQ subscribed to
 *                  it (mlx5_core subscribes none: the poll finds it).
 *   die            the device stops answering for good (emu_die_locked()):
 *                  BAR0 reads all-ones, nothing is processed.
 *   query          no event: the page and port counters, so a requester
 *                  can wait for the driver's answers.
 *   eq-overrun     a page-request storm: one EQE more than the EQ
 *                  subscribed to PAGE_REQUEST holds, written while the
 *                  driver cannot move its consumer index; eq_post() then
 *                  reports the overrun (see there).
 *   cmd-completion MODE[:MS]  from now on, command EQEs arrive as
 *                  --cmd-completion MODE says (cmdq.c): late, out of slot
 *                  order, several slots in one.  Not an event but the
 *                  firmware's way of completing, switched while the
 *                  device runs (a requester switches it while no driver is
 *                  bound, so one function sees a whole bring-up, workload
 *                  and teardown under each mode).
 *
 * Each kind is enabled by --events; requests come from the host through
 * --events-ctl DIR (see events_ctl_poll()), as do the command faults
 * fault.c sets while the device runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"

/* health syndromes (init segment health buffer, mlx5_ifc.h names) */
#define HEALTH_SYND_FW_INTERNAL_ERR	0x01

static const char *const event_names[EMU_EV_NKINDS] = {
	[EMU_EV_PAGES] = "pages",
	[EMU_EV_PORT] = "port",
	[EMU_EV_INTERNAL_ERROR] = "internal-error",
	[EMU_EV_EQ_OVERRUN] = "eq-overrun",
	[EMU_EV_CMD_COMPLETION] = "cmd-completion",
	[EMU_EV_DIE] = "die",
};

/* --events LIST: comma-separated kinds (or "all") into a bit mask */
int events_parse(const char *list, unsigned int *mask)
{
	char buf[128], *tok, *save = NULL;
	unsigned int k;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			*mask = (1u << EMU_EV_NKINDS) - 1;
			continue;
		}
		for (k = 0; k < EMU_EV_NKINDS; k++)
			if (!strcmp(tok, event_names[k]))
				break;
		if (k == EMU_EV_NKINDS)
			return -1;
		*mask |= 1u << k;
	}
	return 0;
}

static struct emu_eq *event_eq(struct emu *e, uint8_t type, char *why,
			       size_t len)
{
	struct emu_eq *eq = eq_find_for_event(e, type);

	if (!eq)
		snprintf(why, len, "no EQ subscribed to event 0x%x", type);
	return eq;
}

static int post_page_request(struct emu *e, struct emu_eq *eq, int32_t n)
{
	uint8_t eqe[MLX5X_EQE_LEN] = { 0 };

	/* function 0 (the PF itself), not an embedded-CPU function */
	PSET(eqe, MLX5X_EQE_PAGES_FUNC_ID, 0);
	PSET(eqe, MLX5X_EQE_PAGES_NUM_PAGES, (uint32_t)n);
	return eq_post(e, eq, MLX5X_EVENT_PAGE_REQUEST, 0,
		       eqe + MLX5X_EQE_DATA_OFF);
}

/*
 * Ask for (n > 0) or release (n < 0) pages.  Released pages are the
 * newest given, which firmware stops using first; never more than held.
 */
static int page_requests(struct emu *e, uint32_t count, int32_t n, char *why,
			 size_t len)
{
	struct emu_hca *h = &e->hca;
	struct emu_eq *eq;
	uint32_t i;

	if (!h->initialized || !n) {
		snprintf(why, len, "%s", !n ? "num_pages 0" : "HCA not initialized");
		return -1;
	}
	eq = event_eq(e, MLX5X_EVENT_PAGE_REQUEST, why, len);
	if (!eq)
		return -1;
	for (i = 0; i < count; i++) {
		if (n < 0) {
			uint32_t more = MIN((uint32_t)-n,
					    h->npages - h->releasable);

			h->releasable += more;
		} else {
			h->regular_pages += (uint32_t)n;
		}
		if (post_page_request(e, eq, n)) {
			snprintf(why, len, "EQ %u took %u of %u requests",
				 eq->eqn, i, count);
			return -1;
		}
	}
	h->page_requests += count;
	snprintf(why, len, "%u x num_pages %d on EQ %u, held %u releasable %u",
		 count, n, eq->eqn, h->npages, h->releasable);
	return 0;
}

/*
 * The cable's link goes down (physical Polling, logical DOWN) or comes
 * back (LinkUp): through the port's own state machine (port.c), which
 * posts the PORT_CHANGE events mlx5 firmware does.  A port that runs its
 * own subnet comes back ACTIVE; on a managed subnet it comes back INIT and
 * waits for the SM's next sweep, as a real port does.
 */
static int port_set(struct emu *e, bool up, char *why, size_t len)
{
	struct emu_port *p = &e->port;
	uint8_t state;

	if (up == (p->phys_state == MLX5X_PORT_PHYS_LINK_UP)) {
		snprintf(why, len, "port link already %s", up ? "up" : "down");
		return -1;
	}
	if (up) {
		p->phys_state = MLX5X_PORT_PHYS_LINK_UP;
		state = e->opt.port_mode == EMU_PORT_SM ?
			MLX5X_PORT_STATE_INIT : MLX5X_PORT_STATE_ACTIVE;
	} else {
		p->phys_state = MLX5X_PORT_PHYS_POLLING;
		state = MLX5X_PORT_STATE_DOWN;
	}
	port_set_state(e, state);
	p->changes++;
	snprintf(why, len, "port link %s, state %u", up ? "up" : "down",
		 p->state);
	return 0;
}

static int internal_error(struct emu *e, char *why, size_t len)
{
	uint8_t data[28] = { 0 };
	struct emu_eq *eq;

	iseg_health_raise(e, HEALTH_SYND_FW_INTERNAL_ERR, true);
	eq = eq_find_for_event(e, MLX5X_EVENT_INTERNAL_ERROR);
	if (eq && eq_post(e, eq, MLX5X_EVENT_INTERNAL_ERROR, 0, data))
		eq = NULL;
	snprintf(why, len, "health syndrome 0x%x with RFR%s",
		 HEALTH_SYND_FW_INTERNAL_ERR,
		 eq ? ", INTERNAL_ERROR EQE posted" : ", no EQE (none subscribed)");
	return 0;
}

static int device_die(struct emu *e, char *why, size_t len)
{
	if (emu_is_dead(e)) {
		snprintf(why, len, "already dead");
		return -1;
	}
	emu_die_locked(e);
	snprintf(why, len, "device dead: BAR0 reads all-ones, nothing is processed");
	return 0;
}

static int eq_overrun(struct emu *e, char *why, size_t len)
{
	struct emu_eq *eq = event_eq(e, MLX5X_EVENT_PAGE_REQUEST, why, len);
	uint32_t n, i;

	if (!eq)
		return -1;
	/* one more than the free entries: the driver cannot consume now */
	n = (1u << eq->log_size) - ((eq->prod - eq->cons) & MLX5X_EQ_DB_CI_MASK) + 1;
	for (i = 0; i < n; i++) {
		e->hca.regular_pages++;
		if (post_page_request(e, eq, 1))
			break;
	}
	e->hca.page_requests += i;
	snprintf(why, len, "EQ %u: %u of %u page requests written, overrun %s",
		 eq->eqn, i, n, eq->overrun ? "reported" : "not reached");
	return eq->overrun ? 0 : -1;
}

/* the completion mode and what the modes did so far */
static void cmd_counters(struct emu *e, char *buf, size_t len)
{
	const struct emu_cmdq *q = &e->cmdq;

	snprintf(buf, len, "cmd_mode=%s:%u cmds=%llu cmd_delayed=%llu cmd_reordered=%llu cmd_coalesced=%llu",
		 cmdq_completion_name(e->opt.cmd_eqe.mode), e->opt.cmd_eqe.ms,
		 (unsigned long long)e->stats.cmds,
		 (unsigned long long)q->delayed,
		 (unsigned long long)q->reordered,
		 (unsigned long long)q->coalesced);
}

/* the answer carries the counters up to the switch: a "before" */
static int cmd_completion(struct emu *e, const char *arg, char *why,
			  size_t len)
{
	struct cmd_eqe_cfg c;
	char before[200];

	if (cmdq_parse_completion(&c, arg)) {
		snprintf(why, len, "bad mode '%s' (prompt, delay, reorder, coalesce or duplicate, :MS up to %u)",
			 arg, CMD_EQE_MAX_MS);
		return -1;
	}
	cmd_counters(e, before, sizeof(before));
	cmdq_set_completion(e, &c);
	snprintf(why, len, "now %s:%u, until now %s",
		 cmdq_completion_name(c.mode), c.ms, before);
	return 0;
}

static int parse_burst(const char *arg, uint32_t *count, int32_t *n)
{
	char *end;

	*count = (uint32_t)strtoul(arg, &end, 0);
	if (*end != ':' || !*count || *count > 4096)
		return -1;
	*n = (int32_t)strtol(end + 1, &end, 0);
	return *end ? -1 : 0;
}

/* the counters a requester waits on or compares before and after */
static void events_query(struct emu *e, char *why, size_t len)
{
	char cmd[200];

	cmd_counters(e, cmd, sizeof(cmd));
	snprintf(why, len, "held=%u releasable=%u asked=%u given=%llu taken=%llu port_state=%u eq_overruns=%llu %s",
		 e->hca.npages, e->hca.releasable, e->hca.regular_pages,
		 (unsigned long long)e->hca.pages_given,
		 (unsigned long long)e->hca.pages_taken, e->port.state,
		 (unsigned long long)e->stats.eq_overruns, cmd);
}

/*
 * Run one request ("pages -8", "port down", ...); emu.lock held.
 * Returns 0 or -1 with the reason in @why.
 */
int events_run(struct emu *e, const char *word, const char *arg, char *why,
	       size_t len)
{
	unsigned int k;
	uint32_t count;
	int32_t n;
	char *end;

	if (!strcmp(word, "query") && !*arg) {
		events_query(e, why, len);
		return 0;
	}
	/* not events but faults: --events-ctl alone enables them */
	if (fault_ctl_word(word))
		return fault_ctl_run(e, word, arg, why, len);
	for (k = 0; k < EMU_EV_NKINDS; k++)
		if (!strncmp(word, event_names[k], strlen(event_names[k])))
			break;
	if (k == EMU_EV_NKINDS) {
		snprintf(why, len, "unknown request '%s'", word);
		return -1;
	}
	if (!(e->opt.events & (1u << k))) {
		snprintf(why, len, "event kind %s not enabled (--events)",
			 event_names[k]);
		return -1;
	}
	if (!strcmp(word, "pages")) {
		n = (int32_t)strtol(arg, &end, 0);
		if (*end || end == arg)
			goto bad;
		return page_requests(e, 1, n, why, len);
	}
	if (!strcmp(word, "pages-burst")) {
		if (parse_burst(arg, &count, &n))
			goto bad;
		return page_requests(e, count, n, why, len);
	}
	if (!strcmp(word, "port") && (!strcmp(arg, "up") || !strcmp(arg, "down")))
		return port_set(e, !strcmp(arg, "up"), why, len);
	if (!strcmp(word, "internal-error") && !*arg)
		return internal_error(e, why, len);
	if (!strcmp(word, "eq-overrun") && !*arg)
		return eq_overrun(e, why, len);
	if (!strcmp(word, "cmd-completion"))
		return cmd_completion(e, arg, why, len);
	if (!strcmp(word, "die") && !*arg)
		return device_die(e, why, len);
bad:
	snprintf(why, len, "bad request '%s %s'", word, arg);
	return -1;
}

static void ctl_answer(struct emu *e, const char *seq, int ret,
		       const char *why)
{
	char tmp[4096], path[4096];
	FILE *fp;

	snprintf(tmp, sizeof(tmp), "%s/ack.tmp", e->opt.events_ctl);
	snprintf(path, sizeof(path), "%s/ack", e->opt.events_ctl);
	fp = fopen(tmp, "w");
	if (!fp) {
		emu_err("events: cannot write %s: %s", tmp, strerror(errno));
		return;
	}
	fprintf(fp, "%s %s %s\n", seq, ret ? "error" : "ok", why);
	fclose(fp);
	if (rename(tmp, path))
		emu_err("events: cannot rename %s: %s", tmp, strerror(errno));
}

/*
 * The host's request channel (--events-ctl DIR): the requester writes
 * "SEQ WORD [ARG]" to DIR/req (atomically, by rename), the device thread
 * picks it up within EVENTS_CTL_POLL_MS, removes it, runs it and answers
 * "SEQ ok|error DETAIL" in DIR/ack.  Called without emu.lock.
 */
void events_ctl_poll(struct emu *e)
{
	char path[4096], line[256], seq[32], word[32], arg[64];
	char why[512] = "";
	ssize_t len;
	int fd, ret, n = 0;

	snprintf(path, sizeof(path), "%s/req", e->opt.events_ctl);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = read(fd, line, sizeof(line) - 1);
	close(fd);
	unlink(path);
	line[len > 0 ? len : 0] = 0;
	line[strcspn(line, "\n")] = 0;
	/* the argument is the rest of the line: some requests take several */
	if (sscanf(line, "%31s %31s %n", seq, word, &n) < 2 ||
	    strlen(line + n) >= sizeof(arg)) {
		emu_warn("events: malformed request '%s'", line);
		ctl_answer(e, "?", -1, "malformed request");
		return;
	}
	strcpy(arg, line + n);
	pthread_mutex_lock(&e->lock);
	ret = events_run(e, word, arg, why, sizeof(why));
	if (ret)
		e->stats.events_refused++;
	else
		e->stats.events_done++;
	pthread_mutex_unlock(&e->lock);
	if (strcmp(word, "query"))
		emu_info("event %s%s%s: %s: %s", word, *arg ? " " : "", arg,
		 ret ? "refused" : "done", why);
	ctl_answer(e, seq, ret, why);
}
