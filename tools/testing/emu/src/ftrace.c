// SPDX-License-Identifier: GPL-2.0
/*
 * Field trace (--ftrace FILE): the input of every command, field by field,
 * each named after its include/mlx5x definition, one line per command:
 *
 *   op=CREATE_QP op_mod=0x0 uid=0x0 inlen=0x120 input_qpn=0x0 ...
 *       qpc.st=0x0 qpc.pd=0x3 ... qpc.pri_path.rlid=0x1 ...
 *
 * It is the raw material of the firmware-command differential
 * (tools/testing/fwdiff), which compares the streams of two drivers on
 * the same workload; nothing here changes what a command does.  Fields a
 * command's input is too short to hold are left out.  Commands that act
 * on an existing QP also get "qp.st" (the QP's service type, a pseudo
 * field) so the two streams can be compared per QP type.
 *
 * --ftrace-stop OP:FIELD=VALUE ends the trace after the first command OP
 * whose FIELD holds VALUE: the workload's end marker.
 *
 * Called with emu.lock held, before the command runs.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"

struct ft_field {
	const char *name;
	uint32_t off;
	uint32_t mask;		/* 32-bit word field; 0: len raw bytes */
	uint8_t len;
};

#define FW(n, P)	{ #n, P##_OFF, P##_MASK, 4 }
#define FB(n, P, l)	{ #n, P##_OFF, 0, l }

/* Contexts (generated once from the include/mlx5x names). */
static const struct ft_field ft_qpc[] = {
	FW(state, MLX5X_QPC_STATE),
	FW(lag_tx_port_affinity, MLX5X_QPC_LAG_TX_PORT_AFFINITY),
	FW(st, MLX5X_QPC_ST),
	FW(pm_state, MLX5X_QPC_PM_STATE),
	FW(offload_type, MLX5X_QPC_OFFLOAD_TYPE),
	FW(end_padding_mode, MLX5X_QPC_END_PADDING_MODE),
	FW(wq_signature, MLX5X_QPC_WQ_SIGNATURE),
	FW(block_lb_mc, MLX5X_QPC_BLOCK_LB_MC),
	FW(atomic_like_write_en, MLX5X_QPC_ATOMIC_LIKE_WRITE_EN),
	FW(latency_sensitive, MLX5X_QPC_LATENCY_SENSITIVE),
	FW(drain_sigerr, MLX5X_QPC_DRAIN_SIGERR),
	FW(pd, MLX5X_QPC_PD),
	FW(mtu, MLX5X_QPC_MTU),
	FW(log_msg_max, MLX5X_QPC_LOG_MSG_MAX),
	FW(log_rq_size, MLX5X_QPC_LOG_RQ_SIZE),
	FW(log_rq_stride, MLX5X_QPC_LOG_RQ_STRIDE),
	FW(no_sq, MLX5X_QPC_NO_SQ),
	FW(log_sq_size, MLX5X_QPC_LOG_SQ_SIZE),
	FW(retry_mode, MLX5X_QPC_RETRY_MODE),
	FW(ts_format, MLX5X_QPC_TS_FORMAT),
	FW(rlky, MLX5X_QPC_RLKY),
	FW(ulp_stateless_offload_mode, MLX5X_QPC_ULP_STATELESS_OFFLOAD_MODE),
	FW(counter_set_id, MLX5X_QPC_COUNTER_SET_ID),
	FW(uar_page, MLX5X_QPC_UAR_PAGE),
	FW(user_index, MLX5X_QPC_USER_INDEX),
	FW(log_page_size, MLX5X_QPC_LOG_PAGE_SIZE),
	FW(remote_qpn, MLX5X_QPC_REMOTE_QPN),
	FW(log_ack_req_freq, MLX5X_QPC_LOG_ACK_REQ_FREQ),
	FW(log_sra_max, MLX5X_QPC_LOG_SRA_MAX),
	FW(retry_count, MLX5X_QPC_RETRY_COUNT),
	FW(rnr_retry, MLX5X_QPC_RNR_RETRY),
	FW(fre, MLX5X_QPC_FRE),
	FW(cur_rnr_retry, MLX5X_QPC_CUR_RNR_RETRY),
	FW(cur_retry_count, MLX5X_QPC_CUR_RETRY_COUNT),
	FW(next_send_psn, MLX5X_QPC_NEXT_SEND_PSN),
	FW(cqn_snd, MLX5X_QPC_CQN_SND),
	FW(deth_sqpn, MLX5X_QPC_DETH_SQPN),
	FW(last_acked_psn, MLX5X_QPC_LAST_ACKED_PSN),
	FW(ssn, MLX5X_QPC_SSN),
	FW(log_rra_max, MLX5X_QPC_LOG_RRA_MAX),
	FW(atomic_mode, MLX5X_QPC_ATOMIC_MODE),
	FW(rre, MLX5X_QPC_RRE),
	FW(rwe, MLX5X_QPC_RWE),
	FW(rae, MLX5X_QPC_RAE),
	FW(page_offset, MLX5X_QPC_PAGE_OFFSET),
	FW(cd_slave_send, MLX5X_QPC_CD_SLAVE_SEND),
	FW(cd_master, MLX5X_QPC_CD_MASTER),
	FW(min_rnr_nak, MLX5X_QPC_MIN_RNR_NAK),
	FW(next_rcv_psn, MLX5X_QPC_NEXT_RCV_PSN),
	FW(xrcd, MLX5X_QPC_XRCD),
	FW(cqn_rcv, MLX5X_QPC_CQN_RCV),
	FB(dbr_addr, MLX5X_QPC_DBR_ADDR, 8),
	FW(q_key, MLX5X_QPC_Q_KEY),
	FW(rq_type, MLX5X_QPC_RQ_TYPE),
	FW(srqn_rmpn_xrqn, MLX5X_QPC_SRQN_RMPN_XRQN),
	FW(rmsn, MLX5X_QPC_RMSN),
	FW(hw_sq_wqebb_counter, MLX5X_QPC_HW_SQ_WQEBB_COUNTER),
	FW(sw_sq_wqebb_counter, MLX5X_QPC_SW_SQ_WQEBB_COUNTER),
	FW(hw_rq_counter, MLX5X_QPC_HW_RQ_COUNTER),
	FW(sw_rq_counter, MLX5X_QPC_SW_RQ_COUNTER),
	FW(cgs, MLX5X_QPC_CGS),
	FW(cs_req, MLX5X_QPC_CS_REQ),
	FW(cs_res, MLX5X_QPC_CS_RES),
	FW(dbr_umem_valid, MLX5X_QPC_DBR_UMEM_VALID),
	{ NULL }
};

