// SPDX-License-Identifier: GPL-2.0
/*
 * vbench: the verbs workloads of `make bench`, run in the test VM on one
 * RDMA device at a time (the same binary on both drivers).
 *
 *   vbench ctl DEV SECONDS PROCS OP... control-path operations per second
 *   vbench evlat DEV ITERS             completion-event wake-up latency
 *   vbench bind DRIVER BDF             bind, wait for the ib device (ms)
 *   vbench unbind DRIVER BDF           unbind (ms)
 *   vbench mmio BDF ITERS              BAR0 read round trip (unbound only)
 *
 * Output: "key value" lines on stdout; errors on stderr, exit status 1.
 * OP: pd (open_device + alloc_pd and back), mr4k, mr2m (one 2 MiB huge
 * page), mr64m, mr256m, cq, rcqp (create, INIT, RTR, RTS, destroy), udqp,
 * srq.  Each OP runs in PROCS fresh processes (forked: the providers stay
 * loaded, nothing is exec'd again) that set up, start together and exit
 * before the next OP; with PROCS > 1 the figure is all of their operations
 * over the wall time of the slowest.  PROCS may be a list ("1,4"): every
 * OP at each count in turn.  One line per figure:
 * "ctl OP PROCS ops seconds ops_per_s".  With VBENCH_MARK_N set, each is
 * preceded by phase mark N, N+1, ... of guest.sh's protocol (file
 * /job/mark/N.req holding "VBENCH_MARK_PREFIX ctl_OP_pPROCS", then wait
 * for the host's N.ack), so the host counts each figure's commands.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "vbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	if (!l)
		die("ibv_get_device_list");
	for (i = 0; l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			ctx = ibv_open_device(l[i]);
	ibv_free_device_list(l);
	if (!ctx) {
		fprintf(stderr, "vbench: cannot open %s\n", name);
		exit(1);
	}
	return ctx;
}

/* ---- control path ---- */

struct ctl {
	const char *dev, *op;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	uint16_t lid;
	void *buf;
	size_t len;
};

/* RESET to RTS; an RC QP is connected to DQPN on this port */
static int qp_to_rts(struct ctl *c, struct ibv_qp *qp, int ud, uint32_t dqpn)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	if (ud) {
		a.qkey = 0x11111111;
		if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				  IBV_QP_PORT | IBV_QP_QKEY))
			return -1;
	} else {
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ;
		if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
			return -1;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	if (ud) {
		if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
			return -1;
	} else {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = dqpn;
		a.rq_psn = 0;
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 12;
		a.ah_attr.dlid = c->lid;
		a.ah_attr.port_num = 1;
		if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
				  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				  IBV_QP_MIN_RNR_TIMER))
			return -1;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	if (ud)
		return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

static void ctl_setup(struct ctl *c)
{
	struct ibv_port_attr pa;

	if (!strcmp(c->op, "pd"))
		return;
	c->ctx = open_dev(c->dev);
	c->pd = ibv_alloc_pd(c->ctx);
	c->cq = ibv_create_cq(c->ctx, 64, NULL, NULL, 0);
	if (!c->pd || !c->cq || ibv_query_port(c->ctx, 1, &pa))
		die("setup");
	c->lid = pa.lid;
	if (!strcmp(c->op, "mr4k"))
		c->len = 4096;
	else if (!strcmp(c->op, "mr2m"))
		c->len = 2u << 20;
	else if (!strcmp(c->op, "mr64m"))
		c->len = 64u << 20;
	else if (!strcmp(c->op, "mr256m"))
		c->len = 256u << 20;
	if (!c->len)
		return;
	/* populated by the kernel: a user memset doubles the cost under TCG */
	c->buf = mmap(NULL, c->len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE |
		      (c->len == (2u << 20) ? MAP_HUGETLB : 0), -1, 0);
	if (c->buf == MAP_FAILED)
		die("mmap (huge pages: /proc/sys/vm/nr_hugepages)");
}

