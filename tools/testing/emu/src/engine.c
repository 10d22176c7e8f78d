// SPDX-License-Identifier: GPL-2.0
/*
 * The engine: its thread, the scheduling of QPs with work, timers, the
 * routing of received packets, and the hooks the rest of the device calls
 * (doorbells, QP state changes, destruction).  See engine.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "engine.h"
#include "log.h"
#include "mad.h"
#include "wire.h"

/* QP steps per run before the lock is given up for a moment */
#define RUN_BUDGET 64

/* looks at the RQs of QPs in error: first after 1 ms, then up to 64 ms */
#define ERR_POLL_MIN_NS 1000000ull
#define ERR_POLL_MAX_NS 64000000ull

#define link_entry(l, type, member) \
	((type *)((char *)(l) - offsetof(type, member)))

static void link_init(struct eng_link *h)
{
	h->next = h->prev = h;
}

static bool link_empty(const struct eng_link *h)
{
	return h->next == h;
}

static void link_add_tail(struct eng_link *h, struct eng_link *n)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

static void link_del(struct eng_link *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}

uint64_t eng_real_clock(void *arg)
{
	(void)arg;
	return now_ns();
}

uint64_t eng_now(struct emu *e)
{
	return e->eng.clock(e->eng.clock_arg);
}

int eng_init(struct emu *e)
{
	struct eng *g = &e->eng;
	pthread_condattr_t ca;

	memset(g, 0, sizeof(*g));
	pthread_mutex_init(&g->kick_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->kick_cond, &ca);
	pthread_condattr_destroy(&ca);
	link_init(&g->ready);
	link_init(&g->timers);
	link_init(&g->errs);
	g->clock = eng_real_clock;
	g->scratch = malloc(sizeof(struct swqe));
	g->own_wire = malloc(sizeof(struct wire));
	if (!g->scratch || !g->own_wire)
		return -ENOMEM;
	wire_init_loopback(g->own_wire, e);
	g->wire = g->own_wire;
	return 0;
}

void eng_fini(struct emu *e)
{
	struct eng *g = &e->eng;

	eng_stop(e);
	pkt_free_list(g->inbox);
	g->inbox = g->inbox_tail = NULL;
	free(g->scratch);
	free(g->own_wire);
	g->scratch = NULL;
	g->own_wire = NULL;
	pthread_cond_destroy(&g->kick_cond);
	pthread_mutex_destroy(&g->kick_lock);
}

void eng_kick(struct emu *e)
{
	struct eng *g = &e->eng;

	pthread_mutex_lock(&g->kick_lock);
	g->kick = true;
	pthread_cond_signal(&g->kick_cond);
	pthread_mutex_unlock(&g->kick_lock);
}

void eng_deliver(struct emu *dst, struct wire_pkt *p)
{
	struct eng *g = &dst->eng;

	p->next = NULL;
	pthread_mutex_lock(&g->kick_lock);
	if (g->inbox_tail)
		g->inbox_tail->next = p;
	else
		g->inbox = p;
	g->inbox_tail = p;
	g->kick = true;
	pthread_cond_signal(&g->kick_cond);
	pthread_mutex_unlock(&g->kick_lock);
}

void eng_qp_ready(struct emu *e, struct emu_qp *qp)
{
	if (qp->eng.on_ready)
		return;
	qp->eng.on_ready = true;
	link_add_tail(&e->eng.ready, &qp->eng.ready);
	eng_kick(e);
}

void eng_qp_timer(struct emu *e, struct emu_qp *qp, uint64_t at)
{
	struct eng_qp *r = &qp->eng;

	r->timer_at = at;
	if (!at) {
		if (r->on_timer)
			link_del(&r->timer);
		r->on_timer = false;
		return;
	}
	if (!r->on_timer)
		link_add_tail(&e->eng.timers, &r->timer);
	r->on_timer = true;
	eng_kick(e);
}

static void qp_unlink(struct emu_qp *qp)
{
	if (qp->eng.on_ready)
		link_del(&qp->eng.ready);
	if (qp->eng.on_timer)
		link_del(&qp->eng.timer);
	qp->eng.on_ready = qp->eng.on_timer = false;
	qp->eng.timer_at = 0;
}