static const struct ft_field ft_ads[] = {
	FW(fl, MLX5X_ADS_FL),
	FW(free_ar, MLX5X_ADS_FREE_AR),
	FW(pkey_index, MLX5X_ADS_PKEY_INDEX),
	FW(grh, MLX5X_ADS_GRH),
	FW(mlid, MLX5X_ADS_MLID),
	FW(rlid, MLX5X_ADS_RLID),
	FW(ack_timeout, MLX5X_ADS_ACK_TIMEOUT),
	FW(src_addr_index, MLX5X_ADS_SRC_ADDR_INDEX),
	FW(stat_rate, MLX5X_ADS_STAT_RATE),
	FW(hop_limit, MLX5X_ADS_HOP_LIMIT),
	FW(tclass, MLX5X_ADS_TCLASS),
	FW(flow_label, MLX5X_ADS_FLOW_LABEL),
	FB(rgid_rip, MLX5X_ADS_RGID_RIP, 16),
	FW(sl, MLX5X_ADS_SL),
	FW(vhca_port_num, MLX5X_ADS_VHCA_PORT_NUM),
	{ NULL }
};

static const struct ft_field ft_cqc[] = {
	FW(status, MLX5X_CQC_STATUS),
	FW(dbr_umem_valid, MLX5X_CQC_DBR_UMEM_VALID),
	FW(cqe_sz, MLX5X_CQC_CQE_SZ),
	FW(cc, MLX5X_CQC_CC),
	FW(scqe_break_moderation_en, MLX5X_CQC_SCQE_BREAK_MODERATION_EN),
	FW(oi, MLX5X_CQC_OI),
	FW(cq_period_mode, MLX5X_CQC_CQ_PERIOD_MODE),
	FW(cqe_comp_en, MLX5X_CQC_CQE_COMP_EN),
	FW(st, MLX5X_CQC_ST),
	FW(page_offset, MLX5X_CQC_PAGE_OFFSET),
	FW(log_cq_size, MLX5X_CQC_LOG_CQ_SIZE),
	FW(uar_page, MLX5X_CQC_UAR_PAGE),
	FW(cq_period, MLX5X_CQC_CQ_PERIOD),
	FW(cq_max_count, MLX5X_CQC_CQ_MAX_COUNT),
	FW(c_eqn, MLX5X_CQC_C_EQN),
	FW(log_page_size, MLX5X_CQC_LOG_PAGE_SIZE),
	FW(last_notified_index, MLX5X_CQC_LAST_NOTIFIED_INDEX),
	FW(last_solicit_index, MLX5X_CQC_LAST_SOLICIT_INDEX),
	FW(consumer_counter, MLX5X_CQC_CONSUMER_COUNTER),
	FW(producer_counter, MLX5X_CQC_PRODUCER_COUNTER),
	FW(cq_timestamp_format, MLX5X_CQC_CQ_TIMESTAMP_FORMAT),
	FB(dbr_addr, MLX5X_CQC_DBR_ADDR, 8),
	{ NULL }
};

static const struct ft_field ft_srqc[] = {
	FW(state, MLX5X_SRQC_STATE),
	FW(log_srq_size, MLX5X_SRQC_LOG_SRQ_SIZE),
	FW(wq_signature, MLX5X_SRQC_WQ_SIGNATURE),
	FW(cont_srq, MLX5X_SRQC_CONT_SRQ),
	FW(rlky, MLX5X_SRQC_RLKY),
	FW(log_rq_stride, MLX5X_SRQC_LOG_RQ_STRIDE),
	FW(xrcd, MLX5X_SRQC_XRCD),
	FW(page_offset, MLX5X_SRQC_PAGE_OFFSET),
	FW(cqn, MLX5X_SRQC_CQN),
	FW(log_page_size, MLX5X_SRQC_LOG_PAGE_SIZE),
	FW(pd, MLX5X_SRQC_PD),
	FW(lwm, MLX5X_SRQC_LWM),
	FW(wqe_cnt, MLX5X_SRQC_WQE_CNT),
	FB(dbr_addr, MLX5X_SRQC_DBR_ADDR, 8),
	{ NULL }
};

static const struct ft_field ft_xrc_srqc[] = {
	FW(uidx_eq_srqn, MLX5X_XRC_SRQC_UIDX_EQ_SRQN),
	FW(user_index, MLX5X_XRC_SRQC_USER_INDEX),
	{ NULL }
};

static const struct ft_field ft_mkc[] = {
	FW(free, MLX5X_MKC_FREE),
	FW(access_mode_4_2, MLX5X_MKC_ACCESS_MODE_4_2),
	FW(umr_en, MLX5X_MKC_UMR_EN),
	FW(a, MLX5X_MKC_A),
	FW(rw, MLX5X_MKC_RW),
	FW(rr, MLX5X_MKC_RR),
	FW(lw, MLX5X_MKC_LW),
	FW(lr, MLX5X_MKC_LR),
	FW(access_mode_1_0, MLX5X_MKC_ACCESS_MODE_1_0),
	FW(qpn, MLX5X_MKC_QPN),
	FW(mkey_7_0, MLX5X_MKC_MKEY_7_0),
	FW(length64, MLX5X_MKC_LENGTH64),
	FW(en_rinval, MLX5X_MKC_EN_RINVAL),
	FW(pd, MLX5X_MKC_PD),
	FB(start_addr, MLX5X_MKC_START_ADDR, 8),
	FB(len, MLX5X_MKC_LEN, 8),
	FW(translations_octword_size, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE),
	FW(log_page_size, MLX5X_MKC_LOG_PAGE_SIZE),
	{ NULL }
};

static const struct ft_field ft_eqc[] = {
	FW(status, MLX5X_EQC_STATUS),
	FW(ec, MLX5X_EQC_EC),
	FW(oi, MLX5X_EQC_OI),
	FW(st, MLX5X_EQC_ST),
	FW(page_offset, MLX5X_EQC_PAGE_OFFSET),
	FW(log_eq_size, MLX5X_EQC_LOG_EQ_SIZE),
	FW(uar_page, MLX5X_EQC_UAR_PAGE),
	FW(intr, MLX5X_EQC_INTR),
	FW(log_page_size, MLX5X_EQC_LOG_PAGE_SIZE),
	FW(consumer_counter, MLX5X_EQC_CONSUMER_COUNTER),
	FW(producer_counter, MLX5X_EQC_PRODUCER_COUNTER),
	{ NULL }
};

