// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5x-emu: an emulated ConnectX-5 served over vfio-user.
 *
 *   mlx5x-emu --socket PATH [--guid HEX] [--msix N] [--trace] [--log FILE]
 *             [--report FILE] [--fw X.Y.Z] [--pages BOOT:INIT]
 *             [--keep-listening] [--fault-...] [--cmd-completion=MODE]
 *             [--events LIST] [--events-ctl DIR]
 *             [--socket PATH2 [per-function options]]
 *
 * One process serves one or two PCI functions, one vfio-user socket each.
 * Every --socket starts a function; the options after it are that
 * function's, those before the first --socket the defaults of both.  Two
 * functions are two HCAs whose ports are joined back to back by a link
 * wire, so traffic between them crosses the link as between two hosts.
 *
 * Threads: one socket thread per function (vfu_serve), each function's
 * device and engine threads, and the main thread, which alone reads the
 * signals.  When every client has disconnected, or on SIGTERM or SIGINT,
 * it writes each function's exit report to its --report (and stderr) and
 * exits 0; SIGUSR1 prints the reports to stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "vfu.h"
#include "wire.h"

/* a link joins two ports: one process serves at most two functions */
#define EMU_MAX_FNS 2

struct fn {
	struct emu_opts opt;
	bool guid_set;
	char name[16];		/* "fn0", "fn1": log tag with two */
	struct emu e;
	struct vfu v;
	pthread_t thread;	/* socket thread */
	bool created, listening, serving;
	int ret;		/* vfu_serve()'s */
	int done_fd;		/* the process's, written on return */
};

struct proc {
	struct emu_opts defaults;	/* options before the first --socket */
	struct emu_opts *cur;		/* where options go while parsing */
	bool trace, keep_listening;	/* process-wide */
	const char *log_path;
	struct fn fn[EMU_MAX_FNS];
	unsigned int nfn;
	int stop_fd;		/* eventfd: every socket thread stops */
	int done_fd;		/* eventfd: socket threads that returned */
	struct wire link;	/* the two ports, back to back */
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: mlx5x-emu --socket PATH [options] [--socket PATH2 [options]]\n"
		"  --socket PATH        vfio-user unix socket to create; a second\n"
		"                       --socket adds a second function whose port\n"
		"                       is linked to the first's.  Options after a\n"
		"                       --socket are that function's, options\n"
		"                       before the first are defaults for both\n"
		"                       (the second GUID defaults to the first + 1)\n"
		"  --guid HEX           node GUID (port GUID, LID derive from it)\n"
		"  --lid N              port LID (default: derived from the GUID)\n"
		"  --msix N             MSI-X vectors (default 9, 1..%u)\n"
		"  --fw X.Y.Z           firmware version (default 16.35.4030)\n"
		"  --pages BOOT:INIT    firmware pages to ask for (default 24:40)\n"
		"  --max-issi N         highest interface step offered, 0 or 1\n"
		"                       (default 1, as ConnectX-5 firmware)\n"
		"  --port self|sm       self: ACTIVE with a LID from power-on\n"
		"                       (default); sm: INIT with LID 0 until a\n"
		"                       subnet manager configures it (MAD_IFC)\n"
		"  --trace              log every command\n"
		"  --ftrace FILE        write every command's input fields here\n"
		"  --ftrace-stop OPCODE:FIELD=VALUE\n"
		"                       end the field trace after that command\n"
		"  --log FILE           log here instead of stderr\n"
		"  --report FILE        write the exit report here too\n"
		"  --keep-listening     accept a new client after a disconnect\n"
		"  --fault-cmd-timeout=OPCODE           never complete OPCODE\n"
		"  --fault-cmd-status=OPCODE:STATUS:SYNDROME[:NTH]\n"
		"                       fail OPCODE (its NTH occurrence only)\n"
		"  --fault-health=SYNDROME[:DELAY_MS[:rfr]]\n"
		"                       raise a health syndrome (with rfr: and\n"
		"                       request the recovery flow, i.e. fatal)\n"
		"  --fault-cmd-irq-drop=N  lose the interrupt of the first N\n"
		"                       command completion EQEs\n"
		"  --cmd-completion=MODE[:MS]  how command EQEs arrive: prompt\n"
		"                       (default), delay (MS after the owner bit),\n"
		"                       reorder (commands rung within MS run\n"
		"                       highest slot first), coalesce (EQEs within\n"
		"                       MS merge into one), duplicate (an EQE again\n"
		"                       when its slot is rung next; MS: hold that\n"
		"                       command so the copy meets a busy slot);\n"
		"                       MS 5 unless given, at most 60000\n"
		"  --events LIST        firmware events the host may request:\n"
		"                       pages,port,internal-error,eq-overrun,\n"
		"                       cmd-completion,all\n"
		"  --events-ctl DIR     take requests from DIR/req, answer DIR/ack\n"
		"OPCODE is a number (0x500) or a name (CREATE_QP).\n",
		EMU_MSIX_MAX);
}

