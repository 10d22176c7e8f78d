// SPDX-License-Identifier: GPL-2.0
/*
 * Command queue: descriptors, mailbox chains good and malformed, delivery
 * status, the page slot, polling vs EQE completion, fault injection (at
 * start-up and while the device runs).
 */
#include <sys/eventfd.h>
#include <unistd.h>

#include "harness.h"

static uint8_t *lay(struct th *t, struct th_cmd *c)
{
	return th_host(t, c->desc);
}

/* QUERY_HCA_CAP: 16-byte input, 0x1010-byte output over 8 blocks */
static void query_cap_in(uint8_t *in)
{
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_CAP,
	       MLX5X_CAP_TYPE_GENERAL << 1 | MLX5X_CAP_MODE_MAX);
}

static void test_good(void)
{
	uint8_t in[16], out[MLX5X_QUERY_HCA_CAP_OUT_LEN];
	uint8_t *cap = out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF;
	struct th t;

	th_setup(&t);
	th_enable_hca(&t);
	query_cap_in(in);
	is_u(th_exec(&t, in, 16, out, sizeof(out)), 0,
	     "QUERY_HCA_CAP over an 8-block output chain is delivered");
	is_u(PGET(out, MLX5X_CMD_OUT_STATUS), 0, "... with status OK");
	is_u(PGET(cap, MLX5X_CAP_PORT_TYPE), MLX5X_CAP_PORT_TYPE_IB,
	     "... port_type IB in the first mailbox");
	is_u(PGET(cap, MLX5X_CAP_XRC), 1, "... xrc set (mlx5_ib needs it)");
	is_u(PGET(cap, MLX5X_CAP_LOG_MAX_QP), 16, "... MAX log_max_qp");
	is_u(t.e.cmdq.executed, 2, "two commands executed so far");
	th_teardown(&t);
}

/* SET_HCA_CAP carries 0x1010 input bytes over an 8-block input chain */
static void test_input_chain(void)
{
	uint8_t in[MLX5X_SET_HCA_CAP_IN_LEN] = { 0 }, out[16];
	uint8_t *cap = in + MLX5X_SET_HCA_CAP_IN_CAP_OFF;
	struct th t;

	th_setup(&t);
	th_enable_hca(&t);
	memcpy(cap, t.e.hca.cap_cur, MLX5X_HCA_CAP_LEN);
	PSET(cap, MLX5X_CAP_LOG_MAX_QP, 12);
	th_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, MLX5X_CAP_TYPE_GENERAL << 1);
	is_u(th_status(&t, in, sizeof(in), out, 16), 0,
	     "SET_HCA_CAP through an input chain");
	is_u(PGET(t.e.hca.cap_cur, MLX5X_CAP_LOG_MAX_QP), 12,
	     "... the value in the first mailbox reached CUR");
	th_teardown(&t);
}

