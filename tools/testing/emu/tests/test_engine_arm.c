// SPDX-License-Identifier: GPL-2.0
/*
 * Transport engine, CQ notification: the one-shot arm with its sequence
 * number, consumer index and solicited mode, in the orders real
 * applications produce them (ibv_rc_pingpong -e, perftest -e, ib_poll_cq
 * in the kernel): arm then post, post then arm, re-arm without draining,
 * solicited only, arm_sn wrap, a stale arm, one event per arm whatever
 * the number of CQEs, and the EQ's own arm gating the MSI-X vector.
 */
#include "eng_th.h"

struct arm {
	struct te x;
	struct tcq scq, rcq;
	struct tqp a, b;
	struct tmr m;
	struct tsge s, r;
};

static void arm_setup(struct arm *p)
{
	te_setup(&p->x);
	te_cq(&p->x, &p->scq, 6);
	te_cq(&p->x, &p->rcq, 6);
	te_qp(&p->x, &p->a, &p->scq, &p->scq);
	te_qp(&p->x, &p->b, &p->rcq, &p->rcq);
	te_pair(&p->x, &p->a, &p->b);
	p->m = te_mr(&p->x, 4096, TMR_ALL);
	p->s = te_sge(&p->m, 0, 8);
	p->r = te_sge(&p->m, 1024, 64);
}

/* one SEND from a to b with a receive posted for it */
static void ping(struct arm *p, bool solicited)
{
	te_recv(&p->x, &p->b, &p->r, 1);
	te_send(&p->x, &p->a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED | (solicited ? TE_SOLICITED : 0),
		.sg = &p->s, .nsge = 1 });
	te_run(&p->x);
}

static int drain(struct arm *p, struct tcq *cq)
{
	struct tcqe c;
	int n = 0;

	while (te_poll(&p->x, cq, &c))
		n++;
	return n;
}

/* what ibv_get_cq_event does to the provider: the next arm sequence */
static void got_event(struct tcq *cq)
{
	cq->sn = (cq->sn + 1) & 3;
}

static uint64_t msix(struct arm *p)
{
	return p->x.t.e.irq.fired + p->x.t.e.irq.deferred;
}

/* EQ doorbell: consumer index and arm (UAR + 0x40) */
static void eq_arm(struct arm *p, uint32_t eqn, uint32_t ci)
{
	uint8_t v[4];

	put_be32(v, eqn << 24 | (ci & 0xffffff));
	emu_bar0_write(&p->x.t.e, (uint64_t)p->x.t.uar * EMU_PAGE_SIZE +
		       MLX5X_UAR_EQ_ARM_OFF, v, 4);
}

static void t_arm_then_post(void)
{
	struct arm p;
	uint64_t irq0;

	arm_setup(&p);
	eq_arm(&p, p.x.comp_eqn, 0);
	te_arm(&p.x, &p.rcq, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0, "arm then post: no event yet");
	irq0 = msix(&p);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "arm then post: one completion EQE with the CQN");
	is_u(msix(&p) - irq0, 1, "arm then post: the EQ's MSI-X vector fired");
	/* more CQEs without a new arm: nothing more */
	ping(&p, false);
	ping(&p, false);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0,
	     "one event per arm: 3 more CQEs, no more EQEs");
	is_u(drain(&p, &p.rcq), 4, "the CQEs are all there");
	is_u(te_comp_events(&p.x, p.scq.cqn), 0,
	     "the unarmed send CQ raised nothing");
	te_teardown(&p.x);
}

static void t_post_then_arm(void)
{
	struct arm p;

	arm_setup(&p);
	ping(&p, false);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0, "post then arm: no arm, no event");
	/* ci 0 with two CQEs present: the event is due at once */
	te_arm(&p.x, &p.rcq, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "post then arm: CQEs already present raise the event at arm time");
	got_event(&p.rcq);
	is_u(drain(&p, &p.rcq), 2, "post then arm: 2 CQEs polled");
	/* armed at the producer: nothing new, nothing raised */
	te_arm(&p.x, &p.rcq, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0,
	     "armed after draining: no event without a new CQE");
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "armed after draining: the next CQE raises it");
	te_teardown(&p.x);
}

static void t_rearm_without_drain(void)
{
	struct arm p;
	struct tcqe c;

	arm_setup(&p);
	te_arm(&p.x, &p.rcq, false);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1, "re-arm: first event");
	got_event(&p.rcq);
	/* the ibv_rc_pingpong -e / perftest -e order: ack, re-arm, poll */
	te_arm(&p.x, &p.rcq, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0,
	     "re-arm before draining: the CQE already announced raises nothing");
	ok(te_poll(&p.x, &p.rcq, &c), "re-arm: the CQE is polled afterwards");
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "re-armed: the next CQE raises the event");
	got_event(&p.rcq);
	/* a CQE lands while the CQ is disarmed; software re-arms with the
	 * consumer index of before it: the new CQE is due at once */
	ping(&p, false);
	te_arm(&p.x, &p.rcq, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "re-arm without draining: an unannounced CQE raises it at arm time");
	got_event(&p.rcq);
	is_u(drain(&p, &p.rcq), 2, "re-arm: both CQEs are there");
	/* the classic race: re-armed after draining, CQE arrives later */
	te_arm(&p.x, &p.rcq, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0, "re-armed after draining");
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "a CQE after the re-arm is not lost");
	te_teardown(&p.x);
}

