// SPDX-License-Identifier: GPL-2.0
/*
 * vfio-user transport (protocol 0.0), written for QEMU 11's vfio-user-pci
 * client: the message set of the vfio-user protocol specification that
 * QEMU publishes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "util.h"
#include "vfu.h"

#define REGION_BAR0	VFIO_PCI_BAR0_REGION_INDEX
#define REGION_CONFIG	VFIO_PCI_CONFIG_REGION_INDEX

struct reply {
	uint8_t *data;		/* payload after the header */
	uint32_t len;
	int err;		/* errno for an error reply */
};

static void close_fds(struct vfu *v)
{
	unsigned int i;

	for (i = 0; i < v->nfds; i++)
		if (v->fds[i] >= 0)
			close(v->fds[i]);
	v->nfds = 0;
}

/* take ownership of received fd i (it will not be closed by close_fds) */
static int take_fd(struct vfu *v, unsigned int i)
{
	int fd = v->fds[i];

	v->fds[i] = -1;
	return fd;
}

static void collect_fds(struct vfu *v, struct msghdr *mh)
{
	struct cmsghdr *cm;

	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		unsigned int n, i;
		int *fds;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (unsigned int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		fds = (int *)CMSG_DATA(cm);
		for (i = 0; i < n; i++) {
			if (v->nfds < VFU_MAX_FDS)
				v->fds[v->nfds++] = fds[i];
			else
				close(fds[i]);
		}
	}
}