static int parse_fault_status(struct fault_cfg *f, const char *s)
{
	char *end;

	f->status_op = cmd_parse_opcode(s, &end);
	if (*end != ':')
		return -1;
	f->status = (uint8_t)strtoul(end + 1, &end, 0);
	if (*end != ':')
		return -1;
	f->syndrome = (uint32_t)strtoul(end + 1, &end, 0);
	if (*end == ':')
		f->status_nth = (uint32_t)strtoul(end + 1, &end, 0);
	return *end ? -1 : 0;
}

/* OPCODE:FIELD=VALUE: the command that ends the field trace */
static int parse_ftrace_stop(struct emu_opts *o, const char *s)
{
	const char *eq;
	char *end;

	o->ftrace_stop_op = cmd_parse_opcode(s, &end);
	eq = strchr(end, '=');
	if (*end != ':' || !eq || eq == end + 1)
		return -1;
	o->ftrace_stop_field = strndup(end + 1, (size_t)(eq - end - 1));
	o->ftrace_stop_value = strtoull(eq + 1, &end, 0);
	return *end || !o->ftrace_stop_field ? -1 : 0;
}

static int parse_fault_health(struct fault_cfg *f, const char *s)
{
	char *end;

	f->health_synd = (int)(strtoul(s, &end, 0) & 0xff);
	if (*end == ':')
		f->health_delay_ms = (uint32_t)strtoul(end + 1, &end, 0);
	if (!strcmp(end, ":rfr")) {
		f->health_rfr = true;
		end += 4;
	}
	return *end ? -1 : 0;
}

enum {
	OPT_GUID = 256, OPT_LID, OPT_MSIX, OPT_FW, OPT_PAGES, OPT_ISSI, OPT_TRACE,
	OPT_LOG, OPT_REPORT, OPT_KEEP, OPT_F_TIMEOUT, OPT_F_STATUS,
	OPT_F_HEALTH, OPT_F_IRQ_DROP, OPT_CMD_COMPLETION, OPT_SOCKET, OPT_HELP,
	OPT_FTRACE, OPT_FTRACE_STOP, OPT_PORT, OPT_EVENTS, OPT_EVENTS_CTL,
};

/* --socket: a new function, with the defaults given so far */
static int add_function(struct proc *p, const char *path)
{
	struct fn *f;
	unsigned int i;

	if (p->nfn == EMU_MAX_FNS) {
		fprintf(stderr, "mlx5x-emu: at most %u functions (one link)\n",
			EMU_MAX_FNS);
		return -1;
	}
	for (i = 0; i < p->nfn; i++) {
		if (!strcmp(p->fn[i].opt.socket_path, path)) {
			fprintf(stderr, "mlx5x-emu: socket %s given twice\n",
				path);
			return -1;
		}
	}
	f = &p->fn[p->nfn++];
	f->opt = p->defaults;
	f->opt.socket_path = path;
	p->cur = &f->opt;
	return 0;
}

