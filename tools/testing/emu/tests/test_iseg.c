// SPDX-License-Identifier: GPL-2.0
/*
 * BAR0: the initialization segment (versions, command queue address,
 * nic_interface, initializing handshake, health buffer and counter,
 * timer), the health fault, and accesses outside any register.
 */
#include "harness.h"

static uint32_t rd32(struct th *t, uint32_t off)
{
	uint8_t b[4];

	emu_bar0_read(&t->e, off, b, 4);
	return get_be32(b);
}

static void wr32(struct th *t, uint32_t off, uint32_t v)
{
	uint8_t b[4];

	put_be32(b, v);
	emu_bar0_write(&t->e, off, b, 4);
}

static void test_registers(void)
{
	struct emu_opts o;
	struct th t;
	uint8_t b[8];
	uint32_t v;

	th_default_opts(&o);
	o.init_delay_ms = 60000;	/* still initializing for the test */
	th_setup_opts(&t, &o);
	is_u(rd32(&t, MLX5X_ISEG_FW_REV_OFF), 35u << 16 | 16, "fw_rev: minor 35, major 16");
	is_u(rd32(&t, MLX5X_ISEG_CMDIF_REV_OFF), 5u << 16 | 4030,
	     "cmdif rev 5, sub-minor 4030");
	ok(rd32(&t, MLX5X_ISEG_INITIALIZING_OFF) & MLX5X_ISEG_INITIALIZING_MASK,
	   "right after reset the firmware is initializing");
	ok(!(rd32(&t, MLX5X_ISEG_INITIALIZING_OFF) & MLX5X_ISEG_EMBEDDED_CPU_MASK),
	   "... and is not an embedded CPU function");
	v = rd32(&t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF);
	is_u(v & 0xff, 0x56, "32 command slots of 64 bytes (log_sz 5, log_stride 6)");
	is_u(v & MLX5X_ISEG_CMDQ_ADDR_L_MASK, (uint32_t)t.cmdq,
	     "the command queue address reads back");
	is_u(v & MLX5X_ISEG_NIC_IFC_MASK, 0, "nic_interface: full driver");
	wr32(&t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF, (uint32_t)t.cmdq |
	     MLX5X_NIC_IFC_DISABLED << 8);
	is_u(rd32(&t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF) & MLX5X_ISEG_NIC_IFC_MASK,
	     MLX5X_NIC_IFC_DISABLED << 8, "the driver's nic_interface reads back");
	wr32(&t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF, (uint32_t)t.cmdq);
	ok(rd32(&t, MLX5X_ISEG_HEALTH_FW_VER_OFF) != 0xffffffff,
	   "health fw_ver is not all-ones (that means PCI dead)");
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_SYND_OFF), 0, "no health syndrome");
	is_u(rd32(&t, MLX5X_ISEG_CMD_Q_INIT_TO_OFF), 0,
	     "cmd_q_init_to 0: no DTOR register needed");
	v = rd32(&t, MLX5X_ISEG_HEALTH_COUNTER_OFF);
	ok(rd32(&t, MLX5X_ISEG_HEALTH_COUNTER_OFF) != v,
	   "the health counter advances between two polls");
	emu_bar0_read(&t.e, MLX5X_ISEG_HEALTH_SYND_OFF + 1, b, 1);
	is_u(b[0], 0, "a one-byte read of synd");
	emu_bar0_read(&t.e, MLX5X_ISEG_FW_REV_OFF + 2, b, 4);
	ok(b[0] == 0 && b[1] == 16 && b[2] == 0 && b[3] == 5,
	   "a read across two registers returns both halves");
	wr32(&t, MLX5X_ISEG_FW_REV_OFF, 0x12345678);
	is_u(rd32(&t, MLX5X_ISEG_FW_REV_OFF), 35u << 16 | 16, "fw_rev is read-only");
	emu_bar0_write(&t.e, MLX5X_ISEG_CMD_DBELL_OFF + 1, b, 2);
	is_u(t.e.stats.bar_bad, 2, "read-only and unaligned writes are counted");
	memset(b, 0x55, 8);
	emu_bar0_read(&t.e, EMU_BAR0_SIZE - 4, b, 8);
	ok(b[0] == 0 && b[7] == 0, "a read running past BAR0 returns zeros");
	th_teardown(&t);
}

