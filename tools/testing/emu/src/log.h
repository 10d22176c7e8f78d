/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logging: one log stream (stderr or --log FILE) shared by all threads.
 * Lines carry a timestamp relative to emulator start.  The log lock is
 * the innermost lock of the program: nothing else is taken under it.
 */
#ifndef EMU_LOG_H
#define EMU_LOG_H

#include <stdbool.h>
#include <stdio.h>

enum log_level { LOG_QUIET = -1, LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };

int log_open(const char *path);
void log_close(void);
void log_set_level(enum log_level level);
bool log_enabled(enum log_level level);
FILE *log_stream(void);
/* prefix this thread's lines with tag (a function's name; NULL: none) */
void log_set_tag(const char *tag);
void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* seconds since start, for trace lines */
double log_uptime(void);

#define emu_err(...) log_msg(LOG_ERR, __VA_ARGS__)
#define emu_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define emu_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define emu_dbg(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif /* EMU_LOG_H */
