// SPDX-License-Identifier: GPL-2.0
/* Guest memory access through the DMA map table. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gm.h"
#include "log.h"
#include "util.h"

void gm_init(struct gm *gm)
{
	memset(gm, 0, sizeof(*gm));
	pthread_rwlock_init(&gm->lock, NULL);
}

void gm_destroy(struct gm *gm)
{
	gm_unmap_all(gm);
	free(gm->r);
	gm->r = NULL;
	pthread_rwlock_destroy(&gm->lock);
}

static void region_release(struct gm_region *r)
{
	if (r->map_base)
		munmap(r->map_base, r->map_len);
	r->map_base = NULL;
}

/* index of the first region whose end is above iova; gm.lock held */
static unsigned int find_pos(struct gm *gm, uint64_t iova)
{
	unsigned int lo = 0, hi = gm->n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		struct gm_region *r = &gm->r[mid];

		if (r->iova + r->size <= iova)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert(struct gm *gm, struct gm_region *nr)
{
	unsigned int pos;

	if (!nr->size || nr->iova + nr->size < nr->iova)
		return -EINVAL;
	pos = find_pos(gm, nr->iova);
	if (pos < gm->n && gm->r[pos].iova < nr->iova + nr->size)
		return -EEXIST;
	if (gm->n == gm->cap) {
		unsigned int cap = gm->cap ? gm->cap * 2 : 16;
		struct gm_region *r = realloc(gm->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		gm->r = r;
		gm->cap = cap;
	}
	memmove(&gm->r[pos + 1], &gm->r[pos], (gm->n - pos) * sizeof(*nr));
	gm->r[pos] = *nr;
	gm->n++;
	__atomic_add_fetch(&gm->maps, 1, __ATOMIC_RELAXED);
	return 0;
}

int gm_map_fd(struct gm *gm, uint64_t iova, uint64_t size, int fd,
	      uint64_t offset, uint32_t prot)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct gm_region nr = { .iova = iova, .size = size, .prot = prot };
	uint64_t delta = offset & (uint64_t)(pg - 1);
	int mprot = 0, ret;
	void *p;

	if (prot & GM_PROT_READ)
		mprot |= PROT_READ;
	if (prot & GM_PROT_WRITE)
		mprot |= PROT_WRITE;
	if (!size || size + delta < size) {
		close(fd);
		return -EINVAL;
	}
	p = mmap(NULL, size + delta, mprot, MAP_SHARED, fd,
		 (off_t)(offset - delta));
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	nr.map_base = p;
	nr.map_len = size + delta;
	nr.host = (uint8_t *)p + delta;
	pthread_rwlock_wrlock(&gm->lock);
	ret = insert(gm, &nr);
	pthread_rwlock_unlock(&gm->lock);
	if (ret)
		munmap(p, size + delta);
	return ret;
}

int gm_map_host(struct gm *gm, uint64_t iova, uint64_t size, void *host,
		uint32_t prot)
{
	struct gm_region nr = {
		.iova = iova, .size = size, .host = host, .prot = prot,
	};
	int ret;

	pthread_rwlock_wrlock(&gm->lock);
	ret = insert(gm, &nr);
	pthread_rwlock_unlock(&gm->lock);
	return ret;
}

int gm_unmap(struct gm *gm, uint64_t iova, uint64_t size)
{
	uint64_t end = iova + size;
	unsigned int i, first, last;

	if (end < iova)
		return -EINVAL;
	pthread_rwlock_wrlock(&gm->lock);
	first = find_pos(gm, iova);
	/* a mapping that straddles either end cannot be split: refuse */
	for (last = first; last < gm->n && gm->r[last].iova < end; last++) {
		struct gm_region *r = &gm->r[last];

		if (r->iova < iova || r->iova + r->size > end) {
			pthread_rwlock_unlock(&gm->lock);
			return -EINVAL;
		}
	}
	for (i = first; i < last; i++)
		region_release(&gm->r[i]);
	memmove(&gm->r[first], &gm->r[last], (gm->n - last) * sizeof(gm->r[0]));
	gm->n -= last - first;
	__atomic_add_fetch(&gm->unmaps, last - first, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&gm->lock);
	return 0;
}

void gm_unmap_all(struct gm *gm)
{
	unsigned int i;

	pthread_rwlock_wrlock(&gm->lock);
	for (i = 0; i < gm->n; i++)
		region_release(&gm->r[i]);
	__atomic_add_fetch(&gm->unmaps, gm->n, __ATOMIC_RELAXED);
	gm->n = 0;
	pthread_rwlock_unlock(&gm->lock);
}

unsigned int gm_count(struct gm *gm)
{
	unsigned int n;

	pthread_rwlock_rdlock(&gm->lock);
	n = gm->n;
	pthread_rwlock_unlock(&gm->lock);
	return n;
}

/*
 * Walk [iova, iova + len) over consecutive regions; call fn for each
 * piece only after the whole range was found valid.  gm.lock held.
 */
static int walk_check(struct gm *gm, uint64_t iova, uint64_t len,
		      uint32_t prot)
{
	uint64_t end = iova + len;
	unsigned int i;

	if (end < iova)
		return -EFAULT;
	i = find_pos(gm, iova);
	while (iova < end) {
		struct gm_region *r;

		if (i >= gm->n)
			return -EFAULT;
		r = &gm->r[i];
		if (r->iova > iova || !r->host)
			return -EFAULT;
		if ((r->prot & prot) != prot)
			return -EACCES;
		iova = r->iova + r->size;
		i++;
	}
	return 0;
}

static int copy(struct gm *gm, uint64_t iova, void *buf, size_t len,
		bool to_guest)
{
	uint32_t prot = to_guest ? GM_PROT_WRITE : GM_PROT_READ;
	uint8_t *b = buf;
	unsigned int i;
	int ret;

	if (!len)
		return 0;
	pthread_rwlock_rdlock(&gm->lock);
	ret = walk_check(gm, iova, len, prot);
	if (ret) {
		pthread_rwlock_unlock(&gm->lock);
		__atomic_add_fetch(&gm->refused, 1, __ATOMIC_RELAXED);
		emu_dbg("dma %s refused: 0x%llx+0x%zx (%d)",
			to_guest ? "write" : "read",
			(unsigned long long)iova, len, ret);
		return ret;
	}
	for (i = find_pos(gm, iova); len; i++) {
		struct gm_region *r = &gm->r[i];
		uint64_t off = iova - r->iova;
		size_t n = (size_t)MIN((uint64_t)len, r->size - off);

		if (to_guest)
			memcpy(r->host + off, b, n);
		else
			memcpy(b, r->host + off, n);
		b += n;
		iova += n;
		len -= n;
	}
	pthread_rwlock_unlock(&gm->lock);
	return 0;
}

int gm_read(struct gm *gm, uint64_t iova, void *dst, size_t len)
{
	return copy(gm, iova, dst, len, false);
}

int gm_write(struct gm *gm, uint64_t iova, const void *src, size_t len)
{
	return copy(gm, iova, (void *)src, len, true);
}

bool gm_check(struct gm *gm, uint64_t iova, uint64_t len, uint32_t prot)
{
	int ret;

	pthread_rwlock_rdlock(&gm->lock);
	ret = walk_check(gm, iova, len ? len : 1, prot);
	pthread_rwlock_unlock(&gm->lock);
	return ret == 0;
}