static const struct ft_field ft_wq[] = {
	FW(type, MLX5X_WQ_TYPE),
	FW(signature, MLX5X_WQ_SIGNATURE),
	FW(page_offset, MLX5X_WQ_PAGE_OFFSET),
	FW(lwm, MLX5X_WQ_LWM),
	FW(pd, MLX5X_WQ_PD),
	FB(dbr_addr, MLX5X_WQ_DBR_ADDR, 8),
	FW(log_stride, MLX5X_WQ_LOG_STRIDE),
	FW(log_pg_sz, MLX5X_WQ_LOG_PG_SZ),
	FW(log_sz, MLX5X_WQ_LOG_SZ),
	FW(umem_valid, MLX5X_WQ_UMEM_VALID),
	{ NULL }
};

static const struct ft_field ft_rmpc[] = {
	FW(state, MLX5X_RMPC_STATE),
	{ NULL }
};

static const struct ft_field ft_cap[] = {
	FW(page_request_disable, MLX5X_CAP_PAGE_REQUEST_DISABLE),
	FW(hca_cap_2, MLX5X_CAP_HCA_CAP_2),
	FW(log_max_srq_sz, MLX5X_CAP_LOG_MAX_SRQ_SZ),
	FW(log_max_qp_sz, MLX5X_CAP_LOG_MAX_QP_SZ),
	FW(event_cap, MLX5X_CAP_EVENT_CAP),
	FW(log_max_qp, MLX5X_CAP_LOG_MAX_QP),
	FW(log_max_srq, MLX5X_CAP_LOG_MAX_SRQ),
	FW(log_max_cq_sz, MLX5X_CAP_LOG_MAX_CQ_SZ),
	FW(log_max_cq, MLX5X_CAP_LOG_MAX_CQ),
	FW(log_max_eq_sz, MLX5X_CAP_LOG_MAX_EQ_SZ),
	FW(log_max_mkey, MLX5X_CAP_LOG_MAX_MKEY),
	FW(log_max_klm_list_size, MLX5X_CAP_LOG_MAX_KLM_LIST_SIZE),
	FW(terminate_scatter_list_mkey, MLX5X_CAP_TERMINATE_SCATTER_LIST_MKEY),
	FW(dump_fill_mkey, MLX5X_CAP_DUMP_FILL_MKEY),
	FW(fast_teardown, MLX5X_CAP_FAST_TEARDOWN),
	FW(log_max_eq, MLX5X_CAP_LOG_MAX_EQ),
	FW(force_teardown, MLX5X_CAP_FORCE_TEARDOWN),
	FW(null_mkey, MLX5X_CAP_NULL_MKEY),
	FW(log_max_ra_req_qp, MLX5X_CAP_LOG_MAX_RA_REQ_QP),
	FW(log_max_ra_res_qp, MLX5X_CAP_LOG_MAX_RA_RES_QP),
	FW(release_all_pages, MLX5X_CAP_RELEASE_ALL_PAGES),
	FW(cache_line_128byte, MLX5X_CAP_CACHE_LINE_128BYTE),
	FW(qcam_reg, MLX5X_CAP_QCAM_REG),
	FW(gid_table_size, MLX5X_CAP_GID_TABLE_SIZE),
	FW(max_qp_cnt, MLX5X_CAP_MAX_QP_CNT),
	FW(vport_counters, MLX5X_CAP_VPORT_COUNTERS),
	FW(debug, MLX5X_CAP_DEBUG),
	FW(pkey_table_size, MLX5X_CAP_PKEY_TABLE_SIZE),
	FW(vport_group_manager, MLX5X_CAP_VPORT_GROUP_MANAGER),
	FW(ib_virt, MLX5X_CAP_IB_VIRT),
	FW(nic_flow_table, MLX5X_CAP_NIC_FLOW_TABLE),
	FW(eswitch_manager, MLX5X_CAP_ESWITCH_MANAGER),
	FW(device_memory, MLX5X_CAP_DEVICE_MEMORY),
	FW(mcam_reg, MLX5X_CAP_MCAM_REG),
	FW(pcam_reg, MLX5X_CAP_PCAM_REG),
	FW(local_ca_ack_delay, MLX5X_CAP_LOCAL_CA_ACK_DELAY),
	FW(port_module_event, MLX5X_CAP_PORT_MODULE_EVENT),
	FW(port_type, MLX5X_CAP_PORT_TYPE),
	FW(num_ports, MLX5X_CAP_NUM_PORTS),
	FW(log_max_msg, MLX5X_CAP_LOG_MAX_MSG),
	FW(temp_warn_event, MLX5X_CAP_TEMP_WARN_EVENT),
	FW(general_notification_event, MLX5X_CAP_GENERAL_NOTIFICATION_EVENT),
	FW(fpga, MLX5X_CAP_FPGA),
	FW(stat_rate_support, MLX5X_CAP_STAT_RATE_SUPPORT),
	FW(cqe_version, MLX5X_CAP_CQE_VERSION),
	FW(striding_rq, MLX5X_CAP_STRIDING_RQ),
	FW(ipoib_enhanced_offloads, MLX5X_CAP_IPOIB_ENHANCED_OFFLOADS),
	FW(ipoib_basic_offloads, MLX5X_CAP_IPOIB_BASIC_OFFLOADS),
	FW(umr_modify_entity_size_disabled, MLX5X_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED),
	FW(umr_modify_atomic_disabled, MLX5X_CAP_UMR_MODIFY_ATOMIC_DISABLED),
	FW(cmdif_checksum, MLX5X_CAP_CMDIF_CHECKSUM),
	FW(dct, MLX5X_CAP_DCT),
	FW(qos, MLX5X_CAP_QOS),
	FW(eth_net_offloads, MLX5X_CAP_ETH_NET_OFFLOADS),
	FW(roce, MLX5X_CAP_ROCE),
	FW(atomic, MLX5X_CAP_ATOMIC),
	FW(cq_oi, MLX5X_CAP_CQ_OI),
	FW(cq_resize, MLX5X_CAP_CQ_RESIZE),
	FW(cq_moderation, MLX5X_CAP_CQ_MODERATION),
	FW(pg, MLX5X_CAP_PG),
	FW(block_lb_mc, MLX5X_CAP_BLOCK_LB_MC),
	FW(cd, MLX5X_CAP_CD),
	FW(apm, MLX5X_CAP_APM),
	FW(imaicl, MLX5X_CAP_IMAICL),
	FW(qkv, MLX5X_CAP_QKV),
	FW(pkv, MLX5X_CAP_PKV),
	FW(set_deth_sqpn, MLX5X_CAP_SET_DETH_SQPN),
	FW(xrc, MLX5X_CAP_XRC),
	FW(ud, MLX5X_CAP_UD),
	FW(uc, MLX5X_CAP_UC),
	FW(rc, MLX5X_CAP_RC),
	FW(uar_4k, MLX5X_CAP_UAR_4K),
	FW(port_selection_cap, MLX5X_CAP_PORT_SELECTION_CAP),
	FW(umem_uid_0, MLX5X_CAP_UMEM_UID_0),
	FW(log_pg_sz, MLX5X_CAP_LOG_PG_SZ),
	FW(bf, MLX5X_CAP_BF),
	FW(driver_version, MLX5X_CAP_DRIVER_VERSION),
	FW(mkey_by_name, MLX5X_CAP_MKEY_BY_NAME),
	FW(log_bf_reg_size, MLX5X_CAP_LOG_BF_REG_SIZE),
	FW(lag_master, MLX5X_CAP_LAG_MASTER),
	FW(num_lag_ports, MLX5X_CAP_NUM_LAG_PORTS),
	FW(max_wqe_sz_sq, MLX5X_CAP_MAX_WQE_SZ_SQ),
	FW(max_wqe_sz_rq, MLX5X_CAP_MAX_WQE_SZ_RQ),
	FW(max_qp_mcg, MLX5X_CAP_MAX_QP_MCG),
	FW(log_max_mcg, MLX5X_CAP_LOG_MAX_MCG),
	FW(log_max_transport_domain, MLX5X_CAP_LOG_MAX_TRANSPORT_DOMAIN),
	FW(log_max_pd, MLX5X_CAP_LOG_MAX_PD),
	FW(log_max_xrcd, MLX5X_CAP_LOG_MAX_XRCD),
	FW(log_max_rq, MLX5X_CAP_LOG_MAX_RQ),
	FW(log_max_sq, MLX5X_CAP_LOG_MAX_SQ),
	FW(roce_rw_supported, MLX5X_CAP_ROCE_RW_SUPPORTED),
	FW(vhca_state, MLX5X_CAP_VHCA_STATE),
	FW(log_max_current_uc_list, MLX5X_CAP_LOG_MAX_CURRENT_UC_LIST),
	FB(general_obj_types, MLX5X_CAP_GENERAL_OBJ_TYPES, 8),
	FW(sq_ts_format, MLX5X_CAP_SQ_TS_FORMAT),
	FW(rq_ts_format, MLX5X_CAP_RQ_TS_FORMAT),
	FW(log_max_uctx, MLX5X_CAP_LOG_MAX_UCTX),
	FW(crypto, MLX5X_CAP_CRYPTO),
	FW(ipsec_offload, MLX5X_CAP_IPSEC_OFFLOAD),
	FW(max_num_eqs, MLX5X_CAP_MAX_NUM_EQS),
	FW(tls_tx, MLX5X_CAP_TLS_TX),
	FW(tls_rx, MLX5X_CAP_TLS_RX),
	FW(log_uar_page_sz, MLX5X_CAP_LOG_UAR_PAGE_SZ),
	FW(device_frequency_mhz, MLX5X_CAP_DEVICE_FREQUENCY_MHZ),
	FW(device_frequency_khz, MLX5X_CAP_DEVICE_FREQUENCY_KHZ),
	FW(num_of_uars_per_page, MLX5X_CAP_NUM_OF_UARS_PER_PAGE),
	FW(adv_virtualization, MLX5X_CAP_ADV_VIRTUALIZATION),
	FW(cqe_128_always, MLX5X_CAP_CQE_128_ALWAYS),
	FW(cqe_compression, MLX5X_CAP_CQE_COMPRESSION),
	FW(tag_matching, MLX5X_CAP_TAG_MATCHING),
	FW(num_vhca_ports, MLX5X_CAP_NUM_VHCA_PORTS),
	FW(sw_owner_id, MLX5X_CAP_SW_OWNER_ID),
	FW(sf, MLX5X_CAP_SF),
	FW(log_max_sf, MLX5X_CAP_LOG_MAX_SF),
	FW(num_total_dynamic_vf_msix, MLX5X_CAP_NUM_TOTAL_DYNAMIC_VF_MSIX),
	FW(data_direct, MLX5X_CAP_DATA_DIRECT),
	{ NULL }
};