static int parse_one(struct proc *p, int c, const char *arg)
{
	struct emu_opts *o = p->cur;
	char *end = NULL;

	switch (c) {
	case OPT_SOCKET: return add_function(p, arg);
	case OPT_GUID:
		o->guid = strtoull(arg, &end, 16);
		if (p->nfn)
			p->fn[p->nfn - 1].guid_set = true;
		break;
	case OPT_LID: o->lid = (uint16_t)strtoul(arg, &end, 0); break;
	case OPT_MSIX: o->msix = (unsigned int)strtoul(arg, &end, 0); break;
	case OPT_FW:
		if (sscanf(arg, "%u.%u.%u", &o->fw_major, &o->fw_minor,
			   &o->fw_sub) != 3)
			return -1;
		return 0;
	case OPT_PAGES:
		if (sscanf(arg, "%u:%u", &o->boot_pages, &o->init_pages) != 2)
			return -1;
		return 0;
	case OPT_ISSI:
		o->max_issi = (unsigned int)strtoul(arg, &end, 0);
		if (o->max_issi > 1)
			return -1;
		break;
	case OPT_PORT:
		if (!strcmp(arg, "self"))
			o->port_mode = EMU_PORT_SELF;
		else if (!strcmp(arg, "sm"))
			o->port_mode = EMU_PORT_SM;
		else
			return -1;
		return 0;
	case OPT_TRACE: p->trace = true; return 0;
	case OPT_FTRACE: o->ftrace_path = arg; return 0;
	case OPT_FTRACE_STOP: return parse_ftrace_stop(o, arg);
	case OPT_LOG: p->log_path = arg; return 0;
	case OPT_REPORT: o->report_path = arg; return 0;
	case OPT_KEEP: p->keep_listening = true; return 0;
	case OPT_F_TIMEOUT:
		o->fault.timeout_op = cmd_parse_opcode(arg, &end);
		break;
	case OPT_F_STATUS: return parse_fault_status(&o->fault, arg);
	case OPT_F_HEALTH: return parse_fault_health(&o->fault, arg);
	case OPT_F_IRQ_DROP:
		o->fault.cmd_irq_drop = (uint32_t)strtoul(arg, &end, 0);
		break;
	case OPT_CMD_COMPLETION: return cmdq_parse_completion(&o->cmd_eqe, arg);
	case OPT_EVENTS: return events_parse(arg, &o->events);
	case OPT_EVENTS_CTL: o->events_ctl = arg; return 0;
	default: return -1;
	}
	return end && *end ? -1 : 0;
}

/* after parsing: process-wide options, GUIDs, per-function checks */
static int finish_opts(struct proc *p)
{
	unsigned int i, j;

	if (!p->nfn)
		return -1;
	for (i = 0; i < p->nfn; i++) {
		struct fn *f = &p->fn[i];
		struct emu_opts *o = &f->opt;

		if (i && !f->guid_set)
			o->guid = p->fn[0].opt.guid + i;
		o->trace = p->trace;
		o->keep_listening = p->keep_listening;
		o->log_path = p->log_path;
		if (p->nfn > 1) {
			snprintf(f->name, sizeof(f->name), "fn%u", i);
			o->name = f->name;
		}
		if (!o->msix || o->msix > EMU_MSIX_MAX || !o->guid)
			return -1;
		for (j = 0; j < i; j++) {
			if (p->fn[j].opt.guid == o->guid) {
				fprintf(stderr, "mlx5x-emu: functions %u and %u have the same GUID\n",
					j, i);
				return -1;
			}
		}
	}
	return 0;
}

