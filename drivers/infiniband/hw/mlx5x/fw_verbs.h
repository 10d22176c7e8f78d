/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Typed firmware commands of the verbs layer: port and vport queries,
 * PD, memory keys, CQs and QPs.  Same rule as fw_cmds.h: the verbs files
 * fill these host-order parameter structures and never see a command
 * box; every PRM field is written and read here.
 */
#ifndef MLX5X_FW_VERBS_H
#define MLX5X_FW_VERBS_H

#include <linux/bits.h>
#include <linux/types.h>

struct ib_umem;
struct mlx5x_cmd;

/**
 * struct mlx5x_verbs_caps - general (and atomic) capabilities the verbs use
 * @log_max_qp: log2 of the number of QPs
 * @log_max_qp_sz: log2 of the largest work queue, in WQEs
 * @log_max_cq: log2 of the number of CQs
 * @log_max_cq_sz: log2 of the largest CQ, in CQEs
 * @log_max_mkey: log2 of the number of memory keys
 * @log_max_pd: log2 of the number of PDs
 * @log_max_srq_sz: log2 of the largest SRQ, in WQEs
 * @log_max_srq: log2 of the number of SRQs
 * @log_max_msg: log2 of the largest message
 * @log_max_ra_req_qp: log2 of the RDMA read/atomic a QP may initiate
 * @log_max_ra_res_qp: log2 of the RDMA read/atomic a QP may answer
 * @log_pg_sz: log2 of the smallest page the device translates
 * @local_ca_ack_delay: ack delay exponent
 * @max_wqe_sz_sq: largest send WQE in bytes
 * @max_wqe_sz_rq: largest receive WQE in bytes
 * @gid_table_size: encoded GID table size (8 << n entries)
 * @pkey_table_size: encoded P_Key table size (128 << n entries)
 * @num_ports: physical ports
 * @port_type: 0 = InfiniBand, 1 = Ethernet
 * @cqe_version: CQE format the device writes (0 or 1)
 * @cq_resize: MODIFY_CQ can resize a CQ
 * @block_lb_mc: a QP can be kept from receiving its own multicast
 * @xrc: XRC domains, XRC SRQs and XRC QPs
 * @atomic: 8-byte compare-and-swap and fetch-and-add on RC QPs, in host
 *	byte order (decoded from the atomic capabilities): IB_ATOMIC_HCA
 * @atomic_mode: qpc.atomic_mode of a responder with remote atomics
 *	(MLX5X_QPC_ATOMIC_MODE_*, as mlx5_ib derives it), 0 = no atomics
 * @stat_rate_support: bit n = static rate code n is supported
 * @sq_ts_cap: timestamp formats of send queues (MLX5X_TS_CAP_*)
 * @qp_ts_cap: timestamp formats of QPs (RoCE caps; FREE_RUNNING without)
 * @umr_atomic_disabled: a UMR may not change an mkey's atomic right
 * @umr_entity_size_disabled: a UMR may not change an mkey's page size
 *	(so no fast registration: IB_WR_REG_MR always sets it)
 * @log_max_klm_list_size: log2 of the longest translation list of one
 *	key (the fast registration page list limit)
 * @umr_fence: fence a UMR WQE on a send queue needs (MLX5X_CAP_UMR_FENCE_*)
 * @log_max_mcg: log2 of the multicast groups the device can hold
 * @max_qp_mcg: QPs one multicast group can have attached
 * @mw: memory windows of type 1 and 2B (imaicl): KLM window mkeys that
 *	user send queues bind and invalidate with UMR WQEs
 * @pkv: P_Key violation counter
 * @qkv: Q_Key violation counter
 * @ib_virt: the port's host capability bits are written through the
 *	HCA vport context (else through the PCAP register)
 * @device_frequency_khz: core clock
 */
