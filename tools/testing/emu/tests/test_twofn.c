// SPDX-License-Identifier: GPL-2.0
/*
 * Two functions in one process: emu_link() on two devices, then the
 * mlx5x-emu binary serving two vfio-user sockets, each reaching its own
 * device, ending when both clients are gone or on SIGTERM, and writing
 * one report per function.  Traffic across the link is test_engine's
 * t_two_hcas (same emu_link()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/vfio.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "log.h"
#include "vfu.h"
#include "wire.h"

static char emu_bin[4096];
static char dir[64];

/* ---- emu_link() on devices in this process ---- */

static void test_link(void)
{
	struct emu_opts o;
	struct th a, b;
	struct wire w;

	th_default_opts(&o);
	th_setup_opts(&a, &o);
	th_setup_opts(&b, &o);
	ok(emu_link(&w, &a.e, &b.e) == -EINVAL,
	     "emu_link: two functions with one GUID are refused");
	ok(a.e.eng.wire != &w && b.e.eng.wire != &w,
	   "... and both ports stay on their loopback wire");
	th_teardown(&b);
	o.guid += 1;
	o.lid = a.e.port.lid;
	th_setup_opts(&b, &o);
	ok(emu_link(&w, &a.e, &b.e) == -EADDRINUSE,
	     "emu_link: one LID on both ports is refused");
	th_teardown(&b);
	o.lid = 0;
	th_setup_opts(&b, &o);
	ok(emu_link(&w, &a.e, &b.e) == 0 && a.e.eng.wire == &w &&
	   b.e.eng.wire == &w && w.end[0] == &a.e && w.end[1] == &b.e,
	   "emu_link: distinct GUIDs and LIDs share one link wire");
	th_teardown(&a);
	th_teardown(&b);
}

/* ---- the binary ---- */

static pid_t spawn(char *const argv[], const char *out)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(emu_bin, argv);
		_exit(127);
	}
	return pid;
}

/* exit status, or -1 if it did not exit within 20 s */
static int reap(pid_t pid)
{
	int st, i;

	for (i = 0; i < 2000; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

static char *path(const char *name)
{
	static char buf[8][128];
	static int n;
	char *p = buf[n++ & 7];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

/* connect once the socket exists (the emulator renames it into place) */
static int connect_sock(const char *p)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int i, fd;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p);
	for (i = 0; i < 1000; i++) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		close(fd);
		usleep(10000);
	}
	return -1;
}

/* one region read over the socket: 4 bytes at off of region */
static int region_read32(int fd, uint32_t region, uint64_t off, uint32_t *v)
{
	struct {
		struct vfu_hdr h;
		uint64_t off;
		uint32_t region, count;
	} __attribute__((packed)) req = {
		.h = { .id = 7, .command = VFU_CMD_REGION_READ,
		       .size = VFU_HDR_LEN + 16 },
		.off = off, .region = region, .count = 4,
	};
	struct {
		struct vfu_hdr h;
		uint64_t off;
		uint32_t region, count;
		uint8_t data[4];
	} __attribute__((packed)) rep;

	if (send(fd, &req, sizeof(req), MSG_NOSIGNAL) != sizeof(req) ||
	    recv(fd, &rep, sizeof(rep), MSG_WAITALL) != sizeof(rep) ||
	    rep.h.id != 7 || (rep.h.flags & VFU_FLAG_ERROR))
		return -1;
	memcpy(v, rep.data, 4);
	return 0;
}

/* the low 16 bits of the second init segment word: fw sub-minor */
static int fw_sub(int fd)
{
	uint32_t v;

	if (region_read32(fd, 0, MLX5X_ISEG_CMDIF_REV_OFF, &v))
		return -1;
	return (int)(get_be32((uint8_t *)&v) & 0xffff);
}

static int report_has(const char *file, const char *line)
{
	char buf[256];
	FILE *fp = fopen(file, "r");
	int found = 0;

	if (!fp)
		return 0;
	while (!found && fgets(buf, sizeof(buf), fp))
		found = !strncmp(buf, line, strlen(line)) &&
			buf[strlen(line)] == '\n';
	fclose(fp);
	return found;
}