static int parse_args(struct proc *p, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "guid", required_argument, NULL, OPT_GUID },
		{ "lid", required_argument, NULL, OPT_LID },
		{ "msix", required_argument, NULL, OPT_MSIX },
		{ "fw", required_argument, NULL, OPT_FW },
		{ "pages", required_argument, NULL, OPT_PAGES },
		{ "max-issi", required_argument, NULL, OPT_ISSI },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "ftrace", required_argument, NULL, OPT_FTRACE },
		{ "ftrace-stop", required_argument, NULL, OPT_FTRACE_STOP },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "keep-listening", no_argument, NULL, OPT_KEEP },
		{ "fault-cmd-timeout", required_argument, NULL, OPT_F_TIMEOUT },
		{ "fault-cmd-status", required_argument, NULL, OPT_F_STATUS },
		{ "fault-health", required_argument, NULL, OPT_F_HEALTH },
		{ "fault-cmd-irq-drop", required_argument, NULL, OPT_F_IRQ_DROP },
		{ "cmd-completion", required_argument, NULL, OPT_CMD_COMPLETION },
		{ "events", required_argument, NULL, OPT_EVENTS },
		{ "events-ctl", required_argument, NULL, OPT_EVENTS_CTL },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	p->cur = &p->defaults;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		if (c == OPT_HELP) {
			usage(stdout);
			exit(0);
		}
		if (parse_one(p, c, optarg)) {
			fprintf(stderr, "mlx5x-emu: bad option or value: %s\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind != argc)
		return -1;
	return finish_opts(p);
}

static void default_opts(struct emu_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->guid = 0x0002c903000e5701ull;
	o->msix = 9;
	o->fw_major = 16;
	o->fw_minor = 35;
	o->fw_sub = 4030;
	o->boot_pages = 24;
	o->init_pages = 40;
	o->max_issi = 1;
	o->init_delay_ms = 20;
	o->fault.timeout_op = -1;
	o->fault.status_op = -1;
	o->fault.health_synd = -1;
	o->ftrace_stop_op = -1;
}

static void write_report(struct emu *e)
{
	if (e->opt.report_path) {
		FILE *fp = fopen(e->opt.report_path, "w");

		if (fp) {
			emu_report(e, fp);
			fclose(fp);
		} else {
			emu_err("cannot write %s: %s", e->opt.report_path,
				strerror(errno));
		}
	}
	emu_report(e, stderr);
}

static int block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGHUP);
	/* blocked in every thread; the main thread reads a signalfd */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC);
}

/* a function's socket thread: serve its client, then say so */
static void *serve_thread(void *arg)
{
	struct fn *f = arg;
	uint64_t one = 1;

	log_set_tag(f->opt.name);
	f->ret = vfu_serve(&f->v, f->opt.keep_listening);
	if (write(f->done_fd, &one, sizeof(one)) != sizeof(one))
		emu_err("cannot signal the end of %s", f->opt.socket_path);
	return NULL;
}

/* device, socket and wire of one function; the socket listens after */
static int fn_setup(struct proc *p, struct fn *f)
{
	int ret = emu_create(&f->e, &f->opt);

	if (ret) {
		emu_err("cannot set up the device of %s", f->opt.socket_path);
		return ret;
	}
	f->created = true;
	ret = ftrace_open(&f->e);
	if (ret)
		return ret;
	ret = vfu_listen(&f->v, &f->e, f->opt.socket_path);
	if (ret) {
		emu_err("cannot listen on %s: %s", f->opt.socket_path,
			strerror(-ret));
		return ret;
	}
	f->listening = true;
	f->v.stop_fd = p->stop_fd;
	f->done_fd = p->done_fd;
	return 0;
}

static int link_functions(struct proc *p)
{
	int ret;

	if (p->nfn < 2)
		return 0;
	ret = emu_link(&p->link, &p->fn[0].e, &p->fn[1].e);
	if (ret == -EADDRINUSE)
		emu_err("both functions have LID %u: give one another --lid",
			p->fn[0].e.port.lid);
	else if (ret)
		emu_err("cannot link the two functions: %s", strerror(-ret));
	return ret;
}

static void announce(const struct fn *f, unsigned int nfn)
{
	const struct emu_opts *o = &f->opt;

	emu_info("%s%sConnectX-5 15b3:1017 fw %u.%u.%u guid 0x%016llx lid %u, %u MSI-X, listening on %s%s",
		 o->name ? o->name : "", o->name ? ": " : "", o->fw_major,
		 o->fw_minor, o->fw_sub, (unsigned long long)o->guid,
		 f->e.port.lid, o->msix, o->socket_path,
		 nfn > 1 ? ", port linked to the other function's" : "");
}

