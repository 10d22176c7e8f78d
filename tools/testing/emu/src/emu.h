/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated ConnectX-5: device state shared by all units.
 *
 * Threads
 *   socket thread  runs the vfio-user message loop (vfu.c): config space,
 *                  BAR0 reads and writes, DMA map table, MSI-X eventfds.
 *                  It answers every message at once and never waits for
 *                  device work.
 *   device thread  runs the firmware (emu_thread()): it sleeps on emu.wake
 *                  until a doorbell leaves work (cmdq.pending, ...), then
 *                  executes it.  It never polls while idle.
 *
 * Lock discipline (outermost first; never take a lock listed above one
 * you hold):
 *   emu.lock   mutex, protects everything in struct emu below it: init
 *              segment registers, command queue, HCA state, capabilities,
 *              pages, objects, port, statistics.  The socket thread holds
 *              it for one register access or doorbell; the device thread
 *              holds it while executing one command.
 *   gm.lock    rwlock of the DMA map table (gm.h); taken for each copy
 *              to or from guest memory, possibly under emu.lock.
 *   irq.lock   MSI-X eventfds (irq.h); taken under emu.lock to raise a
 *              vector, or alone by the socket thread.
 *   log lock   innermost (log.h).
 * Config space (pcicfg.c) is touched by the socket thread only.
 */
#ifndef EMU_EMU_H
#define EMU_EMU_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <mlx5x/prm.h>

#include "eng_types.h"
#include "gm.h"
#include "irq.h"
#include "pcicfg.h"

/* BAR0: 32 MiB.  Pages 0..2: init segment; then UARs; MSI-X at the top. */
#define EMU_BAR0_SIZE		(32u << 20)
#define EMU_PAGE_SIZE		0x1000u
#define EMU_UAR_FIRST		8u	/* pages 3..7 stay unused */
#define EMU_MSIX_TABLE_OFF	0x1ff0000u
#define EMU_MSIX_PBA_OFF	0x1ff8000u
#define EMU_UAR_LIMIT		(EMU_MSIX_TABLE_OFF / EMU_PAGE_SIZE)
#define EMU_MSIX_MAX		2048u

#define EMU_CMDQ_LOG_SZ		5	/* 32 slots, the last for pages */
#define EMU_CMDQ_LOG_STRIDE	6	/* 64-byte descriptors */
#define EMU_CMD_MAX_LEN		(4u << 20)	/* per input or output */

#define EMU_NUM_GIDS		8
#define EMU_NUM_PKEYS		128

struct fault_cfg {
	int timeout_op;		/* never complete this opcode, -1: off */
	int status_op;		/* fail this opcode ..., -1: off */
	uint8_t status;		/* ... with this status */
	uint32_t syndrome;	/* ... and syndrome */
	uint32_t status_nth;	/* only its nth occurrence (0: all) */
	uint32_t status_seen;
	int health_synd;	/* raise this health syndrome, -1: off */
	uint32_t health_delay_ms;	/* after INIT_HCA + delay */
	bool health_rfr;	/* ... with the recovery-flow-required bit */
	uint32_t cmd_irq_drop;	/* lose the interrupt of this many CMD EQEs */
};

/*
 * How command completions reach the driver once a command EQ exists
 * (--cmd-completion).  The PRM orders a command's EQE after the return of
 * its descriptor (owner bit) and nothing else: not how soon, not across
 * slots, not one EQE per slot (the EQE carries a slot vector).
 */
enum cmd_eqe_mode {
	CMD_EQE_PROMPT,		/* one EQE per command, right away */
	CMD_EQE_DELAY,		/* EQE ms after the owner bit returned */
	CMD_EQE_REORDER,	/* commands rung within ms run highest slot first */
	CMD_EQE_COALESCE,	/* EQEs within ms merge into one (slot vector) */
	CMD_EQE_DUPLICATE,	/* the EQE again when the slot is rung next */
};

struct cmd_eqe_cfg {
	enum cmd_eqe_mode mode;
	uint32_t ms;		/* window or delay */
};