/* ---- QPs in the error state ---- */

/*
 * Software posts a receive by writing the RQ doorbell record alone: no
 * UAR write tells the device (mlx5_ib's and libmlx5's post_recv).  A
 * ConnectX still completes receives posted to a QP in error with a flush
 * error, and software waits for that: ib_drain_rq() (mlx5_ib's drain,
 * used by nvme-rdma, iSER and SRP at disconnect) moves the QP to error,
 * posts one receive and sleeps until its flush completion.  So while QPs
 * are in error the engine reads their RQ doorbell records on a timer of
 * its own: ERR_POLL_MIN_NS after a QP entered the state or a record moved,
 * then at doubling intervals up to ERR_POLL_MAX_NS, so a QP left in error
 * costs a few reads of guest memory a second and no QP in error costs
 * nothing.
 */
static void err_poll_soon(struct eng *g, uint64_t now)
{
	g->err_poll_ns = ERR_POLL_MIN_NS;
	g->err_poll_at = now + ERR_POLL_MIN_NS;
}

/* the QP has entered the error state, by command or by the engine */
void eng_err_add(struct emu *e, struct emu_qp *qp)
{
	if (qp->eng.on_err)
		return;
	qp->eng.on_err = true;
	link_add_tail(&e->eng.errs, &qp->eng.err);
	err_poll_soon(&e->eng, eng_now(e));
	eng_kick(e);	/* the thread takes up the new deadline */
}

static void err_del(struct emu_qp *qp)
{
	if (qp->eng.on_err)
		link_del(&qp->eng.err);
	qp->eng.on_err = false;
}

/* a QP in error whose RQ doorbell record moved gets its step (a flush) */
static void poll_err_rqs(struct emu *e, uint64_t now)
{
	struct eng *g = &e->eng;
	struct eng_link *l;
	bool moved = false;
	uint32_t n;

	if (link_empty(&g->errs) || now < g->err_poll_at)
		return;
	g->st.err_polls++;
	for (l = g->errs.next; l != &g->errs; l = l->next) {
		struct emu_qp *qp = link_entry(l, struct emu_qp, eng.err);

		/* receives of an SRQ are the SRQ's: not flushed per QP */
		if (!qp->srq && !rq_avail(e, qp, &n) && n) {
			eng_qp_ready(e, qp);
			moved = true;
		}
	}
	if (moved) {
		err_poll_soon(g, now);
		return;
	}
	g->err_poll_ns = MIN(g->err_poll_ns * 2, ERR_POLL_MAX_NS);
	g->err_poll_at = now + g->err_poll_ns;
}

/* ---- routing ---- */

static struct emu_qp *special_qp(struct emu *e, uint8_t st)
{
	struct objtab *t = &e->obj[OBJ_QP];
	uint32_t id;

	for (id = t->base; id < t->cap; id++) {
		struct emu_qp *qp = t->slot[id];

		if (qp && qp->st == st)
			return qp;
	}
	return NULL;
}

struct emu_qp *eng_qp_by_num(struct emu *e, uint32_t qpn)
{
	if (qpn == 0)
		return special_qp(e, MLX5X_QP_ST_QP0);
	if (qpn == 1)
		return special_qp(e, MLX5X_QP_ST_QP1);
	return objtab_get(&e->obj[OBJ_QP], qpn);
}

static bool port_has_gid(struct emu *e, const uint8_t *gid)
{
	unsigned int i;

	static const uint8_t zero[16];

	if (!memcmp(gid, zero, 16))
		return false;	/* unused table entries are zero */
	for (i = 0; i < EMU_NUM_GIDS; i++)
		if (!memcmp(e->port.gids[i], gid, 16))
			return true;
	return false;
}

static bool tp_matches(const struct emu_qp *qp, const struct wire_pkt *p)
{
	switch (p->tp) {
	case TP_RC:
		return qp->st == MLX5X_QP_ST_RC;
	case TP_UC:
		return qp->st == MLX5X_QP_ST_UC;
	case TP_XRC:
		return qp->st == MLX5X_QP_ST_XRC;
	case TP_UD:
		return qp_is_ud(qp);
	default:
		return false;
	}
}

