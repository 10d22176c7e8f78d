// SPDX-License-Identifier: GPL-2.0
/*
 * Event queues: EQEs in the driver's ring with the owner bit of each lap,
 * consumer index and arming through the UAR doorbell, overrun, MSI-X
 * delivery (including a vector that has no eventfd yet) and the PBA.
 */
#include <sys/eventfd.h>
#include <unistd.h>

#include "harness.h"

struct eqt {
	struct th t;
	uint32_t eqn;
	uint64_t ring;
	int efd;
	struct emu_eq *eq;
};

static void eq_setup(struct eqt *q, unsigned int log_size)
{
	th_setup(&q->t);
	q->efd = eventfd(0, EFD_NONBLOCK);
	irq_assign(&q->t.e.irq, 2, 1, &q->efd);
	th_init_hca(&q->t);
	q->eqn = th_create_eq(&q->t, log_size, 1ull << MLX5X_EVENT_PORT_CHANGE,
			      2, &q->ring);
	q->eq = objtab_get(&q->t.e.obj[OBJ_EQ], q->eqn);
}

static uint8_t *eqe(struct eqt *q, unsigned int i)
{
	return (uint8_t *)th_host(&q->t, q->ring) + 64 * i;
}

static int post(struct eqt *q, uint8_t tag)
{
	uint8_t data[28] = { tag };
	int ret;

	pthread_mutex_lock(&q->t.e.lock);
	ret = eq_post(&q->t.e, q->eq, MLX5X_EVENT_PORT_CHANGE, 4, data);
	pthread_mutex_unlock(&q->t.e.lock);
	return ret;
}

static void doorbell(struct eqt *q, uint32_t ci, int arm)
{
	uint8_t v[4];

	put_be32(v, q->eqn << 24 | (ci & 0xffffff));
	emu_bar0_write(&q->t.e, q->t.uar * 4096ull +
		       (arm ? MLX5X_UAR_EQ_ARM_OFF : MLX5X_UAR_EQ_UPDATE_OFF), v, 4);
}

static uint64_t irqs(struct eqt *q)
{
	uint64_t n = 0;

	if (read(q->efd, &n, 8) != 8)
		return 0;
	return n;
}

static void test_owner_wrap(void)
{
	struct eqt q;
	unsigned int i, lap;
	int good = 1;

	eq_setup(&q, 2);	/* 4 entries */
	for (lap = 0; lap < 3; lap++) {
		for (i = 0; i < 4; i++)
			good &= post(&q, (uint8_t)(lap * 4 + i)) == 0;
		for (i = 0; i < 4; i++) {
			good &= eqe(&q, i)[MLX5X_EQE_OWNER_OFF] == (lap & 1);
			good &= eqe(&q, i)[MLX5X_EQE_DATA_OFF] == lap * 4 + i;
		}
		doorbell(&q, (lap + 1) * 4, 0);	/* consume the lap */
	}
	ok(good, "three laps of 4 EQEs: owner 0, 1, 0 and data in order");
	is_u(eqe(&q, 1)[MLX5X_EQE_TYPE_OFF], MLX5X_EVENT_PORT_CHANGE, "EQE type");
	is_u(eqe(&q, 1)[MLX5X_EQE_SUB_TYPE_OFF], 4, "EQE sub_type");
	is_u(irqs(&q), 0, "no interrupt: the EQ was never armed");
	th_teardown(&q.t);
	close(q.efd);
}

static void test_overrun(void)
{
	struct eqt q;
	unsigned int i;

	eq_setup(&q, 2);
	for (i = 0; i < 4; i++)
		post(&q, (uint8_t)i);
	ok(post(&q, 9) < 0, "a fifth EQE without consumption is an overrun");
	is_u(eqe(&q, 0)[MLX5X_EQE_DATA_OFF], 0,
	     "... the unconsumed first entry is not overwritten");
	is_u(q.t.e.stats.eq_overruns, 1, "... counted");
	is_u(q.t.e.iseg.health_synd, 0x0c,
	     "... reported: health syndrome 0xc, async EQ buffer overrun");
	ok(!q.t.e.iseg.health_rfr, "... without the recover-flow request");
	doorbell(&q, 4, 0);
	ok(post(&q, 10) < 0, "an overrun EQ stays stopped after the CI moves");
	is_u(q.eq->lost, 2, "... both EQEs lost");
	is_u(q.t.e.stats.eq_overruns, 1, "... one overrun");
	th_teardown(&q.t);
	close(q.efd);
}

