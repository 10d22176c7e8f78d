/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MSI-X delivery.  QEMU emulates the MSI-X table and hands the device one
 * eventfd per vector (VFIO_USER_DEVICE_SET_IRQS); raising a vector is a
 * write to its eventfd.  A vector fired while it has no eventfd is kept
 * pending (as the PBA bit of a masked vector would be) and delivered as
 * soon as an eventfd is assigned.
 *
 * Locking: irq.lock protects fds[] and pending[].  It is taken alone by
 * the socket thread, and under emu.lock by whoever raises an EQ's vector;
 * no other lock is taken while it is held.
 */
#ifndef EMU_IRQ_H
#define EMU_IRQ_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct irq {
	pthread_mutex_t lock;	/* protects fds, pending */
	unsigned int nvec;
	int *fds;		/* -1: no eventfd */
	bool *pending;
	uint64_t fired, deferred, bad_vector;	/* under lock */
};

int irq_init(struct irq *irq, unsigned int nvec);
void irq_destroy(struct irq *irq);
/* assign fds[i] to vectors start + i; fd -1 unassigns; closes old fds */
int irq_assign(struct irq *irq, unsigned int start, unsigned int count,
	       const int *fds);
void irq_release_all(struct irq *irq);
/* a reset: vectors raised but not delivered are forgotten */
void irq_clear_pending(struct irq *irq);
/* raise a vector; false if the vector number is out of range */
bool irq_fire(struct irq *irq, unsigned int vec);
/* PBA view: bit per vector pending for lack of an eventfd */
void irq_pba(struct irq *irq, uint64_t off, void *buf, unsigned int len);

#endif /* EMU_IRQ_H */