/*
 * A port whose link is down takes nothing; one that is not ACTIVE takes
 * only subnet management packets (QP0, VL15); an ARMED port that
 * receives anything else becomes ACTIVE (IBTA vol. 1 §7.2, the
 * Initialize and Armed states of the link).
 */
static bool port_takes(struct emu *e, const struct wire_pkt *p)
{
	if (e->port.phys_state != MLX5X_PORT_PHYS_LINK_UP)
		return false;
	if (e->port.state == MLX5X_PORT_STATE_ACTIVE || p->dqpn == 0)
		return true;
	if (e->port.state != MLX5X_PORT_STATE_ARMED)
		return false;
	port_set_state(e, MLX5X_PORT_STATE_ACTIVE);
	return true;
}

static void route(struct emu *e, struct wire_pkt *p)
{
	struct emu_qp *qp = NULL;

	pma_count_rcv(e, p);
	if (!port_takes(e, p)) {
		e->eng.st.pkts_dropped++;
		pkt_free(p);
		return;
	}
	if (lid_is_mcast(p->dlid)) {
		if (!mcg_deliver(e, p))
			e->eng.st.pkts_dropped++;
		return;
	}
	/* QP0/QP1 MADs for the firmware while the driver has none open */
	if (p->dqpn <= 1 && mad_wire_rx(e, p))
		return;
	if (!p->grh || port_has_gid(e, p->dgid))
		qp = eng_qp_by_num(e, p->dqpn);
	if (!qp || !tp_matches(qp, p)) {
		emu_dbg("packet for QP 0x%x (tp %u op %u) dropped", p->dqpn,
			p->tp, p->op);
		e->eng.st.pkts_dropped++;
		if (p->dqpn == 0)
			e->port.cnt.vl15_dropped++;
		else
			e->port.cnt.rcv_errors++;
		pkt_free(p);
		return;
	}
	qp_rx(e, qp, p);
}

/* ---- the run loop ---- */

static void run_timers(struct emu *e, uint64_t now)
{
	unsigned int guard = 4096;

	while (guard--) {
		struct emu_qp *due = NULL;
		struct eng_link *l;

		for (l = e->eng.timers.next; l != &e->eng.timers; l = l->next) {
			struct emu_qp *qp = link_entry(l, struct emu_qp,
						       eng.timer);

			if (qp->eng.timer_at <= now) {
				due = qp;
				break;
			}
		}
		if (!due)
			return;
		eng_qp_timer(e, due, 0);
		qp_timer_fired(e, due, now);
	}
}

static uint64_t next_deadline(struct emu *e)
{
	struct eng_link *l;
	uint64_t at = 0;

	if (!link_empty(&e->eng.errs))
		at = e->eng.err_poll_at;

	for (l = e->eng.timers.next; l != &e->eng.timers; l = l->next) {
		struct emu_qp *qp = link_entry(l, struct emu_qp, eng.timer);

		if (!at || qp->eng.timer_at < at)
			at = qp->eng.timer_at;
	}
	return at;
}

/* route what the wire delivered; false if the inbox was empty */
static bool run_inbox(struct emu *e)
{
	struct eng *g = &e->eng;
	struct wire_pkt *in;

	pthread_mutex_lock(&g->kick_lock);
	in = g->inbox;
	g->inbox = g->inbox_tail = NULL;
	pthread_mutex_unlock(&g->kick_lock);
	if (!in)
		return false;
	while (in) {
		struct wire_pkt *p = in;

		in = in->next;
		route(e, p);
	}
	return true;
}

/*
 * Loopback traffic produces packets for this same engine: keep going
 * (request, response, completion) until nothing is left or the budget
 * is spent, so a message does not wait for another wakeup per hop.
 */
uint64_t eng_run_locked(struct emu *e, uint64_t now)
{
	struct eng *g = &e->eng;
	unsigned int budget = RUN_BUDGET;

	g->st.runs++;
	run_timers(e, now);
	poll_err_rqs(e, now);
	for (;;) {
		bool routed = run_inbox(e);

		while (budget && !link_empty(&g->ready)) {
			struct emu_qp *qp = link_entry(g->ready.next,
						       struct emu_qp, eng.ready);

			budget--;
			link_del(&qp->eng.ready);
			qp->eng.on_ready = false;
			if (qp_step(e, qp, now))
				eng_qp_ready(e, qp);
		}
		if (!budget || (!routed && link_empty(&g->ready)))
			break;
	}
	if (!budget) {
		g->st.busy_runs++;
		eng_kick(e);
	}
	return next_deadline(e);
}

