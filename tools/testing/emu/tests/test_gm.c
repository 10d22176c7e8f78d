// SPDX-License-Identifier: GPL-2.0
/*
 * Guest memory: the DMA map table and its bounds checks.  Every refused
 * access must copy nothing and leave the buffer untouched.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gm.h"
#include "tap.h"
#include "util.h"

static uint8_t ram[3][8192];

static void test_basic(void)
{
	struct gm gm;
	uint8_t buf[16];

	gm_init(&gm);
	ok(!gm_map_host(&gm, 0x10000, 8192, ram[0], GM_PROT_READ | GM_PROT_WRITE),
	   "map a read-write region");
	ok(gm_map_host(&gm, 0x11000, 4096, ram[1], GM_PROT_READ) == -EEXIST,
	   "an overlapping map is refused");
	ok(gm_map_host(&gm, 0x20000, 0, ram[1], GM_PROT_READ) == -EINVAL,
	   "an empty map is refused");
	memset(buf, 0xab, sizeof(buf));
	ok(!gm_write(&gm, 0x10ff8, buf, 16), "write inside the region");
	ok(ram[0][0xff8] == 0xab && ram[0][0x1007] == 0xab,
	   "the bytes landed at the right host offset");
	memset(buf, 0, sizeof(buf));
	ok(!gm_read(&gm, 0x10ff8, buf, 16) && buf[15] == 0xab,
	   "read them back");
	gm_destroy(&gm);
}

static void test_bounds(void)
{
	struct gm gm;
	uint8_t buf[32];

	gm_init(&gm);
	gm_map_host(&gm, 0x10000, 8192, ram[0], GM_PROT_READ | GM_PROT_WRITE);
	gm_map_host(&gm, 0x12000, 8192, ram[1], GM_PROT_READ);
	gm_map_host(&gm, 0x20000, 8192, NULL, GM_PROT_READ | GM_PROT_WRITE);
	memset(ram[0], 0, sizeof(ram[0]));
	memset(buf, 0x5a, sizeof(buf));

	ok(gm_read(&gm, 0xfff0, buf, 32) == -EFAULT,
	   "a read starting before the first region is refused");
	ok(gm_write(&gm, 0x11ff0, buf, 32) == -EACCES,
	   "a write running into a read-only region is refused");
	ok(ram[0][0x1ff0] == 0, "... and wrote nothing into the writable part");
	ok(!gm_read(&gm, 0x11ff0, buf, 32),
	   "a read across two adjacent regions is allowed");
	ok(gm_read(&gm, 0x13ff0, buf, 32) == -EFAULT,
	   "a read running past the last byte is refused");
	ok(gm_read(&gm, 0x20000, buf, 8) == -EFAULT,
	   "a region without a host view (no fd) is refused");
	ok(gm_read(&gm, 0xffffffffffffff00ull, buf, 0x200) == -EFAULT,
	   "an address range that wraps around is refused");
	ok(!gm_check(&gm, 0x13000, 8192, GM_PROT_READ),
	   "gm_check sees the gap after the last region");
	ok(gm_check(&gm, 0x10000, 16384, GM_PROT_READ),
	   "gm_check accepts a range over two regions");
	ok(!gm_check(&gm, 0x10000, 16384, GM_PROT_WRITE),
	   "gm_check refuses write where one part is read-only");
	ok(__atomic_load_n(&gm.refused, __ATOMIC_RELAXED) == 5,
	   "refusals are counted");
	gm_destroy(&gm);
}

static void test_unmap(void)
{
	struct gm gm;
	uint8_t b = 0;

	gm_init(&gm);
	gm_map_host(&gm, 0x10000, 4096, ram[0], GM_PROT_READ);
	gm_map_host(&gm, 0x11000, 4096, ram[1], GM_PROT_READ);
	gm_map_host(&gm, 0x30000, 4096, ram[2], GM_PROT_READ);
	ok(gm_unmap(&gm, 0x10800, 0x1000) == -EINVAL,
	   "unmapping part of a mapping is refused");
	ok(gm_count(&gm) == 3, "... and removed nothing");
	ok(!gm_unmap(&gm, 0x10000, 0x2000), "unmap two whole mappings");
	ok(gm_count(&gm) == 1 && gm_read(&gm, 0x10000, &b, 1) == -EFAULT,
	   "their memory is no longer reachable");
	ok(!gm_read(&gm, 0x30000, &b, 1), "the other mapping stays");
	gm_unmap_all(&gm);
	ok(gm_count(&gm) == 0, "unmap all");
	gm_destroy(&gm);
}

static void test_fd(void)
{
	int fd = memfd_create("gm-test", MFD_CLOEXEC);
	uint8_t *p, buf[4] = { 1, 2, 3, 4 };
	struct gm gm;

	gm_init(&gm);
	if (fd < 0 || ftruncate(fd, 0x4000)) {
		ok(0, "memfd for an fd-backed mapping");
		return;
	}
	p = mmap(NULL, 0x4000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	/* map the second and third pages of the file at iova 0x100000 */
	ok(!gm_map_fd(&gm, 0x100000, 0x2000, dup(fd), 0x1000,
		      GM_PROT_READ | GM_PROT_WRITE),
	   "map a memfd with an offset");
	ok(!gm_write(&gm, 0x100ffe, buf, 4), "write through the mapping");
	ok(p[0x1ffe] == 1 && p[0x2001] == 4,
	   "the write reached the file at offset + (iova - base)");
	ok(gm_write(&gm, 0x101ffe, buf, 4) == -EFAULT,
	   "a write past the mapped size is refused (file is larger)");
	ok(p[0x3000] == 0, "... and the file beyond the map is untouched");
	ok(gm_map_fd(&gm, 0x200000, 0x1000, dup(fd), 0x1000, GM_PROT_READ) == 0 &&
	   gm_write(&gm, 0x200000, buf, 1) == -EACCES,
	   "a read-only fd mapping refuses writes");
	gm_destroy(&gm);
	munmap(p, 0x4000);
	close(fd);
}

int main(void)
{
	test_basic();
	test_bounds();
	test_unmap();
	test_fd();
	return tap_done();
}