/*
 * The longest window or delay: an EQE later than mlx5_core's command
 * timeout (60 s) is a command that timed out, not a late completion.
 */
#define CMD_EQE_MAX_MS	60000u

struct emu_opts {
	const char *socket_path;
	const char *log_path;
	const char *report_path;
	uint64_t guid;
	uint16_t lid;		/* 0: derive from guid */
	unsigned int msix;
	bool trace;
	const char *ftrace_path;	/* --ftrace: field trace (ftrace.c) */
	int ftrace_stop_op;		/* -1: none */
	const char *ftrace_stop_field;
	uint64_t ftrace_stop_value;
	bool keep_listening;
	unsigned int fw_major, fw_minor, fw_sub;
	unsigned int boot_pages, init_pages;
	unsigned int max_issi;		/* QUERY_ISSI offers 0..max_issi */
	unsigned int init_delay_ms;	/* initializing bit after reset */
	const char *name;	/* log tag of this function (NULL: one) */
	uint8_t port_mode;		/* enum emu_port_mode */
	struct fault_cfg fault;
	unsigned int events;		/* enum emu_event_kind bits allowed */
	const char *events_ctl;		/* request directory, NULL: none */
	struct cmd_eqe_cfg cmd_eqe;
};

/*
 * How the port comes up.  SELF: ACTIVE with a LID from power-on, the
 * device is its own subnet manager (ib_virt caps, no MAD_IFC).  SM: as a
 * ConnectX PF on a real subnet: after INIT_HCA the link is up and the
 * port INIT with LID 0 until a subnet manager configures it through the
 * firmware SMA (sma.c); ib_virt 0, so mlx5_ib uses MAD_IFC.
 */
enum emu_port_mode {
	EMU_PORT_SELF = 0,
	EMU_PORT_SM = 1,
};

/* firmware-initiated events the host may request (events.c) */
enum emu_event_kind {
	EMU_EV_PAGES, EMU_EV_PORT, EMU_EV_INTERNAL_ERROR, EMU_EV_EQ_OVERRUN,
	EMU_EV_CMD_COMPLETION, EMU_EV_DIE,
	EMU_EV_NKINDS,
};
/* how often the device thread looks for a request (--events-ctl) */
#define EVENTS_CTL_POLL_MS	20

/* A queue buffer: list of page addresses (PAS). */
struct pas {
	uint64_t *addr;
	uint32_t n;
	uint8_t log_page_size;	/* page size is 1 << log_page_size bytes */
	uint32_t page_offset;	/* bytes into the first page */
	uint64_t len;		/* bytes of queue described */
};

enum obj_type {
	OBJ_UAR, OBJ_PD, OBJ_XRCD, OBJ_MKEY, OBJ_EQ, OBJ_CQ, OBJ_SRQ, OBJ_QP,
	OBJ_NTYPES,
};

/* Numbered objects of one type; ids are handed out round-robin. */
struct objtab {
	const char *name;
	void **slot;
	uint32_t cap;		/* slots allocated */
	uint32_t base, limit;	/* ids in [base, limit) */
	uint32_t next;
	uint32_t live;
	uint64_t created, destroyed, dropped;
};

/*
 * Firmware does not track who rings a UAR page: DEALLOC_UAR succeeds
 * while EQs, CQs or QPs still name it (mlx5_ib's UAR object can go
 * before them).  The number is freed at once; the structure lives on,
 * marked dead, until uar_put() drops the last user.
 */
struct emu_uar {
	uint32_t index;
	uint32_t refs;		/* EQs, CQs, QPs using it */
	bool dead;		/* deallocated while still used */
};

struct emu_pd {
	uint32_t pdn;
	uint32_t refs;		/* MKEYs, SRQs, QPs */
};

struct emu_xrcd {
	uint32_t xrcdn;
	uint32_t refs;		/* SRQs, QPs */
};