/* each malformation of the chain gets its delivery status */
static void test_bad_chains(void)
{
	uint8_t in[16], out[MLX5X_QUERY_HCA_CAP_OUT_LEN];
	struct th_cmd c;
	struct th t;
	uint8_t *b;

	th_setup(&t);
	th_enable_hca(&t);
	query_cap_in(in);

	th_build(&t, 0, in, 16, sizeof(out), &c);
	put_be64(lay(&t, &c) + MLX5X_CMD_LAY_OUT_PTR_OFF, c.out_blk[0] + 8);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_OUT_PTR_ALIGN,
	     "misaligned output chain pointer -> OUT_PTR_ALIGN");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	b = th_host(&t, c.out_blk[2]);
	put_be64(b + MLX5X_MBOX_NEXT_OFF, 0);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_OUT_LENGTH,
	     "output chain shorter than outlen -> OUT_LENGTH");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	b = th_host(&t, c.out_blk[3]);
	put_be32(b + MLX5X_MBOX_BLOCK_NUM_OFF, 7);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_BAD_BLOCK,
	     "wrong block_num -> BAD_BLOCK");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	b = th_host(&t, c.out_blk[4]);
	put_be64(b + MLX5X_MBOX_NEXT_OFF, c.out_blk[1]);	/* a loop */
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_BAD_BLOCK,
	     "chain looping back to an earlier block -> BAD_BLOCK");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	b = th_host(&t, c.out_blk[5]);
	b[MLX5X_MBOX_TOKEN_OFF] ^= 0xff;
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_TOKEN,
	     "block token differs from the descriptor's -> TOKEN");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	b = th_host(&t, c.out_blk[1]);
	put_be64(b + MLX5X_MBOX_NEXT_OFF, 0x7000000000ull);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_FW_ERR,
	     "chain pointer outside guest memory -> refused, no crash");
	ok(t.e.gm.refused >= 1, "... the read was refused by the DMA checks");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	lay(&t, &c)[MLX5X_CMD_LAY_TYPE_OFF] = 3;
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_BAD_DESC,
	     "descriptor type other than PCI -> BAD_DESC");

	th_build(&t, 0, in, 16, 4, &c);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_OUT_LENGTH,
	     "outlen shorter than status+syndrome -> OUT_LENGTH");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	put_be32(lay(&t, &c) + MLX5X_CMD_LAY_INLEN_OFF, 0x400);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_IN_LENGTH,
	     "inlen promising mailboxes that are not there -> IN_LENGTH");

	th_build(&t, 0, in, 16, sizeof(out), &c);
	put_be32(lay(&t, &c) + MLX5X_CMD_LAY_OUTLEN_OFF, 0x40000000);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_OUT_LENGTH,
	     "absurd outlen -> OUT_LENGTH, nothing allocated");

	is_u(t.e.cmdq.executed, 1, "none of the malformed commands executed");
	is_u(t.e.cmdq.delivery_errors, 10, "ten delivery errors counted");
	th_teardown(&t);
}

static void test_bad_input_chain(void)
{
	uint8_t in[MLX5X_SET_HCA_CAP_IN_LEN] = { 0 }, *b;
	struct th_cmd c;
	struct th t;

	th_setup(&t);
	th_enable_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, 0);
	th_build(&t, 0, in, sizeof(in), 16, &c);
	put_be64(lay(&t, &c) + MLX5X_CMD_LAY_IN_PTR_OFF, c.in_blk[0] + 0x200);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_IN_PTR_ALIGN,
	     "misaligned input chain pointer -> IN_PTR_ALIGN");
	th_build(&t, 0, in, sizeof(in), 16, &c);
	b = th_host(&t, c.in_blk[6]);
	put_be64(b + MLX5X_MBOX_NEXT_OFF, 0);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_IN_LENGTH,
	     "input chain shorter than inlen -> IN_LENGTH");
	th_build(&t, 0, in, sizeof(in), 16, &c);
	b = th_host(&t, c.in_blk[0]);
	put_be64(b + MLX5X_MBOX_NEXT_OFF, c.in_blk[0]);
	is_u(th_ring(&t, &c), MLX5X_CMD_DELIV_BAD_BLOCK,
	     "input block pointing to itself -> BAD_BLOCK");
	th_teardown(&t);
}

static void test_slots(void)
{
	uint8_t in[16], out[16];
	struct th_cmd c;
	struct th t;

	th_setup(&t);
	th_enable_hca(&t);
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	is_u(th_exec_slot(&t, 31, in, 16, out, 16), MLX5X_CMD_DELIV_BAD_DESC,
	     "a regular command in the MANAGE_PAGES slot is refused");
	is_u(th_exec_slot(&t, 7, in, 16, out, 16), 0,
	     "the same command in slot 7 runs");

	th_build(&t, 3, in, 16, 16, &c);
	lay(&t, &c)[MLX5X_CMD_LAY_STATUS_OWN_OFF] = 0;	/* owned by software */
	is_u(th_ring(&t, &c), 0, "a doorbell for a slot the driver owns...");
	is_u(t.e.cmdq.spurious, 1, "... is ignored and counted");

	/* one doorbell with several bits executes every slot */
	{
		struct th_cmd a, b2;
		uint8_t v[4];

		th_build(&t, 1, in, 16, 16, &a);
		th_build(&t, 2, in, 16, 16, &b2);
		put_be32(v, 0x6);
		emu_bar0_write(&t.e, MLX5X_ISEG_CMD_DBELL_OFF, v, 4);
		emu_run_pending(&t.e);
		ok(!(lay(&t, &a)[MLX5X_CMD_LAY_STATUS_OWN_OFF] & 1) &&
		   !(lay(&t, &b2)[MLX5X_CMD_LAY_STATUS_OWN_OFF] & 1),
		   "one doorbell with two bits completes both slots");
	}
	th_teardown(&t);
}