static void test_health_fault(void)
{
	uint8_t in[16] = { 0 }, out[16];
	struct emu_opts o;
	struct th t;

	th_default_opts(&o);
	o.fault.health_synd = 0x0a;
	o.fault.health_delay_ms = 0;
	th_setup_opts(&t, &o);
	ok(!(rd32(&t, MLX5X_ISEG_INITIALIZING_OFF) & MLX5X_ISEG_INITIALIZING_MASK),
	   "with no init delay the firmware is ready at once");
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_SYND_OFF), 0, "no syndrome before INIT_HCA");
	th_init_hca(&t);
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_SYND_OFF) >> 16 & 0xff, 0x0a,
	     "fault-health: the syndrome shows after INIT_HCA");
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_RFR_SEV_OFF), 0,
	     "... without the recovery-flow request unless asked");
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	is_u(th_status(&t, in, 16, out, 16), 0, "... commands still work");
	th_teardown(&t);

	o.fault.health_rfr = true;
	th_setup_opts(&t, &o);
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_RFR_SEV_OFF), 0,
	     "fault-health with rfr: no request before INIT_HCA");
	th_init_hca(&t);
	/* the request shows with the syndrome, whichever is read first */
	ok(rd32(&t, MLX5X_ISEG_HEALTH_RFR_SEV_OFF) & MLX5X_ISEG_HEALTH_RFR_MASK,
	   "... the recovery flow is requested after INIT_HCA");
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_SYND_OFF) >> 16 & 0xff, 0x0a,
	     "... with the syndrome");
	th_teardown(&t);
}

/* program the command queue again, as a driver does after a reset */
static void set_cmdq(struct th *t)
{
	wr32(t, MLX5X_ISEG_CMDQ_ADDR_H_OFF, (uint32_t)(t->cmdq >> 32));
	wr32(t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF, (uint32_t)t->cmdq);
}

/*
 * A fatal syndrome stalls the health counter; nic_interface SW_RESET
 * (mlx5_core's recovery) resets the firmware: objects and pages gone,
 * health clear, counter moving, interface DISABLED until the driver
 * loads again.
 */
static void test_fw_reset(void)
{
	uint32_t c;
	struct th t;

	th_setup(&t);
	ok(rd32(&t, MLX5X_ISEG_INITIALIZING_OFF) & MLX5X_ISEG_FW_RESET_SUP_MASK,
	   "initializing: the firmware can reset itself");
	th_init_hca(&t);
	iseg_health_raise(&t.e, 0x01, true);
	is_u(t.e.stats.health_fatal, 1, "a fatal syndrome is counted");
	c = rd32(&t, MLX5X_ISEG_HEALTH_COUNTER_OFF);
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_COUNTER_OFF), c,
	     "... and the health counter stands still");
	iseg_health_raise(&t.e, 0x01, true);
	is_u(t.e.stats.health_fatal, 1, "... once while the firmware is down");
	wr32(&t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF, (uint32_t)t.cmdq |
	     MLX5X_NIC_IFC_SW_RESET << 8);
	is_u(t.e.stats.fw_resets, 1, "nic_interface SW_RESET resets the firmware");
	is_u(rd32(&t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF) & MLX5X_ISEG_NIC_IFC_MASK,
	     MLX5X_NIC_IFC_DISABLED << 8, "... which comes back DISABLED");
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_SYND_OFF), 0, "... health syndrome clear");
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_RFR_SEV_OFF), 0, "... no recovery request");
	c = rd32(&t, MLX5X_ISEG_HEALTH_COUNTER_OFF);
	ok(rd32(&t, MLX5X_ISEG_HEALTH_COUNTER_OFF) != c,
	   "... the health counter moves again");
	ok(!t.e.hca.enabled && !t.e.hca.initialized && !t.e.hca.npages,
	   "... HCA disabled, not initialized, no page held");
	is_u(t.e.obj[OBJ_PD].live, 0, "... its objects destroyed");
	set_cmdq(&t);
	is_u(rd32(&t, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF) & MLX5X_ISEG_NIC_IFC_MASK,
	     0, "the driver loads again: full driver");
	th_init_hca(&t);
	ok(t.e.hca.initialized, "... and the HCA initializes as after power-on");
	th_teardown(&t);
}

