// SPDX-License-Identifier: GPL-2.0
/*
 * The initialization segment: firmware version, command interface
 * revision, command queue address and doorbell, the "initializing"
 * handshake, the health buffer and the free-running timers.
 * Called with emu.lock held.
 */
#include "cmd.h"
#include "log.h"

/* health counter: advances every 100 ms while the firmware is alive */
#define HEALTH_TICK_NS	100000000ull

void iseg_reset(struct emu *e)
{
	struct emu_iseg *s = &e->iseg;
	uint64_t now = now_ns();

	s->cmdq_addr_h = 0;
	s->cmdq_addr = 0;
	s->nic_ifc = MLX5X_NIC_IFC_FULL_DRIVER;
	s->initializing_low = 0;
	s->init_until_ns = now + (uint64_t)e->opt.init_delay_ms * 1000000ull;
	s->health_synd = 0;
	s->health_rfr = false;
	s->health_at_ns = 0;
	s->health_stalled = false;
	if (!s->t0_ns)
		s->t0_ns = now;
}

static uint32_t fw_ver_word(struct emu *e)
{
	return (e->opt.fw_major & 0xff) << 24 | (e->opt.fw_minor & 0xff) << 16 |
	       (e->opt.fw_sub & 0xffff);
}

/*
 * The firmware failed and asks for the recovery flow: it stops, and so
 * does the health counter it advances while alive (mlx5_core counts the
 * polls without progress).  A reset brings both back.
 */
static void health_fail(struct emu *e)
{
	if (!e->iseg.health_stalled)
		e->stats.health_fatal++;
	e->iseg.health_stalled = true;
}

/* fault: the syndrome (and its recovery request) appear together */
static void health_raise_due(struct emu *e)
{
	struct emu_iseg *s = &e->iseg;

	if (s->health_at_ns && now_ns() >= s->health_at_ns) {
		s->health_synd = (uint8_t)e->opt.fault.health_synd;
		s->health_rfr = e->opt.fault.health_rfr;
		s->health_at_ns = 0;
		if (s->health_rfr)
			health_fail(e);
		emu_info("fault: health syndrome 0x%x raised%s", s->health_synd,
			 s->health_rfr ? " with recovery flow requested" : "");
	}
}

/*
 * Firmware reports a failure in the health buffer: the syndrome, and the
 * recover-flow-request bit when the driver must reset the function
 * (mlx5_core's health poll treats only RFR with a syndrome as fatal; a
 * syndrome alone is a warning).  The first syndrome stays, unless a
 * fatal one (RFR) follows a warning.
 */
void iseg_health_raise(struct emu *e, uint8_t synd, bool rfr)
{
	struct emu_iseg *s = &e->iseg;

	if (!s->health_synd || (rfr && !s->health_rfr)) {
		s->health_synd = synd;
		emu_info("health syndrome 0x%x raised%s", synd,
			 rfr ? " (recover flow requested)" : "");
	}
	s->health_rfr |= rfr;
	if (rfr)
		health_fail(e);
}

static uint32_t read_health(struct emu *e, uint32_t off)
{
	health_raise_due(e);
	switch (off) {
	case MLX5X_ISEG_HEALTH_FW_VER_OFF:
		return fw_ver_word(e);
	case MLX5X_ISEG_HEALTH_HW_ID_OFF:
		return 0x20d;
	case MLX5X_ISEG_HEALTH_RFR_SEV_OFF:
		return e->iseg.health_rfr ? MLX5X_ISEG_HEALTH_RFR_MASK : 0;
	case MLX5X_ISEG_HEALTH_SYND_OFF:
		return (uint32_t)e->iseg.health_synd << 16;
	default:
		return 0;
	}
}