/* the EQE at the consumer index of EQ @eqn's ring @ring, slot @i */
static uint8_t *ring_eqe(struct th *t, uint64_t ring, unsigned int i)
{
	return (uint8_t *)th_host(t, ring) + 64 * i;
}

static int ev(struct th *t, const char *word, const char *arg)
{
	char why[256];
	int ret;

	pthread_mutex_lock(&t->e.lock);
	ret = events_run(&t->e, word, arg, why, sizeof(why));
	pthread_mutex_unlock(&t->e.lock);
	diag("%s %s: %s", word, arg, why);
	return ret;
}

static void test_events(void)
{
	uint64_t mask = 1ull << MLX5X_EVENT_PAGE_REQUEST |
			1ull << MLX5X_EVENT_PORT_CHANGE |
			1ull << MLX5X_EVENT_INTERNAL_ERROR;
	struct th t;
	uint64_t ring;
	uint8_t *x;
	uint32_t held;

	th_setup(&t);
	th_init_hca(&t);
	ok(ev(&t, "pages", "4") < 0, "event kind not enabled: refused");
	ok(events_parse("pages,port,bogus", &t.e.opt.events) < 0,
	   "--events with an unknown kind is refused");
	ok(!events_parse("all", &t.e.opt.events), "--events all");
	ok(ev(&t, "pages", "4") < 0, "no EQ subscribed: page request refused");
	th_create_eq(&t, 4, mask, 1, &ring);

	ok(!ev(&t, "pages", "4"), "pages 4");
	x = ring_eqe(&t, ring, 0);
	is_u(x[MLX5X_EQE_TYPE_OFF], MLX5X_EVENT_PAGE_REQUEST, "... PAGE_REQUEST EQE");
	is_u(PGET(x, MLX5X_EQE_PAGES_NUM_PAGES), 4, "... num_pages 4");
	is_u(PGET(x, MLX5X_EQE_PAGES_FUNC_ID), 0, "... function 0");
	held = t.e.hca.npages;
	ok(!ev(&t, "pages", "-3"), "pages -3");
	x = ring_eqe(&t, ring, 1);
	is_u(PGET(x, MLX5X_EQE_PAGES_NUM_PAGES), (uint32_t)-3,
	     "... num_pages -3 (signed)");
	is_u(t.e.hca.releasable, MIN(3u, held), "... 3 pages released");
	ok(!ev(&t, "pages-burst", "3:-2"), "pages-burst 3:-2");
	is_u(t.e.hca.page_requests, 5, "... 5 requests written in all");
	is_u(t.e.hca.releasable, MIN(9u, held), "... 9 pages released");
	ok(ev(&t, "pages-burst", "3") < 0, "pages-burst without :N refused");
	ok(ev(&t, "pages", "x") < 0, "pages x refused");
	ok(!ev(&t, "query", ""), "query");

	ok(!ev(&t, "port", "down"), "port down");
	x = ring_eqe(&t, ring, 5);
	is_u(x[MLX5X_EQE_TYPE_OFF], MLX5X_EVENT_PORT_CHANGE, "... PORT_CHANGE");
	is_u(x[MLX5X_EQE_SUB_TYPE_OFF], MLX5X_PORT_CHANGE_DOWN, "... sub_type DOWN");
	is_u(PGET(x, MLX5X_EQE_PORT), 1, "... port 1");
	is_u(t.e.port.state, MLX5X_PORT_STATE_DOWN, "... the vport reports DOWN");
	is_u(t.e.port.phys_state, MLX5X_PORT_PHYS_POLLING, "... link Polling");
	ok(ev(&t, "port", "down") < 0, "port down twice: no change, refused");
	ok(!ev(&t, "port", "up"), "port up");
	x = ring_eqe(&t, ring, 6);
	is_u(x[MLX5X_EQE_SUB_TYPE_OFF], MLX5X_PORT_CHANGE_ACTIVE, "... sub_type ACTIVE");
	is_u(t.e.port.state, MLX5X_PORT_STATE_ACTIVE, "... ACTIVE again");

	ok(!ev(&t, "internal-error", ""), "internal-error");
	x = ring_eqe(&t, ring, 7);
	is_u(x[MLX5X_EQE_TYPE_OFF], MLX5X_EVENT_INTERNAL_ERROR, "... INTERNAL_ERROR EQE");
	is_u(t.e.iseg.health_synd, 0x01, "... health syndrome 0x1");
	ok(t.e.iseg.health_rfr, "... recover flow requested");

	ok(!ev(&t, "eq-overrun", ""), "eq-overrun: the 16-entry EQ overflows");
	ok(t.e.stats.eq_overruns == 1, "... one overrun");
	is_u(t.e.iseg.health_synd, 0x01, "... the first syndrome stays");
	ok(ev(&t, "pages", "1") < 0, "a stopped EQ takes no more requests");
	th_teardown(&t);
}