static const struct ft_field ft_atomic[] = {
	FW(req_8b_endianness, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS),
	FW(supp_8b_endianness_1, MLX5X_ATOMIC_CAP_SUPP_8B_ENDIANNESS_1),
	FW(operations, MLX5X_ATOMIC_CAP_OPERATIONS),
	FW(size_qp, MLX5X_ATOMIC_CAP_SIZE_QP),
	FW(size_dc, MLX5X_ATOMIC_CAP_SIZE_DC),
	{ NULL }
};

static const struct ft_field ft_hvc[] = {
	FW(field_select, MLX5X_HVC_FIELD_SELECT),
	FW(sm_virt_aware, MLX5X_HVC_SM_VIRT_AWARE),
	FW(has_smi, MLX5X_HVC_HAS_SMI),
	FW(has_raw, MLX5X_HVC_HAS_RAW),
	FW(grh_required, MLX5X_HVC_GRH_REQUIRED),
	FW(num_port_plane, MLX5X_HVC_NUM_PORT_PLANE),
	FW(port_physical_state, MLX5X_HVC_PORT_PHYSICAL_STATE),
	FW(vport_state_policy, MLX5X_HVC_VPORT_STATE_POLICY),
	FW(port_state, MLX5X_HVC_PORT_STATE),
	FW(vport_state, MLX5X_HVC_VPORT_STATE),
	FB(system_image_guid, MLX5X_HVC_SYSTEM_IMAGE_GUID, 8),
	FB(port_guid, MLX5X_HVC_PORT_GUID, 8),
	FB(node_guid, MLX5X_HVC_NODE_GUID, 8),
	FW(cap_mask1, MLX5X_HVC_CAP_MASK1),
	FW(cap_mask1_field_select, MLX5X_HVC_CAP_MASK1_FIELD_SELECT),
	FW(cap_mask2, MLX5X_HVC_CAP_MASK2),
	FW(cap_mask2_field_select, MLX5X_HVC_CAP_MASK2_FIELD_SELECT),
	FW(lid, MLX5X_HVC_LID),
	FW(init_type_reply, MLX5X_HVC_INIT_TYPE_REPLY),
	FW(lmc, MLX5X_HVC_LMC),
	FW(subnet_timeout, MLX5X_HVC_SUBNET_TIMEOUT),
	FW(sm_lid, MLX5X_HVC_SM_LID),
	FW(sm_sl, MLX5X_HVC_SM_SL),
	FW(qkey_violation_counter, MLX5X_HVC_QKEY_VIOLATION_COUNTER),
	FW(pkey_violation_counter, MLX5X_HVC_PKEY_VIOLATION_COUNTER),
	{ NULL }
};

