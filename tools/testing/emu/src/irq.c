// SPDX-License-Identifier: GPL-2.0
/* MSI-X eventfd table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irq.h"
#include "log.h"

int irq_init(struct irq *irq, unsigned int nvec)
{
	unsigned int i;

	memset(irq, 0, sizeof(*irq));
	pthread_mutex_init(&irq->lock, NULL);
	irq->nvec = nvec;
	irq->fds = calloc(nvec, sizeof(*irq->fds));
	irq->pending = calloc(nvec, sizeof(*irq->pending));
	if (!irq->fds || !irq->pending)
		return -ENOMEM;
	for (i = 0; i < nvec; i++)
		irq->fds[i] = -1;
	return 0;
}

void irq_destroy(struct irq *irq)
{
	irq_release_all(irq);
	free(irq->fds);
	free(irq->pending);
	pthread_mutex_destroy(&irq->lock);
}

static void signal_fd(int fd)
{
	uint64_t one = 1;
	ssize_t n = write(fd, &one, sizeof(one));

	if (n != sizeof(one))
		emu_warn("msi-x eventfd write failed");
}

int irq_assign(struct irq *irq, unsigned int start, unsigned int count,
	       const int *fds)
{
	unsigned int i;

	if (start > irq->nvec || count > irq->nvec - start)
		return -EINVAL;
	pthread_mutex_lock(&irq->lock);
	for (i = 0; i < count; i++) {
		unsigned int v = start + i;

		if (irq->fds[v] >= 0)
			close(irq->fds[v]);
		irq->fds[v] = fds ? fds[i] : -1;
		if (irq->fds[v] >= 0 && irq->pending[v]) {
			irq->pending[v] = false;
			irq->fired++;
			signal_fd(irq->fds[v]);
		}
	}
	pthread_mutex_unlock(&irq->lock);
	return 0;
}

void irq_release_all(struct irq *irq)
{
	unsigned int i;

	pthread_mutex_lock(&irq->lock);
	for (i = 0; i < irq->nvec; i++) {
		if (irq->fds[i] >= 0)
			close(irq->fds[i]);
		irq->fds[i] = -1;
		irq->pending[i] = false;
	}
	pthread_mutex_unlock(&irq->lock);
}

void irq_clear_pending(struct irq *irq)
{
	pthread_mutex_lock(&irq->lock);
	memset(irq->pending, 0, irq->nvec * sizeof(*irq->pending));
	pthread_mutex_unlock(&irq->lock);
}

bool irq_fire(struct irq *irq, unsigned int vec)
{
	if (vec >= irq->nvec) {
		pthread_mutex_lock(&irq->lock);
		irq->bad_vector++;
		pthread_mutex_unlock(&irq->lock);
		return false;
	}
	pthread_mutex_lock(&irq->lock);
	if (irq->fds[vec] >= 0) {
		irq->fired++;
		signal_fd(irq->fds[vec]);
	} else {
		irq->deferred++;
		irq->pending[vec] = true;
	}
	pthread_mutex_unlock(&irq->lock);
	return true;
}

void irq_pba(struct irq *irq, uint64_t off, void *buf, unsigned int len)
{
	uint8_t *b = buf;
	unsigned int i, bit;

	memset(buf, 0, len);
	pthread_mutex_lock(&irq->lock);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			uint64_t v = (off + i) * 8 + bit;

			if (v < irq->nvec && irq->pending[v])
				b[i] |= 1u << bit;
		}
	}
	pthread_mutex_unlock(&irq->lock);
}
