// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile guests, deterministically: random command inputs for every
 * opcode the firmware knows, and random send WQEs on connected RC QPs.
 * What must hold: every command completes with a defined status (never a
 * hung slot, never a crash), the engine always finishes its work, CQEs
 * carry defined opcodes, a QP ends in RTS or ERR, and teardown frees
 * everything (ASan/LeakSanitizer in the asan build).  A fixed seed keeps
 * a failure reproducible; EMU_FUZZ_SEED picks another.
 */
#include <stdlib.h>

#include "eng_th.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: quick, and the same sequence on every host */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void rnd_fill(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

static bool defined_status(unsigned int st)
{
	switch (st) {
	case MLX5X_CMD_STAT_OK: case MLX5X_CMD_STAT_INT_ERR:
	case MLX5X_CMD_STAT_BAD_OP: case MLX5X_CMD_STAT_BAD_PARAM:
	case MLX5X_CMD_STAT_BAD_SYS_STATE: case MLX5X_CMD_STAT_BAD_RES:
	case MLX5X_CMD_STAT_RES_BUSY: case MLX5X_CMD_STAT_NOT_READY:
	case MLX5X_CMD_STAT_LIM: case MLX5X_CMD_STAT_BAD_RES_STATE:
	case MLX5X_CMD_STAT_IX: case MLX5X_CMD_STAT_NO_RES:
	case MLX5X_CMD_STAT_BAD_QP_STATE: case MLX5X_CMD_STAT_BAD_PKT:
	case MLX5X_CMD_STAT_BAD_SIZE_OUTS_CQES:
	case MLX5X_CMD_STAT_BAD_INP_LEN: case MLX5X_CMD_STAT_BAD_OUTP_LEN:
		return true;
	}
	return false;
}

/* commands that end the session rather than exercise a parser */
static bool lifecycle(uint16_t op)
{
	return op == MLX5X_CMD_OP_TEARDOWN_HCA || op == MLX5X_CMD_OP_DISABLE_HCA ||
	       op == MLX5X_CMD_OP_ENABLE_HCA || op == MLX5X_CMD_OP_INIT_HCA;
}

#define CMD_ROUNDS	4000

static void fuzz_commands(void)
{
	static uint8_t in[0x1000], out[0x1000];
	unsigned int n = cmd_table_size(), i, hung = 0, odd = 0, ok_ = 0;
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	for (i = 0; i < CMD_ROUNDS; i++) {
		const struct cmd_desc *d = cmd_table_entry(rnd() % n);
		uint32_t inlen = 16 + (uint32_t)(rnd() % (sizeof(in) - 16));
		uint32_t outlen = 16 + (uint32_t)(rnd() % (sizeof(out) - 16));
		uint64_t mark = t.next;
		unsigned int st;

		if (lifecycle(d->op))
			continue;
		/*
		 * Half dense noise, half a zeroed input with a few random
		 * bytes: zeros pass the generic checks (uid, op_mod, lengths)
		 * and reach the handlers' own field checks.
		 */
		if (rnd() % 2) {
			rnd_fill(in, inlen);
		} else {
			unsigned int k = 1 + (unsigned int)(rnd() % 24);

			memset(in, 0, inlen);
			while (k--)
				in[8 + rnd() % (inlen - 8)] = (uint8_t)rnd();
		}
		/* the opcode from the table; op_mod mostly 0, as drivers send */
		th_hdr(in, d->op, rnd() % 4 ? 0 : (uint16_t)rnd());
		if (rnd() % 2)
			memset(in + 4, 0, 2);	/* uid 0: no user context */
		st = th_status(&t, in, inlen, out, outlen);
		/* the mailboxes were for this command only: reuse the space */
		t.next = mark;
		if (st >= 0x100)
			hung++;
		else if (!defined_status(st))
			odd++;
		else if (!st)
			ok_++;
	}
	is_u(hung, 0, "random inputs: every command is delivered and completes");
	is_u(odd, 0, "random inputs: every status is one firmware defines");
	diag("%u of %u random commands succeeded", ok_, CMD_ROUNDS);
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	is_u(th_status(&t, in, 16, out, 16), 0,
	     "the command interface still works afterwards");
	th_teardown(&t);	/* ASan: every object freed, none touched twice */
}

