// SPDX-License-Identifier: GPL-2.0
/*
 * vfio-user transport over a socketpair: the messages QEMU sends, the
 * NO_REPLY rule, DMA maps with fds, MSI-X eventfds, malformed messages
 * and disconnects.
 */
#include <errno.h>
#include <linux/vfio.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "vfu.h"

struct srv {
	struct th t;
	struct vfu v;
	pthread_t thr;
	int fd;		/* client end */
	int ret;
	uint16_t id;
};

static void *serve(void *arg)
{
	struct srv *s = arg;
	int sv[2];

	(void)sv;
	s->ret = vfu_serve_fd(&s->v, s->v.conn_fd);
	return NULL;
}

static void srv_start(struct srv *s)
{
	int sv[2];

	th_setup(&s->t);
	vfu_init(&s->v, &s->t.e);
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
	s->fd = sv[0];
	s->v.conn_fd = sv[1];
	s->id = 100;
	pthread_create(&s->thr, NULL, serve, s);
}

static int srv_stop(struct srv *s)
{
	close(s->fd);
	pthread_join(s->thr, NULL);
	vfu_close(&s->v);
	th_teardown(&s->t);
	return s->ret;
}

static void send_msg(struct srv *s, uint16_t cmd, uint32_t flags,
		     const void *body, uint32_t len, const int *fds, int nfds)
{
	struct vfu_hdr h = { .id = ++s->id, .command = cmd,
			     .size = VFU_HDR_LEN + len, .flags = flags };
	struct iovec iov[2] = { { &h, VFU_HDR_LEN }, { (void *)body, len } };
	union {
		char b[CMSG_SPACE(8 * sizeof(int))];
		struct cmsghdr a;
	} cb;
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };

	if (nfds) {
		struct cmsghdr *cm;

		mh.msg_control = cb.b;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
	}
	if (sendmsg(s->fd, &mh, MSG_NOSIGNAL) < 0)
		diag("sendmsg: %s", strerror(errno));
}

/* one reply; returns payload length, -1 on EOF */
static int recv_reply(struct srv *s, struct vfu_hdr *h, void *body, uint32_t max)
{
	uint8_t tmp[8192];
	ssize_t n = recv(s->fd, h, VFU_HDR_LEN, MSG_WAITALL);
	uint32_t len;

	if (n != VFU_HDR_LEN)
		return -1;
	len = h->size - VFU_HDR_LEN;
	if (len && recv(s->fd, tmp, len, MSG_WAITALL) != (ssize_t)len)
		return -1;
	memcpy(body, tmp, len < max ? len : max);
	return (int)len;
}

static int call(struct srv *s, uint16_t cmd, const void *body, uint32_t len,
		void *rbody, uint32_t max, struct vfu_hdr *rh)
{
	send_msg(s, cmd, 0, body, len, NULL, 0);
	return recv_reply(s, rh, rbody, max);
}

