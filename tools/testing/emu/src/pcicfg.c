// SPDX-License-Identifier: GPL-2.0
/*
 * PCI configuration space.  QEMU emulates BARs, ROM and the MSI-X
 * capability itself but still forwards every config write, including
 * BAR sizing writes of all-ones: the write mask makes those read back
 * the size, as on hardware.
 */
#include <string.h>

#include "pcicfg.h"
#include "util.h"

#define PCIE_DEVCAP_FLR		0x10000000u
#define PCIE_DEVCTL		0x08
#define PCIE_DEVCTL_FLR		0x8000u

static void put16(struct pcicfg *c, uint32_t off, uint16_t v)
{
	c->space[off] = v;
	c->space[off + 1] = v >> 8;
}

static void put32(struct pcicfg *c, uint32_t off, uint32_t v)
{
	put16(c, off, v);
	put16(c, off + 2, v >> 16);
}

static uint32_t get32(const struct pcicfg *c, uint32_t off)
{
	return c->space[off] | c->space[off + 1] << 8 |
	       c->space[off + 2] << 16 | (uint32_t)c->space[off + 3] << 24;
}

static void wmask32(struct pcicfg *c, uint32_t off, uint32_t m)
{
	c->wmask[off] = m;
	c->wmask[off + 1] = m >> 8;
	c->wmask[off + 2] = m >> 16;
	c->wmask[off + 3] = m >> 24;
}

static void wmask16(struct pcicfg *c, uint32_t off, uint16_t m)
{
	c->wmask[off] = m;
	c->wmask[off + 1] = m >> 8;
}

static void init_header(struct pcicfg *c, uint64_t bar0_size)
{
	put16(c, 0x00, PCI_VENDOR_MELLANOX);
	put16(c, 0x02, PCI_DEVICE_CONNECTX5);
	put16(c, 0x06, 0x0010);			/* status: capability list */
	c->space[0x08] = 0x00;			/* revision */
	c->space[0x09] = 0x00;			/* prog-if */
	put16(c, 0x0a, PCI_CLASS_INFINIBAND);
	/* BAR0: 64-bit prefetchable memory, like a real ConnectX */
	put32(c, 0x10, 0x0000000c);
	put16(c, 0x2c, PCI_VENDOR_MELLANOX);
	put16(c, 0x2e, PCI_SUBSYS_CONNECTX5);
	c->space[0x34] = PCICFG_CAP_PM;
	c->space[0x3d] = 0;			/* no INTx pin: MSI-X only */

	/* command: I/O, memory, bus master, parity, SERR, INTx disable */
	wmask16(c, 0x04, 0x0547);
	c->wmask[0x0c] = 0xff;			/* cache line size */
	c->wmask[0x0d] = 0xff;			/* latency timer */
	wmask32(c, 0x10, (uint32_t)~(bar0_size - 1) & 0xfffffff0u);
	wmask32(c, 0x14, 0xffffffffu);
	c->wmask[0x3c] = 0xff;			/* interrupt line */
}

static void init_pm(struct pcicfg *c)
{
	uint32_t p = PCICFG_CAP_PM;

	c->space[p] = 0x01;			/* PCI power management */
	c->space[p + 1] = PCICFG_CAP_PCIE;
	put16(c, p + 2, 0x0003);		/* version 3 */
	wmask16(c, p + 4, 0x0103);		/* power state, PME enable */
}