static int start_function(struct fn *f)
{
	int ret = emu_start_thread(&f->e);

	if (ret) {
		emu_err("cannot start the device thread of %s",
			f->opt.socket_path);
		return ret;
	}
	ret = pthread_create(&f->thread, NULL, serve_thread, f);
	if (ret) {
		emu_err("cannot start the socket thread of %s",
			f->opt.socket_path);
		return -ret;
	}
	f->serving = true;
	return 0;
}

static void report_all(struct proc *p)
{
	unsigned int i;

	for (i = 0; i < p->nfn; i++)
		emu_report(&p->fn[i].e, stderr);
}

/* until every socket thread returned (0) or a signal says stop (1) */
static int wait_functions(struct proc *p, int sfd)
{
	uint64_t done = 0;

	for (;;) {
		struct pollfd pf[2] = {
			{ .fd = sfd, .events = POLLIN },
			{ .fd = p->done_fd, .events = POLLIN },
		};
		struct signalfd_siginfo si;
		uint64_t n;

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if ((pf[0].revents & POLLIN) &&
		    read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGUSR1) {
				report_all(p);
			} else {
				emu_info("signal %u: stopping", si.ssi_signo);
				return 1;
			}
		}
		if ((pf[1].revents & POLLIN) &&
		    read(p->done_fd, &n, sizeof(n)) == sizeof(n))
			done += n;
		if (done >= p->nfn)
			return 0;
	}
}

/*
 * Stop in dependency order: socket threads first (no more doorbells),
 * then every device and engine thread before any device is freed (a
 * linked engine delivers into the other device), then the reports.
 */
static int shutdown_all(struct proc *p)
{
	uint64_t one = 1;
	unsigned int i;
	int rc = 0;

	if (write(p->stop_fd, &one, sizeof(one)) != sizeof(one))
		emu_err("cannot stop the socket threads");
	for (i = 0; i < p->nfn; i++) {
		if (p->fn[i].serving)
			pthread_join(p->fn[i].thread, NULL);
		if (p->fn[i].ret < 0)
			rc = 1;
	}
	for (i = 0; i < p->nfn; i++)
		if (p->fn[i].created)
			emu_stop_thread(&p->fn[i].e);
	for (i = 0; i < p->nfn; i++) {
		struct fn *f = &p->fn[i];

		if (f->serving)
			write_report(&f->e);
		if (f->listening) {
			vfu_close(&f->v);
			unlink(f->opt.socket_path);
		}
	}
	for (i = 0; i < p->nfn; i++) {
		if (!p->fn[i].created)
			continue;
		ftrace_close(&p->fn[i].e);
		emu_destroy(&p->fn[i].e);
	}
	return rc;
}

int main(int argc, char **argv)
{
	static struct proc p;	/* two devices: too big for the stack */
	unsigned int i;
	int ret = 0, sfd;

	default_opts(&p.defaults);
	if (parse_args(&p, argc, argv)) {
		usage(stderr);
		return 2;
	}
	if (log_open(p.log_path))
		fprintf(stderr, "mlx5x-emu: cannot open log %s\n", p.log_path);
	sfd = block_signals();
	p.stop_fd = eventfd(0, EFD_CLOEXEC);
	p.done_fd = eventfd(0, EFD_CLOEXEC);
	if (sfd < 0 || p.stop_fd < 0 || p.done_fd < 0) {
		emu_err("cannot set up signals and events: %s", strerror(errno));
		return 1;
	}
	for (i = 0; i < p.nfn && !ret; i++)
		ret = fn_setup(&p, &p.fn[i]);
	if (!ret)
		ret = link_functions(&p);
	for (i = 0; i < p.nfn && !ret; i++) {
		announce(&p.fn[i], p.nfn);
		ret = start_function(&p.fn[i]);
	}
	if (!ret)
		wait_functions(&p, sfd);
	ret = shutdown_all(&p) || ret;
	log_close();
	return ret ? 1 : 0;
}