/* Command inputs: the fields before or beside the contexts. */
static const struct ft_field ft_enable_hca[] = {
	FW(embedded_cpu_function, MLX5X_ENABLE_HCA_IN_EMBEDDED_CPU_FUNCTION),
	FW(function_id, MLX5X_ENABLE_HCA_IN_FUNCTION_ID),
	{ NULL }
};

static const struct ft_field ft_set_issi[] = {
	FW(current_issi, MLX5X_SET_ISSI_IN_CURRENT_ISSI),
	{ NULL }
};

static const struct ft_field ft_pages[] = {
	FW(embedded_cpu_function, MLX5X_PAGES_IN_EMBEDDED_CPU_FUNCTION),
	FW(function_id, MLX5X_PAGES_IN_FUNCTION_ID),
	FW(input_num_entries, MLX5X_PAGES_IN_INPUT_NUM_ENTRIES),
	{ NULL }
};

static const struct ft_field ft_init_hca[] = {
	FW(sw_vhca_id, MLX5X_INIT_HCA_IN_SW_VHCA_ID),
	FB(sw_owner_id, MLX5X_INIT_HCA_IN_SW_OWNER_ID, 16),
	{ NULL }
};

static const struct ft_field ft_teardown_hca[] = {
	FW(profile, MLX5X_TEARDOWN_HCA_IN_PROFILE),
	{ NULL }
};

static const struct ft_field ft_driver_version[] = {
	FB(version, MLX5X_SET_DRIVER_VERSION_IN_VERSION, 64),
	{ NULL }
};

static const struct ft_field ft_query_hca_cap[] = {
	FW(other_function, MLX5X_QUERY_HCA_CAP_IN_OTHER_FUNCTION),
	FW(function_id, MLX5X_QUERY_HCA_CAP_IN_FUNCTION_ID),
	{ NULL }
};

/* event_bitmask[4]: the first word under its own name, as traced */
#define EQ_MASK(i)	MLX5X_CREATE_EQ_IN_EVENT_BITMASK_OFF + 8 * (i)
static const struct ft_field ft_create_eq[] = {
	FB(event_bitmask, MLX5X_CREATE_EQ_IN_EVENT_BITMASK, 8),
	{ "event_bitmask_1", EQ_MASK(1), 0, 8 },
	{ "event_bitmask_2", EQ_MASK(2), 0, 8 },
	{ "event_bitmask_3", EQ_MASK(3), 0, 8 },
	{ NULL }
};

static const struct ft_field ft_eq_number[] = {
	FW(eq_number, MLX5X_DESTROY_EQ_IN_EQ_NUMBER),
	{ NULL }
};

static const struct ft_field ft_uar[] = {
	FW(uar, MLX5X_DEALLOC_UAR_IN_UAR),
	{ NULL }
};

static const struct ft_field ft_pd[] = {
	FW(pd, MLX5X_DEALLOC_PD_IN_PD),
	{ NULL }
};

static const struct ft_field ft_xrcd[] = {
	FW(xrcd, MLX5X_DEALLOC_XRCD_IN_XRCD),
	{ NULL }
};

static const struct ft_field ft_create_mkey[] = {
	FW(pg_access, MLX5X_CREATE_MKEY_IN_PG_ACCESS),
	FW(mkey_umem_valid, MLX5X_CREATE_MKEY_IN_MKEY_UMEM_VALID),
	FB(translations_actual, MLX5X_CREATE_MKEY_IN_TRANSLATIONS_ACTUAL, 4),
	{ NULL }
};

static const struct ft_field ft_mkey_index[] = {
	FW(mkey_index, MLX5X_DESTROY_MKEY_IN_MKEY_INDEX),
	{ NULL }
};

static const struct ft_field ft_create_cq[] = {
	FW(cq_umem_valid, MLX5X_CREATE_CQ_IN_CQ_UMEM_VALID),
	{ NULL }
};

static const struct ft_field ft_cqn[] = {
	FW(cqn, MLX5X_CQ_IN_CQN),
	{ NULL }
};

static const struct ft_field ft_modify_cq[] = {
	FW(cqn, MLX5X_CQ_IN_CQN),
	FB(field_select, MLX5X_MODIFY_CQ_IN_FIELD_SELECT, 4),
	{ NULL }
};

static const struct ft_field ft_srqn[] = {
	FW(srqn, MLX5X_SRQ_IN_SRQN),
	{ NULL }
};

static const struct ft_field ft_arm_rq[] = {
	FW(srqn, MLX5X_SRQ_IN_SRQN),
	FW(lwm, MLX5X_ARM_RQ_IN_LWM),
	{ NULL }
};

static const struct ft_field ft_create_xrc_srq[] = {
	FW(umem_valid, MLX5X_CREATE_XRC_SRQ_IN_UMEM_VALID),
	{ NULL }
};

static const struct ft_field ft_rmpn[] = {
	FW(rmpn, MLX5X_RMP_IN_RMPN),
	{ NULL }
};

static const struct ft_field ft_modify_rmp[] = {
	FW(rmpn, MLX5X_RMP_IN_RMPN),
	FW(state, MLX5X_MODIFY_RMP_IN_STATE),
	FB(bitmask, MLX5X_MODIFY_RMP_IN_BITMASK, 8),
	{ NULL }
};

static const struct ft_field ft_create_qp[] = {
	FW(input_qpn, MLX5X_CREATE_QP_IN_INPUT_QPN),
	FB(opt_param_mask, MLX5X_QP_IN_OPT_PARAM_MASK, 4),
	FW(wq_umem_valid, MLX5X_CREATE_QP_IN_WQ_UMEM_VALID),
	{ NULL }
};