static void init_pcie(struct pcicfg *c)
{
	uint32_t p = PCICFG_CAP_PCIE;

	c->space[p] = 0x10;			/* PCI Express */
	c->space[p + 1] = PCICFG_CAP_MSIX;
	put16(c, p + 0x02, 0x0002);		/* v2, endpoint */
	/* devcap: MPS 512, RBER, function level reset (a ConnectX has it) */
	put32(c, p + 0x04, 0x00008002 | PCIE_DEVCAP_FLR);
	put16(c, p + 0x08, 0x2810);		/* devctl: MRRS 512, RO, MPS 128 */
	/* Initiate FLR (bit 15) is not kept: it always reads 0 */
	wmask16(c, p + 0x08, 0x7cff);
	put32(c, p + 0x0c, 0x00000103 | (16u << 4));
	wmask16(c, p + 0x10, 0x0fff);		/* linkctl */
	put16(c, p + 0x12, 0x0003 | (16u << 4));	/* linksta: 8 GT/s x16 */
	put32(c, p + 0x24, 0x0000001f);		/* devcap2: timeouts */
	wmask16(c, p + 0x28, 0x063f);		/* devctl2 */
	put32(c, p + 0x2c, 0x0000000e);		/* linkcap2: 2.5-8 GT/s */
	put16(c, p + 0x30, 0x0003);		/* linkctl2: target 8 GT/s */
	wmask16(c, p + 0x30, 0x000f);
}

static void init_msix(struct pcicfg *c, unsigned int msix, uint32_t table_off,
		      uint32_t pba_off)
{
	uint32_t p = PCICFG_CAP_MSIX;

	c->space[p] = 0x11;			/* MSI-X */
	c->space[p + 1] = PCICFG_CAP_VSC;
	put16(c, p + 2, (uint16_t)(msix - 1));	/* table size */
	wmask16(c, p + 2, 0xc000);		/* enable, function mask */
	put32(c, p + 4, table_off);		/* BIR 0 */
	put32(c, p + 8, pba_off);		/* BIR 0 */
}

static void init_vsc(struct pcicfg *c)
{
	uint32_t p = PCICFG_CAP_VSC;

	c->space[p] = 0x09;			/* vendor specific */
	c->space[p + 1] = 0x00;			/* end of list */
	c->space[p + 2] = PCICFG_VSC_LEN;
}

void pcicfg_init(struct pcicfg *c, uint64_t bar0_size, unsigned int msix,
		 uint32_t table_off, uint32_t pba_off)
{
	memset(c, 0, sizeof(*c));
	init_header(c, bar0_size);
	init_pm(c);
	init_pcie(c);
	init_msix(c, msix, table_off, pba_off);
	init_vsc(c);
}

/* power-on (device reset) or FLR: what the function's driver set is gone */
void pcicfg_reset(struct pcicfg *c)
{
	put16(c, 0x04, 0);
	put16(c, PCICFG_CAP_PCIE + PCIE_DEVCTL, 0x2810);
	c->vsc_semaphore = 0;
	c->vsc_ctrl = 0;
	c->vsc_addr = 0;
	c->vsc_data = 0;
	c->sem_sw_reset = 0;
}

/*
 * Vendor-specific capability: the driver's gateway to the crspace.  The
 * gateway lock (read the counter, write it to the semaphore register,
 * read it back; write 0 to release) and one address space are modelled:
 * the semaphore space (0xa), whose SW reset semaphore (address 0x20)
 * mlx5_core's health recovery takes before it resets the firmware (write
 * a unique value, read it back: the lock is held if it reads the same;
 * write 0 to release).  Every other space reads back "not supported"
 * (status 0), so crdump stays off quietly.  Access to a space: write the
 * address with bit 31 set and the data first to write (the device clears
 * bit 31 when done), or with bit 31 clear to read (the device sets it
 * once the data register holds the value).
 */
#define VSC_SPACE_SEMAPHORE	0x000a
#define VSC_SEM_SW_RESET	0x20
#define VSC_ADDR_FLAG		0x80000000u
#define VSC_ADDR_MASK		0x3fffffffu

static bool vsc_space_ok(const struct pcicfg *c)
{
	return (c->vsc_ctrl & 0xffff) == VSC_SPACE_SEMAPHORE;
}

static uint32_t *vsc_space_word(struct pcicfg *c, uint32_t addr)
{
	if (!vsc_space_ok(c) || (addr & VSC_ADDR_MASK) != VSC_SEM_SW_RESET)
		return NULL;
	return &c->sem_sw_reset;
}