struct mlx5x_verbs_caps {
	u8 log_max_qp;
	u8 log_max_qp_sz;
	u8 log_max_cq;
	u8 log_max_cq_sz;
	u8 log_max_mkey;
	u8 log_max_pd;
	u8 log_max_srq_sz;
	u8 log_max_srq;
	u8 log_max_msg;
	u8 log_max_ra_req_qp;
	u8 log_max_ra_res_qp;
	u8 log_pg_sz;
	u8 local_ca_ack_delay;
	u16 max_wqe_sz_sq;
	u16 max_wqe_sz_rq;
	u8 gid_table_size;
	u8 pkey_table_size;
	u8 num_ports;
	u8 port_type;
	u8 cqe_version;
	bool cq_resize;
	bool block_lb_mc;
	bool xrc;
	bool atomic;
	u8 atomic_mode;
	u16 stat_rate_support;
	u8 sq_ts_cap;
	u8 qp_ts_cap;
	bool umr_atomic_disabled;
	bool umr_entity_size_disabled;
	u8 log_max_klm_list_size;
	u8 umr_fence;
	u8 log_max_mcg;
	u32 max_qp_mcg;
	bool mw;
	bool pkv;
	bool qkv;
	bool ib_virt;
	u32 device_frequency_khz;
};

/**
 * struct mlx5x_vport_ctx - the HCA vport context fields the verbs report
 * @port_state: logical state (1 down .. 4 active)
 * @phys_state: physical state (5 = LinkUp)
 * @has_smi: the vport has an SMI
 * @grh_required: the port requires a GRH on every packet
 * @lid: base LID
 * @lmc: LID mask count
 * @sm_lid: LID of the subnet manager
 * @sm_sl: SL towards the subnet manager
 * @subnet_timeout: subnet timeout exponent
 * @init_type_reply: InitTypeReply of the port
 * @cap_mask1: IB PortInfo CapabilityMask
 * @cap_mask1_perm: the bits of @cap_mask1 the host may change
 * @cap_mask2: IB PortInfo CapabilityMask2
 * @qkey_viol: Q_Key violation counter
 * @pkey_viol: P_Key violation counter
 * @node_guid: node GUID (device byte order)
 * @port_guid: port GUID (device byte order)
 * @sys_image_guid: system image GUID (device byte order)
 */
struct mlx5x_vport_ctx {
	u8 port_state;
	u8 phys_state;
	bool has_smi;
	bool grh_required;
	u16 lid;
	u8 lmc;
	u16 sm_lid;
	u8 sm_sl;
	u8 subnet_timeout;
	u8 init_type_reply;
	u32 cap_mask1;
	u32 cap_mask1_perm;
	u32 cap_mask2;
	u16 qkey_viol;
	u16 pkey_viol;
	__be64 node_guid;
	__be64 port_guid;
	__be64 sys_image_guid;
};

/**
 * struct mlx5x_port_oper - operational link parameters of an IB port
 * @width: PTYS ib_link_width_oper (one MLX5X_PTYS_WIDTH_* bit)
 * @proto: PTYS ib_proto_oper (one MLX5X_PTYS_SPEED_* bit)
 * @max_mtu: PMTU max_mtu, bytes
 * @oper_mtu: PMTU oper_mtu, bytes
 * @vl_hw_cap: PVLC vl_hw_cap (1, 2, 4, 8 or 15 data VLs)
 */
struct mlx5x_port_oper {
	u16 width;
	u16 proto;
	u16 max_mtu;
	u16 oper_mtu;
	u8 vl_hw_cap;
};

/**
 * struct mlx5x_pas - a pinned buffer as a list of device pages
 * @umem: the pinned memory, or NULL: then @dma, or an empty list (tests)
 * @dma: with no @umem, a contiguous kernel buffer (DMA coherent) whose
 *	pages are @dma + i * @pgsz; 0 for none
 * @pgsz: device page size, a power of two >= 4 KiB
 * @n: number of pages (entries in the list)
 * @page_offset: start of the buffer in the first page, in pgsz / 64
 *	units (QPs); 0 for CQs and memory keys
 */
struct mlx5x_pas {
	struct ib_umem *umem;
	dma_addr_t dma;
	unsigned long pgsz;
	size_t n;
	u8 page_offset;
};

/* Memory key access rights (mkc lr/lw/rr/rw/a). */
#define MLX5X_MKEY_LR		BIT(0)
#define MLX5X_MKEY_LW		BIT(1)
#define MLX5X_MKEY_RR		BIT(2)
#define MLX5X_MKEY_RW		BIT(3)
#define MLX5X_MKEY_A		BIT(4)