struct emu_mkey {
	uint32_t index;
	uint32_t key;		/* index << 8 | variant */
	uint8_t access_mode;	/* enum mlx5x_mkc_access_mode */
	bool lr, lw, rr, rw, atomic, umr_en, free, length64;
	struct emu_pd *pd;
	uint64_t start, len;
	uint8_t log_page_size;	/* of MTT entries */
	uint32_t qpn;
	uint64_t *mtt;		/* MTT mode: page addresses */
	uint32_t n_mtt;
	/*
	 * Memory window (KLM mode, created free with umr_en): type 2 if
	 * en_rinval.  A bind (UMR on a user send queue) points its single
	 * KLM at klm_va of the MR klm_key; qpn is the QP a type 2 window
	 * is bound to (MLX5X_MKC_QPN_NONE for type 1).
	 */
	bool mw, en_rinval;
	uint32_t klm_key;
	uint64_t klm_va;
	uint8_t mkc[MLX5X_MKC_LEN];
};

struct emu_eq {
	uint32_t eqn;
	struct emu_uar *uar;
	struct pas pas;
	uint8_t log_size;
	uint16_t intr;		/* MSI-X vector */
	uint64_t mask[MLX5X_EQ_EVENT_BITMASK_WORDS];
	uint32_t cons;		/* consumer counter, 24 bits, from doorbell */
	uint32_t prod;		/* producer counter */
	bool armed;
	bool overrun;		/* stopped: EQEs are lost (eq_post()) */
	uint64_t lost;		/* EQEs lost to the overrun */
	uint32_t refs;		/* CQs */
	uint64_t eqes, irqs, doorbells;
	uint8_t eqc[MLX5X_EQC_LEN];
};

struct emu_cq {
	uint32_t cqn;
	struct emu_uar *uar;
	struct emu_eq *eq;
	struct pas pas;
	uint8_t log_size;
	uint8_t log_cqe_size;	/* 6 or 7 */
	uint64_t dbr;		/* doorbell record */
	bool oi;
	uint32_t prod;		/* producer counter */
	/* last arm doorbell (UAR + 0x20) */
	bool armed;
	uint8_t arm_cmd;	/* MLX5X_CQ_DB_CMD_ARM_* */
	uint8_t arm_sn;
	uint32_t arm_ci;
	uint64_t arms;
	uint32_t refs;		/* QPs, SRQs */
	uint8_t cqc[MLX5X_CQC_LEN];
	struct eng_cq eng;	/* transport engine (eng_types.h) */
};

/* how the SRQ was made: its commands and context layout differ */
enum emu_srq_kind {
	SRQ_KIND_SRQ,		/* CREATE_SRQ (ISSI 0), basic or XRC */
	SRQ_KIND_XRC,		/* CREATE_XRC_SRQ (ISSI 1) */
	SRQ_KIND_RMP,		/* CREATE_RMP (ISSI 1): a basic SRQ */
};

/* SRQ, XRC SRQ and RMP share one number space, as QPs name any of them */
struct emu_srq {
	uint32_t srqn;
	uint8_t kind;		/* enum emu_srq_kind */
	struct emu_pd *pd;
	struct emu_xrcd *xrcd;
	struct emu_cq *cq;
	struct pas pas;
	uint8_t log_size;
	uint8_t log_stride;	/* WQE stride is 16 << log_stride */
	uint64_t dbr;
	uint32_t refs;		/* QPs */
	/* the context as created: SRQ/XRC SRQ context or RMP context */
	uint8_t ctx[MLX5X_RMPC_LEN];
	struct eng_srq eng;	/* transport engine (eng_types.h) */
};

struct emu_qp {
	uint32_t qpn;
	uint8_t st;		/* enum mlx5x_qp_st */
	uint8_t state;		/* enum mlx5x_qp_state */
	struct emu_uar *uar;
	struct emu_pd *pd;
	struct emu_cq *scq, *rcq;
	struct emu_srq *srq;
	struct emu_xrcd *xrcd;
	struct pas pas;		/* RQ first, then SQ */
	uint64_t rq_len, sq_len;
	uint64_t dbr;
	uint64_t transitions;
	uint8_t qpc[MLX5X_QPC_LEN];	/* accumulated context */
	struct eng_qp eng;	/* transport engine (eng_types.h) */
};