static void test_two_sockets(void)
{
	char *argv[] = { "mlx5x-emu", "--guid", "0x0002c90300fab001",
		"--socket", path("a.sock"), "--fw", "16.35.4041",
		"--report", path("a.rep"),
		"--socket", path("b.sock"), "--fw", "16.35.4042",
		"--report", path("b.rep"), NULL };
	pid_t pid = spawn(argv, path("two.out"));
	int a = connect_sock(path("a.sock"));
	int b = connect_sock(path("b.sock"));
	uint32_t id = 0;

	ok(a >= 0 && b >= 0, "two sockets, both accept a client");
	ok(region_read32(a, VFIO_PCI_CONFIG_REGION_INDEX, 0, &id) == 0 &&
	   id == 0x101715b3, "function 0: a ConnectX-5 in config space");
	ok(region_read32(b, VFIO_PCI_CONFIG_REGION_INDEX, 0, &id) == 0 &&
	   id == 0x101715b3, "function 1: a ConnectX-5 in config space");
	ok(fw_sub(a) == 4041 && fw_sub(b) == 4042,
	   "each socket reaches its own device (its own --fw)");
	close(a);
	ok(fw_sub(b) == 4042,
	   "one client gone: the other function is still served");
	close(b);
	is_u(reap(pid), 0, "both clients gone: the process exits 0");
	ok(report_has(path("a.rep"), "guid=0x0002c90300fab001") &&
	   report_has(path("b.rep"), "guid=0x0002c90300fab002"),
	   "one report per function; the second GUID is the first + 1");
	ok(report_has(path("a.rep"), "link=peer") &&
	   report_has(path("b.rep"), "link=peer"),
	   "both ports are on the link");
	ok(report_has(path("a.rep"), "live_objects=0") &&
	   report_has(path("b.rep"), "live_objects=0"),
	   "nothing held by either function");
	ok(access(path("a.sock"), F_OK) && access(path("b.sock"), F_OK),
	   "both sockets removed");
}

static void test_sigterm(void)
{
	char *argv[] = { "mlx5x-emu", "--socket", path("c.sock"),
		"--report", path("c.rep"), "--socket", path("d.sock"),
		"--guid", "0x0002c90300fab0d0", "--report", path("d.rep"),
		NULL };
	pid_t pid = spawn(argv, path("term.out"));
	int c = connect_sock(path("c.sock"));
	int d = connect_sock(path("d.sock"));
	uint32_t id;

	ok(c >= 0 && d >= 0 &&
	   !region_read32(c, VFIO_PCI_CONFIG_REGION_INDEX, 0, &id) &&
	   !region_read32(d, VFIO_PCI_CONFIG_REGION_INDEX, 0, &id),
	   "SIGTERM case: both functions serving");
	kill(pid, SIGTERM);
	is_u(reap(pid), 0, "SIGTERM with both clients connected: exit 0");
	ok(report_has(path("c.rep"), "link=peer") &&
	   report_has(path("d.rep"), "guid=0x0002c90300fab0d0"),
	   "... and both reports written (a given GUID is kept)");
	close(c);
	close(d);
}

static void test_one_socket(void)
{
	char *argv[] = { "mlx5x-emu", "--socket", path("e.sock"),
		"--report", path("e.rep"), NULL };
	pid_t pid = spawn(argv, path("one.out"));
	int e = connect_sock(path("e.sock"));

	close(e);
	is_u(reap(pid), 0, "one socket: exits 0 when its client is gone");
	ok(report_has(path("e.rep"), "link=loopback") &&
	   report_has(path("e.rep"), "live_objects=0"),
	   "... its port is on its own loopback wire");
}

static void test_refused(void)
{
	char *three[] = { "mlx5x-emu", "--socket", path("f"), "--socket",
		path("g"), "--socket", path("h"), NULL };
	char *same_guid[] = { "mlx5x-emu", "--socket", path("f"), "--guid",
		"0x10", "--socket", path("g"), "--guid", "0x10", NULL };
	char *same_sock[] = { "mlx5x-emu", "--socket", path("f"), "--socket",
		path("f"), NULL };
	char *same_lid[] = { "mlx5x-emu", "--lid", "9", "--socket", path("f"),
		"--socket", path("g"), NULL };

	is_u(reap(spawn(three, path("r1.out"))), 2,
	     "three functions: refused (a link has two ends)");
	is_u(reap(spawn(same_guid, path("r2.out"))), 2,
	     "two functions with one GUID: refused");
	is_u(reap(spawn(same_sock, path("r3.out"))), 2,
	     "one socket path twice: refused");
	is_u(reap(spawn(same_lid, path("r4.out"))), 1,
	     "one --lid for both (a default): refused at start");
	ok(access(path("f"), F_OK) && access(path("g"), F_OK),
	   "... no socket left behind");
}

static void remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			unlink(path(de->d_name));
	if (d)
		closedir(d);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	char *self = strdup(argv[0]);

	(void)argc;
	snprintf(emu_bin, sizeof(emu_bin), "%s/../mlx5x-emu", dirname(self));
	free(self);
	snprintf(dir, sizeof(dir), "/tmp/emu-twofn-XXXXXX");
	if (!mkdtemp(dir) || access(emu_bin, X_OK)) {
		printf("1..0 # SKIP no %s or temp dir\n", emu_bin);
		return 1;
	}
	log_set_level(LOG_QUIET);
	test_link();
	test_two_sockets();
	test_sigterm();
	test_one_socket();
	test_refused();
	remove_dir();
	return tap_done();
}