/* the cmd-completion request switches how command EQEs arrive */
static void test_cmd_completion_request(void)
{
	char why[512];
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	ok(ev(&t, "cmd-completion", "delay:50") < 0,
	   "cmd-completion not enabled: refused");
	ok(!events_parse("pages,cmd-completion", &t.e.opt.events),
	   "--events pages,cmd-completion");
	ok(!ev(&t, "cmd-completion", "coalesce:20"), "cmd-completion coalesce:20");
	ok(t.e.opt.cmd_eqe.mode == CMD_EQE_COALESCE && t.e.opt.cmd_eqe.ms == 20,
	   "... the mode and window in force");
	ok(ev(&t, "cmd-completion", "bogus") < 0, "an unknown mode refused");
	ok(ev(&t, "cmd-completion", "delay:60001") < 0,
	   "a delay past the driver's command timeout refused");
	ok(ev(&t, "cmd-completion", "") < 0, "no mode refused");
	ok(t.e.opt.cmd_eqe.mode == CMD_EQE_COALESCE,
	   "... the mode in force stays");
	pthread_mutex_lock(&t.e.lock);
	ok(!events_run(&t.e, "query", "", why, sizeof(why)) &&
	   strstr(why, " cmd_mode=coalesce:20 ") &&
	   strstr(why, " cmd_coalesced=0"),
	   "query names the mode and its counters");
	pthread_mutex_unlock(&t.e.lock);
	diag("query: %s", why);
	pthread_mutex_lock(&t.e.lock);
	ok(!events_run(&t.e, "cmd-completion", "prompt", why, sizeof(why)) &&
	   !strncmp(why, "now prompt:5, until now cmd_mode=coalesce:20 cmds=",
		    strlen("now prompt:5, until now cmd_mode=coalesce:20 cmds=")),
	   "back to prompt: the answer has the counters up to the switch");
	pthread_mutex_unlock(&t.e.lock);
	diag("cmd-completion prompt: %s", why);
	th_teardown(&t);
}

