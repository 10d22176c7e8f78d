// SPDX-License-Identifier: GPL-2.0
/*
 * The field trace (--ftrace): every command's input fields by name, QP
 * commands with the QP's service type, fields past the input left out,
 * and the trace ended by the --ftrace-stop command.
 */
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);

	if (fp && buf)
		buf[fread(buf, 1, (1 << 16) - 1, fp)] = '\0';
	if (fp)
		fclose(fp);
	return buf;
}

static void dealloc_pd(struct th *t, uint32_t pd, uint32_t inlen)
{
	uint8_t in[16] = { 0 }, out[16];

	th_hdr(in, MLX5X_CMD_OP_DEALLOC_PD, 0);
	PSET(in, MLX5X_DEALLOC_PD_IN_PD, pd);
	th_status(t, in, inlen, out, 16);
}

static void test_trace(void)
{
	char path[] = "/tmp/mlx5x-ftrace-XXXXXX", want[96];
	uint32_t pd1, pd2, pd3, eqn;
	struct emu_opts o;
	struct th t;
	char *s, *end;
	int fd = mkstemp(path);

	ok(fd >= 0, "temporary trace file");
	close(fd);
	th_default_opts(&o);
	o.ftrace_path = path;
	o.ftrace_stop_op = MLX5X_CMD_OP_DEALLOC_PD;
	o.ftrace_stop_field = "pd";
	th_setup_opts(&t, &o);
	is_u(ftrace_open(&t.e), 0, "ftrace_open");
	th_enable_hca(&t);
	th_init_hca(&t);
	eqn = th_create_eq(&t, 4, 0, 0, NULL);
	th_create_cq(&t, 5, eqn);
	pd1 = th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_PD);
	pd2 = th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_PD);
	pd3 = th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_PD);
	t.e.opt.ftrace_stop_value = pd2;
	/* 8 bytes: too short for the pd field, which is then left out */
	dealloc_pd(&t, pd1, 8);
	dealloc_pd(&t, pd1, 16);
	dealloc_pd(&t, pd2, 16);
	dealloc_pd(&t, pd3, 16);
	ok(t.e.ftrace == NULL, "the stop command closed the trace");
	s = slurp(path);
	ok(s && strstr(s, "op=ENABLE_HCA op_mod=0x0 uid=0x0 inlen="),
	   "ENABLE_HCA traced with op_mod, uid and inlen");
	ok(s && strstr(s, " cqc.log_cq_size=0x5 ") &&
	   strstr(s, " cqc.c_eqn="), "CREATE_CQ fields named after the cqc");
	ok(s && strstr(s, "op=DEALLOC_PD op_mod=0x0 uid=0x0 inlen=0x8\n"),
	   "a field past the input's end is left out");
	snprintf(want, sizeof(want), "inlen=0x10 pd=0x%x\n", pd1);
	ok(s && strstr(s, want), "DEALLOC_PD pd=%u", pd1);
	snprintf(want, sizeof(want), "end: DEALLOC_PD:pd=0x%x seen\n", pd2);
	end = s ? strstr(s, want) : NULL;
	ok(end && end[strlen(want)] == '\0',
	   "the trace ends after the stop command (DEALLOC_PD pd=%u)", pd2);
	free(s);
	th_teardown(&t);
	unlink(path);
}

int main(void)
{
	test_trace();
	return tap_done();
}
