/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest memory: the table of DMA mappings QEMU hands over with
 * VFIO_USER_DMA_MAP, and the only way the device reaches guest RAM.
 *
 * Every access is checked against the table: a range that is not wholly
 * covered by mappings with the right permission is refused with -EFAULT
 * (unmapped) or -EACCES (read-only), and nothing is copied.  A mapping
 * without a file descriptor (ROM, the device's own BAR) has no host view
 * and is refused as well.
 *
 * Locking: gm.lock (rwlock) protects the table.  Readers are the threads
 * doing DMA, for the duration of one copy; the writer is the socket thread
 * (map, unmap, disconnect).  gm.lock may be taken with emu.lock held, never
 * the other way round.
 */
#ifndef EMU_GM_H
#define EMU_GM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	GM_PROT_READ = 1,
	GM_PROT_WRITE = 2,
};

struct gm_region {
	uint64_t iova;
	uint64_t size;
	uint8_t *host;		/* NULL: no host view (no fd) */
	void *map_base;		/* what to munmap, NULL if not ours */
	size_t map_len;
	uint32_t prot;
};

struct gm {
	pthread_rwlock_t lock;	/* protects r, n, cap */
	struct gm_region *r;	/* sorted by iova, non-overlapping */
	unsigned int n;
	unsigned int cap;
	/* statistics, updated with atomics */
	uint64_t maps, unmaps, refused;
};

void gm_init(struct gm *gm);
void gm_destroy(struct gm *gm);
/* mmap fd at offset and add it; takes ownership of fd (closed here) */
int gm_map_fd(struct gm *gm, uint64_t iova, uint64_t size, int fd,
	      uint64_t offset, uint32_t prot);
/* add a mapping backed by memory the caller owns (tests), or none */
int gm_map_host(struct gm *gm, uint64_t iova, uint64_t size, void *host,
		uint32_t prot);
/* remove every mapping inside [iova, iova + size) */
int gm_unmap(struct gm *gm, uint64_t iova, uint64_t size);
void gm_unmap_all(struct gm *gm);
unsigned int gm_count(struct gm *gm);

/* 0, -EFAULT (not mapped / no host view) or -EACCES (permission) */
int gm_read(struct gm *gm, uint64_t iova, void *dst, size_t len);
int gm_write(struct gm *gm, uint64_t iova, const void *src, size_t len);
/* does [iova, iova + len) lie in mapped memory with prot? */
bool gm_check(struct gm *gm, uint64_t iova, uint64_t len, uint32_t prot);

#endif /* EMU_GM_H */