static bool defined_cqe(uint8_t op)
{
	return op <= MLX5X_CQE_RESIZE_CQ || op == MLX5X_CQE_REQ_ERR ||
	       op == MLX5X_CQE_RESP_ERR;
}

/* a random WQE at sq_pi: a sane or random control word, random segments */
static uint16_t post_garbage(struct te *x, struct tqp *qp)
{
	uint8_t w[256];
	uint32_t len = 16 * (1 + (uint32_t)(rnd() % 16));
	uint16_t idx = qp->sq_pi;

	rnd_fill(w, len);
	if (rnd() % 4) {
		PSET(w, MLX5X_WQE_CTRL_WQE_INDEX, idx);
		PSET(w, MLX5X_WQE_CTRL_QPN, qp->qpn);
		PSET(w, MLX5X_WQE_CTRL_DS, len / 16);
	}
	te_sq_put(x, qp, idx, 0, w, len);
	qp->sq_pi += (uint16_t)((len + 63) / 64);
	return idx;
}

/* a random receive WQE: random lengths, keys, addresses, terminators */
static void recv_garbage(struct te *x, struct tqp *qp)
{
	uint32_t stride = 16u << qp->log_rq_stride;
	uint8_t *w = th_host(&x->t, qp->buf) +
		     (uint64_t)(qp->rq_pi & ((1u << qp->log_rq) - 1)) * stride;

	rnd_fill(w, stride);
	qp->rq_pi++;
	put_be32(th_host(&x->t, qp->dbr), qp->rq_pi);
}

#define WQE_ROUNDS	60
#define WQES_PER_ROUND	12

static unsigned int drain_cq(struct te *x, struct tcq *cq, unsigned int *odd)
{
	struct tcqe c = { 0 };
	unsigned int n = 0;

	while (n < 1024 && te_poll(x, cq, &c)) {
		if (!defined_cqe(c.opcode))
			(*odd)++;
		n++;
	}
	return n;
}

static void fuzz_wqes(void)
{
	unsigned int r, k, odd = 0, bad_state = 0, cqes = 0, errs = 0;

	for (r = 0; r < WQE_ROUNDS; r++) {
		struct tcq ca, cb;
		struct tqp a, b;
		struct tmr m;
		struct te x;
		uint8_t st;

		te_setup(&x);
		te_cq(&x, &ca, 8);
		te_cq(&x, &cb, 8);
		te_qp(&x, &a, &ca, &ca);
		te_qp(&x, &b, &cb, &cb);
		te_pair(&x, &a, &b);
		m = te_mr(&x, 8192, TMR_ALL);
		for (k = 0; k < WQES_PER_ROUND; k++) {
			/* odd rounds: garbage receives under a valid send */
			if (r % 2) {
				struct tsge s = te_sge(&m, 0, (uint32_t)(rnd() % 8192));

				recv_garbage(&x, &b);
				te_send(&x, &a, &(struct tsend){
					.opcode = MLX5X_OPCODE_SEND,
					.flags = TE_SIGNALED, .sg = &s, .nsge = 1 });
			} else {
				te_ring(&x, &a, post_garbage(&x, &a));
			}
			/* past every retry and RNR timer */
			te_advance(&x, 60ull * 1000000000ull);
			cqes += drain_cq(&x, &ca, &odd);
			drain_cq(&x, &cb, &odd);
		}
		st = te_emu_qp(&x, &a)->state;
		if (st == MLX5X_QP_STATE_ERR)
			errs++;
		else if (st != MLX5X_QP_STATE_RTS)
			bad_state++;
		te_teardown(&x);
	}
	is_u(odd, 0, "random WQEs: every CQE has a defined opcode");
	is_u(bad_state, 0, "random WQEs: the sender ends in RTS or ERR");
	ok(errs > 0, "random WQEs: garbage moves QPs to the error state");
	diag("%u CQEs, %u of %u senders in error", cqes, errs, WQE_ROUNDS);
}

int main(void)
{
	const char *seed = getenv("EMU_FUZZ_SEED");

	rng_state = seed ? strtoull(seed, NULL, 0) : 0x6d6c783578ull;
	if (!rng_state)
		rng_state = 1;
	diag("seed 0x%llx", (unsigned long long)rng_state);
	fuzz_commands();
	fuzz_wqes();
	return tap_done();
}
