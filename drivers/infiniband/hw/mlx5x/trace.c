// SPDX-License-Identifier: GPL-2.0-only
/* The one place the tracepoints of mlx5x_trace.h are defined. */
#define CREATE_TRACE_POINTS
#include "mlx5x_trace.h"
