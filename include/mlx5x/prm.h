/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts, all areas.  Written from the facts of the ConnectX
 * programming interface for both the mlx5x driver and the emulated
 * ConnectX; see prm_cmd.h for the naming convention.
 */
#ifndef MLX5X_PRM_H
#define MLX5X_PRM_H

#include "prm_cmd.h"
#include "prm_iseg.h"
#include "prm_hca.h"
#include "prm_eq.h"
#include "prm_obj.h"
#include "prm_qp.h"
#include "prm_port.h"
#include "prm_cqe.h"
#include "prm_wqe.h"

#endif /* MLX5X_PRM_H */