static int ctl_one(struct ctl *c)
{
	if (!strcmp(c->op, "pd")) {
		struct ibv_context *ctx = open_dev(c->dev);
		struct ibv_pd *pd = ibv_alloc_pd(ctx);

		if (!pd || ibv_dealloc_pd(pd))
			return -1;
		return ibv_close_device(ctx);
	}
	if (c->len) {
		struct ibv_mr *mr = ibv_reg_mr(c->pd, c->buf, c->len,
					       IBV_ACCESS_LOCAL_WRITE |
					       IBV_ACCESS_REMOTE_WRITE |
					       IBV_ACCESS_REMOTE_READ);

		return mr ? ibv_dereg_mr(mr) : -1;
	}
	if (!strcmp(c->op, "cq")) {
		struct ibv_cq *cq = ibv_create_cq(c->ctx, 256, NULL, NULL, 0);

		return cq ? ibv_destroy_cq(cq) : -1;
	}
	if (!strcmp(c->op, "srq")) {
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = 256,
							  .max_sge = 1 } };
		struct ibv_srq *srq = ibv_create_srq(c->pd, &sa);

		return srq ? ibv_destroy_srq(srq) : -1;
	}
	if (!strcmp(c->op, "rcqp") || !strcmp(c->op, "udqp")) {
		int ud = c->op[0] == 'u';
		struct ibv_qp_init_attr qa = {
			.send_cq = c->cq, .recv_cq = c->cq,
			.cap = { .max_send_wr = 64, .max_recv_wr = 64,
				 .max_send_sge = 1, .max_recv_sge = 1 },
			.qp_type = ud ? IBV_QPT_UD : IBV_QPT_RC,
		};
		struct ibv_qp *qp = ibv_create_qp(c->pd, &qa);
		int ret;

		if (!qp)
			return -1;
		/* connected to itself: the transitions are what is timed */
		ret = qp_to_rts(c, qp, ud, qp->qp_num);
		if (ibv_destroy_qp(qp))
			return -1;
		return ret;
	}
	errno = EINVAL;
	return -1;
}

/* phase mark N of guest.sh's protocol; no-op without VBENCH_MARK_N */
static void mark(const char *label)
{
	const char *ns = getenv("VBENCH_MARK_N"), *pre = getenv("VBENCH_MARK_PREFIX");
	static long n = -1;
	char tmp[64], req[64], ack[64];
	double end;
	FILE *f;

	if (!ns)
		return;
	if (n < 0)
		n = atol(ns);
	snprintf(tmp, sizeof(tmp), "/job/mark/%ld.tmp", n);
	snprintf(req, sizeof(req), "/job/mark/%ld.req", n);
	snprintf(ack, sizeof(ack), "/job/mark/%ld.ack", n);
	n++;
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%s %s\n", pre ? pre : "", label) < 0 ||
	    fclose(f) || rename(tmp, req))
		die("mark");
	/* the host is gone if no answer comes: go on, as guest.sh does */
	for (end = now_s() + 30; access(ack, F_OK) && now_s() < end;)
		usleep(10000);
}

/*
 * One worker process: set up, say so on rdy, start when the go pipe
 * closes, count operations for SECONDS, report count and time on res.
 */