/* traffic counters of the port (PMA, QUERY_VPORT_COUNTER); pma.c */
/* one direction of a port's traffic */
struct emu_traffic {
	uint64_t data;				/* octets */
	uint64_t pkts, ucast, mcast;
};

struct emu_port_cnt {
	struct emu_traffic xmit, rcv;
	uint64_t xmit_discards;			/* port not ACTIVE */
	uint64_t rcv_errors;			/* no such QP / GID */
	uint64_t vl15_dropped;
};

struct emu_port {
	uint16_t lid, sm_lid;
	uint8_t state, phys_state;
	uint8_t subnet_timeout;
	uint64_t node_guid, port_guid, sys_guid;
	uint32_t cap_mask1, cap_mask1_perm;
	uint16_t max_mtu, oper_mtu;	/* bytes */
	uint8_t vl_cap;
	uint16_t pkeys[EMU_NUM_PKEYS];
	uint8_t gids[EMU_NUM_GIDS][MLX5X_GID_LEN];
	uint8_t node_desc[MLX5X_REG_NODE_DESC_LEN];
	uint32_t qkey_viol, pkey_viol, mkey_viol;
	uint32_t changes;	/* state changes by events (port down/up) */
	/* PortInfo fields the subnet manager owns (sma.c) */
	uint64_t mkey;
	uint16_t mkey_lease;
	uint8_t mkey_protect, lmc, sm_sl;
	uint8_t neighbor_mtu;		/* IB MTU code, 1..5 */
	uint8_t op_vls;			/* OperationalVLs code */
	uint8_t link_down_default;
	uint8_t width_enabled, speed_enabled, speed_ext_enabled;
	uint8_t vl_high_limit, hoq_life, vl_stall;
	uint8_t err_thresholds;		/* LocalPhyErrors, Overrun */
	uint8_t sl2vl[8];		/* SLtoVLMappingTable, 4 bits per SL */
	uint8_t vlarb[4][64];		/* VLArbitration blocks 1..4 */
	struct emu_port_cnt cnt;
};

/* one QP attached to one multicast group (mcg.c) */
struct emu_mcg {
	struct emu_mcg *next;
	uint8_t mgid[MLX5X_GID_LEN];
	uint32_t qpn;
};

struct emu_iseg {
	uint32_t cmdq_addr_h;	/* latched high half */
	uint64_t cmdq_addr;	/* 0: command queue not set up */
	uint8_t nic_ifc;
	uint32_t initializing_low;	/* driver-written low bits */
	uint64_t init_until_ns;	/* "initializing" until then */
	uint8_t health_synd;
	bool health_rfr;
	uint64_t health_at_ns;	/* fault: raise synd then (0: never) */
	uint32_t health_counter;	/* last value read */
	bool health_stalled;	/* failed firmware: the counter stands */
	uint64_t t0_ns;
};

struct emu_cmdq {
	uint32_t pending;	/* doorbell bits not executed yet */
	uint64_t exec_at_ns;	/* pending ones wait until then (reorder) */
	uint32_t late_vec;	/* slots whose EQE is held (delay, coalesce) */
	uint64_t late_at_ns;	/* ... until then */
	uint32_t dup_vec;	/* slots whose EQE goes out again (duplicate) */
	uint64_t doorbells, spurious, dma_errors, executed, delivery_errors;
	uint64_t eqes;		/* completions reported by EQE */
	uint64_t eqes_late;	/* ... held back first (delay, coalesce) */
	uint64_t eqes_merged;	/* EQEs that carried more than one slot */
	uint64_t eqes_dup;	/* EQEs repeated for a slot rung again */
	/* what each mode did to completions (one counter per mode) */
	uint64_t delayed;	/* EQE held, then due for its slot alone */
	uint64_t reordered;	/* ran ahead of a lower slot rung with it */
	uint64_t coalesced;	/* EQE shared with other slots' completions */
	uint64_t irqs_lost;	/* fault: CMD EQE interrupts dropped */
	uint64_t hung;		/* fault: never completed */
};