static void test_arm(void)
{
	struct eqt q;

	eq_setup(&q, 3);
	doorbell(&q, 0, 1);
	is_u(irqs(&q), 0, "arming an empty EQ raises nothing");
	post(&q, 1);
	is_u(irqs(&q), 1, "an EQE on an armed EQ raises its vector once");
	post(&q, 2);
	is_u(irqs(&q), 0, "the EQ is disarmed until the next arm");
	doorbell(&q, 1, 1);
	is_u(irqs(&q), 1, "arming with an EQE beyond the consumer index fires at once");
	doorbell(&q, 2, 1);
	post(&q, 3);
	is_u(irqs(&q), 1, "consume all, arm, post: one interrupt");
	doorbell(&q, 3, 0);
	post(&q, 4);
	is_u(irqs(&q), 0, "a consumer update without arm does not arm");
	is_u(q.eq->irqs, 3, "EQ interrupt count");
	{
		uint8_t v[4];
		uint32_t other = th_alloc_num(&q.t, MLX5X_CMD_OP_ALLOC_UAR);

		put_be32(v, q.eqn << 24);
		emu_bar0_write(&q.t.e, other * 4096ull + MLX5X_UAR_EQ_ARM_OFF, v, 4);
		ok(!q.eq->armed && q.t.e.stats.uar_bad == 1,
		   "an EQ doorbell on a UAR the EQ does not use is ignored");
		put_be32(v, 30u << 24);
		emu_bar0_write(&q.t.e, q.t.uar * 4096ull + MLX5X_UAR_EQ_ARM_OFF, v, 4);
		is_u(q.t.e.stats.uar_bad, 2, "a doorbell for an unknown EQ is ignored");
		emu_bar0_write(&q.t.e, EMU_MSIX_TABLE_OFF + 0x40, v, 4);
		ok(q.t.e.stats.bar_bad == 1, "a write into the MSI-X table area is ignored");
	}
	th_teardown(&q.t);
	close(q.efd);
}

static void test_deferred_msix(void)
{
	uint8_t pba[8];
	struct eqt q;
	int fd;

	th_setup(&q.t);
	th_init_hca(&q.t);
	q.eqn = th_create_eq(&q.t, 3, 1ull << MLX5X_EVENT_PORT_CHANGE, 4,
			    &q.ring);
	q.eq = objtab_get(&q.t.e.obj[OBJ_EQ], q.eqn);
	q.efd = eventfd(0, EFD_NONBLOCK);
	doorbell(&q, 0, 1);
	post(&q, 1);
	emu_bar0_read(&q.t.e, EMU_MSIX_PBA_OFF, pba, 8);
	is_u(pba[0], 1u << 4, "a vector without eventfd is pending in the PBA");
	fd = dup(q.efd);
	irq_assign(&q.t.e.irq, 4, 1, &fd);
	is_u(irqs(&q), 1, "... and delivered when its eventfd arrives");
	emu_bar0_read(&q.t.e, EMU_MSIX_PBA_OFF, pba, 8);
	is_u(pba[0], 0, "... then no longer pending");
	{
		uint8_t in[MLX5X_CREATE_EQ_IN_LEN + 8] = { 0 }, out[16];

		th_hdr(in, MLX5X_CMD_OP_CREATE_EQ, 0);
		PSET(in + MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_LOG_EQ_SIZE, 3);
		PSET(in + MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_UAR_PAGE, q.t.uar);
		PSET(in + MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_INTR, 9);
		put_be64(in + MLX5X_CREATE_EQ_IN_PAS_OFF, th_alloc(&q.t, 4096, 4096));
		is_u(th_status(&q.t, in, sizeof(in), out, 16),
		     MLX5X_CMD_STAT_BAD_PARAM,
		     "CREATE_EQ on vector 9 of 9 -> BAD_PARAM");
		PSET(in + MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_INTR, 1);
		PSET(in + MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_UAR_PAGE, 3);
		is_u(th_status(&q.t, in, sizeof(in), out, 16),
		     MLX5X_CMD_STAT_BAD_RES, "CREATE_EQ on an unknown UAR -> BAD_RES");
		PSET(in + MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_UAR_PAGE, q.t.uar);
		PSET(in + MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_LOG_EQ_SIZE, 7);
		is_u(th_status(&q.t, in, sizeof(in), out, 16),
		     MLX5X_CMD_STAT_BAD_INP_LEN,
		     "CREATE_EQ of 2 pages with one PAS entry -> BAD_INP_LEN");
	}
	th_teardown(&q.t);
	close(q.efd);
}

int main(void)
{
	test_owner_wrap();
	test_overrun();
	test_events();
	test_cmd_completion_request();
	test_arm();
	test_deferred_msix();
	return tap_done();
}
