/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PCI configuration space of the emulated ConnectX-5 (15b3:1017): a 4 KiB
 * space with a write mask, so that BAR sizing and read-only registers
 * behave, plus the vendor-specific capability's semaphore gateway.
 * Touched by the socket thread only; no lock.
 */
#ifndef EMU_PCICFG_H
#define EMU_PCICFG_H

#include <stdint.h>

#define PCICFG_SIZE		4096

/* capability layout (the same offsets as a real ConnectX-5) */
#define PCICFG_CAP_PM		0x40
#define PCICFG_CAP_PCIE		0x60
#define PCICFG_CAP_MSIX		0x9c
#define PCICFG_CAP_VSC		0xc0
#define PCICFG_VSC_LEN		0x18

#define PCI_VENDOR_MELLANOX	0x15b3
#define PCI_DEVICE_CONNECTX5	0x1017
#define PCI_SUBSYS_CONNECTX5	0x0008
#define PCI_CLASS_INFINIBAND	0x0207

struct pcicfg {
	uint8_t space[PCICFG_SIZE];
	uint8_t wmask[PCICFG_SIZE];	/* bits the guest may change */
	uint32_t vsc_counter;		/* VSC gateway */
	uint32_t vsc_semaphore;
	uint32_t vsc_ctrl;
	uint32_t vsc_addr;		/* address register (flag in bit 31) */
	uint32_t vsc_data;
	uint32_t sem_sw_reset;		/* semaphore space: SW reset lock */
};

void pcicfg_init(struct pcicfg *c, uint64_t bar0_size, unsigned int msix,
		 uint32_t table_off, uint32_t pba_off);
void pcicfg_reset(struct pcicfg *c);
void pcicfg_read(struct pcicfg *c, uint32_t off, void *buf, uint32_t len);
/* returns PCICFG_FLR when the write initiates a function level reset */
int pcicfg_write(struct pcicfg *c, uint32_t off, const void *buf,
		 uint32_t len);

#define PCICFG_FLR		1

#endif /* EMU_PCICFG_H */