/* read exactly len bytes; the first read also collects fds */
static int recv_full(struct vfu *v, void *buf, size_t len, bool with_fds)
{
	union {
		char buf[CMSG_SPACE(VFU_MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} cbuf;
	uint8_t *p = buf;

	while (len) {
		struct iovec iov = { .iov_base = p, .iov_len = len };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n;

		if (with_fds) {
			mh.msg_control = cbuf.buf;
			mh.msg_controllen = sizeof(cbuf.buf);
		}
		n = recvmsg(v->conn_fd, &mh, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? 0 : -errno;
		if (with_fds)
			collect_fds(v, &mh);
		p += n;
		len -= (size_t)n;
	}
	return 1;
}

static int send_reply(struct vfu *v, const struct vfu_hdr *req,
		      const struct reply *r)
{
	struct vfu_hdr h = {
		.id = req->id,
		.command = req->command,
		.size = VFU_HDR_LEN + (r->err ? 0 : r->len),
		.flags = VFU_FLAG_REPLY | (r->err ? VFU_FLAG_ERROR : 0),
		.error = (uint32_t)r->err,
	};
	struct iovec iov[2] = {
		{ .iov_base = &h, .iov_len = VFU_HDR_LEN },
		{ .iov_base = r->data, .iov_len = r->err ? 0 : r->len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	size_t total = h.size;

	while (total) {
		ssize_t n = sendmsg(v->conn_fd, &mh, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		total -= (size_t)n;
		while (n && mh.msg_iovlen) {
			size_t k = MIN((size_t)n, mh.msg_iov->iov_len);

			mh.msg_iov->iov_base = (uint8_t *)mh.msg_iov->iov_base + k;
			mh.msg_iov->iov_len -= k;
			n -= (ssize_t)k;
			if (!mh.msg_iov->iov_len) {
				mh.msg_iov++;
				mh.msg_iovlen--;
			}
		}
	}
	return 0;
}

/* ---- message handlers: body in v->buf, len bytes ---- */

static void do_version(struct vfu *v, uint32_t len, struct reply *r)
{
	static uint8_t ver[4];	/* major 0, minor 0, no capabilities */

	(void)v;
	if (len < 4) {
		r->err = EINVAL;
		return;
	}
	/* the reply must not be longer than the request */
	r->data = ver;
	r->len = sizeof(ver);
}

static void do_dma_map(struct vfu *v, uint32_t len, struct reply *r)
{
	struct vfio_iommu_type1_dma_map m;
	uint32_t prot = 0;
	int ret;

	if (len < sizeof(m) || v->nfds > 1) {
		r->err = EINVAL;
		return;
	}
	memcpy(&m, v->buf, sizeof(m));
	if (m.flags & VFIO_DMA_MAP_FLAG_READ)
		prot |= GM_PROT_READ;
	if (m.flags & VFIO_DMA_MAP_FLAG_WRITE)
		prot |= GM_PROT_WRITE;
	if (v->nfds)
		ret = gm_map_fd(&v->e->gm, m.iova, m.size, take_fd(v, 0),
				m.vaddr, prot);
	else	/* no fd: ROM, or the device's own BAR: no host view */
		ret = gm_map_host(&v->e->gm, m.iova, m.size, NULL, prot);
	emu_dbg("dma map 0x%llx+0x%llx prot %u fd %s: %d",
		(unsigned long long)m.iova, (unsigned long long)m.size, prot,
		v->nfds ? "yes" : "no", ret);
	r->err = ret < 0 ? -ret : 0;
}

static void do_dma_unmap(struct vfu *v, uint32_t len, struct reply *r)
{
	struct vfio_iommu_type1_dma_unmap u;
	int ret = 0;

	if (len < sizeof(u)) {
		r->err = EINVAL;
		return;
	}
	memcpy(&u, v->buf, sizeof(u));
	if (u.flags & VFIO_DMA_UNMAP_FLAG_GET_DIRTY_BITMAP) {
		r->err = ENOTSUP;
		return;
	}
	if (u.flags & VFIO_DMA_UNMAP_FLAG_ALL)
		gm_unmap_all(&v->e->gm);
	else
		ret = gm_unmap(&v->e->gm, u.iova, u.size);
	r->err = ret < 0 ? -ret : 0;
	r->data = v->buf;
	r->len = sizeof(u);
}

static void do_get_info(struct vfu *v, uint32_t len, struct reply *r)
{
	struct vfio_device_info info = {
		.argsz = sizeof(info),
		.flags = VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET,
		.num_regions = VFIO_PCI_NUM_REGIONS,
		.num_irqs = VFIO_PCI_NUM_IRQS,
	};
	const uint32_t n = offsetof(struct vfio_device_info, num_irqs) + 4;

	if (len < 8) {
		r->err = EINVAL;
		return;
	}
	info.argsz = n;
	memcpy(v->buf, &info, n);
	r->data = v->buf;
	r->len = n;
}

static void do_region_info(struct vfu *v, uint32_t len, struct reply *r)
{
	struct vfio_region_info ri;

	if (len < sizeof(ri)) {
		r->err = EINVAL;
		return;
	}
	memcpy(&ri, v->buf, sizeof(ri));
	if (ri.index >= VFIO_PCI_NUM_REGIONS) {
		r->err = EINVAL;
		return;
	}
	ri.argsz = sizeof(ri);
	ri.cap_offset = 0;
	ri.offset = 0;
	ri.flags = 0;
	ri.size = 0;
	if (ri.index == REGION_BAR0) {
		/* trapped: no MMAP flag, so writes stay posted and visible */
		ri.flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
		ri.size = EMU_BAR0_SIZE;
	} else if (ri.index == REGION_CONFIG) {
		ri.flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
		ri.size = PCICFG_SIZE;
	}
	memcpy(v->buf, &ri, sizeof(ri));
	r->data = v->buf;
	r->len = sizeof(ri);
}

static void do_irq_info(struct vfu *v, uint32_t len, struct reply *r)
{
	struct vfio_irq_info ii;

	if (len < sizeof(ii)) {
		r->err = EINVAL;
		return;
	}
	memcpy(&ii, v->buf, sizeof(ii));
	ii.argsz = sizeof(ii);
	switch (ii.index) {
	case VFIO_PCI_INTX_IRQ_INDEX:
	case VFIO_PCI_MSI_IRQ_INDEX:
		ii.flags = VFIO_IRQ_INFO_EVENTFD;
		ii.count = 0;
		break;
	case VFIO_PCI_MSIX_IRQ_INDEX:
		ii.flags = VFIO_IRQ_INFO_EVENTFD | VFIO_IRQ_INFO_NORESIZE;
		ii.count = v->e->opt.msix;
		break;
	default:
		r->err = EINVAL;
		return;
	}
	memcpy(v->buf, &ii, sizeof(ii));
	r->data = v->buf;
	r->len = sizeof(ii);
}

static int set_irqs_trigger(struct vfu *v, const struct vfio_irq_set *s)
{
	struct irq *irq = &v->e->irq;
	uint32_t type = s->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	unsigned int i;

	if (type == VFIO_IRQ_SET_DATA_EVENTFD) {
		int fds[VFU_MAX_FDS];

		/* either one fd per vector, or none to unassign */
		if (v->nfds && v->nfds != s->count)
			return -EINVAL;
		if (s->start > irq->nvec || s->count > irq->nvec - s->start)
			return -EINVAL;
		for (i = 0; i < v->nfds; i++)
			fds[i] = take_fd(v, i);
		return irq_assign(irq, s->start, s->count,
				  v->nfds ? fds : NULL);
	}
	if (type == VFIO_IRQ_SET_DATA_NONE && !s->count) {
		irq_release_all(irq);
		return 0;
	}
	if (type == VFIO_IRQ_SET_DATA_NONE) {
		for (i = 0; i < s->count; i++)
			if (!irq_fire(irq, s->start + i))
				return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

static void do_set_irqs(struct vfu *v, uint32_t len, struct reply *r)
{
	struct vfio_irq_set s;
	int ret;

	if (len < sizeof(s)) {
		r->err = EINVAL;
		return;
	}
	memcpy(&s, v->buf, sizeof(s));
	if (s.index != VFIO_PCI_MSIX_IRQ_INDEX) {
		/* nothing to set up for INTx/MSI: accept a disable only */
		r->err = s.count ? EINVAL : 0;
		return;
	}
	if ((s.flags & VFIO_IRQ_SET_ACTION_TYPE_MASK) != VFIO_IRQ_SET_ACTION_TRIGGER) {
		r->err = EINVAL;	/* vectors are not maskable here */
		return;
	}
	ret = set_irqs_trigger(v, &s);
	emu_dbg("set_irqs start %u count %u flags 0x%x fds %u: %d", s.start,
		s.count, s.flags, v->nfds, ret);
	r->err = ret < 0 ? -ret : 0;
}

struct region_rw {
	uint64_t offset;
	uint32_t region;
	uint32_t count;
};

static void do_region_read(struct vfu *v, uint32_t len, struct reply *r)
{
	struct region_rw rw;
	uint8_t *data = v->buf + sizeof(rw);

	if (len < sizeof(rw)) {
		r->err = EINVAL;
		return;
	}
	memcpy(&rw, v->buf, sizeof(rw));
	if (rw.count > VFU_MAX_MSG - VFU_HDR_LEN - sizeof(rw)) {
		r->err = E2BIG;
		return;
	}
	if (rw.region == REGION_BAR0) {
		emu_bar0_read(v->e, rw.offset, data, rw.count);
	} else if (rw.region == REGION_CONFIG && rw.offset < PCICFG_SIZE &&
		   rw.count <= PCICFG_SIZE - rw.offset) {
		pcicfg_read(&v->e->cfg, (uint32_t)rw.offset, data, rw.count);
	} else {
		r->err = EINVAL;
		return;
	}
	r->data = v->buf;
	r->len = (uint32_t)sizeof(rw) + rw.count;
}

static void do_region_write(struct vfu *v, uint32_t len, struct reply *r)
{
	struct region_rw rw;
	const uint8_t *data = v->buf + sizeof(rw);

	if (len < sizeof(rw)) {
		r->err = EINVAL;
		return;
	}
	memcpy(&rw, v->buf, sizeof(rw));
	if (rw.count > len - sizeof(rw)) {
		r->err = EINVAL;
		return;
	}
	if (rw.region == REGION_BAR0) {
		emu_bar0_write(v->e, rw.offset, data, rw.count);
	} else if (rw.region == REGION_CONFIG && rw.offset < PCICFG_SIZE &&
		   rw.count <= PCICFG_SIZE - rw.offset) {
		if (pcicfg_write(&v->e->cfg, (uint32_t)rw.offset, data,
				 rw.count) == PCICFG_FLR)
			emu_flr(v->e);
	} else {
		r->err = EINVAL;
		return;
	}
	r->data = v->buf;
	r->len = sizeof(rw);
}

static void do_reset(struct vfu *v, uint32_t len, struct reply *r)
{
	(void)len;
	(void)r;
	emu_info("device reset");
	emu_reset(v->e);
}

static void dispatch(struct vfu *v, const struct vfu_hdr *h, uint32_t len,
		     struct reply *r)
{
	switch (h->command) {
	case VFU_CMD_VERSION: do_version(v, len, r); break;
	case VFU_CMD_DMA_MAP: do_dma_map(v, len, r); break;
	case VFU_CMD_DMA_UNMAP: do_dma_unmap(v, len, r); break;
	case VFU_CMD_DEVICE_GET_INFO: do_get_info(v, len, r); break;
	case VFU_CMD_DEVICE_GET_REGION_INFO: do_region_info(v, len, r); break;
	case VFU_CMD_DEVICE_GET_IRQ_INFO: do_irq_info(v, len, r); break;
	case VFU_CMD_DEVICE_SET_IRQS: do_set_irqs(v, len, r); break;
	case VFU_CMD_REGION_READ: do_region_read(v, len, r); break;
	case VFU_CMD_REGION_WRITE: do_region_write(v, len, r); break;
	case VFU_CMD_DEVICE_RESET: do_reset(v, len, r); break;
	default: r->err = ENOSYS; break;
	}
}

/* discard a message body we will not process */
static int drain(struct vfu *v, uint64_t len)
{
	while (len) {
		size_t n = (size_t)MIN(len, (uint64_t)65536);
		int ret = recv_full(v, v->buf, n, false);

		if (ret <= 0)
			return ret;
		len -= n;
	}
	return 1;
}

/* one message: 1 handled, 0 client gone, <0 protocol error */
static int handle_one(struct vfu *v)
{
	struct reply r = { 0 };
	struct vfu_hdr h;
	uint32_t len;
	int ret;

	v->nfds = 0;
	ret = recv_full(v, &h, VFU_HDR_LEN, true);
	if (ret <= 0)
		goto out;
	if (h.size < VFU_HDR_LEN ||
	    (h.flags & VFU_FLAG_TYPE_MASK) != VFU_FLAG_REQUEST) {
		emu_err("vfio-user: bad header (size %u flags 0x%x)", h.size,
			h.flags);
		ret = -EPROTO;
		goto out;
	}
	len = h.size - VFU_HDR_LEN;
	if (h.size > VFU_MAX_MSG) {
		ret = drain(v, len);
		r.err = E2BIG;
	} else {
		ret = recv_full(v, v->buf, len, false);
		if (ret > 0)
			dispatch(v, &h, len, &r);
	}
	if (ret <= 0)
		goto out;
	if (h.command <= VFU_CMD_REGION_WRITE_MULTI)
		v->st.msgs[h.command]++;
	if (r.err)
		v->st.errors++;
	/* posted writes: QEMU expects nothing back, ever */
	if (!(h.flags & VFU_FLAG_NO_REPLY) && send_reply(v, &h, &r))
		ret = 0;
out:
	close_fds(v);
	return ret;
}

int vfu_init(struct vfu *v, struct emu *e)
{
	memset(v, 0, sizeof(*v));
	v->e = e;
	v->listen_fd = -1;
	v->conn_fd = -1;
	v->signal_fd = -1;
	v->stop_fd = -1;
	v->buf = malloc(VFU_MAX_MSG);
	return v->buf ? 0 : -ENOMEM;
}

int vfu_listen(struct vfu *v, struct emu *e, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char tmp[sizeof(sa.sun_path)];
	int fd;

	if (vfu_init(v, e))
		return -ENOMEM;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	unlink(tmp);
	unlink(path);
	memcpy(sa.sun_path, tmp, strlen(tmp) + 1);
	/* bind under a temporary name, listen, then rename: the socket
	 * file appears only once a client can connect */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 4) ||
	    rename(tmp, path)) {
		int err = -errno;

		close(fd);
		unlink(tmp);
		return err;
	}
	v->listen_fd = fd;
	return 0;
}

static void disconnect(struct vfu *v)
{
	close(v->conn_fd);
	v->conn_fd = -1;
	/* the client's memory and eventfds are gone with it */
	gm_unmap_all(&v->e->gm);
	irq_release_all(&v->e->irq);
}

/*
 * wait for fd, a signal or the stop descriptor; 1 fd ready, 0 stop
 * requested.  The stop descriptor is never read here: once readable it
 * stays so, and stops every server that polls it.
 */
static int wait_fd(struct vfu *v, int fd)
{
	for (;;) {
		struct pollfd p[3] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = v->signal_fd, .events = POLLIN },
			{ .fd = v->stop_fd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (p[2].revents & POLLIN)
			return 0;
		if (v->signal_fd >= 0 && (p[1].revents & POLLIN) &&
		    read(v->signal_fd, &si, sizeof(si)) == sizeof(si) &&
		    v->on_signal && v->on_signal(v, (int)si.ssi_signo))
			return 0;
		if (p[0].revents)
			return 1;
	}
}

int vfu_serve_fd(struct vfu *v, int fd)
{
	int ret;

	v->conn_fd = fd;
	v->st.connections++;
	for (;;) {
		ret = wait_fd(v, fd);
		if (ret <= 0) {
			ret = ret ? ret : 1;	/* 1: stopped by a signal */
			break;
		}
		ret = handle_one(v);
		if (ret <= 0)
			break;
	}
	if (ret < 0 && ret != -EPROTO)
		emu_warn("vfio-user connection error: %s", strerror(-ret));
	if (ret == 0)
		emu_info("vfio-user client disconnected");
	else if (ret == -EPROTO)
		emu_info("vfio-user client dropped after a protocol error");
	disconnect(v);
	return ret;
}

int vfu_serve(struct vfu *v, bool keep_listening)
{
	for (;;) {
		int ret = wait_fd(v, v->listen_fd);
		int fd;

		if (ret <= 0)
			return 1;	/* stopped by a signal */
		fd = accept4(v->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return -errno;
		}
		emu_info("vfio-user client connected");
		ret = vfu_serve_fd(v, fd);
		if (ret == 1)
			return 1;
		if (!keep_listening)
			return 0;
	}
}

void vfu_close(struct vfu *v)
{
	if (v->conn_fd >= 0)
		disconnect(v);
	if (v->listen_fd >= 0)
		close(v->listen_fd);
	v->listen_fd = -1;
	free(v->buf);
	v->buf = NULL;
}