static const struct ft_field ft_modify_qp[] = {
	FW(qpn, MLX5X_QP_IN_QPN),
	FB(opt_param_mask, MLX5X_QP_IN_OPT_PARAM_MASK, 4),
	{ NULL }
};

static const struct ft_field ft_qpn[] = {
	FW(qpn, MLX5X_QP_IN_QPN),
	{ NULL }
};

static const struct ft_field ft_access_reg[] = {
	FW(register_id, MLX5X_ACCESS_REG_IN_REGISTER_ID),
	FB(argument, MLX5X_ACCESS_REG_IN_ARGUMENT, 4),
	{ NULL }
};

static const struct ft_field ft_vport[] = {
	FW(other_vport, MLX5X_HCA_VPORT_IN_OTHER_VPORT),
	FW(port_num, MLX5X_HCA_VPORT_IN_PORT_NUM),
	FW(vport_number, MLX5X_HCA_VPORT_IN_VPORT_NUMBER),
	{ NULL }
};

static const struct ft_field ft_vport_index[] = {
	FW(other_vport, MLX5X_HCA_VPORT_IN_OTHER_VPORT),
	FW(port_num, MLX5X_HCA_VPORT_IN_PORT_NUM),
	FW(vport_number, MLX5X_HCA_VPORT_IN_VPORT_NUMBER),
	FW(index, MLX5X_HCA_VPORT_IN_INDEX),
	{ NULL }
};

static const struct ft_field ft_vport_counter[] = {
	FW(clear, MLX5X_QUERY_VPORT_COUNTER_IN_CLEAR),
	{ NULL }
};

static const struct ft_field ft_mad_ifc[] = {
	FW(remote_lid, MLX5X_MAD_IFC_IN_REMOTE_LID),
	FW(plane_index, MLX5X_MAD_IFC_IN_PLANE_INDEX),
	FW(port, MLX5X_MAD_IFC_IN_PORT),
	{ NULL }
};

static const struct ft_field ft_mcg[] = {
	FW(qpn, MLX5X_MCG_IN_QPN),
	FB(multicast_gid, MLX5X_MCG_IN_MGID, 16),
	{ NULL }
};

/* Where a table sits in the input, and the prefix of its names. */
struct ft_part {
	const char *prefix;
	uint32_t base;
	const struct ft_field *f;
};

#define QPC	MLX5X_QP_IN_QPC_OFF
#define QP_PARTS(first)							\
	{ "", 0, first }, { "qpc.", QPC, ft_qpc },			\
	{ "qpc.pri_path.", QPC + MLX5X_QPC_PRI_PATH_OFF, ft_ads },	\
	{ "qpc.alt_path.", QPC + MLX5X_QPC_ALT_PATH_OFF, ft_ads }
#define RMPC	MLX5X_RMP_CMD_RMPC_OFF
#define RMP_PARTS(first)						\
	{ "", 0, first }, { "rmpc.", RMPC, ft_rmpc },			\
	{ "rmpc.wq.", RMPC + MLX5X_RMPC_WQ_OFF, ft_wq }

/*
 * What an input carries after its fields: a PAS or MTT list, a MAD,
 * register contents.  Data, not fields: for the reserved-bits rule every
 * bit of it is known, up to the length the command gives it.
 */
enum ft_tail {
	TAIL_INLEN,		/* up to the end of the input */
	TAIL_MAD,		/* one MAD */
	TAIL_PAGES,		/* input_num_entries PAS entries */
};

struct ft_op {
	uint16_t op;
	struct ft_part part[4];
};