struct emu_hca {
	bool enabled;
	bool initialized;
	uint16_t issi;
	uint32_t host_endianness;	/* HOST_ENDIANNESS word 0 */
	char driver_version[MLX5X_SET_DRIVER_VERSION_IN_LEN];
	uint8_t cap_cur[MLX5X_HCA_CAP_LEN];
	uint8_t cap_max[MLX5X_HCA_CAP_LEN];
	/* firmware pages held by the device */
	uint64_t *pages;
	uint32_t npages, pages_cap;
	uint32_t boot_pages, init_pages;	/* asked for */
	uint32_t regular_pages;	/* asked for by PAGE_REQUEST at run time */
	uint32_t releasable;	/* released by PAGE_REQUEST, not yet taken */
	uint64_t page_requests;	/* PAGE_REQUEST EQEs written */
	uint64_t pages_given, pages_taken, pages_dropped;
	/*
	 * atomic_req_8B_endianness_mode in effect (ATOMIC caps): 0, big
	 * endian, at boot; 1, host endianness, once SET_HCA_CAP(ATOMIC)
	 * asked for it (mlx5_core handle_hca_cap_atomic)
	 */
	uint8_t atomic_req_mode;
};

/*
 * Firmware rules a driver can break (rules.c has the table: name, status
 * and where each comes from).  Every hit is counted in emu.viol and
 * reported as viol_<name>; the e2e lanes fail on any non-zero count.
 */
enum emu_rule {
	R_QP_OPTPAR, R_QP_MTU, R_QP_MSG_MAX, R_QP_PORT, R_QP_PKEY_INDEX,
	R_QP_RLID, R_QP_SGID_INDEX, R_QP_STAT_RATE, R_QP_SRA, R_QP_RRA,
	R_QP_ATOMIC_MODE, R_QP_TS_FORMAT, R_QP_UMR_FRE, R_QP_PD, R_QP_CQ,
	R_QP_SRQ, R_QP_XRCD, R_QP_UAR, R_CQ_TS_FORMAT, R_SET_CAP_ATOMIC,
	R_SQ_DB_FOREIGN_UAR, R_CQ_ARM_FOREIGN_UAR, R_CQ_ARM_DBR_MISMATCH,
	R_ATOMIC_NO_MODE, R_RESERVED_NONZERO,
	R_NUM
};

/*
 * The reserved-bits rule: commands checked, and the places already
 * logged (each (opcode, offset) once; the first EMU_RSVD_LOGGED of them).
 */
#define EMU_RSVD_LOGGED 64
struct emu_rsvd {
	uint64_t checked;
	unsigned int nlogged;
	struct {
		uint16_t op;
		uint32_t off;
	} logged[EMU_RSVD_LOGGED];
};

struct emu_stats {
	uint64_t cmds, cmd_failed;
	uint64_t uar_writes, uar_bad, bar_bad, resets;
	/* function level resets, firmware (nic_interface SW_RESET) resets,
	 * fatal syndromes (recovery flow requested) raised
	 */
	uint64_t flrs, fw_resets, health_fatal;
	uint64_t eq_overruns, eqe_dma_errors;
	uint64_t events_done, events_refused;	/* host requests */
	uint64_t cq_arms, sq_doorbells;
};

struct emu {
	struct emu_opts opt;
	struct gm gm;		/* own lock */
	struct irq irq;		/* own lock */
	struct pcicfg cfg;	/* socket thread only */

	pthread_mutex_t lock;	/* protects everything below */
	pthread_cond_t wake;	/* device thread sleeps here */
	pthread_t thread;
	bool thread_running;
	bool stop;