/* PCIe FLR: advertised, and a write of Initiate FLR resets the function. */
static void test_flr(void)
{
	uint16_t ctl = 0x2810 | 0x8000;
	uint32_t cap;
	struct th t;

	th_setup(&t);
	pcicfg_read(&t.e.cfg, PCICFG_CAP_PCIE + 4, &cap, 4);
	ok(cap & 0x10000000u, "devcap: function level reset capable");
	th_init_hca(&t);
	iseg_health_raise(&t.e, 0x01, true);
	is_u(pcicfg_write(&t.e.cfg, PCICFG_CAP_PCIE + 8, &ctl, 2), PCICFG_FLR,
	     "devctl with Initiate FLR starts a reset");
	emu_flr(&t.e);
	is_u(t.e.stats.flrs, 1, "... counted");
	ok(!t.e.hca.enabled && !t.e.hca.npages && !t.e.obj[OBJ_PD].live,
	   "... the firmware is back at power-on: no HCA, page or object");
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_SYND_OFF), 0, "... health syndrome clear");
	pcicfg_read(&t.e.cfg, PCICFG_CAP_PCIE + 8, &ctl, 2);
	is_u(ctl & 0x8000, 0, "Initiate FLR reads back 0");
	ctl = 0x2810;
	is_u(pcicfg_write(&t.e.cfg, PCICFG_CAP_PCIE + 8, &ctl, 2), 0,
	     "devctl without it: no reset");
	set_cmdq(&t);
	th_init_hca(&t);
	ok(t.e.hca.initialized, "the HCA initializes again after the FLR");
	th_teardown(&t);
}

static uint32_t cfg_rd(struct th *t, uint32_t off)
{
	uint32_t v;

	pcicfg_read(&t->e.cfg, off, &v, 4);
	return v;
}

static void cfg_wr(struct th *t, uint32_t off, uint32_t v)
{
	pcicfg_write(&t->e.cfg, off, &v, 4);
}

/* the semaphore space read as mlx5_core's gateway read does it */
static uint32_t sem_read(struct th *t)
{
	cfg_wr(t, PCICFG_CAP_VSC + 0x10, 0x20);
	ok(cfg_rd(t, PCICFG_CAP_VSC + 0x10) >> 31, "... read: the flag is set when done");
	return cfg_rd(t, PCICFG_CAP_VSC + 0x14);
}

static void sem_write(struct th *t, uint32_t v)
{
	cfg_wr(t, PCICFG_CAP_VSC + 0x14, v);
	cfg_wr(t, PCICFG_CAP_VSC + 0x10, 0x80000020);
	ok(!(cfg_rd(t, PCICFG_CAP_VSC + 0x10) >> 31), "... write: the flag is cleared when done");
}

/* The VSC semaphore space: the SW reset lock of mlx5_core's recovery. */
static void test_vsc_semaphore(void)
{
	struct th t;

	th_setup(&t);
	cfg_wr(&t, PCICFG_CAP_VSC + 0x04, 0x7);
	is_u(cfg_rd(&t, PCICFG_CAP_VSC + 0x04) >> 29, 0,
	     "crspace scan space: not supported");
	cfg_wr(&t, PCICFG_CAP_VSC + 0x04, 0xa);
	ok(cfg_rd(&t, PCICFG_CAP_VSC + 0x04) >> 29, "semaphore space: supported");
	sem_write(&t, 0x1234);
	is_u(sem_read(&t), 0x1234, "SW reset semaphore taken by the first writer");
	sem_write(&t, 0x5678);
	is_u(sem_read(&t), 0x1234, "... not by another while held");
	sem_write(&t, 0);
	is_u(sem_read(&t), 0, "... released with 0");
	th_teardown(&t);
}

/* A dead device: all-ones, nothing runs, and no reset revives it. */
static void test_death(void)
{
	uint8_t in[16] = { 0 };
	struct th_cmd c;
	uint64_t cmds;
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	cmds = t.e.stats.cmds;
	emu_die_locked(&t.e);
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_FW_VER_OFF), 0xffffffff,
	     "dead: health fw_ver reads all-ones");
	is_u(rd32(&t, MLX5X_ISEG_CMDIF_REV_OFF), 0xffffffff,
	     "... so does every init segment word");
	th_hdr(in, MLX5X_CMD_OP_NOP, 0);
	th_build(&t, 0, in, 16, 16, &c);
	ok(th_ring(&t, &c) == -1,
	     "... a command rung stays device-owned: never run");
	is_u(t.e.stats.cmds, cmds, "... and is not counted");
	emu_flr(&t.e);
	is_u(rd32(&t, MLX5X_ISEG_HEALTH_FW_VER_OFF), 0xffffffff,
	     "... and an FLR does not bring it back");
	ok(t.e.dead_reads >= 3 && t.e.dead_writes >= 1,
	   "dead reads and writes are counted");
	th_teardown(&t);
}

int main(void)
{
	test_registers();
	test_health_fault();
	test_fw_reset();
	test_flr();
	test_death();
	test_vsc_semaphore();
	return tap_done();
}