static const struct ft_op ft_ops[] = {
	{ MLX5X_CMD_OP_ENABLE_HCA, { { "", 0, ft_enable_hca } } },
	{ MLX5X_CMD_OP_DISABLE_HCA, { { "", 0, ft_enable_hca } } },
	{ MLX5X_CMD_OP_SET_ISSI, { { "", 0, ft_set_issi } } },
	{ MLX5X_CMD_OP_QUERY_PAGES, { { "", 0, ft_pages } } },
	{ MLX5X_CMD_OP_MANAGE_PAGES, { { "", 0, ft_pages } } },
	{ MLX5X_CMD_OP_INIT_HCA, { { "", 0, ft_init_hca } } },
	{ MLX5X_CMD_OP_TEARDOWN_HCA, { { "", 0, ft_teardown_hca } } },
	{ MLX5X_CMD_OP_SET_DRIVER_VERSION, { { "", 0, ft_driver_version } } },
	{ MLX5X_CMD_OP_QUERY_HCA_CAP, { { "", 0, ft_query_hca_cap } } },
	{ MLX5X_CMD_OP_SET_HCA_CAP, { { "", 0, ft_query_hca_cap } } },
	{ MLX5X_CMD_OP_CREATE_EQ, { { "", 0, ft_create_eq },
		{ "eqc.", MLX5X_CREATE_EQ_IN_EQC_OFF, ft_eqc } } },
	{ MLX5X_CMD_OP_DESTROY_EQ, { { "", 0, ft_eq_number } } },
	{ MLX5X_CMD_OP_QUERY_EQ, { { "", 0, ft_eq_number } } },
	{ MLX5X_CMD_OP_DEALLOC_UAR, { { "", 0, ft_uar } } },
	{ MLX5X_CMD_OP_DEALLOC_PD, { { "", 0, ft_pd } } },
	{ MLX5X_CMD_OP_DEALLOC_XRCD, { { "", 0, ft_xrcd } } },
	{ MLX5X_CMD_OP_CREATE_MKEY, { { "", 0, ft_create_mkey },
		{ "mkc.", MLX5X_CREATE_MKEY_IN_MKC_OFF, ft_mkc } } },
	{ MLX5X_CMD_OP_DESTROY_MKEY, { { "", 0, ft_mkey_index } } },
	{ MLX5X_CMD_OP_QUERY_MKEY, { { "", 0, ft_mkey_index } } },
	{ MLX5X_CMD_OP_CREATE_CQ, { { "", 0, ft_create_cq },
		{ "cqc.", MLX5X_CREATE_CQ_IN_CQC_OFF, ft_cqc } } },
	{ MLX5X_CMD_OP_DESTROY_CQ, { { "", 0, ft_cqn } } },
	{ MLX5X_CMD_OP_QUERY_CQ, { { "", 0, ft_cqn } } },
	{ MLX5X_CMD_OP_MODIFY_CQ, { { "", 0, ft_modify_cq },
		{ "cqc.", MLX5X_MODIFY_CQ_IN_CQC_OFF, ft_cqc } } },
	{ MLX5X_CMD_OP_CREATE_SRQ, { { "srqc.", MLX5X_CREATE_SRQ_IN_SRQC_OFF,
		ft_srqc } } },
	{ MLX5X_CMD_OP_DESTROY_SRQ, { { "", 0, ft_srqn } } },
	{ MLX5X_CMD_OP_QUERY_SRQ, { { "", 0, ft_srqn } } },
	{ MLX5X_CMD_OP_ARM_RQ, { { "", 0, ft_arm_rq } } },
	{ MLX5X_CMD_OP_CREATE_XRC_SRQ, { { "", 0, ft_create_xrc_srq },
		{ "xrc_srqc.", MLX5X_CREATE_SRQ_IN_SRQC_OFF, ft_srqc },
		{ "xrc_srqc.", MLX5X_CREATE_SRQ_IN_SRQC_OFF, ft_xrc_srqc } } },
	{ MLX5X_CMD_OP_DESTROY_XRC_SRQ, { { "", 0, ft_srqn } } },
	{ MLX5X_CMD_OP_QUERY_XRC_SRQ, { { "", 0, ft_srqn } } },
	{ MLX5X_CMD_OP_ARM_XRC_SRQ, { { "", 0, ft_arm_rq } } },
	{ MLX5X_CMD_OP_CREATE_RMP, { RMP_PARTS(NULL) } },
	{ MLX5X_CMD_OP_MODIFY_RMP, { RMP_PARTS(ft_modify_rmp) } },
	{ MLX5X_CMD_OP_DESTROY_RMP, { { "", 0, ft_rmpn } } },
	{ MLX5X_CMD_OP_QUERY_RMP, { { "", 0, ft_rmpn } } },
	{ MLX5X_CMD_OP_CREATE_QP, { QP_PARTS(ft_create_qp) } },
	{ MLX5X_CMD_OP_RST2INIT_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_INIT2INIT_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_INIT2RTR_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_RTR2RTS_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_RTS2RTS_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_SQERR2RTS_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_SQD_RTS_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_2ERR_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_2RST_QP, { QP_PARTS(ft_modify_qp) } },
	{ MLX5X_CMD_OP_DESTROY_QP, { { "", 0, ft_qpn } } },
	{ MLX5X_CMD_OP_QUERY_QP, { { "", 0, ft_qpn } } },
	{ MLX5X_CMD_OP_ACCESS_REG, { { "", 0, ft_access_reg } } },
	{ MLX5X_CMD_OP_QUERY_HCA_VPORT_CONTEXT, { { "", 0, ft_vport } } },
	{ MLX5X_CMD_OP_MODIFY_HCA_VPORT_CONTEXT, { { "", 0, ft_vport },
		{ "hvc.", MLX5X_HCA_VPORT_CONTEXT_OFF, ft_hvc } } },
	{ MLX5X_CMD_OP_QUERY_HCA_VPORT_GID, { { "", 0, ft_vport_index } } },
	{ MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY, { { "", 0, ft_vport_index } } },
	{ MLX5X_CMD_OP_QUERY_VPORT_COUNTER, { { "", 0, ft_vport_counter } } },
	{ MLX5X_CMD_OP_MAD_IFC, { { "", 0, ft_mad_ifc } } },
	{ MLX5X_CMD_OP_ATTACH_TO_MCG, { { "", 0, ft_mcg } } },
	{ MLX5X_CMD_OP_DETACH_FROM_MCG, { { "", 0, ft_mcg } } },
};

static const struct {
	uint16_t op, off;
	enum ft_tail tail;
} ft_tails[] = {
	{ MLX5X_CMD_OP_MANAGE_PAGES, MLX5X_PAGES_IN_PAS_OFF, TAIL_PAGES },
	{ MLX5X_CMD_OP_CREATE_EQ, MLX5X_CREATE_EQ_IN_PAS_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_CREATE_MKEY, MLX5X_CREATE_MKEY_IN_MTT_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_CREATE_CQ, MLX5X_CREATE_CQ_IN_PAS_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_MODIFY_CQ, MLX5X_MODIFY_CQ_IN_PAS_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_CREATE_SRQ, MLX5X_CREATE_SRQ_IN_PAS_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_CREATE_XRC_SRQ, MLX5X_CREATE_SRQ_IN_PAS_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_CREATE_RMP, MLX5X_CREATE_RMP_IN_PAS_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_CREATE_QP, MLX5X_CREATE_QP_IN_PAS_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_ACCESS_REG, MLX5X_ACCESS_REG_DATA_OFF, TAIL_INLEN },
	{ MLX5X_CMD_OP_MAD_IFC, MLX5X_MAD_IFC_IN_MAD_OFF, TAIL_MAD },
};

static const struct ft_op *ft_find(uint16_t op)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ft_ops); i++)
		if (ft_ops[i].op == op)
			return &ft_ops[i];
	return NULL;
}

/* SET_HCA_CAP: the capability area is read by the type in op_mod. */
static const struct ft_part *ft_cap_part(uint16_t op_mod,
					 struct ft_part *p)
{
	uint16_t type = (op_mod & MLX5X_HCA_CAP_OPMOD_TYPE_MASK) >> 1;

	p->base = MLX5X_SET_HCA_CAP_IN_CAP_OFF;
	if (type == MLX5X_CAP_TYPE_GENERAL) {
		p->prefix = "cap.";
		p->f = ft_cap;
	} else if (type == MLX5X_CAP_TYPE_ATOMIC) {
		p->prefix = "atomic.";
		p->f = ft_atomic;
	} else {
		return NULL;
	}
	return p;
}

/* the command header every input starts with */
static const struct ft_field ft_hdr[] = {
	FW(opcode, MLX5X_CMD_IN_OPCODE),
	FW(uid, MLX5X_CMD_IN_UID),
	FW(op_mod, MLX5X_CMD_IN_OP_MOD),
	{ NULL }
};

/* the parts of an input's layout, op_mod considered; NULL f: unused */
static unsigned int ft_parts(const struct cmd_ctx *c, struct ft_part *p)
{
	const struct ft_op *op = ft_find(c->op);
	unsigned int n = 0, i;

	p[n++] = (struct ft_part){ "", 0, ft_hdr };
	for (i = 0; op && i < ARRAY_SIZE(op->part); i++)
		if (op->part[i].f)
			p[n++] = op->part[i];
	if (c->op == MLX5X_CMD_OP_SET_HCA_CAP && ft_cap_part(c->op_mod, &p[n]))
		n++;
	return n;
}