static void ctl_worker(struct ctl *c, double secs, int go_fd, int rdy_fd,
		       int res_fd)
{
	double r[2], t0, t;
	long n = 0;
	char go;

	ctl_setup(c);
	if (write(rdy_fd, "r", 1) != 1 || read(go_fd, &go, 1) != 0)
		_exit(1);
	t0 = now_s();
	do {
		if (ctl_one(c))
			die(c->op);
		n++;
		t = now_s();
	} while (t - t0 < secs);
	r[0] = n;
	r[1] = t - t0;
	if (write(res_fd, r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

/*
 * PROCS workers for one OP.  One process: its own count over its own
 * time.  More: all counts over the wall time from the common start to
 * the last report.  The workers exit (their resources go) before return.
 */
static int ctl_op(const char *dev, const char *op, double secs, int procs)
{
	struct ctl c = { .dev = dev, .op = op };
	int go[2], rdy[2], res[2], i, st, bad = 0;
	double r[2], t0, wall, total = 0, took = 0;
	char x;

	if (pipe(go) || pipe(rdy) || pipe(res))
		die("pipe");
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			close(go[1]);
			ctl_worker(&c, secs, go[0], rdy[1], res[1]);
		}
	}
	close(go[0]);
	close(rdy[1]);
	close(res[1]);
	for (i = 0; i < procs; i++)
		if (read(rdy[0], &x, 1) != 1)
			bad = 1;
	t0 = now_s();
	close(go[1]);
	for (i = 0; i < procs; i++) {
		if (read(res[0], r, sizeof(r)) != sizeof(r)) {
			bad = 1;
			continue;
		}
		total += r[0];
		took = r[1];
	}
	wall = now_s() - t0;
	close(rdy[0]);
	close(res[0]);
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	if (bad) {
		fprintf(stderr, "vbench: a worker of %s failed\n", op);
		return 1;
	}
	if (procs > 1)
		took = wall;
	printf("ctl %s %d %.0f %.6f %.2f\n", op, procs, total, took,
	       total / took);
	fflush(stdout);
	return 0;
}

/* PROCS: a comma-separated list; every OP runs at each count in turn */
static int cmd_ctl(char **av, int nops)
{
	double secs = atof(av[1]);
	int procs, i, bad = 0;
	struct ibv_device **l;
	const char *p;
	char label[64];

	/* providers loaded once here: the forked workers inherit them */
	l = ibv_get_device_list(NULL);
	if (l)
		ibv_free_device_list(l);
	for (p = av[2]; p; p = strchr(p, ',')) {
		p += *p == ',';
		procs = atoi(p) > 1 ? atoi(p) : 1;
		for (i = 0; i < nops; i++) {
			snprintf(label, sizeof(label), "ctl_%s_p%d",
				 av[3 + i], procs);
			mark(label);
			bad |= ctl_op(av[0], av[3 + i], secs, procs);
		}
	}
	return bad;
}

/* ---- completion-event latency ---- */

struct ev {
	struct ibv_qp *tx;
	struct ibv_cq *txcq;
	struct ibv_mr *mr;
	pthread_mutex_t lock;	/* guards go, t0 */
	pthread_cond_t cond;
	int go;
	double t0;
};

/* the remote side: posts one send when told, stamps the time */
static void *poster(void *arg)
{
	struct ev *e = arg;
	struct ibv_wc wc;

	for (;;) {
		struct ibv_sge sge = { .addr = (uintptr_t)e->mr->addr,
				       .length = 64, .lkey = e->mr->lkey };
		struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED },
				   *bad;
		int go;

		pthread_mutex_lock(&e->lock);
		while (!e->go)
			pthread_cond_wait(&e->cond, &e->lock);
		go = e->go;
		e->go = 0;
		pthread_mutex_unlock(&e->lock);
		if (go < 0)
			return NULL;
		e->t0 = now_s();
		if (ibv_post_send(e->tx, &wr, &bad))
			die("post_send");
		while (ibv_poll_cq(e->txcq, 1, &wc) == 0)
			;
		if (wc.status != IBV_WC_SUCCESS) {
			fprintf(stderr, "vbench: send status %d\n", wc.status);
			exit(1);
		}
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmd_evlat(char **av)
{
	int iters = atoi(av[1]), i;
	struct ctl c = { .dev = av[0], .op = "evlat" };
	struct ibv_comp_channel *ch;
	struct ibv_cq *rxcq, *ecq;
	struct ibv_qp *rx;
	struct ev e = { .lock = PTHREAD_MUTEX_INITIALIZER,
			.cond = PTHREAD_COND_INITIALIZER };
	pthread_t th;
	double *lat = calloc(iters, sizeof(double));
	void *ctxp;

	ctl_setup(&c);
	ch = ibv_create_comp_channel(c.ctx);
	rxcq = ibv_create_cq(c.ctx, 64, NULL, ch, 0);
	e.txcq = ibv_create_cq(c.ctx, 64, NULL, NULL, 0);
	c.buf = calloc(1, 8192);
	e.mr = ibv_reg_mr(c.pd, c.buf, 8192, IBV_ACCESS_LOCAL_WRITE);
	if (!lat || !ch || !rxcq || !e.txcq || !e.mr)
		die("evlat setup");
	{
		struct ibv_qp_init_attr qa = {
			.cap = { .max_send_wr = 16, .max_recv_wr = 16,
				 .max_send_sge = 1, .max_recv_sge = 1 },
			.qp_type = IBV_QPT_RC,
		};
		qa.send_cq = e.txcq;
		qa.recv_cq = e.txcq;
		e.tx = ibv_create_qp(c.pd, &qa);
		qa.send_cq = rxcq;
		qa.recv_cq = rxcq;
		rx = ibv_create_qp(c.pd, &qa);
		if (!e.tx || !rx)
			die("create_qp");
		/* the two QPs connected to each other over the port */
		if (qp_to_rts(&c, e.tx, 0, rx->qp_num) ||
		    qp_to_rts(&c, rx, 0, e.tx->qp_num))
			die("modify_qp");
	}
	pthread_create(&th, NULL, poster, &e);
	for (i = 0; i < iters; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)c.buf + 4096,
				       .length = 4096, .lkey = e.mr->lkey };
		struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 },
				   *bad;
		struct ibv_wc wc;
		double t1;

		if (ibv_post_recv(rx, &wr, &bad) ||
		    ibv_req_notify_cq(rxcq, 0))
			die("post_recv/arm");
		pthread_mutex_lock(&e.lock);
		e.go = 1;
		pthread_cond_signal(&e.cond);
		pthread_mutex_unlock(&e.lock);
		if (ibv_get_cq_event(ch, &ecq, &ctxp))
			die("get_cq_event");
		t1 = now_s();
		ibv_ack_cq_events(ecq, 1);
		while (ibv_poll_cq(rxcq, 1, &wc) == 0)
			;
		if (wc.status != IBV_WC_SUCCESS) {
			fprintf(stderr, "vbench: recv status %d\n", wc.status);
			return 1;
		}
		/* the poster stamped t0 before posting; it stamps no other yet */
		lat[i] = (t1 - e.t0) * 1e6;
	}
	pthread_mutex_lock(&e.lock);
	e.go = -1;
	pthread_cond_signal(&e.cond);
	pthread_mutex_unlock(&e.lock);
	pthread_join(th, NULL);
	qsort(lat, iters, sizeof(double), cmp_d);
	printf("events %d\np50_us %.1f\np99_us %.1f\nmin_us %.1f\n", iters,
	       lat[iters / 2], lat[(iters * 99) / 100 < iters ?
				   (iters * 99) / 100 : iters - 1], lat[0]);
	return 0;
}

