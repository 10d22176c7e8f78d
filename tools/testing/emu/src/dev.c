// SPDX-License-Identifier: GPL-2.0
/*
 * Device core: life cycle, the device thread, BAR0 decoding and the exit
 * report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"
#include "wire.h"

int emu_create(struct emu *e, const struct emu_opts *opt)
{
	int ret;

	memset(e, 0, sizeof(*e));
	e->opt = *opt;
	gm_init(&e->gm);
	ret = irq_init(&e->irq, opt->msix);
	if (ret)
		return ret;
	pcicfg_init(&e->cfg, EMU_BAR0_SIZE, opt->msix, EMU_MSIX_TABLE_OFF,
		    EMU_MSIX_PBA_OFF);
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->wake, NULL);
	e->cmd_count = calloc(cmd_table_size(), sizeof(*e->cmd_count));
	e->cmd_fail = calloc(cmd_table_size(), sizeof(*e->cmd_fail));
	if (!e->cmd_count || !e->cmd_fail)
		return -ENOMEM;
	caps_init(e);
	ret = eng_init(e);
	if (ret)
		return ret;
	objs_init(e);
	port_init(e);
	pages_reset(e);
	iseg_reset(e);
	return 0;
}

void emu_destroy(struct emu *e)
{
	emu_stop_thread(e);
	objs_free(e);
	eng_fini(e);
	free(e->hca.pages);
	free(e->cmd_count);
	free(e->cmd_fail);
	irq_destroy(&e->irq);
	gm_destroy(&e->gm);
	pthread_cond_destroy(&e->wake);
	pthread_mutex_destroy(&e->lock);
}

/*
 * Firmware back to power-on; emu.lock held.  Every object is destroyed
 * and every page forgotten (the driver frees them itself: it knows the
 * device lost them), the command queue address, the health buffer and
 * pending interrupts are gone, the firmware initializes again.
 */
void emu_fw_reset_locked(struct emu *e)
{
	objs_drop_all(e);
	if (e->hca.npages)
		emu_warn("reset with %u firmware pages held: dropped",
			 e->hca.npages);
	e->hca.pages_dropped += e->hca.npages;
	e->hca.npages = 0;
	e->hca.enabled = false;
	e->hca.initialized = false;
	e->hca.issi = 0;
	caps_init(e);
	port_init(e);
	iseg_reset(e);
	cmdq_reset(e);
	irq_clear_pending(&e->irq);
}

/* Device reset (VFIO_USER_DEVICE_RESET): back to power-on. */
void emu_reset(struct emu *e)
{
	pthread_mutex_lock(&e->lock);
	e->stats.resets++;
	emu_fw_reset_locked(e);
	pthread_mutex_unlock(&e->lock);
	pcicfg_reset(&e->cfg);
}

/*
 * Function level reset (the guest set Initiate FLR): the function comes
 * back as after power-on, its configuration included (the guest restores
 * what it saved); socket thread, as every config space access.
 */
void emu_flr(struct emu *e)
{
	pthread_mutex_lock(&e->lock);
	e->stats.flrs++;
	emu_info("function level reset");
	emu_fw_reset_locked(e);
	pthread_mutex_unlock(&e->lock);
	pcicfg_reset(&e->cfg);
}

/* the firmware's work loop; emu.lock held */
void emu_run_pending_locked(struct emu *e)
{
	if (!emu_is_dead(e))
		cmdq_run(e);
}

bool emu_is_dead(struct emu *e)
{
	return __atomic_load_n(&e->dead, __ATOMIC_ACQUIRE);
}

/*
 * The device stops answering, as one that fell off the bus or hung: what
 * a driver reads from BAR0 is all-ones (mlx5_core's and mlx5x's health
 * polls take an all-ones fw_ver as "PCI dead"), doorbells and commands
 * go nowhere.  Config space still answers: the link stays up.  emu.lock
 * held.
 */
void emu_die_locked(struct emu *e)
{
	__atomic_store_n(&e->dead, true, __ATOMIC_RELEASE);
	e->cmdq.pending = 0;
	emu_warn("device dead: BAR0 reads all-ones from now on");
}

void emu_run_pending(struct emu *e)
{
	pthread_mutex_lock(&e->lock);
	emu_run_pending_locked(e);
	pthread_mutex_unlock(&e->lock);
}