/* the bytes of the data tail, clipped to the input */
static void ft_tail(const struct cmd_ctx *c, uint32_t *off, uint32_t *len)
{
	uint64_t n = 0;
	size_t i;

	*off = 0;
	*len = 0;
	for (i = 0; i < ARRAY_SIZE(ft_tails) && ft_tails[i].op != c->op; i++)
		;
	if (i == ARRAY_SIZE(ft_tails) || ft_tails[i].off >= c->inlen)
		return;
	*off = ft_tails[i].off;
	switch (ft_tails[i].tail) {
	case TAIL_INLEN:
		n = c->inlen;
		break;
	case TAIL_MAD:
		n = MLX5X_MAD_LEN;
		break;
	case TAIL_PAGES:
		n = (uint64_t)PGET(c->in, MLX5X_PAGES_IN_INPUT_NUM_ENTRIES) *
		    MLX5X_PAS_LEN;
		break;
	}
	*len = (uint32_t)(n < c->inlen - *off ? n : c->inlen - *off);
}

/*
 * known[i] gets the bits of input byte i that some field or the data
 * tail covers (the reserved-bits rule, reserved.c).  The one field table
 * above: a field missing there is a stray bit here.
 */
void ftrace_known(const struct cmd_ctx *c, uint8_t *known)
{
	struct ft_part part[ARRAY_SIZE(ft_ops[0].part) + 2];
	const struct ft_field *f;
	unsigned int n, i, b;
	uint32_t off, len;

	memset(known, 0, c->inlen);
	n = ft_parts(c, part);
	for (i = 0; i < n; i++) {
		for (f = part[i].f; f->name; f++) {
			off = part[i].base + f->off;
			len = f->mask ? 4 : f->len;
			for (b = 0; b < len && off + b < c->inlen; b++)
				known[off + b] |= f->mask ?
					(uint8_t)(f->mask >> (24 - 8 * b)) :
					0xff;
		}
	}
	ft_tail(c, &off, &len);
	memset(known + off, 0xff, len);
}

/* "qpc.pd": the name of the last field at or before input offset off */
void ftrace_field_near(const struct cmd_ctx *c, uint32_t off, char *buf,
		       size_t size)
{
	struct ft_part part[ARRAY_SIZE(ft_ops[0].part) + 2];
	const struct ft_field *f, *best = NULL;
	const char *prefix = "";
	uint32_t at, best_at = 0;
	unsigned int n, i;

	n = ft_parts(c, part);
	for (i = 0; i < n; i++) {
		for (f = part[i].f; f->name; f++) {
			at = part[i].base + f->off;
			if (at <= off && (!best || at >= best_at)) {
				best = f;
				best_at = at;
				prefix = part[i].prefix;
			}
		}
	}
	snprintf(buf, size, "%s%s", prefix, best ? best->name : "?");
}

struct ft_line {
	FILE *fp;
	const struct emu_opts *o;
	bool stop;		/* the stop field matched */
	uint16_t op;
};

static void ft_value(struct ft_line *l, const char *prefix,
		     const struct ft_field *f, const uint8_t *p)
{
	char name[96];
	uint64_t v;
	int i;

	snprintf(name, sizeof(name), "%s%s", prefix, f->name);
	if (f->mask) {
		v = (get_be32(p) & f->mask) >> __builtin_ctz(f->mask);
	} else if (f->len == 4) {
		v = get_be32(p);
	} else if (f->len == 8) {
		v = get_be64(p);
	} else {
		fprintf(l->fp, " %s=", name);
		for (i = 0; i < f->len; i++)
			fprintf(l->fp, "%02x", p[i]);
		return;
	}
	fprintf(l->fp, " %s=0x%llx", name, (unsigned long long)v);
	if (l->o->ftrace_stop_op == l->op && l->o->ftrace_stop_field &&
	    !strcmp(name, l->o->ftrace_stop_field) &&
	    v == l->o->ftrace_stop_value)
		l->stop = true;
}

static void ft_part(struct ft_line *l, const struct cmd_ctx *c,
		    const struct ft_part *p)
{
	const struct ft_field *f;

	for (f = p->f; f && f->name; f++) {
		if (p->base + f->off + f->len > c->inlen)
			continue;
		ft_value(l, p->prefix, f, c->in + p->base + f->off);
	}
}

/* The service type of the QP a QP command names, if it exists. */
static void ft_qp_st(struct ft_line *l, struct emu *e,
		     const struct cmd_ctx *c)
{
	struct emu_qp *qp;

	if (c->op == MLX5X_CMD_OP_CREATE_QP ||
	    c->op < MLX5X_CMD_OP_CREATE_QP || c->op > MLX5X_CMD_OP_INIT2INIT_QP)
		return;
	qp = objtab_get(&e->obj[OBJ_QP], PGET(c->in, MLX5X_QP_IN_QPN));
	if (qp)
		fprintf(l->fp, " qp.st=0x%x", qp->st);
}

void ftrace_cmd(struct emu *e, const struct cmd_ctx *c)
{
	struct ft_line l = { .fp = e->ftrace, .o = &e->opt, .op = c->op };
	struct ft_part part[ARRAY_SIZE(ft_ops[0].part) + 2];
	unsigned int n, i;

	if (!l.fp)
		return;
	fprintf(l.fp, "op=%s op_mod=0x%x uid=0x%x inlen=0x%x",
		cmd_op_name(c->op), c->op_mod, c->uid, c->inlen);
	ft_qp_st(&l, e, c);
	/* the header is on the line already */
	n = ft_parts(c, part);
	for (i = 1; i < n; i++)
		ft_part(&l, c, &part[i]);
	fputc('\n', l.fp);
	if (l.stop) {
		fprintf(l.fp, "end: %s:%s=0x%llx seen\n", cmd_op_name(c->op),
			e->opt.ftrace_stop_field,
			(unsigned long long)e->opt.ftrace_stop_value);
		ftrace_close(e);
	}
}

int ftrace_open(struct emu *e)
{
	if (!e->opt.ftrace_path)
		return 0;
	e->ftrace = fopen(e->opt.ftrace_path, "w");
	if (!e->ftrace) {
		emu_err("cannot write %s: %m", e->opt.ftrace_path);
		return -1;
	}
	setvbuf(e->ftrace, NULL, _IOLBF, 0);
	return 0;
}

void ftrace_close(struct emu *e)
{
	if (e->ftrace)
		fclose(e->ftrace);
	e->ftrace = NULL;
}