/**
 * struct mlx5x_mkey_params - CREATE_MKEY of an MTT-mode key or a window
 * @pdn: protection domain
 * @access: MLX5X_MKEY_* rights
 * @variant: low 8 bits of the key (the index is the rest)
 * @umr_en: UMR WQEs may modify the key (umr.c); windows always set it
 * @iova: first virtual address the key covers (0 for a window)
 * @len: bytes the key covers (0 for a window)
 * @pas: translation, one MTT entry per device page (none for a window)
 * @window_klms: non-zero for a memory window: a free KLM-mode key with
 *	room for this many KLM entries (one octword each), which a bind
 *	fills later; @pas is then unused
 * @en_rinval: a type 2 window: SEND with Invalidate may free it
 * @frwr_octwords: non-zero for a fast registration key: a free MTT-mode
 *	key with room for this many translation octwords, which an
 *	IB_WR_REG_MR fills later; @pas gives only the page size (no
 *	entries) and @iova and @len are 0
 * @pa: a physical-address key over all of memory (kernel DMA MR):
 *	@iova, @len and @pas unused
 */
struct mlx5x_mkey_params {
	u32 pdn;
	u8 access;
	u8 variant;
	bool umr_en;
	u64 iova;
	u64 len;
	struct mlx5x_pas pas;
	u16 window_klms;
	bool en_rinval;
	u32 frwr_octwords;
	bool pa;
};

/**
 * struct mlx5x_cq_params - CREATE_CQ
 * @log_size: log2 of the number of CQEs
 * @cqe_128: 128-byte CQEs (else 64)
 * @uar: UAR index whose CQ doorbell arms the CQ
 * @eqn: completion EQ
 * @dbr: bus address of the doorbell record
 * @pas: the CQE ring
 */
struct mlx5x_cq_params {
	u8 log_size;
	bool cqe_128;
	u32 uar;
	u8 eqn;
	dma_addr_t dbr;
	struct mlx5x_pas pas;
};

/**
 * struct mlx5x_qp_path - primary address path of a QP (host order)
 * @pkey_index: P_Key table index
 * @port: physical port, 1-based
 * @rlid: destination LID
 * @path_bits: source path bits (LMC)
 * @grh: send a GRH
 * @sgid_index: source GID index (with @grh)
 * @hop_limit: GRH hop limit
 * @tclass: GRH traffic class
 * @flow_label: GRH flow label
 * @rgid: destination GID (with @grh)
 * @stat_rate: static rate, device encoding (0 = port rate)
 * @sl: service level
 * @ack_timeout: local ACK timeout exponent
 */
struct mlx5x_qp_path {
	u16 pkey_index;
	u8 port;
	u16 rlid;
	u8 path_bits;
	bool grh;
	u8 sgid_index;
	u8 hop_limit;
	u8 tclass;
	u32 flow_label;
	u8 rgid[16];
	u8 stat_rate;
	u8 sl;
	u8 ack_timeout;
};

/*
 * Which fields of struct mlx5x_qp_mod a modify command carries (the
 * encoder writes only these; QUERY_QP decodes all of them).
 */
#define MLX5X_QPM_ACCESS	BIT(0)	/* rre, rwe, rae */
#define MLX5X_QPM_PKEY		BIT(1)	/* path.pkey_index */
#define MLX5X_QPM_PORT		BIT(2)	/* path.port */
#define MLX5X_QPM_AV		BIT(3)	/* path: lid, grh, sl, rate */
#define MLX5X_QPM_ACK_TIMEOUT	BIT(4)	/* path.ack_timeout */
#define MLX5X_QPM_MTU		BIT(5)	/* mtu, log_msg_max */
#define MLX5X_QPM_RQPN		BIT(6)
#define MLX5X_QPM_RQ_PSN	BIT(7)
#define MLX5X_QPM_RRA		BIT(8)	/* log_rra_max */
#define MLX5X_QPM_RNR_TIMER	BIT(9)	/* min_rnr_nak */
#define MLX5X_QPM_SQ_PSN	BIT(10)
#define MLX5X_QPM_RETRY		BIT(11)
#define MLX5X_QPM_RNR_RETRY	BIT(12)
#define MLX5X_QPM_SRA		BIT(13)	/* log_sra_max */
#define MLX5X_QPM_QKEY		BIT(14)	/* qkey (UD) */
#define MLX5X_QPM_QP		BIT(15)	/* st, pm_state, pd, ack req freq */
#define MLX5X_QPM_CQ_SND	BIT(16)	/* cqn_snd */
#define MLX5X_QPM_CQ_RCV	BIT(17)	/* cqn_rcv */
#define MLX5X_QPM_RLKY		BIT(18)	/* rlky = 1 (kernel QPs, RST2INIT) */