static bool idle(struct emu *e)
{
	struct eng *g = &e->eng;
	bool busy;

	pthread_mutex_lock(&g->kick_lock);
	busy = g->kick || g->inbox;
	g->kick = false;
	pthread_mutex_unlock(&g->kick_lock);
	return !busy && link_empty(&g->ready);
}

void eng_drain(struct emu *e, uint64_t now)
{
	unsigned int n;

	for (n = 0; n < 100000; n++) {
		pthread_mutex_lock(&e->lock);
		eng_run_locked(e, now);
		if (idle(e)) {
			pthread_mutex_unlock(&e->lock);
			return;
		}
		pthread_mutex_unlock(&e->lock);
	}
	emu_warn("engine did not settle");
}

static void deadline_ts(uint64_t at, struct timespec *ts)
{
	ts->tv_sec = (time_t)(at / 1000000000ull);
	ts->tv_nsec = (long)(at % 1000000000ull);
}

/*
 * Completions wait for this thread; under TCG the guest's vCPU threads
 * spin on CQs at full speed.  A better nice value (per thread on Linux)
 * lets a doorbell's work preempt them; without the privilege it stays.
 */
static void eng_boost(void)
{
	int prio;

	errno = 0;
	prio = getpriority(PRIO_PROCESS, 0);
	if (errno || setpriority(PRIO_PROCESS, 0, MAX(prio - 5, -20)))
		emu_dbg("engine thread keeps nice %d", prio);
}

static void *eng_thread(void *arg)
{
	struct emu *e = arg;
	struct eng *g = &e->eng;
	uint64_t deadline = 0, busy;

	eng_boost();

	pthread_mutex_lock(&g->kick_lock);
	for (;;) {
		while (!g->kick && !g->stop) {
			struct timespec ts;

			if (!deadline) {
				g->st.sleeps++;
				pthread_cond_wait(&g->kick_cond, &g->kick_lock);
				continue;
			}
			deadline_ts(deadline, &ts);
			if (pthread_cond_timedwait(&g->kick_cond, &g->kick_lock,
						   &ts) == ETIMEDOUT)
				break;
		}
		if (g->stop)
			break;
		g->kick = false;
		pthread_mutex_unlock(&g->kick_lock);
		pthread_mutex_lock(&e->lock);
		busy = g->st.busy_runs;
		deadline = eng_run_locked(e, eng_now(e));
		busy = g->st.busy_runs != busy;
		pthread_mutex_unlock(&e->lock);
		/* a full budget: let doorbells and commands in before more */
		if (busy)
			sched_yield();
		pthread_mutex_lock(&g->kick_lock);
	}
	pthread_mutex_unlock(&g->kick_lock);
	return NULL;
}

int eng_start(struct emu *e)
{
	int ret;

	if (e->eng.running)
		return 0;
	e->eng.stop = false;
	ret = pthread_create(&e->eng.thread, NULL, eng_thread, e);
	if (ret)
		return -ret;
	e->eng.running = true;
	return 0;
}

void eng_stop(struct emu *e)
{
	struct eng *g = &e->eng;

	if (!g->running)
		return;
	pthread_mutex_lock(&g->kick_lock);
	g->stop = true;
	pthread_cond_signal(&g->kick_cond);
	pthread_mutex_unlock(&g->kick_lock);
	pthread_join(g->thread, NULL);
	g->running = false;
}

/* teardown or reset: every QP is about to be dropped */
void eng_reset(struct emu *e)
{
	struct eng *g = &e->eng;

	while (!link_empty(&g->ready))
		qp_unlink(link_entry(g->ready.next, struct emu_qp, eng.ready));
	while (!link_empty(&g->timers))
		qp_unlink(link_entry(g->timers.next, struct emu_qp, eng.timer));
	pthread_mutex_lock(&g->kick_lock);
	pkt_free_list(g->inbox);
	g->inbox = g->inbox_tail = NULL;
	pthread_mutex_unlock(&g->kick_lock);
	while (!link_empty(&g->errs))
		err_del(link_entry(g->errs.next, struct emu_qp, eng.err));
}

