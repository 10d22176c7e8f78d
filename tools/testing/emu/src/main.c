// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5x-emu: an emulated ConnectX-5 served over vfio-user.
 *
 *   mlx5x-emu --socket PATH [--guid HEX] [--msix N] [--trace] [--log FILE]
 *             [--report FILE] [--fw X.Y.Z] [--pages BOOT:INIT]
 *             [--keep-listening] [--fault-...] [--cmd-completion=MODE]
 *
 * On a client disconnect, SIGTERM or SIGINT it writes the exit report to
 * --report (and stderr) and exits 0; SIGUSR1 prints the report to stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "vfu.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: mlx5x-emu --socket PATH [options]\n"
		"  --socket PATH        vfio-user unix socket to create\n"
		"  --guid HEX           node GUID (port GUID, LID derive from it)\n"
		"  --lid N              port LID (default: derived from the GUID)\n"
		"  --msix N             MSI-X vectors (default 9, 1..%u)\n"
		"  --fw X.Y.Z           firmware version (default 16.35.4030)\n"
		"  --pages BOOT:INIT    firmware pages to ask for (default 24:40)\n"
		"  --max-issi N         highest interface step offered, 0 or 1\n"
		"                       (default 1, as ConnectX-5 firmware)\n"
		"  --trace              log every command\n"
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
		"                       command so the copy meets a busy slot)\n"
		"OPCODE is a number (0x500) or a name (CREATE_QP).\n",
		EMU_MSIX_MAX);
}

static int parse_opcode(const char *s, char **end)
{
	unsigned int i;

	for (i = 0; i < cmd_table_size(); i++) {
		const char *name = cmd_table_entry(i)->name;
		size_t n = strlen(name);

		if (!strncmp(s, name, n) && (s[n] == 0 || s[n] == ':')) {
			*end = (char *)s + n;
			return cmd_table_entry(i)->op;
		}
	}
	return (int)strtoul(s, end, 0);
}

static int parse_fault_status(struct fault_cfg *f, const char *s)
{
	char *end;

	f->status_op = parse_opcode(s, &end);
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

static int parse_cmd_completion(struct cmd_eqe_cfg *c, const char *s)
{
	static const char *const names[] = {
		[CMD_EQE_PROMPT] = "prompt", [CMD_EQE_DELAY] = "delay",
		[CMD_EQE_REORDER] = "reorder", [CMD_EQE_COALESCE] = "coalesce",
		[CMD_EQE_DUPLICATE] = "duplicate",
	};
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	unsigned int i;
	char *end = (char *)"";

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !strncmp(s, names[i], n))
			break;
	if (i == ARRAY_SIZE(names))
		return -1;
	c->mode = (enum cmd_eqe_mode)i;
	c->ms = 5;
	if (colon)
		c->ms = (uint32_t)strtoul(colon + 1, &end, 0);
	return *end ? -1 : 0;
}

enum {
	OPT_GUID = 256, OPT_LID, OPT_MSIX, OPT_FW, OPT_PAGES, OPT_ISSI, OPT_TRACE,
	OPT_LOG, OPT_REPORT, OPT_KEEP, OPT_F_TIMEOUT, OPT_F_STATUS,
	OPT_F_HEALTH, OPT_F_IRQ_DROP, OPT_CMD_COMPLETION, OPT_SOCKET, OPT_HELP,
};

static int parse_one(struct emu_opts *o, int c, const char *arg)
{
	char *end = NULL;

	switch (c) {
	case OPT_SOCKET: o->socket_path = arg; return 0;
	case OPT_GUID: o->guid = strtoull(arg, &end, 16); break;
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
	case OPT_TRACE: o->trace = true; return 0;
	case OPT_LOG: o->log_path = arg; return 0;
	case OPT_REPORT: o->report_path = arg; return 0;
	case OPT_KEEP: o->keep_listening = true; return 0;
	case OPT_F_TIMEOUT:
		o->fault.timeout_op = parse_opcode(arg, &end);
		break;
	case OPT_F_STATUS: return parse_fault_status(&o->fault, arg);
	case OPT_F_HEALTH: return parse_fault_health(&o->fault, arg);
	case OPT_F_IRQ_DROP:
		o->fault.cmd_irq_drop = (uint32_t)strtoul(arg, &end, 0);
		break;
	case OPT_CMD_COMPLETION: return parse_cmd_completion(&o->cmd_eqe, arg);
	default: return -1;
	}
	return end && *end ? -1 : 0;
}

static int parse_args(struct emu_opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "guid", required_argument, NULL, OPT_GUID },
		{ "lid", required_argument, NULL, OPT_LID },
		{ "msix", required_argument, NULL, OPT_MSIX },
		{ "fw", required_argument, NULL, OPT_FW },
		{ "pages", required_argument, NULL, OPT_PAGES },
		{ "max-issi", required_argument, NULL, OPT_ISSI },
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "keep-listening", no_argument, NULL, OPT_KEEP },
		{ "fault-cmd-timeout", required_argument, NULL, OPT_F_TIMEOUT },
		{ "fault-cmd-status", required_argument, NULL, OPT_F_STATUS },
		{ "fault-health", required_argument, NULL, OPT_F_HEALTH },
		{ "fault-cmd-irq-drop", required_argument, NULL, OPT_F_IRQ_DROP },
		{ "cmd-completion", required_argument, NULL, OPT_CMD_COMPLETION },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		if (c == OPT_HELP) {
			usage(stdout);
			exit(0);
		}
		if (parse_one(o, c, optarg)) {
			fprintf(stderr, "mlx5x-emu: bad option or value: %s\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind != argc || !o->socket_path || !o->msix ||
	    o->msix > EMU_MSIX_MAX || !o->guid)
		return -1;
	return 0;
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

static bool on_signal(struct vfu *v, int signo)
{
	if (signo == SIGUSR1) {
		emu_report(v->e, stderr);
		return false;
	}
	emu_info("signal %d: stopping", signo);
	return true;
}

static int block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGHUP);
	/* blocked in every thread; the socket thread reads a signalfd */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC);
}

int main(int argc, char **argv)
{
	struct emu_opts opt;
	struct vfu v;
	struct emu e;
	int ret, sfd;

	default_opts(&opt);
	if (parse_args(&opt, argc, argv)) {
		usage(stderr);
		return 2;
	}
	if (log_open(opt.log_path))
		fprintf(stderr, "mlx5x-emu: cannot open log %s\n", opt.log_path);
	sfd = block_signals();
	if (sfd < 0 || emu_create(&e, &opt)) {
		emu_err("cannot set up the device");
		return 1;
	}
	ret = vfu_listen(&v, &e, opt.socket_path);
	if (ret) {
		emu_err("cannot listen on %s: %s", opt.socket_path,
			strerror(-ret));
		return 1;
	}
	v.signal_fd = sfd;
	v.on_signal = on_signal;
	emu_info("ConnectX-5 15b3:1017 fw %u.%u.%u guid 0x%016llx lid %u, %u MSI-X, listening on %s",
		 opt.fw_major, opt.fw_minor, opt.fw_sub,
		 (unsigned long long)opt.guid, e.port.lid, opt.msix,
		 opt.socket_path);
	if (emu_start_thread(&e)) {
		emu_err("cannot start the device thread");
		return 1;
	}
	ret = vfu_serve(&v, opt.keep_listening);
	emu_stop_thread(&e);
	write_report(&e);
	vfu_close(&v);
	unlink(opt.socket_path);
	emu_destroy(&e);
	log_close();
	return ret < 0 ? 1 : 0;
}