	struct emu_iseg iseg;
	struct emu_cmdq cmdq;
	struct emu_hca hca;
	FILE *ftrace;		/* --ftrace output, NULL once it ended */
	struct emu_port port;
	struct objtab obj[OBJ_NTYPES];
	struct emu_stats stats;
	struct eng eng;		/* transport engine; own kick_lock */
	struct emu_mcg *mcg;	/* multicast attachments */
	uint64_t *cmd_count, *cmd_fail;	/* per dispatch-table entry */
	uint64_t viol[R_NUM];	/* firmware-rule violations (rules.c) */
	struct emu_rsvd rsvd;	/* the reserved-bits rule (reserved.c) */
	uint64_t unknown_ops;
	/*
	 * The device died (--events-ctl die): BAR0 reads all-ones, writes
	 * are dropped, no command runs; a reset does not bring it back.
	 * Set once under emu.lock, read without it (atomic).
	 */
	bool dead;
	uint64_t dead_reads, dead_writes;	/* atomic */
	/*
	 * The last CQs destroyed and the UAR each was armed through: user
	 * space may still ring one while the kernel disassociates its
	 * context (uverbs destroys the objects before it zaps the
	 * mappings); hardware ignores such a doorbell.  emu.lock.
	 */
	struct { uint32_t cqn, uar; } cq_gone[16];
	unsigned int cq_gone_next;
	uint64_t cq_arms_stale;
};

/* dev.c */
int emu_create(struct emu *e, const struct emu_opts *opt);
void emu_destroy(struct emu *e);
void emu_reset(struct emu *e);		/* device reset: back to power-on */
void emu_flr(struct emu *e);		/* function level reset, the same */
void emu_fw_reset_locked(struct emu *e);	/* firmware part of both */
void emu_die_locked(struct emu *e);	/* the device stops answering */
bool emu_is_dead(struct emu *e);
int emu_start_thread(struct emu *e);
void emu_stop_thread(struct emu *e);
/* run pending device work now (tests; also the device thread's body) */
void emu_run_pending_locked(struct emu *e);
void emu_run_pending(struct emu *e);
/* BAR0 access from the transport; data is the raw (guest-order) bytes */
void emu_bar0_read(struct emu *e, uint64_t off, void *buf, uint32_t len);
void emu_bar0_write(struct emu *e, uint64_t off, const void *buf, uint32_t len);
void emu_report(struct emu *e, FILE *fp);
uint64_t emu_live_objects(struct emu *e);
/* join the ports of two devices back to back on wire w (dev.c) */
struct wire;
int emu_link(struct wire *w, struct emu *a, struct emu *b);

/* iseg.c (emu.lock held) */
void iseg_reset(struct emu *e);
uint32_t iseg_read32(struct emu *e, uint32_t off);
void iseg_write32(struct emu *e, uint32_t off, uint32_t val);
/* firmware reports a health syndrome (a fatal one replaces a warning) */
void iseg_health_raise(struct emu *e, uint8_t synd, bool rfr);

/* cmdq.c (emu.lock held) */
void cmdq_doorbell(struct emu *e, uint32_t bits);
void cmdq_run(struct emu *e);
void cmdq_run_at(struct emu *e, uint64_t now);
uint64_t cmdq_wake_at(const struct emu *e);
void cmdq_reset(struct emu *e);
int cmdq_parse_completion(struct cmd_eqe_cfg *c, const char *s);
const char *cmdq_completion_name(enum cmd_eqe_mode mode);
void cmdq_set_completion(struct emu *e, const struct cmd_eqe_cfg *c);

/* uar doorbells (emu.lock held) */
void uar_write(struct emu *e, uint32_t index, uint32_t off,
	       const uint8_t *data, uint32_t len);

/* res.c: drop one user of a UAR (frees a dead one with its last user) */
void uar_put(struct emu_uar *uar);
/* cq.c: CQ cqn, armed through UAR uar, is among the last destroyed */
bool cq_gone_recently(struct emu *e, uint32_t cqn, uint32_t uar);