/* ---- hooks ---- */

void eng_uar_send(struct emu *e, uint32_t uar, uint32_t off,
		  const uint8_t *data, uint32_t len)
{
	struct eng *g = &e->eng;
	uint32_t boff, qpn;
	struct emu_qp *qp;

	if (off < MLX5X_UAR_BF_OFF || off + len > MLX5X_UAR_BF_END) {
		g->st.db_bad++;
		emu_warn("UAR %u: send doorbell write at +0x%x/%u ignored", uar,
			 off, len);
		return;
	}
	boff = (off - MLX5X_UAR_BF_OFF) % MLX5X_UAR_BF_BUF_LEN;
	/* the doorbell is the QPN word of the control segment's first 8 B */
	if (boff > MLX5X_WQE_CTRL_QPN_OFF || boff + len < MLX5X_WQE_CTRL_QPN_OFF + 4) {
		g->st.bf_writes++;	/* the rest of a BlueFlame copy */
		return;
	}
	if (len > 8)
		g->st.bf_wqes++;
	qpn = (get_be32(data + MLX5X_WQE_CTRL_QPN_OFF - boff) &
	       MLX5X_WQE_CTRL_QPN_MASK) >> 8;
	qp = objtab_get(&e->obj[OBJ_QP], qpn);
	if (!qp) {
		/*
		 * Not a driver error: a process may ring a QP the kernel has
		 * just destroyed (ib_uverbs destroys a context's objects before
		 * it zaps the context's mappings, on device removal too), and
		 * the device drops such a doorbell.  Counted apart.
		 */
		g->st.db_stale++;
		emu_info("send doorbell on UAR %u for unknown QP 0x%x dropped",
			 uar, qpn);
		return;
	}
	/*
	 * A send doorbell counts only on the QP's own UAR page
	 * (qpc.uar_page): the PRM makes a UAR page the doorbell space of its
	 * owner, so a write through another page (another process's, say)
	 * must not start this QP.  mlx5_ib and libmlx5 ring the page of the
	 * bfreg the QP was created with.
	 */
	if (!qp->uar || qp->uar->index != uar) {
		g->st.db_bad++;
		rule_hit(e, R_SQ_DB_FOREIGN_UAR,
			 "QP 0x%x rung on UAR %u, its UAR is %d (dropped)", qpn,
			 uar, qp->uar ? (int)qp->uar->index : -1);
		return;
	}
	g->st.sq_doorbells++;
	qp->eng.db = true;
	eng_qp_ready(e, qp);
}

/* a QP in error flushes what software posts after the fact */
static void kick_err_qps(struct emu *e, struct emu_cq *cq)
{
	struct eng_link *l;

	for (l = e->eng.errs.next; l != &e->eng.errs; l = l->next) {
		struct emu_qp *qp = link_entry(l, struct emu_qp, eng.err);

		if (qp->rcq == cq || qp->scq == cq)
			eng_qp_ready(e, qp);
	}
}

void eng_cq_arm(struct emu *e, struct emu_cq *cq, uint32_t word)
{
	kick_err_qps(e, cq);
	cq_arm_doorbell(e, cq, word);
}

void eng_qp_modified(struct emu *e, struct emu_qp *qp, uint8_t from)
{
	if (qp->state != MLX5X_QP_STATE_ERR)
		err_del(qp);
	switch (qp->state) {
	case MLX5X_QP_STATE_RST:
		qp_unlink(qp);
		qp_start(e, qp);
		break;
	case MLX5X_QP_STATE_INIT:
		if (from == MLX5X_QP_STATE_RST)
			qp_start(e, qp);
		break;
	case MLX5X_QP_STATE_RTR:
		if (from == MLX5X_QP_STATE_INIT)
			qp_start(e, qp);
		break;
	case MLX5X_QP_STATE_RTS:
		qp_start(e, qp);
		eng_qp_ready(e, qp);	/* WQEs posted before RTS */
		break;
	case MLX5X_QP_STATE_ERR:
		if (from == MLX5X_QP_STATE_ERR)
			break;
		eng_err_add(e, qp);
		qp_flush(e, qp);
		if (qp->srq)
			eng_qp_event(e, qp, MLX5X_EVENT_SRQ_LAST_WQE);
		break;
	default:
		break;
	}
}