/* the perftest -e send loop: post, wait event, re-arm, poll once */
static void t_perftest_loop(void)
{
	struct arm p;
	struct tcqe c;
	int i, good = 0;

	arm_setup(&p);
	te_arm(&p.x, &p.scq, false);
	for (i = 0; i < 8; i++) {
		te_recv(&p.x, &p.b, &p.r, 1);
		te_send(&p.x, &p.a, &(struct tsend){
			.opcode = MLX5X_OPCODE_SEND, .flags = TE_SIGNALED,
			.sg = &p.s, .nsge = 1 });
		te_run(&p.x);
		if (te_comp_events(&p.x, p.scq.cqn) != 1)
			continue;
		got_event(&p.scq);
		te_arm(&p.x, &p.scq, false);	/* before polling */
		/* the next event must mean a new CQE: none may be pending */
		good += te_poll(&p.x, &p.scq, &c) &&
			te_comp_events(&p.x, p.scq.cqn) == 0;
		drain(&p, &p.rcq);
	}
	is_u(good, 8, "perftest -e loop: exactly one event per send CQE");
	te_teardown(&p.x);
}

static void t_stale_arm(void)
{
	struct arm p;

	arm_setup(&p);
	te_arm(&p.x, &p.rcq, false);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1, "stale arm: event for sn 0");
	drain(&p, &p.rcq);
	/* software arms again before reading the event: same sn */
	te_arm(&p.x, &p.rcq, false);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0,
	     "an arm with the sn of the event not yet read is ignored");
	is_u(te_emu_cq(&p.x, &p.rcq)->eng.stale_arms, 1, "stale arm counted");
	got_event(&p.rcq);
	te_arm(&p.x, &p.rcq, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "the arm with the next sn raises the pending CQE");
	te_teardown(&p.x);
}

static void t_solicited(void)
{
	struct arm p;

	arm_setup(&p);
	te_arm(&p.x, &p.rcq, true);
	ping(&p, false);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 0,
	     "solicited only: unsolicited receives raise nothing");
	ping(&p, true);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "solicited only: the solicited receive raises the event");
	got_event(&p.rcq);
	drain(&p, &p.rcq);
	/* re-arm solicited, then for next: next wins */
	te_arm(&p.x, &p.rcq, true);
	te_arm(&p.x, &p.rcq, false);
	ping(&p, false);
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1,
	     "solicited then next (same sn): an unsolicited CQE raises it");
	got_event(&p.rcq);
	drain(&p, &p.rcq);
	/* an error completion counts as solicited */
	te_arm(&p.x, &p.scq, true);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &(struct tsge){ 0xbad00, 0, 8 },
		.nsge = 1 });
	te_run(&p.x);
	is_u(te_comp_events(&p.x, p.scq.cqn), 1,
	     "solicited only: an error CQE raises the event");
	te_teardown(&p.x);
}

static void t_sn_wrap(void)
{
	struct arm p;
	int i, good = 0;

	arm_setup(&p);
	/* the ib_send_lat -e loop, 10 times: sn 0 1 2 3 0 1 2 3 0 1 */
	for (i = 0; i < 10; i++) {
		te_arm(&p.x, &p.rcq, false);
		ping(&p, false);
		good += te_comp_events(&p.x, p.rcq.cqn) == 1;
		got_event(&p.rcq);
		drain(&p, &p.rcq);
	}
	is_u(good, 10, "arm_sn wraps: one event in each of 10 arm cycles");
	is_u(te_emu_cq(&p.x, &p.rcq)->eng.stale_arms, 0, "arm_sn wrap: none stale");
	is_u(te_emu_cq(&p.x, &p.rcq)->eng.dbr_mismatch, 0,
	     "arm word in the doorbell record matches every doorbell");
	te_teardown(&p.x);
}

static void t_eq_gate(void)
{
	struct arm p;
	uint64_t irq0;

	arm_setup(&p);
	irq0 = msix(&p);
	te_arm(&p.x, &p.rcq, false);
	ping(&p, false);
	is_u(msix(&p) - irq0, 0, "EQ not armed: the EQE is written, no MSI-X");
	is_u(te_comp_events(&p.x, p.rcq.cqn), 1, "EQ not armed: EQE present");
	/* arming the EQ with the EQE consumed: quiet until the next EQE */
	eq_arm(&p, p.x.comp_eqn, p.x.comp_ci);
	is_u(msix(&p) - irq0, 0, "EQ armed, nothing pending: no MSI-X");
	got_event(&p.rcq);
	drain(&p, &p.rcq);
	te_arm(&p.x, &p.rcq, false);
	ping(&p, false);
	is_u(msix(&p) - irq0, 1, "EQ armed: the next EQE fires the vector once");
	te_teardown(&p.x);
}

/* two CQs on one EQ, both armed: an EQE each */
static void t_two_cqs(void)
{
	struct arm p;
	uint8_t d[64];
	int nr = 0, ns = 0;

	arm_setup(&p);
	te_arm(&p.x, &p.rcq, false);
	te_arm(&p.x, &p.scq, false);
	ping(&p, false);
	while (te_eqe(&p.x, p.x.comp_ring, &p.x.comp_ci, d) >= 0) {
		uint32_t cqn = get_be32(d + MLX5X_EQE_COMP_CQN_OFF) & 0xffffff;

		nr += cqn == p.rcq.cqn;
		ns += cqn == p.scq.cqn;
	}
	ok(nr == 1 && ns == 1, "two CQs on one EQ: one EQE each (%d, %d)",
	   nr, ns);
	te_teardown(&p.x);
}

int main(void)
{
	t_arm_then_post();
	t_post_then_arm();
	t_rearm_without_drain();
	t_perftest_loop();
	t_stale_arm();
	t_solicited();
	t_sn_wrap();
	t_eq_gate();
	t_two_cqs();
	return tap_done();
}