static void test_discovery(void)
{
	uint8_t body[64], r[64];
	struct vfu_hdr h;
	struct srv s;
	int n;

	srv_start(&s);
	memset(body, 0, sizeof(body));
	memcpy(body + 4, "{\"capabilities\":{}}", 20);
	n = call(&s, VFU_CMD_VERSION, body, 24, r, sizeof(r), &h);
	ok(n == 4 && h.flags == VFU_FLAG_REPLY && h.id == s.id &&
	   h.command == VFU_CMD_VERSION, "VERSION: 0.0, no longer than the request");

	n = call(&s, VFU_CMD_DEVICE_GET_INFO, body, 16, r, sizeof(r), &h);
	{
		struct vfio_device_info *di = (void *)r;

		ok(n >= 16 && di->num_regions == VFIO_PCI_NUM_REGIONS &&
		   di->num_irqs == VFIO_PCI_NUM_IRQS &&
		   (di->flags & (VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET)) ==
		   (VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET),
		   "GET_INFO: a PCI device with reset, 9 regions, 5 irq types");
	}
	{
		struct vfio_region_info ri = { .argsz = 32, .index = 0 };
		struct vfio_region_info *rr = (void *)r;

		n = call(&s, VFU_CMD_DEVICE_GET_REGION_INFO, &ri, 32, r, sizeof(r), &h);
		ok(n == 32 && rr->size == EMU_BAR0_SIZE &&
		   !(rr->flags & VFIO_REGION_INFO_FLAG_MMAP),
		   "REGION_INFO 0: 32 MiB BAR0, trapped (no mmap)");
		ri.index = 1;
		call(&s, VFU_CMD_DEVICE_GET_REGION_INFO, &ri, 32, r, sizeof(r), &h);
		ok(rr->size == 0, "REGION_INFO 1: the upper half of BAR0 has size 0");
		ri.index = 7;
		call(&s, VFU_CMD_DEVICE_GET_REGION_INFO, &ri, 32, r, sizeof(r), &h);
		ok(rr->size == 4096, "REGION_INFO 7: 4 KiB config space");
		ri.index = 9;
		call(&s, VFU_CMD_DEVICE_GET_REGION_INFO, &ri, 32, r, sizeof(r), &h);
		ok((h.flags & VFU_FLAG_ERROR) && h.error == EINVAL,
		   "REGION_INFO 9 -> EINVAL");
	}
	{
		struct vfio_irq_info ii = { .argsz = 16, .index = 2 };
		struct vfio_irq_info *ir = (void *)r;

		call(&s, VFU_CMD_DEVICE_GET_IRQ_INFO, &ii, 16, r, sizeof(r), &h);
		ok(ir->count == 9 && (ir->flags & VFIO_IRQ_INFO_EVENTFD),
		   "IRQ_INFO MSI-X: 9 vectors with eventfds");
		ii.index = 3;
		call(&s, VFU_CMD_DEVICE_GET_IRQ_INFO, &ii, 16, r, sizeof(r), &h);
		ok(h.flags & VFU_FLAG_ERROR, "IRQ_INFO ERR -> error");
	}
	call(&s, 77, body, 0, r, sizeof(r), &h);
	ok((h.flags & VFU_FLAG_ERROR) && h.error == ENOSYS,
	   "an unknown command -> ENOSYS, connection kept");
	is_u(srv_stop(&s), 0, "client hang-up ends the session cleanly");
}

static uint32_t cfg_read32(struct srv *s, uint32_t off)
{
	struct { uint64_t off; uint32_t region, count; } rw = { off, 7, 4 };
	uint8_t r[32];
	struct vfu_hdr h;

	call(s, VFU_CMD_REGION_READ, &rw, 16, r, sizeof(r), &h);
	return r[16] | r[17] << 8 | r[18] << 16 | (uint32_t)r[19] << 24;
}

static void cfg_write32(struct srv *s, uint32_t off, uint32_t v, uint32_t flags)
{
	struct { uint64_t off; uint32_t region, count; uint32_t v; } rw = {
		off, 7, 4, v };
	uint8_t r[32];
	struct vfu_hdr h;

	send_msg(s, VFU_CMD_REGION_WRITE, flags, &rw, 20, NULL, 0);
	if (!(flags & VFU_FLAG_NO_REPLY))
		recv_reply(s, &h, r, sizeof(r));
}