/* ---- bring-up and teardown ---- */

static int sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

/* the RDMA device of function BDF, if registered */
static int ibdev_of(const char *bdf, char *name, size_t len)
{
	char path[256];
	struct dirent *d;
	DIR *dir;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/infiniband", bdf);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.') {
			snprintf(name, len, "%s", d->d_name);
			found = 1;
		}
	closedir(dir);
	return found;
}

static int cmd_bind(char **av, int bind)
{
	char path[256], name[256];
	double t0 = now_s(), t;

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/%s", av[0],
		 bind ? "bind" : "unbind");
	if (sysfs_write(path, av[1]))
		die(path);
	t = now_s();
	if (!bind) {
		printf("ms %.2f\n", (t - t0) * 1e3);
		return 0;
	}
	printf("bind_ms %.2f\n", (t - t0) * 1e3);
	/* the ib device may register after the bind returned (auxiliary) */
	while (!ibdev_of(av[1], name, sizeof(name))) {
		if (now_s() - t0 > 120) {
			fprintf(stderr, "vbench: no ib device on %s\n", av[1]);
			return 1;
		}
		usleep(500);
	}
	printf("ms %.2f\ndev %s\n", (now_s() - t0) * 1e3, name);
	return 0;
}

/* BAR0 read round trips of an unbound function: the instrument's floor */
static int cmd_mmio(char **av)
{
	char path[256];
	int n = atoi(av[1]), i, fd;
	volatile uint32_t *bar;
	double t0;
	uint32_t sum = 0;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", av[0]);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		die(path);
	bar = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (bar == MAP_FAILED)
		die("mmap resource0");
	t0 = now_s();
	for (i = 0; i < n; i++)
		sum += bar[0];	/* firmware revision: no side effect */
	printf("reads %d\nus_per_read %.2f\nfw_rev 0x%x\n", n,
	       (now_s() - t0) * 1e6 / n, sum / (n ? n : 1));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 6 && !strcmp(argv[1], "ctl"))
		return cmd_ctl(argv + 2, argc - 5);
	if (argc >= 4 && !strcmp(argv[1], "evlat"))
		return cmd_evlat(argv + 2);
	if (argc >= 4 && !strcmp(argv[1], "bind"))
		return cmd_bind(argv + 2, 1);
	if (argc >= 4 && !strcmp(argv[1], "unbind"))
		return cmd_bind(argv + 2, 0);
	if (argc >= 4 && !strcmp(argv[1], "mmio"))
		return cmd_mmio(argv + 2);
	fprintf(stderr, "usage: vbench ctl DEV SECONDS PROCS OP... | evlat DEV ITERS |\n"
		"       bind|unbind DRIVER BDF | mmio BDF ITERS\n");
	return 2;
}