/* objects (obj.c) */
void objtab_init(struct objtab *t, const char *name, uint32_t base,
		 uint32_t limit);
void objtab_free(struct objtab *t);
int objtab_add(struct objtab *t, void *obj, uint32_t *id);
void *objtab_get(struct objtab *t, uint32_t id);
void *objtab_del(struct objtab *t, uint32_t id);
void objs_init(struct emu *e);
void objs_drop_all(struct emu *e);	/* teardown/reset: free everything */
void objs_free(struct emu *e);

/* pas.c */
void pas_free(struct pas *p);
uint64_t pas_addr(const struct pas *p, uint64_t off);
int pas_read(struct emu *e, const struct pas *p, uint64_t off, void *buf,
	     uint32_t len);
int pas_write(struct emu *e, const struct pas *p, uint64_t off,
	      const void *buf, uint32_t len);

/* eq.c (emu.lock held) */
struct emu_eq *eq_find_for_event(struct emu *e, uint8_t type);
/* post one EQE (type, sub_type, 28 bytes of data at EQE offset 0x20) */
int eq_post(struct emu *e, struct emu_eq *eq, uint8_t type, uint8_t sub,
	    const uint8_t *data);
void eq_doorbell(struct emu *e, uint32_t uar, uint32_t val, bool arm);
void eq_free(struct emu_eq *eq);

/* events.c */
int events_parse(const char *list, unsigned int *mask);
int events_run(struct emu *e, const char *word, const char *arg, char *why,
	       size_t len);		/* emu.lock held */
void events_ctl_poll(struct emu *e);	/* emu.lock not held */

/* fault.c: command faults, also set over --events-ctl (emu.lock held) */
struct cmd_ctx;
bool fault_cmd_status(struct emu *e, struct cmd_ctx *c);
bool fault_ctl_word(const char *word);
int fault_ctl_run(struct emu *e, const char *word, const char *arg,
		  char *why, size_t len);

/* caps.c */
void caps_init(struct emu *e);

/* rules.c: a firmware rule broken outside a command (emu.lock held) */
void rule_hit(struct emu *e, enum emu_rule r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rules_report(struct emu *e, FILE *fp);	/* emu.lock held */
uint64_t rules_total(const struct emu *e);

/* port.c */
void port_init(struct emu *e);
/* INIT_HCA: the link comes up once (SM mode: logical INIT, LID 0) */
void port_link_up(struct emu *e);
/* post a PORT_CHANGE EQE (MLX5X_PORT_CHANGE_*) if an EQ wants it */
void port_event(struct emu *e, uint8_t sub_type);
/* logical state change with its event (emu.lock held) */
void port_set_state(struct emu *e, uint8_t state);
void port_report(struct emu *e, FILE *fp);	/* emu.lock held */

/* mcg.c */
void mcg_qp_gone(struct emu *e, uint32_t qpn);	/* destroy / teardown */
void mcg_free_all(struct emu *e);

/* pages.c */
void pages_reset(struct emu *e);

/* report/trace helpers (cmd_table.c) */
const char *cmd_op_name(uint16_t op);
int cmd_parse_opcode(const char *s, char **end);
/* ftrace.c: the field trace of command inputs */
struct cmd_ctx;
int ftrace_open(struct emu *e);
void ftrace_close(struct emu *e);
void ftrace_cmd(struct emu *e, const struct cmd_ctx *c);
/* the known bits of c's input, byte by byte (known: c->inlen bytes) */
void ftrace_known(const struct cmd_ctx *c, uint8_t *known);
/* the name of the last field at or before input offset off */
void ftrace_field_near(const struct cmd_ctx *c, uint32_t off, char *buf,
		       size_t size);
/* reserved.c: stray bits outside every known field (emu.lock held) */
void reserved_check(const struct cmd_ctx *c);
void reserved_report(struct emu *e, FILE *fp);
const char *cmd_status_name(uint8_t status);

#endif /* EMU_EMU_H */