void eng_qp_release(struct emu *e, struct emu_qp *qp)
{
	(void)e;	/* everything the engine keeps is on the QP's links */
	err_del(qp);
	qp_unlink(qp);
	qp_free_rt(qp);
}

/*
 * The atomic capabilities the engine implements: 8-byte compare&swap and
 * fetch&add.  req_mode is atomic_req_8B_endianness_mode, the byte order
 * in which a requester returns the original value: big endian (0) at
 * boot, host order (1) once SET_HCA_CAP(ATOMIC) selected it, which
 * mlx5_core does when supported_atomic_req_8B_endianness_mode_1 is set
 * (main.c handle_hca_cap_atomic); mlx5_ib reports IB_ATOMIC_HCA only then.
 */
void eng_atomic_caps(uint8_t *cap, uint8_t req_mode)
{
	memset(cap, 0, MLX5X_HCA_CAP_LEN);
	PSET(cap, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS, req_mode);
	PSET(cap, MLX5X_ATOMIC_CAP_SUPP_8B_ENDIANNESS_1, 1);
	PSET(cap, MLX5X_ATOMIC_CAP_OPERATIONS,
	     MLX5X_ATOMIC_OPS_CMP_SWAP | MLX5X_ATOMIC_OPS_FETCH_ADD);
	PSET(cap, MLX5X_ATOMIC_CAP_SIZE_QP, MLX5X_ATOMIC_SIZE_8B);
	PSET(cap, MLX5X_ATOMIC_CAP_SIZE_DC, MLX5X_ATOMIC_SIZE_8B);
}

/* ARM_RQ, ARM_XRC_SRQ, MODIFY_RMP(lwm): the SRQ limit event, one-shot */
void eng_arm_rq(struct emu *e, struct emu_srq *srq, uint16_t lwm)
{
	uint32_t left;

	srq->eng.lwm = lwm;
	/* already below the limit: the event is due now */
	if (lwm && !srq_avail(e, srq, &left) && left < lwm) {
		srq->eng.lwm = 0;
		eng_srq_event(e, srq, MLX5X_EVENT_SRQ_RQ_LIMIT);
	}
}

void eng_report(struct emu *e, FILE *fp)
{
	const struct eng_stats *s = &e->eng.st;

	fprintf(fp, "eng_sq_doorbells=%" PRIu64 "\neng_bf_wqes=%" PRIu64
		"\neng_bf_writes=%" PRIu64 "\neng_db_bad=%" PRIu64
		"\neng_db_stale=%" PRIu64 "\n",
		s->sq_doorbells, s->bf_wqes, s->bf_writes, s->db_bad,
		s->db_stale);
	fprintf(fp, "eng_pkts=%" PRIu64 "\neng_pkts_dropped=%" PRIu64
		"\neng_naks=%" PRIu64 "\neng_rnr_naks=%" PRIu64
		"\neng_timeouts=%" PRIu64 "\neng_rra_naks=%" PRIu64 "\n",
		s->pkts, s->pkts_dropped, s->naks, s->rnr_naks, s->timeouts,
		s->rra_naks);
	fprintf(fp, "eng_cqes=%" PRIu64 "\neng_cq_events=%" PRIu64
		"\neng_async_events=%" PRIu64 "\neng_flushed=%" PRIu64 "\n",
		s->cqes, s->cq_events, s->async_events, s->flushed);
	fprintf(fp, "eng_mkey_faults=%" PRIu64 "\neng_dma_faults=%" PRIu64
		"\neng_wqe_faults=%" PRIu64 "\neng_runs=%" PRIu64
		"\neng_sleeps=%" PRIu64 "\neng_err_polls=%" PRIu64 "\n",
		s->mkey_faults, s->dma_faults, s->wqe_faults, s->runs,
		s->sleeps, s->err_polls);
}