static void test_config(void)
{
	struct srv s;

	srv_start(&s);
	is_u(cfg_read32(&s, 0), 0x101715b3, "config: vendor 15b3, device 1017");
	is_u(cfg_read32(&s, 8) >> 16, 0x0207, "config: class InfiniBand");
	is_u(cfg_read32(&s, 0x2c), 0x000815b3, "config: subsystem ids");
	cfg_write32(&s, 0x10, 0xffffffff, 0);
	is_u(cfg_read32(&s, 0x10), 0xfe00000c,
	     "BAR sizing: all-ones reads back the 32 MiB mask, 64-bit prefetch");
	cfg_write32(&s, 0x00, 0xffffffff, 0);
	is_u(cfg_read32(&s, 0), 0x101715b3, "vendor/device are read-only");
	/* posted write: no reply; the next reply must be the read's */
	cfg_write32(&s, 0x3c, 0x0000000b, VFU_FLAG_NO_REPLY);
	{
		struct { uint64_t off; uint32_t region, count; } rw = { 0x3c, 7, 4 };
		uint8_t r[32];
		struct vfu_hdr h;

		send_msg(&s, VFU_CMD_REGION_READ, 0, &rw, 16, NULL, 0);
		recv_reply(&s, &h, r, sizeof(r));
		ok(h.id == s.id && r[16] == 0x0b,
		   "a NO_REPLY write gets no reply, and took effect");
	}
	{
		uint32_t v = cfg_read32(&s, PCICFG_CAP_MSIX);

		is_u(v & 0xff, 0x11, "MSI-X capability where the chain says");
		is_u(v >> 16 & 0x7ff, 8, "... table size 9");
		is_u(cfg_read32(&s, PCICFG_CAP_MSIX + 4), EMU_MSIX_TABLE_OFF,
		     "... table in BAR0 above the UAR pages");
	}
	/* the vendor-specific semaphore: take, see it held, release */
	{
		uint32_t c = cfg_read32(&s, PCICFG_CAP_VSC + 8);

		cfg_write32(&s, PCICFG_CAP_VSC + 0xc, c, 0);
		is_u(cfg_read32(&s, PCICFG_CAP_VSC + 0xc), c, "VSC semaphore taken");
		cfg_write32(&s, PCICFG_CAP_VSC + 0xc, c + 5, 0);
		is_u(cfg_read32(&s, PCICFG_CAP_VSC + 0xc), c,
		     "... a second owner cannot take it");
		cfg_write32(&s, PCICFG_CAP_VSC + 0xc, 0, 0);
		is_u(cfg_read32(&s, PCICFG_CAP_VSC + 0xc), 0, "... released");
	}
	srv_stop(&s);
}

static void test_bar_and_dma(void)
{
	int mfd = memfd_create("ram", MFD_CLOEXEC), efd[2];
	struct vfio_iommu_type1_dma_map m = {
		.argsz = 32, .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = 0x1000, .iova = 0x800000, .size = 0x4000,
	};
	struct vfio_iommu_type1_dma_unmap u = { .argsz = 24, .iova = 0x800000,
						.size = 0x4000 };
	uint8_t r[64], *p, b4[4] = { 1, 2, 3, 4 };
	struct vfu_hdr h;
	struct srv s;
	uint64_t n;

	srv_start(&s);
	{
		struct { uint64_t off; uint32_t region, count; } rw = { 0, 0, 4 };

		call(&s, VFU_CMD_REGION_READ, &rw, 16, r, sizeof(r), &h);
		is_u(get_be32(r + 16), 35u << 16 | 16, "BAR0 read: fw_rev 16.35");
		rw.off = MLX5X_ISEG_CMDIF_REV_OFF + 1;
		rw.count = 1;
		call(&s, VFU_CMD_REGION_READ, &rw, 16, r, sizeof(r), &h);
		is_u(r[16], MLX5X_CMDIF_REV, "BAR0 byte read: cmdif rev 5");
	}
	ftruncate(mfd, 0x8000);
	send_msg(&s, VFU_CMD_DMA_MAP, 0, &m, 32, &mfd, 1);
	recv_reply(&s, &h, r, sizeof(r));
	ok(!(h.flags & VFU_FLAG_ERROR) && gm_count(&s.t.e.gm) == 2,
	   "DMA_MAP with an fd adds a mapping");
	p = mmap(NULL, 0x8000, PROT_READ, MAP_SHARED, mfd, 0);
	ok(!gm_write(&s.t.e.gm, 0x800010, b4, 4) && p[0x1013] == 4,
	   "device DMA lands in the fd at offset + (iova - base)");
	ok(gm_write(&s.t.e.gm, 0x804000, b4, 4) == -EFAULT,
	   "... and stops at the end of the mapping");
	send_msg(&s, VFU_CMD_DMA_UNMAP, 0, &u, 24, NULL, 0);
	recv_reply(&s, &h, r, sizeof(r));
	ok(!(h.flags & VFU_FLAG_ERROR) && gm_count(&s.t.e.gm) == 1,
	   "DMA_UNMAP removes it");

	efd[0] = eventfd(0, EFD_NONBLOCK);
	efd[1] = eventfd(0, EFD_NONBLOCK);
	{
		struct vfio_irq_set is = {
			.argsz = 20, .flags = VFIO_IRQ_SET_DATA_EVENTFD |
			VFIO_IRQ_SET_ACTION_TRIGGER, .index = 2, .start = 3, .count = 2,
		};

		send_msg(&s, VFU_CMD_DEVICE_SET_IRQS, 0, &is, 20, efd, 2);
		recv_reply(&s, &h, r, sizeof(r));
		ok(!(h.flags & VFU_FLAG_ERROR), "SET_IRQS: eventfds for vectors 3, 4");
		irq_fire(&s.t.e.irq, 4);
		ok(read(efd[1], &n, 8) == 8 && n == 1, "raising vector 4 signals its eventfd");
		is.count = 1;
		send_msg(&s, VFU_CMD_DEVICE_SET_IRQS, 0, &is, 20, efd, 2);
		recv_reply(&s, &h, r, sizeof(r));
		ok(h.flags & VFU_FLAG_ERROR, "SET_IRQS with 2 fds for 1 vector -> error");
		is.flags = VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER;
		is.count = 0;
		send_msg(&s, VFU_CMD_DEVICE_SET_IRQS, 0, &is, 20, NULL, 0);
		recv_reply(&s, &h, r, sizeof(r));
		irq_fire(&s.t.e.irq, 4);
		ok(read(efd[1], &n, 8) < 0, "after disable, nothing is signalled");
	}
	send_msg(&s, VFU_CMD_DEVICE_RESET, 0, NULL, 0, NULL, 0);
	recv_reply(&s, &h, r, sizeof(r));
	ok(!(h.flags & VFU_FLAG_ERROR) && s.t.e.stats.resets == 1, "DEVICE_RESET");
	send_msg(&s, VFU_CMD_DMA_MAP, 0, &m, 32, &mfd, 1);
	recv_reply(&s, &h, r, sizeof(r));
	is_u(srv_stop(&s), 0, "disconnect");
	is_u(gm_count(&s.v.e->gm), 0, "the client's DMA maps are gone with it");
	munmap(p, 0x8000);
	close(mfd);
	close(efd[0]);
	close(efd[1]);
}