/* the address register written: do the access at once */
static void vsc_access(struct pcicfg *c, uint32_t v)
{
	uint32_t *w = vsc_space_word(c, v);

	if (v & VSC_ADDR_FLAG) {
		/* a lock is taken only while free, released with 0 */
		if (w && (!c->vsc_data || !*w))
			*w = c->vsc_data;
		c->vsc_addr = v & ~VSC_ADDR_FLAG;
	} else {
		c->vsc_data = w ? *w : 0;
		c->vsc_addr = v | VSC_ADDR_FLAG;
	}
}

static uint32_t vsc_read(struct pcicfg *c, uint32_t reg)
{
	switch (reg) {
	case 0x04:
		/* status bits 31:29: the space is supported */
		return (c->vsc_ctrl & 0xffff) | (vsc_space_ok(c) ? 1u << 29 : 0);
	case 0x08:
		return ++c->vsc_counter;
	case 0x0c:
		return c->vsc_semaphore;
	case 0x10:
		return c->vsc_addr;
	case 0x14:
		return c->vsc_data;
	default:
		return 0;
	}
}

static void vsc_write(struct pcicfg *c, uint32_t reg, uint32_t v)
{
	switch (reg) {
	case 0x04:
		c->vsc_ctrl = v;
		break;
	case 0x0c:
		/* take the lock only if free (or release it with 0) */
		if (!v || !c->vsc_semaphore)
			c->vsc_semaphore = v;
		break;
	case 0x10:
		vsc_access(c, v);
		break;
	case 0x14:
		c->vsc_data = v;
		break;
	default:
		break;
	}
}

static bool in_vsc_regs(uint32_t off)
{
	return off >= PCICFG_CAP_VSC + 4 &&
	       off < PCICFG_CAP_VSC + PCICFG_VSC_LEN;
}

void pcicfg_read(struct pcicfg *c, uint32_t off, void *buf, uint32_t len)
{
	uint8_t *b = buf;
	uint32_t i;

	for (i = 0; i < len; i++, off++) {
		if (off >= PCICFG_SIZE) {
			b[i] = 0xff;
		} else if (in_vsc_regs(off)) {
			uint32_t reg = (off - PCICFG_CAP_VSC) & ~3u;
			uint32_t v;

			/* side effects once per dword access */
			if ((off & 3) == 0 || i == 0)
				put32(c, PCICFG_CAP_VSC + reg,
				      vsc_read(c, reg));
			v = get32(c, PCICFG_CAP_VSC + reg);
			b[i] = v >> ((off & 3) * 8);
		} else {
			b[i] = c->space[off];
		}
	}
}

/*
 * A write that sets Initiate Function Level Reset (PCIe Device Control
 * bit 15, the high byte of the register): the caller resets the function
 * (PCIe base spec 6.6.2; the guest's pcie_flr() writes it).
 */
static bool starts_flr(uint32_t off, const uint8_t *b, uint32_t len)
{
	uint32_t hi = PCICFG_CAP_PCIE + PCIE_DEVCTL + 1;

	return off <= hi && hi < off + len && (b[hi - off] & PCIE_DEVCTL_FLR >> 8);
}

int pcicfg_write(struct pcicfg *c, uint32_t off, const void *buf,
		 uint32_t len)
{
	const uint8_t *b = buf;
	uint32_t i;

	if (len == 4 && (off & 3) == 0 && in_vsc_regs(off)) {
		vsc_write(c, off - PCICFG_CAP_VSC,
			  b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
		return 0;
	}
	for (i = 0; i < len && off + i < PCICFG_SIZE; i++) {
		uint8_t m = c->wmask[off + i];

		c->space[off + i] = (c->space[off + i] & ~m) | (b[i] & m);
	}
	return starts_flr(off, b, len) ? PCICFG_FLR : 0;
}