/**
 * struct mlx5x_qp_mod - QP context fields of a state transition or query
 * @fields: MLX5X_QPM_* present in this structure
 * @state: qpc state (QUERY_QP only)
 * @rre: remote reads allowed
 * @rwe: remote writes allowed
 * @rae: remote atomics allowed
 * @atomic_mode: with @rae, qpc.atomic_mode (MLX5X_QPC_ATOMIC_MODE_*)
 * @st: service type (with MLX5X_QPM_QP)
 * @pdn: protection domain (with MLX5X_QPM_QP)
 * @cqn_snd: send CQ (with MLX5X_QPM_CQ_SND)
 * @cqn_rcv: receive CQ (with MLX5X_QPM_CQ_RCV)
 * @path: primary path
 * @mtu: path MTU, IB encoding (1 = 256 .. 5 = 4096)
 * @log_msg_max: log2 of the largest message
 * @remote_qpn: destination QP
 * @rq_psn: next expected PSN
 * @log_rra_max: log2 of the responder resources
 * @min_rnr_nak: RNR NAK timer code
 * @sq_psn: next send PSN
 * @retry_count: transport retries
 * @rnr_retry: RNR retries (7 = infinite)
 * @log_sra_max: log2 of the outstanding RDMA reads/atomics
 * @qkey: Q_Key a UD QP accepts and sends with by default
 * @pm_state: path migration state (QUERY_QP only)
 */
struct mlx5x_qp_mod {
	u32 fields;
	u8 state;
	bool rre;
	bool rwe;
	bool rae;
	u8 atomic_mode;
	u8 st;
	u32 pdn;
	u32 cqn_snd;
	u32 cqn_rcv;
	struct mlx5x_qp_path path;
	u8 mtu;
	u8 log_msg_max;
	u32 remote_qpn;
	u32 rq_psn;
	u8 log_rra_max;
	u8 min_rnr_nak;
	u32 sq_psn;
	u8 retry_count;
	u8 rnr_retry;
	u8 log_sra_max;
	u32 qkey;
	u8 pm_state;
};

/**
 * struct mlx5x_qp_params - CREATE_QP (user RC, UC, UD, XRC; the UMR QP)
 * @st: service type (MLX5X_QP_ST_*)
 * @pdn: protection domain (0 for the UMR QP, as mlx5_ib leaves it)
 * @uar: UAR index of the send doorbell
 * @user_index: CQE user index (cqe version 1), 0xffffff otherwise
 * @cqn_snd: send CQ
 * @cqn_rcv: receive CQ
 * @rq_type: MLX5X_QP_RQ_* (own queue, SRQ or zero-length)
 * @log_rq_size: log2 of the receive WQEs (rq_type NON_ZERO)
 * @rq_wqe_shift: log2 of the receive WQE stride (rq_type NON_ZERO)
 * @srqn: the SRQ receives come from; a reserved one of the device when
 *	the QP has none (never 0 for an object-less placeholder)
 * @xrcd: XRC domain; a reserved one of the device for non-XRC QPs
 * @log_sq_size: log2 of the send WQEBBs (with @has_sq)
 * @has_sq: the QP has a send queue
 * @block_lb_mc: drop multicast the QP itself sent
 * @ts_format: timestamp format of its completions (MLX5X_TS_FORMAT_*)
 * @kernel: a kernel QP: fast registration and the reserved lkey enabled
 *	(fre, rlky), as on every kernel QP of mlx5_ib
 * @latency_sensitive: the UMR QP's hint
 * @dbr: bus address of the doorbell record
 * @pas: the work queue buffer, receive queue first
 */