static void test_malformed(void)
{
	struct vfu_hdr h = { .id = 1, .command = 1, .size = 8 };
	struct srv s;
	uint8_t r[32];

	srv_start(&s);
	send(s.fd, &h, sizeof(h), MSG_NOSIGNAL);
	ok(recv(s.fd, r, sizeof(r), 0) == 0,
	   "a header with size < 16: the server hangs up");
	ok(srv_stop(&s) == -EPROTO, "... reporting a protocol error");

	srv_start(&s);
	{
		struct { uint64_t off; uint32_t region, count; } rw = { 0, 7, 64 };
		struct vfu_hdr rh;

		/* a write claiming more data than the message carries */
		send_msg(&s, VFU_CMD_REGION_WRITE, 0, &rw, 16, NULL, 0);
		recv_reply(&s, &rh, r, sizeof(r));
		ok((rh.flags & VFU_FLAG_ERROR) && rh.error == EINVAL,
		   "REGION_WRITE with count beyond the message -> EINVAL");
		rw.off = 4090;
		rw.count = 16;
		call(&s, VFU_CMD_REGION_READ, &rw, 16, r, sizeof(r), &rh);
		ok(rh.flags & VFU_FLAG_ERROR,
		   "config read past the 4 KiB space -> error");
		h.size = VFU_MAX_MSG + 100;
		h.command = VFU_CMD_REGION_WRITE;
		send(s.fd, &h, sizeof(h), MSG_NOSIGNAL);
		{
			static uint8_t junk[VFU_MAX_MSG + 100];

			send(s.fd, junk, VFU_MAX_MSG + 100 - sizeof(h), MSG_NOSIGNAL);
		}
		recv_reply(&s, &rh, r, sizeof(r));
		ok((rh.flags & VFU_FLAG_ERROR) && rh.error == E2BIG,
		   "an oversized message is drained and refused with E2BIG");
		call(&s, VFU_CMD_VERSION, &rw, 4, r, sizeof(r), &rh);
		ok(!(rh.flags & VFU_FLAG_ERROR), "... and the stream is still in sync");
	}
	is_u(srv_stop(&s), 0, "clean hang-up");
}

int main(void)
{
	test_discovery();
	test_config();
	test_bar_and_dma();
	test_malformed();
	return tap_done();
}