uint32_t iseg_read32(struct emu *e, uint32_t off)
{
	struct emu_iseg *s = &e->iseg;
	uint64_t t = now_ns() - s->t0_ns;

	if (off >= MLX5X_ISEG_HEALTH_OFF && off < MLX5X_ISEG_HEALTH_OFF + 0x40)
		return read_health(e, off);
	switch (off) {
	case MLX5X_ISEG_FW_REV_OFF:
		return (e->opt.fw_minor & 0xffff) << 16 |
		       (e->opt.fw_major & 0xffff);
	case MLX5X_ISEG_CMDIF_REV_OFF:
		return (uint32_t)MLX5X_CMDIF_REV << 16 | (e->opt.fw_sub & 0xffff);
	case MLX5X_ISEG_CMDQ_ADDR_H_OFF:
		return (uint32_t)(s->cmdq_addr >> 32);
	case MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF:
		return ((uint32_t)s->cmdq_addr & MLX5X_ISEG_CMDQ_ADDR_L_MASK) |
		       (uint32_t)s->nic_ifc << 8 | EMU_CMDQ_LOG_SZ << 4 |
		       EMU_CMDQ_LOG_STRIDE;
	case MLX5X_ISEG_INITIALIZING_OFF:
		/* the firmware can reset itself (nic_interface SW_RESET) */
		return (now_ns() < s->init_until_ns ?
			MLX5X_ISEG_INITIALIZING_MASK : 0) |
		       MLX5X_ISEG_FW_RESET_SUP_MASK |
		       (s->initializing_low & 0x0000ffffu);
	case MLX5X_ISEG_INTERNAL_TIMER_H_OFF:	/* 1 GHz: nanoseconds */
		return (uint32_t)(t >> 32);
	case MLX5X_ISEG_INTERNAL_TIMER_L_OFF:
		return (uint32_t)t;
	case MLX5X_ISEG_HEALTH_COUNTER_OFF:
		if (s->health_stalled)
			return s->health_counter;
		/* time-based, and never the same value twice in a row */
		s->health_counter = MAX(s->health_counter + 1,
					(uint32_t)(t / HEALTH_TICK_NS));
		return s->health_counter;
	default:
		/* cmd_exec_to, cmd_q_init_to (0: no DTOR), real time, ... */
		return 0;
	}
}

/*
 * The driver writes nic_interface SW_RESET to reset a failed firmware
 * (mlx5_core's health recovery, when the initializing word says the
 * firmware can): everything goes as at power-on, and the firmware comes
 * back with the interface DISABLED, which the driver waits for before it
 * loads again.  The command queue address goes too.
 */
static void fw_sw_reset(struct emu *e)
{
	e->stats.fw_resets++;
	emu_info("nic_interface SW_RESET: firmware reset");
	emu_fw_reset_locked(e);
	e->iseg.nic_ifc = MLX5X_NIC_IFC_DISABLED;
}

static void write_cmdq_low(struct emu *e, uint32_t val)
{
	struct emu_iseg *s = &e->iseg;
	uint64_t addr = (uint64_t)s->cmdq_addr_h << 32 |
			(val & MLX5X_ISEG_CMDQ_ADDR_L_MASK);
	uint8_t ifc = (uint8_t)((val & MLX5X_ISEG_NIC_IFC_MASK) >> 8);

	if (ifc == MLX5X_NIC_IFC_SW_RESET) {
		fw_sw_reset(e);
		return;
	}
	if (ifc != s->nic_ifc)
		emu_info("nic_interface %u -> %u", s->nic_ifc, ifc);
	s->nic_ifc = ifc;
	if (addr != s->cmdq_addr) {
		s->cmdq_addr = addr;
		emu_info("command queue at 0x%llx (%u slots of %u bytes)",
			 (unsigned long long)addr, 1u << EMU_CMDQ_LOG_SZ,
			 1u << EMU_CMDQ_LOG_STRIDE);
	}
}

void iseg_write32(struct emu *e, uint32_t off, uint32_t val)
{
	struct emu_iseg *s = &e->iseg;

	switch (off) {
	case MLX5X_ISEG_CMDQ_ADDR_H_OFF:
		s->cmdq_addr_h = val;
		break;
	case MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF:
		write_cmdq_low(e, val);
		break;
	case MLX5X_ISEG_CMD_DBELL_OFF:
		cmdq_doorbell(e, val);
		break;
	case MLX5X_ISEG_INITIALIZING_OFF:
		/* FW reset state and ack bits written by the driver */
		s->initializing_low = val & 0x0000ffffu;
		break;
	default:
		e->stats.bar_bad++;
		emu_dbg("write to read-only init segment 0x%x", off);
		break;
	}
}