struct mlx5x_qp_params {
	u8 st;
	u32 pdn;
	u32 uar;
	u32 user_index;
	u32 cqn_snd;
	u32 cqn_rcv;
	u8 rq_type;
	u8 log_rq_size;
	u8 rq_wqe_shift;
	u32 srqn;
	u32 xrcd;
	u8 log_sq_size;
	bool has_sq;
	bool block_lb_mc;
	u8 ts_format;
	bool kernel;
	bool latency_sensitive;
	dma_addr_t dbr;
	struct mlx5x_pas pas;
};

/* Firmware form of an SRQ, by ISSI and SRQ type. */
enum mlx5x_srq_form {
	MLX5X_SRQ_FORM_SRQ,	/* ISSI 0: CREATE_SRQ, basic or XRC */
	MLX5X_SRQ_FORM_XRC_SRQ,	/* ISSI 1: CREATE_XRC_SRQ */
	MLX5X_SRQ_FORM_RMP,	/* ISSI 1: CREATE_RMP, basic */
};

/**
 * struct mlx5x_srq_params - CREATE_SRQ, CREATE_XRC_SRQ or CREATE_RMP
 * @log_size: log2 of the number of WQEs
 * @wqe_shift: log2 of the WQE stride in bytes (4..11)
 * @pdn: protection domain
 * @xrcd: XRC domain of an XRC SRQ, the device's reserved one for a basic
 *	SRQ (SRQ contexts only)
 * @cqn: completion queue of an XRC SRQ, the device's reserved one for a
 *	basic SRQ (SRQ contexts only)
 * @user_index: CQE user index (CREATE_XRC_SRQ, CQE version 1)
 * @dbr: bus address of the doorbell record
 * @pas: the WQE buffer; page_offset in pgsz / 64 units
 */
struct mlx5x_srq_params {
	u8 log_size;
	u8 wqe_shift;
	u32 pdn;
	u32 xrcd;
	u32 cqn;
	u32 user_index;
	dma_addr_t dbr;
	struct mlx5x_pas pas;
};

/**
 * struct mlx5x_srq_state - what QUERY_SRQ/XRC_SRQ/RMP report
 * @lwm: limit watermark (0 = not armed)
 * @err: the SRQ is in error
 */
struct mlx5x_srq_state {
	u16 lwm;
	bool err;
};

/**
 * struct mlx5x_vport_counters - a port's traffic (QUERY_VPORT_COUNTER)
 * @rx_ucast_pkts: unicast packets received
 * @rx_ucast_bytes: their octets
 * @tx_ucast_pkts: unicast packets sent
 * @tx_ucast_bytes: their octets
 * @rx_mcast_pkts: multicast packets received
 * @rx_mcast_bytes: their octets
 * @tx_mcast_pkts: multicast packets sent
 * @tx_mcast_bytes: their octets
 */
struct mlx5x_vport_counters {
	u64 rx_ucast_pkts;
	u64 rx_ucast_bytes;
	u64 tx_ucast_pkts;
	u64 tx_ucast_bytes;
	u64 rx_mcast_pkts;
	u64 rx_mcast_bytes;
	u64 tx_mcast_pkts;
	u64 tx_mcast_bytes;
};

int mlx5x_fw_query_verbs_caps(struct mlx5x_cmd *cmd,
			      struct mlx5x_verbs_caps *caps);
int mlx5x_fw_query_node_desc(struct mlx5x_cmd *cmd, char *desc, size_t len);
int mlx5x_fw_query_vport_ctx(struct mlx5x_cmd *cmd, u8 port,
			     struct mlx5x_vport_ctx *ctx);
int mlx5x_fw_query_vport_gid(struct mlx5x_cmd *cmd, u8 port, u16 index,
			     u8 *gid);
int mlx5x_fw_query_vport_pkey(struct mlx5x_cmd *cmd, u8 port, u16 index,
			      u16 *pkey);
int mlx5x_fw_query_port_oper(struct mlx5x_cmd *cmd, u8 port,
			     struct mlx5x_port_oper *oper);
int mlx5x_fw_query_vport_counters(struct mlx5x_cmd *cmd, u8 port,
				  bool dual_port,
				  struct mlx5x_vport_counters *c);
int mlx5x_fw_mad_ifc(struct mlx5x_cmd *cmd, u8 op_mod, u8 port,
		     const void *mad, void *resp);
