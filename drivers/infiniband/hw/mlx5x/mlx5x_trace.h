/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints (trace system "mlx5x"): what crosses between the driver and
 * the device, for trace-cmd or perf:
 *
 *   mlx5x_cmd_issue	a firmware command handed to a slot
 *   mlx5x_cmd_done	its result: status, syndrome, errno and latency
 *   mlx5x_eqe		an event queue entry consumed
 *   mlx5x_cq_notify	a CQ's completion handler run (from the EQ
 *			interrupt, or its bottom half in a burst)
 *   mlx5x_page_request	the firmware asks for (npages > 0) or returns
 *			(npages < 0) pages
 *
 * E.g. `trace-cmd record -e mlx5x ibv_rc_pingpong -e ...`.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mlx5x

#if !defined(MLX5X_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define MLX5X_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>

/*
 * The device name ("0000:01:00.0") in a fixed array: __string() and
 * __assign_str() changed their arguments in 6.10.
 */
#define MLX5X_TRACE_DEV_LEN	16

/*
 * A device and three small numbers: a command issued (opcode, op_mod,
 * slot; the class's format) and an EQE consumed (EQ number, type, sub
 * type; its own format) share the record.
 */
DECLARE_EVENT_CLASS(mlx5x_dev_3,
		    TP_PROTO(const struct device *dev, u16 a, u16 b, u16 c),
		    TP_ARGS(dev, a, b, c),
		    TP_STRUCT__entry(__array(char, dev, MLX5X_TRACE_DEV_LEN)
				     __field(u16, a)
				     __field(u16, b)
				     __field(u16, c)),
		    TP_fast_assign(strscpy(__entry->dev, dev_name(dev),
					   sizeof(__entry->dev));
				   __entry->a = a;
				   __entry->b = b;
				   __entry->c = c;),
		    TP_printk("%s opcode=0x%x op_mod=0x%x slot=%u", __entry->dev,
			      __entry->a, __entry->b, __entry->c)
);

DEFINE_EVENT(mlx5x_dev_3, mlx5x_cmd_issue,
	     TP_PROTO(const struct device *dev, u16 opcode, u16 op_mod,
		      u16 slot),
	     TP_ARGS(dev, opcode, op_mod, slot)
);

TRACE_EVENT(mlx5x_cmd_done,
	    TP_PROTO(const struct device *dev, u16 opcode, u16 op_mod,
		     u8 status, u32 syndrome, int err, u64 usecs),
	    TP_ARGS(dev, opcode, op_mod, status, syndrome, err, usecs),
	    TP_STRUCT__entry(__array(char, dev, MLX5X_TRACE_DEV_LEN)
			     __field(u16, opcode)
			     __field(u16, op_mod)
			     __field(u8, status)
			     __field(u32, syndrome)
			     __field(int, err)
			     __field(u64, usecs)),
	    TP_fast_assign(strscpy(__entry->dev, dev_name(dev),
				   sizeof(__entry->dev));
			   __entry->opcode = opcode;
			   __entry->op_mod = op_mod;
			   __entry->status = status;
			   __entry->syndrome = syndrome;
			   __entry->err = err;
			   __entry->usecs = usecs;),
	    TP_printk("%s opcode=0x%x op_mod=0x%x status=0x%x syndrome=0x%08x err=%d usecs=%llu",
		      __entry->dev, __entry->opcode, __entry->op_mod,
		      __entry->status, __entry->syndrome, __entry->err,
		      __entry->usecs)
);

DEFINE_EVENT_PRINT(mlx5x_dev_3, mlx5x_eqe,
		   TP_PROTO(const struct device *dev, u16 eqn, u16 type,
			    u16 sub_type),
		   TP_ARGS(dev, eqn, type, sub_type),
		   TP_printk("%s eqn=%u type=0x%x sub_type=0x%x", __entry->dev,
			     __entry->a, __entry->b, __entry->c)
);

TRACE_EVENT(mlx5x_cq_notify,
	    TP_PROTO(u32 cqn),
	    TP_ARGS(cqn),
	    TP_STRUCT__entry(__field(u32, cqn)),
	    TP_fast_assign(__entry->cqn = cqn;),
	    TP_printk("cqn=0x%x", __entry->cqn)
);

TRACE_EVENT(mlx5x_page_request,
	    TP_PROTO(const struct device *dev, u16 func_id, s32 npages),
	    TP_ARGS(dev, func_id, npages),
	    TP_STRUCT__entry(__array(char, dev, MLX5X_TRACE_DEV_LEN)
			     __field(u16, func_id)
			     __field(s32, npages)),
	    TP_fast_assign(strscpy(__entry->dev, dev_name(dev),
				   sizeof(__entry->dev));
			   __entry->func_id = func_id;
			   __entry->npages = npages;),
	    TP_printk("%s func_id=%u npages=%d", __entry->dev,
		      __entry->func_id, __entry->npages)
);

#endif /* MLX5X_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mlx5x_trace
#include <trace/define_trace.h>
