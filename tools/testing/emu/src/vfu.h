/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfio-user server transport: a unix socket, one client (QEMU's
 * vfio-user-pci) at a time, one message handled at a time on the socket
 * thread.  Replies are sent at once; a message flagged NO_REPLY (posted
 * BAR writes) is never answered.  The server has no state of its own
 * beyond the connection: device state lives in struct emu.
 */
#ifndef EMU_VFU_H
#define EMU_VFU_H

#include <stdbool.h>
#include <stdint.h>

#include "emu.h"

/* protocol constants (QEMU docs/interop/vfio-user.rst) */
enum {
	VFU_CMD_VERSION = 1,
	VFU_CMD_DMA_MAP = 2,
	VFU_CMD_DMA_UNMAP = 3,
	VFU_CMD_DEVICE_GET_INFO = 4,
	VFU_CMD_DEVICE_GET_REGION_INFO = 5,
	VFU_CMD_DEVICE_GET_REGION_IO_FDS = 6,
	VFU_CMD_DEVICE_GET_IRQ_INFO = 7,
	VFU_CMD_DEVICE_SET_IRQS = 8,
	VFU_CMD_REGION_READ = 9,
	VFU_CMD_REGION_WRITE = 10,
	VFU_CMD_DMA_READ = 11,
	VFU_CMD_DMA_WRITE = 12,
	VFU_CMD_DEVICE_RESET = 13,
	VFU_CMD_DIRTY_PAGES = 14,
	VFU_CMD_REGION_WRITE_MULTI = 15,

	VFU_FLAG_TYPE_MASK = 0xf,
	VFU_FLAG_REQUEST = 0x0,
	VFU_FLAG_REPLY = 0x1,
	VFU_FLAG_NO_REPLY = 0x10,
	VFU_FLAG_ERROR = 0x20,

	VFU_HDR_LEN = 16,
	VFU_MAX_FDS = 16,
	/* region accesses are at most a few bytes; DMA maps are small */
	VFU_MAX_MSG = (1 << 20) + 64,
};

struct vfu_hdr {
	uint16_t id;
	uint16_t command;
	uint32_t size;
	uint32_t flags;
	uint32_t error;
};

struct vfu_stats {
	uint64_t msgs[VFU_CMD_REGION_WRITE_MULTI + 1];
	uint64_t errors, connections;
};

struct vfu {
	struct emu *e;
	int listen_fd;
	int conn_fd;
	int signal_fd;		/* -1 if none */
	int stop_fd;		/* readable: stop serving (-1 if none) */
	struct vfu_stats st;
	/* receive buffer for one message */
	uint8_t *buf;
	int fds[VFU_MAX_FDS];
	unsigned int nfds;
	/* signalled on SIGUSR1 etc.; returns true to stop serving */
	bool (*on_signal)(struct vfu *v, int signo);
};

/* set up without a socket (tests) */
int vfu_init(struct vfu *v, struct emu *e);
/* create, bind and listen on path (atomically visible: bind + rename) */
int vfu_listen(struct vfu *v, struct emu *e, const char *path);
/*
 * Serve clients: returns 0 when the client disconnected (and !keep), 1
 * when on_signal asked to stop or stop_fd became readable, <0 on a
 * socket error.
 */
int vfu_serve(struct vfu *v, bool keep_listening);
/* serve one connected socket (tests: socketpair); same returns, and
 * -EPROTO after a malformed message */
int vfu_serve_fd(struct vfu *v, int fd);
void vfu_close(struct vfu *v);

#endif /* EMU_VFU_H */