int mlx5x_fw_set_port_caps(struct mlx5x_cmd *cmd, u8 port, u32 caps);
int mlx5x_fw_modify_vport_caps(struct mlx5x_cmd *cmd, u8 port, u32 mask,
			       u32 value);
int mlx5x_fw_mcg(struct mlx5x_cmd *cmd, bool attach, u32 qpn,
		 const u8 *mgid);
int mlx5x_fw_alloc_pd(struct mlx5x_cmd *cmd, u32 *pdn);
int mlx5x_fw_dealloc_pd(struct mlx5x_cmd *cmd, u32 pdn);
int mlx5x_fw_create_mkey(struct mlx5x_cmd *cmd,
			 const struct mlx5x_mkey_params *p, u32 *index);
int mlx5x_fw_destroy_mkey(struct mlx5x_cmd *cmd, u32 index);
int mlx5x_fw_create_cq(struct mlx5x_cmd *cmd,
		       const struct mlx5x_cq_params *p, u32 *cqn);
int mlx5x_fw_resize_cq(struct mlx5x_cmd *cmd, u32 cqn,
		       const struct mlx5x_cq_params *p);
int mlx5x_fw_create_qp(struct mlx5x_cmd *cmd,
		       const struct mlx5x_qp_params *p, u32 *qpn);
int mlx5x_fw_modify_qp(struct mlx5x_cmd *cmd, u16 opcode, u32 qpn,
		       u32 optpar, const struct mlx5x_qp_mod *m);
int mlx5x_fw_query_qp(struct mlx5x_cmd *cmd, u32 qpn,
		      struct mlx5x_qp_mod *m);
int mlx5x_fw_destroy_qp(struct mlx5x_cmd *cmd, u32 qpn);
int mlx5x_fw_alloc_xrcd(struct mlx5x_cmd *cmd, u32 *xrcdn);
int mlx5x_fw_dealloc_xrcd(struct mlx5x_cmd *cmd, u32 xrcdn);
/* fw_srq.c: any firmware form of an SRQ */
int mlx5x_fw_srq_create(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
			const struct mlx5x_srq_params *p, u32 *srqn);
int mlx5x_fw_srq_destroy(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
			 u32 srqn);
int mlx5x_fw_srq_query(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
		       u32 srqn, struct mlx5x_srq_state *st);
int mlx5x_fw_srq_arm(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
		     u32 srqn, u16 lwm);

/* Box helpers of fw_verbs.c shared with fw_srq.c. */
void mlx5x_fw_set64(void *buf, size_t off, u64 v);
void *mlx5x_fw_pas_box(u16 opcode, size_t base, unsigned int pas_off,
		       const struct mlx5x_pas *pas, size_t nslots,
		       size_t *inlen);
u8 mlx5x_fw_log_page_size(unsigned long pgsz);

/* Pure helpers, shared with the KUnit suites. */
void mlx5x_verbs_caps_decode(const void *cap, const void *atomic_cap,
			     struct mlx5x_verbs_caps *caps);
void mlx5x_vport_ctx_decode(const void *hvc, struct mlx5x_vport_ctx *ctx);
void mlx5x_mad_ifc_encode(void *in, u8 op_mod, u8 port, const void *mad);
void mlx5x_mcg_encode(void *in, bool attach, u32 qpn, const u8 *mgid);
void mlx5x_vport_caps_encode(void *in, u8 port, u32 mask, u32 value);
void mlx5x_mkc_encode(void *mkc, const struct mlx5x_mkey_params *p);
void mlx5x_cqc_encode(void *cqc, const struct mlx5x_cq_params *p);
void mlx5x_cqc_resize_encode(void *in, u32 cqn,
			     const struct mlx5x_cq_params *p);
void mlx5x_qpc_create_encode(void *qpc, const struct mlx5x_qp_params *p);
void mlx5x_qpc_mod_encode(void *qpc, const struct mlx5x_qp_mod *m);
void mlx5x_qpc_decode(const void *qpc, struct mlx5x_qp_mod *m);
size_t mlx5x_pas_inlen(size_t base, const struct mlx5x_pas *pas);
void mlx5x_srqc_encode(void *srqc, const struct mlx5x_srq_params *p);
void mlx5x_rmp_wq_encode(void *wq, const struct mlx5x_srq_params *p);

#endif /* MLX5X_FW_VERBS_H */