/* sleep until a doorbell, or until the command queue's next deadline */
static void wait_work(struct emu *e, uint64_t at)
{
	struct timespec ts;
	uint64_t ns;

	if (!at) {
		pthread_cond_wait(&e->wake, &e->lock);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ns = (uint64_t)ts.tv_nsec + (at - now_ns());
	ts.tv_sec += (time_t)(ns / 1000000000ull);
	ts.tv_nsec = (long)(ns % 1000000000ull);
	pthread_cond_timedwait(&e->wake, &e->lock, &ts);
}

/*
 * Idle, the thread sleeps until a doorbell wakes it or the command
 * queue's next deadline comes; with a request directory (--events-ctl)
 * it also looks there every few milliseconds.
 */
static void *emu_thread(void *arg)
{
	struct emu *e = arg;
	uint64_t at;

	log_set_tag(e->opt.name);
	pthread_mutex_lock(&e->lock);
	while (!e->stop) {
		at = cmdq_wake_at(e);
		if (at && at <= now_ns()) {
			emu_run_pending_locked(e);
		} else if (e->opt.events_ctl) {
			uint64_t poll = now_ns() + EVENTS_CTL_POLL_MS * 1000000ull;

			wait_work(e, at && at < poll ? at : poll);
			pthread_mutex_unlock(&e->lock);
			events_ctl_poll(e);
			pthread_mutex_lock(&e->lock);
		} else {
			wait_work(e, at);
		}
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

int emu_start_thread(struct emu *e)
{
	int ret = pthread_create(&e->thread, NULL, emu_thread, e);

	if (!ret)
		e->thread_running = true;
	return ret ? -ret : eng_start(e);
}

void emu_stop_thread(struct emu *e)
{
	eng_stop(e);
	if (!e->thread_running)
		return;
	pthread_mutex_lock(&e->lock);
	e->stop = true;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
	pthread_join(e->thread, NULL);
	e->thread_running = false;
}

/*
 * Two functions of one process joined back to back: both ports on one
 * link wire (w, owned by the caller), so a packet for the other port's
 * LID reaches it.  A link picks the destination by DLID, so two ports
 * with the same configured LID cannot share one; LID 0 (no LID until a
 * subnet manager assigns one) is left to the SM.  Both devices must be
 * stopped (emu_stop_thread) before either is destroyed: each one's
 * engine delivers into the other's inbox.
 */
int emu_link(struct wire *w, struct emu *a, struct emu *b)
{
	if (a == b || a->opt.guid == b->opt.guid)
		return -EINVAL;
	if (a->port.lid && a->port.lid == b->port.lid)
		return -EADDRINUSE;
	wire_init_link(w, a, b);
	a->eng.wire = w;
	b->eng.wire = w;
	return 0;
}

/* ---- BAR0 ---- */

static bool in_iseg(uint64_t off)
{
	return off < MLX5X_ISEG_PAGES * EMU_PAGE_SIZE;
}

static bool in_uar(uint64_t off)
{
	uint64_t pg = off / EMU_PAGE_SIZE;

	return pg >= EMU_UAR_FIRST && pg < EMU_UAR_LIMIT;
}

/* init segment: 32-bit big-endian registers, any access width */
static void iseg_read(struct emu *e, uint64_t off, uint8_t *b, uint32_t len)
{
	uint32_t i;

	pthread_mutex_lock(&e->lock);
	for (i = 0; i < len;) {
		uint32_t w = (uint32_t)(off + i) & ~3u;
		uint8_t word[4];
		uint32_t j;

		put_be32(word, iseg_read32(e, w));
		for (j = (uint32_t)(off + i) & 3; j < 4 && i < len; j++, i++)
			b[i] = word[j];
	}
	pthread_mutex_unlock(&e->lock);
}

static void iseg_write(struct emu *e, uint64_t off, const uint8_t *b,
		       uint32_t len)
{
	uint32_t i;

	pthread_mutex_lock(&e->lock);
	if ((off & 3) || (len & 3)) {
		e->stats.bar_bad++;
		emu_warn("unaligned init segment write 0x%llx/%u",
			 (unsigned long long)off, len);
	} else {
		for (i = 0; i < len; i += 4)
			iseg_write32(e, (uint32_t)off + i, get_be32(b + i));
	}
	pthread_mutex_unlock(&e->lock);
}

void emu_bar0_read(struct emu *e, uint64_t off, void *buf, uint32_t len)
{
	if (emu_is_dead(e)) {
		memset(buf, 0xff, len);
		__atomic_add_fetch(&e->dead_reads, 1, __ATOMIC_RELAXED);
		return;
	}
	memset(buf, 0, len);
	if (off >= EMU_BAR0_SIZE || len > EMU_BAR0_SIZE - off)
		return;
	if (in_iseg(off)) {
		iseg_read(e, off, buf, len);
	} else if (off >= EMU_MSIX_PBA_OFF) {
		irq_pba(&e->irq, off - EMU_MSIX_PBA_OFF, buf, len);
	} else if (!in_uar(off)) {
		pthread_mutex_lock(&e->lock);
		e->stats.bar_bad++;
		pthread_mutex_unlock(&e->lock);
	}
	/* UAR pages read as zero */
}

void emu_bar0_write(struct emu *e, uint64_t off, const void *buf, uint32_t len)
{
	if (emu_is_dead(e)) {
		__atomic_add_fetch(&e->dead_writes, 1, __ATOMIC_RELAXED);
		return;
	}
	if (off >= EMU_BAR0_SIZE || len > EMU_BAR0_SIZE - off)
		return;
	if (in_iseg(off)) {
		iseg_write(e, off, buf, len);
		return;
	}
	pthread_mutex_lock(&e->lock);
	if (in_uar(off) && (off % EMU_PAGE_SIZE) + len <= EMU_PAGE_SIZE)
		uar_write(e, (uint32_t)(off / EMU_PAGE_SIZE),
			  (uint32_t)(off % EMU_PAGE_SIZE), buf, len);
	else
		e->stats.bar_bad++;
	pthread_mutex_unlock(&e->lock);
}

/* ---- report ---- */

uint64_t emu_live_objects(struct emu *e)
{
	uint64_t n = 0;
	unsigned int t;

	for (t = 0; t < OBJ_NTYPES; t++)
		n += e->obj[t].live + e->obj[t].dropped;
	return n;
}

static void report_cmds(struct emu *e, FILE *fp)
{
	unsigned int i;

	for (i = 0; i < cmd_table_size(); i++) {
		const struct cmd_desc *d = cmd_table_entry(i);

		if (e->cmd_count[i])
			fprintf(fp, "cmd_%s=%" PRIu64 "\n", d->name,
				e->cmd_count[i]);
	}
	for (i = 0; i < cmd_table_size(); i++) {
		const struct cmd_desc *d = cmd_table_entry(i);

		if (e->cmd_fail[i])
			fprintf(fp, "cmd_failed_%s=%" PRIu64 "\n", d->name,
				e->cmd_fail[i]);
	}
}

/* a counter of struct emu the report prints as key=value */
struct report_field {
	const char *key;
	size_t off, size;
	bool hex;
};

#define RF(key_, field_, hex_) { key_, offsetof(struct emu, field_), \
	sizeof(((struct emu *)NULL)->field_), hex_ }
#define RU(key_, field_) RF(key_, field_, false)

/* under emu.lock, in the order the report has always had */
static const struct report_field report_locked[] = {
	RU("pages_given", hca.pages_given), RU("pages_taken", hca.pages_taken),
	RU("pages_live", hca.npages), RU("pages_dropped", hca.pages_dropped),
	RU("page_requests", hca.page_requests),
	RU("port_changes", port.changes),
	RU("events_done", stats.events_done),
	RU("events_refused", stats.events_refused),
	RF("health_syndrome", iseg.health_synd, true),
	RU("health_rfr", iseg.health_rfr),
	RU("hca_enabled", hca.enabled), RU("hca_initialized", hca.initialized),
	RU("cmds", stats.cmds), RU("cmds_failed", stats.cmd_failed),
	RU("cmd_unknown", unknown_ops),
	RU("cmd_delivery_errors", cmdq.delivery_errors),
	RU("cmd_eqes", cmdq.eqes), RU("cmd_dma_errors", cmdq.dma_errors),
	RU("cmd_spurious", cmdq.spurious), RU("cmd_eqes_late", cmdq.eqes_late),
	RU("cmd_eqes_merged", cmdq.eqes_merged),
	RU("cmd_eqes_dup", cmdq.eqes_dup), RU("cmd_irqs_lost", cmdq.irqs_lost),
	RU("cmd_delayed", cmdq.delayed), RU("cmd_reordered", cmdq.reordered),
	RU("cmd_coalesced", cmdq.coalesced),
};

/* after the subsystems' own reports, still under emu.lock */
static const struct report_field report_tail[] = {
	RU("eq_overruns", stats.eq_overruns), RU("cq_arms", stats.cq_arms),
	RU("uar_writes", stats.uar_writes), RU("uar_bad", stats.uar_bad),
	RU("bar_bad", stats.bar_bad), RU("resets", stats.resets),
	RU("flrs", stats.flrs), RU("fw_resets", stats.fw_resets),
	RU("health_fatal", stats.health_fatal),
	RU("cq_arms_stale", cq_arms_stale),
};

static void report_fields(const struct emu *e, FILE *fp,
			  const struct report_field *f, size_t n)
{
	for (; n--; f++) {
		const uint8_t *p = (const uint8_t *)e + f->off;
		uint64_t v = 0;

		switch (f->size) {
		case 1: v = *p; break;
		case 2: v = *(const uint16_t *)p; break;
		case 4: v = *(const uint32_t *)p; break;
		default: v = *(const uint64_t *)p; break;
		}
		fprintf(fp, f->hex ? "%s=0x%" PRIx64 "\n" : "%s=%" PRIu64 "\n",
			f->key, v);
	}
}

/*
 * key=value lines.  live_objects counts every object the driver created
 * and never destroyed, including those firmware dropped at TEARDOWN_HCA
 * or reset; pages_held the firmware pages not handed back.
 */
void emu_report(struct emu *e, FILE *fp)
{
	unsigned int t;

	pthread_mutex_lock(&e->lock);
	fprintf(fp, "emu=mlx5x-emu\nguid=0x%016" PRIx64 "\n", e->opt.guid);
	/* whom the port is wired to: another function, or itself */
	fprintf(fp, "link=%s\n",
		e->eng.wire && e->eng.wire->end[1] ? "peer" : "loopback");
	/* as the driver prints it: ibv_devinfo's fw_ver */
	fprintf(fp, "fw_ver=%u.%u.%04u\n", e->opt.fw_major, e->opt.fw_minor,
		e->opt.fw_sub);
	fprintf(fp, "uptime_s=%.1f\n", log_uptime());
	for (t = 0; t < OBJ_NTYPES; t++) {
		struct objtab *o = &e->obj[t];

		fprintf(fp, "live_%s=%u\ncreated_%s=%" PRIu64 "\n", o->name,
			o->live, o->name, o->created);
		if (o->dropped)
			fprintf(fp, "dropped_%s=%" PRIu64 "\n", o->name,
				o->dropped);
	}
	fprintf(fp, "live_objects=%" PRIu64 "\n", emu_live_objects(e));
	fprintf(fp, "pages_held=%" PRIu64 "\n",
		(uint64_t)e->hca.npages + e->hca.pages_dropped);
	report_fields(e, fp, report_locked, ARRAY_SIZE(report_locked));
	fprintf(fp, "cmd_mode=%s:%u\n", cmdq_completion_name(e->opt.cmd_eqe.mode),
		e->opt.cmd_eqe.ms);
	report_cmds(e, fp);
	rules_report(e, fp);
	reserved_report(e, fp);
	eng_report(e, fp);
	port_report(e, fp);
	report_fields(e, fp, report_tail, ARRAY_SIZE(report_tail));
	fprintf(fp, "dead=%d\ndead_reads=%" PRIu64 "\ndead_writes=%" PRIu64 "\n",
		emu_is_dead(e), __atomic_load_n(&e->dead_reads, __ATOMIC_RELAXED),
		__atomic_load_n(&e->dead_writes, __ATOMIC_RELAXED));
	pthread_mutex_unlock(&e->lock);
	pthread_mutex_lock(&e->irq.lock);
	fprintf(fp, "msix_fired=%" PRIu64 "\nmsix_deferred=%" PRIu64 "\n",
		e->irq.fired, e->irq.deferred);
	pthread_mutex_unlock(&e->irq.lock);
	fprintf(fp, "dma_maps=%" PRIu64 "\ndma_unmaps=%" PRIu64
		"\ndma_refused=%" PRIu64 "\n",
		__atomic_load_n(&e->gm.maps, __ATOMIC_RELAXED),
		__atomic_load_n(&e->gm.unmaps, __ATOMIC_RELAXED),
		__atomic_load_n(&e->gm.refused, __ATOMIC_RELAXED));
	fflush(fp);
}
