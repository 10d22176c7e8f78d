#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# CHECK= wrapper for kbuild's C=2: runs $MLX5X_SPARSE and appends whatever
# it reports to $MLX5X_SPARSE_LOG, so sparse findings are kept apart from
# compiler warnings (sparse never fails the build by itself).
out=$("${MLX5X_SPARSE:-sparse}" "$@" 2>&1)
rc=$?
[ -z "$out" ] || printf '%s\n' "$out" >> "$MLX5X_SPARSE_LOG"
exit $rc
