// SPDX-License-Identifier: GPL-2.0-only
/*
 * What `rdma res show qp|cq|mr -dd` prints for mlx5x objects beyond the
 * core's own fields: the device's numbers and the queue geometry agreed
 * with libmlx5, so a live object can be matched with what the firmware
 * and user space see.  Everything read here is fixed at creation (or,
 * for a CQ's ring, changed only under its resize lock, which the core's
 * restrack walk does not need: the sizes printed are creation's).
 */
#include <net/netlink.h>
#include <rdma/ib_umem.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>

#include "eq.h"
#include "ib.h"

/*
 * The driver's attributes go in a table of their own, which the core
 * leaves to the driver to open; a full message drops the whole table,
 * so the core can retry the object in the next part of the dump.
 */
static int res_driver_table(struct sk_buff *msg,
			    int (*fill)(struct sk_buff *msg, const void *obj),
			    const void *obj)
{
	struct nlattr *table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);

	if (!table)
		return -EMSGSIZE;
	if (fill(msg, obj)) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}

static int res_fill_qp(struct sk_buff *msg, const void *obj)
{
	const struct mlx5x_ib_qp *qp = obj;
	const struct mlx5x_qp_sizes *sz = &qp->sizes;

	if (rdma_nl_put_driver_u32(msg, "sq_wqebbs", sz->sq_wqe_cnt) ||
	    rdma_nl_put_driver_u32(msg, "rq_wqes", sz->rq_wqe_cnt))
		return -EMSGSIZE;
	if (sz->rq_wqe_cnt &&
	    (rdma_nl_put_driver_u32(msg, "rq_wqe_size", 1U << sz->rq_wqe_shift) ||
	     rdma_nl_put_driver_u32(msg, "rq_max_sge", sz->rq_max_gs)))
		return -EMSGSIZE;
	/* an XRC target QP has no queues and no UAR */
	if (qp->uar && rdma_nl_put_driver_u32(msg, "uar", qp->uar->index))
		return -EMSGSIZE;
	return 0;
}

static int res_fill_cq(struct sk_buff *msg, const void *obj)
{
	const struct mlx5x_ib_cq *cq = obj;

	if (rdma_nl_put_driver_u32_hex(msg, "hw_cqn", cq->mcq.cqn) ||
	    rdma_nl_put_driver_u32(msg, "eqn", cq->eq->eqn) ||
	    rdma_nl_put_driver_u32(msg, "cqe_size", cq->cqe_size))
		return -EMSGSIZE;
	/* a kernel CQ is armed through the device's kernel UAR */
	if (cq->uar && rdma_nl_put_driver_u32(msg, "uar", cq->uar->index))
		return -EMSGSIZE;
	return 0;
}

static int res_fill_mr(struct sk_buff *msg, const void *obj)
{
	const struct mlx5x_ib_mr *mr = obj;

	if (rdma_nl_put_driver_u32_hex(msg, "mkey_index", mr->index) ||
	    /* kernel keys pin nothing */
	    rdma_nl_put_driver_u64(msg, "pages",
				   mr->umem ? ib_umem_num_pages(mr->umem) : 0) ||
	    rdma_nl_put_driver_u32(msg, "umr_en", mr->umr_en))
		return -EMSGSIZE;
	return 0;
}

int mlx5x_ib_fill_res_qp(struct sk_buff *msg, struct ib_qp *ibqp)
{
	return res_driver_table(msg, res_fill_qp, to_mqp(ibqp));
}

int mlx5x_ib_fill_res_cq(struct sk_buff *msg, struct ib_cq *ibcq)
{
	return res_driver_table(msg, res_fill_cq, to_mcq(ibcq));
}

int mlx5x_ib_fill_res_mr(struct sk_buff *msg, struct ib_mr *ibmr)
{
	return res_driver_table(msg, res_fill_mr, to_mmr(ibmr));
}