static void test_status(void)
{
	uint8_t in[16] = { 0 }, out[16];
	struct th t;

	th_setup(&t);
	th_hdr(in, 0x0777, 0);
	is_u(th_status(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_OP,
	     "unknown opcode -> BAD_OP");
	ok(th_syndrome(out) != 0, "... with a syndrome");
	th_hdr(in, MLX5X_CMD_OP_QUERY_ISSI, 0);
	{
		uint8_t big[MLX5X_QUERY_ISSI_OUT_LEN];

		is_u(th_status(&t, in, 16, big, sizeof(big)),
		     MLX5X_CMD_STAT_BAD_SYS_STATE,
		     "QUERY_ISSI before ENABLE_HCA -> BAD_SYS_STATE");
	}
	th_enable_hca(&t);
	is_u(th_status(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_OUTP_LEN,
	     "QUERY_ISSI with a 16-byte output -> BAD_OUTP_LEN");
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	PSET(in, MLX5X_CMD_IN_UID, 5);
	is_u(th_status(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "a uid without user contexts -> BAD_PARAM");
	th_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, 0);
	PSET(in, MLX5X_CMD_IN_UID, 0);
	is_u(th_status(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_INP_LEN,
	     "SET_HCA_CAP with 16 input bytes -> BAD_INP_LEN");
	is_u(t.e.stats.cmd_failed, 5, "failures counted");
	th_teardown(&t);
}

/*
 * Completion by EQE only once an EQ subscribed to command events exists
 * before the command: never for the CREATE_EQ making it.
 */
static void test_cmd_eqe(void)
{
	uint8_t in[16] = { 0 }, out[16], *ring;
	int efd = eventfd(0, EFD_NONBLOCK);
	uint64_t ring_iova, cnt = 0;
	struct th t;
	uint32_t eqn;
	uint8_t v[4];

	th_setup(&t);
	irq_assign(&t.e.irq, 0, 1, &efd);
	th_init_hca(&t);
	eqn = th_create_eq(&t, 3, 1ull << MLX5X_EVENT_CMD, 0, &ring_iova);
	ring = th_host(&t, ring_iova);
	is_u(t.e.cmdq.eqes, 0, "no completion EQE for the CREATE_EQ of the command EQ");
	ok(ring[MLX5X_EQE_OWNER_OFF] == 1, "... its ring is untouched");
	/* arm it, as the driver does before switching to events */
	put_be32(v, eqn << 24);
	emu_bar0_write(&t.e, t.uar * 4096ull + MLX5X_UAR_EQ_ARM_OFF, v, 4);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	th_exec_slot(&t, 5, in, 16, out, 16);
	is_u(t.e.cmdq.eqes, 1, "the next command completes by EQE too");
	is_u(ring[MLX5X_EQE_TYPE_OFF], MLX5X_EVENT_CMD, "... type CMD");
	is_u(get_be32(ring + MLX5X_EQE_CMD_VECTOR_OFF), 1u << 5,
	     "... vector = the slot's bit");
	is_u(ring[MLX5X_EQE_OWNER_OFF], 0, "... owner 0 on the first lap");
	ok(read(efd, &cnt, 8) == 8 && cnt == 1, "... and MSI-X vector 0 fired");
	th_exec_slot(&t, 5, in, 16, out, 16);
	ok(read(efd, &cnt, 8) < 0, "no interrupt while the EQ is not re-armed");
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_DESTROY_EQ, 0);
	PSET(in, MLX5X_DESTROY_EQ_IN_EQ_NUMBER, eqn);
	is_u(th_status(&t, in, 16, out, 16), 0, "destroy the command EQ");
	is_u(t.e.cmdq.eqes, 2, "... its own DESTROY_EQ gets no EQE");
	close(efd);
	th_teardown(&t);
}

static void test_faults(void)
{
	uint8_t in[16] = { 0 };
	struct emu_opts o;
	struct th_cmd c;
	struct th t;

	th_default_opts(&o);
	o.fault.timeout_op = MLX5X_CMD_OP_NOP;
	o.fault.status_op = MLX5X_CMD_OP_QUERY_ISSI;
	o.fault.status = MLX5X_CMD_STAT_INT_ERR;
	o.fault.syndrome = 0x1234;
	o.fault.status_nth = 2;
	th_setup_opts(&t, &o);
	th_enable_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	th_build(&t, 0, in, 16, 16, &c);
	is_u(th_ring(&t, &c), -1, "fault-cmd-timeout: NOP stays owned by the device");
	th_hdr(in, MLX5X_CMD_OP_QUERY_ISSI, 0);
	{
		uint8_t o2[MLX5X_QUERY_ISSI_OUT_LEN];

		is_u(th_status(&t, in, 16, o2, sizeof(o2)), 0,
		     "fault-cmd-status: first QUERY_ISSI passes (nth = 2)");
		is_u(th_status(&t, in, 16, o2, sizeof(o2)), MLX5X_CMD_STAT_INT_ERR,
		     "... the second fails with the injected status");
		is_u(th_syndrome(o2), 0x1234, "... and syndrome");
	}
	th_teardown(&t);
}

/* fault request @req (word and argument) over the request channel */
static int fault_req(struct th *t, const char *word, const char *arg,
		     char *why, size_t len)
{
	return events_run(&t->e, word, arg, why, len);
}

/* census line of @name in @dir/census, its count (-1: none) */
static long census_count(const char *dir, const char *name)
{
	char path[256], n[64];
	unsigned int op;
	long cnt, found = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/census", dir);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fscanf(fp, "%63s %x %ld", n, &op, &cnt) == 3)
		if (!strcmp(n, name))
			found = cnt;
	fclose(fp);
	return found;
}

/*
 * Faults set while the device runs: "fail OPCODE NTH STATUS SYNDROME"
 * counts from the moment it is set and fires once; "census" lists what
 * ran; "state" tells whether the fault fired and what is still alive.
 */
static void test_runtime_faults(void)
{
	static const struct {
		const char *word, *arg, *what;
	} refused[] = {
		{ "fail", "QUERY_ISSI 0 0x3 0", "NTH 0 refused" },
		{ "fail", "QUERY_ISSI 1 0 0", "status 0 refused" },
		{ "fail", "NO_SUCH_OP 1 3 0", "unknown opcode refused" },
		{ "fail", "QUERY_ISSI 1 3", "missing syndrome refused" },
		{ "fail", "QUERY_ISSI 1 3 0 x", "trailing words refused" },
		{ "census", "x", "census takes no argument" },
	};
	uint8_t in[16] = { 0 }, out[MLX5X_QUERY_ISSI_OUT_LEN];
	char dir[] = "/tmp/emu-fault-XXXXXX", why[512], path[300];
	struct emu_opts o;
	struct th t;
	int i;

	is_u(mkdtemp(dir) != NULL, 1, "request directory");
	th_default_opts(&o);
	o.events_ctl = dir;
	th_setup_opts(&t, &o);
	th_enable_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_QUERY_ISSI, 0);
	is_u(th_status(&t, in, 16, out, sizeof(out)), 0, "QUERY_ISSI before any fault");
	is_u(fault_req(&t, "fail", "QUERY_ISSI 2 0x3 0x0badc0de", why, sizeof(why)), 0,
	     "fail QUERY_ISSI 2 0x3 0x0badc0de accepted");
	is_u(fault_req(&t, "state", "", why, sizeof(why)), 0, "state answered");
	is_u(strstr(why, "fail=QUERY_ISSI nth=2 seen=0 pending") != NULL, 1,
	     "... the fault is pending");
	is_u(th_status(&t, in, 16, out, sizeof(out)), 0,
	     "the 1st QUERY_ISSI after it runs (counting starts when set)");
	is_u(th_status(&t, in, 16, out, sizeof(out)), MLX5X_CMD_STAT_BAD_PARAM,
	     "the 2nd fails with the status set");
	is_u(th_syndrome(out), 0x0badc0de, "... and the syndrome");
	for (i = 0; i < 2; i++)
		is_u(th_status(&t, in, 16, out, sizeof(out)), 0,
		     "later ones run: it fails once");
	fault_req(&t, "state", "", why, sizeof(why));
	is_u(strstr(why, "seen=4 fired") != NULL, 1, "state: the fault fired");
	is_u(fault_req(&t, "fail", "QUERY_ISSI 1 0x5 0", why, sizeof(why)), 0,
	     "a new fault replaces the old");
	is_u(fault_req(&t, "fail", "off", why, sizeof(why)), 0, "fail off");
	is_u(th_status(&t, in, 16, out, sizeof(out)), 0, "... nothing fails after it");
	is_u(fault_req(&t, "census", "", why, sizeof(why)), 0, "census written");
	/* 5 run by the firmware, the injected one did not run */
	is_u((unsigned long)census_count(dir, "QUERY_ISSI"), 5,
	     "census: QUERY_ISSI as often as it ran");
	is_u((unsigned long)census_count(dir, "ENABLE_HCA"), 1, "census: ENABLE_HCA once");
	is_u(census_count(dir, "CREATE_QP") == -1, 1, "census: no line for what never ran");
	for (i = 0; i < (int)ARRAY_SIZE(refused); i++)
		is_u(fault_req(&t, refused[i].word, refused[i].arg, why,
			       sizeof(why)), -1, refused[i].what);
	th_teardown(&t);
	snprintf(path, sizeof(path), "%s/census", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * A command EQ of 8 entries on vector 0 (eventfd *efd), armed; the
 * completion mode and faults of @o apply from then on (the bring-up
 * before it polls).
 */
static uint8_t *cmd_eq_setup(struct th *t, const struct emu_opts *o, int *efd)
{
	uint64_t ring_iova;
	uint8_t *ring;
	uint32_t eqn;
	uint8_t v[4];

	th_setup(t);
	*efd = eventfd(0, EFD_NONBLOCK);
	irq_assign(&t->e.irq, 0, 1, efd);
	th_init_hca(t);
	eqn = th_create_eq(t, 3, 1ull << MLX5X_EVENT_CMD, 0, &ring_iova);
	put_be32(v, eqn << 24);
	emu_bar0_write(&t->e, t->uar * 4096ull + MLX5X_UAR_EQ_ARM_OFF, v, 4);
	ring = th_host(t, ring_iova);
	t->e.opt.cmd_eqe = o->cmd_eqe;
	t->e.opt.fault = o->fault;
	return ring;
}

/* slot vector of CMD EQE number i of the ring (8 entries) */
static uint32_t eqe_vec(const uint8_t *ring, unsigned int i)
{
	const uint8_t *eqe = ring + (i % 8) * MLX5X_EQE_LEN;

	return eqe[MLX5X_EQE_TYPE_OFF] == MLX5X_EVENT_CMD ?
	       get_be32(eqe + MLX5X_EQE_CMD_VECTOR_OFF) : 0;
}

/* ring the doorbell for several built commands at once, run what is due */
static void ring_many(struct th *t, uint32_t bits)
{
	uint8_t v[4];

	put_be32(v, bits);
	emu_bar0_write(&t->e, MLX5X_ISEG_CMD_DBELL_OFF, v, 4);
	emu_run_pending(&t->e);
}

static bool owned(struct th *t, struct th_cmd *c)
{
	return lay(t, c)[MLX5X_CMD_LAY_STATUS_OWN_OFF] & MLX5X_CMD_OWNER_MASK;
}

static void test_cmd_eqe_delay_coalesce(void)
{
	uint8_t in[16] = { 0 }, out[16], *ring;
	struct emu_opts o;
	struct th t;
	int efd;

	th_default_opts(&o);
	o.cmd_eqe.mode = CMD_EQE_DELAY;
	o.cmd_eqe.ms = 1000;
	ring = cmd_eq_setup(&t, &o, &efd);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	is_u(th_exec_slot(&t, 5, in, 16, out, 16), 0,
	     "delay: the command completes by its owner bit at once");
	is_u(t.e.cmdq.eqes, 0, "... its EQE is held back");
	ok(cmdq_wake_at(&t.e) > now_ns(), "... and due later");
	cmdq_run_at(&t.e, UINT64_MAX);
	is_u(t.e.cmdq.eqes, 1, "... then posted");
	is_u(eqe_vec(ring, 0), 1u << 5, "... for the slot");
	is_u(t.e.cmdq.delayed, 1, "... counted as delayed");
	close(efd);
	th_teardown(&t);

	o.cmd_eqe.mode = CMD_EQE_COALESCE;
	ring = cmd_eq_setup(&t, &o, &efd);
	th_exec_slot(&t, 1, in, 16, out, 16);
	th_exec_slot(&t, 2, in, 16, out, 16);
	is_u(t.e.cmdq.eqes, 0, "coalesce: two completions, no EQE yet");
	cmdq_run_at(&t.e, UINT64_MAX);
	is_u(t.e.cmdq.eqes, 1, "... then one EQE");
	is_u(eqe_vec(ring, 0), 0x6, "... whose vector names both slots");
	is_u(t.e.cmdq.eqes_merged, 1, "... counted as merged");
	is_u(t.e.cmdq.coalesced, 2, "... two completions coalesced");
	is_u(t.e.cmdq.delayed, 0, "... none delayed on its own");
	th_exec_slot(&t, 3, in, 16, out, 16);
	cmdq_run_at(&t.e, UINT64_MAX);
	is_u(eqe_vec(ring, 1), 1u << 3, "coalesce: a lone completion's EQE");
	is_u(t.e.cmdq.coalesced, 2, "... is not counted as coalesced");
	close(efd);
	th_teardown(&t);
}

static void test_cmd_eqe_reorder_duplicate(void)
{
	uint8_t in[16] = { 0 }, *ring;
	struct th_cmd a, b;
	struct emu_opts o;
	struct th t;
	int efd;

	th_default_opts(&o);
	o.cmd_eqe.mode = CMD_EQE_REORDER;
	o.cmd_eqe.ms = 1000;
	ring = cmd_eq_setup(&t, &o, &efd);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	th_build(&t, 1, in, 16, 16, &a);
	th_build(&t, 2, in, 16, 16, &b);
	ring_many(&t, 0x6);
	ok(owned(&t, &a) && owned(&t, &b),
	   "reorder: commands rung together wait for the window");
	cmdq_run_at(&t.e, UINT64_MAX);
	ok(!owned(&t, &a) && !owned(&t, &b), "... then both complete");
	ok(eqe_vec(ring, 0) == 1u << 2 && eqe_vec(ring, 1) == 1u << 1,
	   "... the higher slot first");
	is_u(t.e.cmdq.reordered, 1,
	     "... one command ran ahead of a lower slot");
	th_build(&t, 4, in, 16, 16, &a);
	ring_many(&t, 1u << 4);
	cmdq_run_at(&t.e, UINT64_MAX);
	ok(!owned(&t, &a), "reorder: a command rung alone completes");
	is_u(t.e.cmdq.reordered, 1, "... and is not counted as reordered");
	close(efd);
	th_teardown(&t);

	o.cmd_eqe.mode = CMD_EQE_DUPLICATE;
	ring = cmd_eq_setup(&t, &o, &efd);
	th_build(&t, 3, in, 16, 16, &a);
	ring_many(&t, 1u << 3);
	is_u(t.e.cmdq.eqes, 1, "duplicate: the first command's EQE");
	th_build(&t, 3, in, 16, 16, &a);
	ring_many(&t, 1u << 3);
	is_u(t.e.cmdq.eqes, 2, "... again when the slot is rung next");
	ok(eqe_vec(ring, 1) == 1u << 3 && owned(&t, &a),
	   "... while the device owns the new command");
	cmdq_run_at(&t.e, UINT64_MAX);
	ok(!owned(&t, &a) && eqe_vec(ring, 2) == 1u << 3,
	   "... which then completes with its own EQE");
	is_u(t.e.cmdq.eqes_dup, 1, "... one repeat counted");
	close(efd);
	th_teardown(&t);
}

/* --cmd-completion and the cmd-completion request: MODE[:MS] */
static void test_parse_completion(void)
{
	struct cmd_eqe_cfg c = { .mode = CMD_EQE_DUPLICATE, .ms = 99 };

	ok(!cmdq_parse_completion(&c, "delay"), "delay");
	ok(c.mode == CMD_EQE_DELAY && c.ms == 5, "... 5 ms unless given");
	ok(!cmdq_parse_completion(&c, "coalesce:20"), "coalesce:20");
	ok(c.mode == CMD_EQE_COALESCE && c.ms == 20, "... mode and window");
	ok(!cmdq_parse_completion(&c, "prompt:0"), "prompt:0");
	ok(cmdq_parse_completion(&c, "delay:") < 0, "delay: (no MS) refused");
	ok(cmdq_parse_completion(&c, "delay:5x") < 0, "delay:5x refused");
	ok(cmdq_parse_completion(&c, "delay:-1") < 0, "delay:-1 refused");
	ok(cmdq_parse_completion(&c, "delay:60001") < 0,
	   "a delay beyond the driver's command timeout refused");
	ok(cmdq_parse_completion(&c, "dela") < 0, "a prefix of a mode refused");
	ok(cmdq_parse_completion(&c, "") < 0, "no mode refused");
	ok(c.mode == CMD_EQE_PROMPT && c.ms == 0,
	   "... a refused one changes nothing");
	ok(!strcmp(cmdq_completion_name(CMD_EQE_REORDER), "reorder"), "mode names");
}

/*
 * The mode changes while the device runs: what was held keeps its time,
 * later commands follow the new mode, repeats owed by duplicate go with it.
 */
static void test_switch_completion(void)
{
	struct cmd_eqe_cfg prompt = { CMD_EQE_PROMPT, 0 };
	uint8_t in[16] = { 0 }, out[16], *ring;
	struct emu_opts o;
	struct th_cmd a;
	struct th t;
	uint64_t at;
	int efd;

	th_default_opts(&o);
	o.cmd_eqe.mode = CMD_EQE_DELAY;
	o.cmd_eqe.ms = 1000;
	ring = cmd_eq_setup(&t, &o, &efd);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	th_exec_slot(&t, 1, in, 16, out, 16);
	at = cmdq_wake_at(&t.e);
	cmdq_set_completion(&t.e, &prompt);
	is_u(cmdq_wake_at(&t.e), at, "delay -> prompt: the held EQE keeps its time");
	th_exec_slot(&t, 2, in, 16, out, 16);
	is_u(t.e.cmdq.eqes, 1, "... the next command's EQE comes at once");
	is_u(eqe_vec(ring, 0), 1u << 2, "... for its slot");
	cmdq_run_at(&t.e, UINT64_MAX);
	is_u(t.e.cmdq.eqes, 2, "... then the held one");
	is_u(eqe_vec(ring, 1), 1u << 1, "... for the earlier slot");
	close(efd);
	th_teardown(&t);

	o.cmd_eqe.mode = CMD_EQE_DUPLICATE;
	o.cmd_eqe.ms = 1000;
	cmd_eq_setup(&t, &o, &efd);
	th_exec_slot(&t, 3, in, 16, out, 16);
	is_u(t.e.cmdq.dup_vec, 1u << 3, "duplicate: a repeat is owed to slot 3");
	cmdq_set_completion(&t.e, &prompt);
	is_u(t.e.cmdq.dup_vec, 0, "duplicate -> prompt: the repeat is dropped");
	th_build(&t, 3, in, 16, 16, &a);
	ring_many(&t, 1u << 3);
	ok(!owned(&t, &a) && t.e.cmdq.eqes == 2 && !t.e.cmdq.eqes_dup,
	   "... slot 3 rung again: one EQE, no repeat, no hold");
	close(efd);
	th_teardown(&t);
}

static void test_cmd_irq_drop(void)
{
	uint8_t in[16] = { 0 }, out[16];
	struct emu_opts o;
	uint64_t cnt = 0;
	struct th t;
	int efd;

	th_default_opts(&o);
	o.fault.cmd_irq_drop = 1;
	cmd_eq_setup(&t, &o, &efd);
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	th_exec_slot(&t, 0, in, 16, out, 16);
	is_u(t.e.cmdq.eqes, 1, "irq drop: the EQE is written");
	ok(read(efd, &cnt, 8) < 0, "... its interrupt is lost");
	th_exec_slot(&t, 1, in, 16, out, 16);
	ok(read(efd, &cnt, 8) < 0,
	   "... and the EQ stays disarmed until the driver re-arms it");
	is_u(t.e.cmdq.irqs_lost, 1, "... one lost interrupt counted");
	close(efd);
	th_teardown(&t);
}

int main(void)
{
	test_good();
	test_input_chain();
	test_bad_chains();
	test_bad_input_chain();
	test_slots();
	test_status();
	test_cmd_eqe();
	test_faults();
	test_runtime_faults();
	test_cmd_eqe_delay_coalesce();
	test_cmd_eqe_reorder_duplicate();
	test_parse_completion();
	test_switch_completion();
	test_cmd_irq_drop();
	return tap_done();
}
