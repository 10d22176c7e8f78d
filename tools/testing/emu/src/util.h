/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by every unit of the emulated ConnectX: big-endian
 * loads and stores, and accessors for the PRM field macros of
 * include/mlx5x (an _OFF byte offset of a big-endian word plus a _MASK).
 */
#ifndef EMU_UTIL_H
#define EMU_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

static inline uint16_t get_be16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t get_be32(const void *p)
{
	const uint8_t *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static inline uint64_t get_be64(const void *p)
{
	const uint8_t *b = p;

	return (uint64_t)get_be32(b) << 32 | get_be32(b + 4);
}

static inline void put_be16(void *p, uint16_t v)
{
	uint8_t *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

static inline void put_be32(void *p, uint32_t v)
{
	uint8_t *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline void put_be64(void *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32((uint8_t *)p + 4, (uint32_t)v);
}

/* Field inside the big-endian word at byte offset off of base. */
static inline uint32_t prm_get(const void *base, size_t off, uint32_t mask)
{
	return (get_be32((const uint8_t *)base + off) & mask) >>
	       __builtin_ctz(mask);
}

static inline void prm_set(void *base, size_t off, uint32_t mask, uint32_t v)
{
	uint8_t *p = (uint8_t *)base + off;
	uint32_t w = get_be32(p);

	w = (w & ~mask) | ((v << __builtin_ctz(mask)) & mask);
	put_be32(p, w);
}

/* PGET(buf, MLX5X_QPC_STATE) reads the field MLX5X_QPC_STATE_OFF/_MASK. */
#define PGET(base, f) prm_get((base), f##_OFF, f##_MASK)
#define PSET(base, f, v) prm_set((base), f##_OFF, f##_MASK, (v))
/* Same for a context that starts at byte ctx_off of the buffer. */
#define CGET(base, ctx_off, f) prm_get((const uint8_t *)(base) + (ctx_off), \
				       f##_OFF, f##_MASK)
#define CSET(base, ctx_off, f, v) prm_set((uint8_t *)(base) + (ctx_off), \
					  f##_OFF, f##_MASK, (v))

static inline bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Monotonic nanoseconds. */
uint64_t now_ns(void);

#endif /* EMU_UTIL_H */
