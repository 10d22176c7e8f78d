// SPDX-License-Identifier: GPL-2.0
/* Logging for the emulated ConnectX. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>

#include "log.h"
#include "util.h"

/* log_lock: serialises whole lines on log_fp; innermost lock. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_fp;
static enum log_level log_level = LOG_INFO;
static uint64_t log_t0;
/* the function this thread works for, when one process serves two */
static __thread const char *log_tag;

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double log_uptime(void)
{
	if (!log_t0)
		log_t0 = now_ns();
	return (double)(now_ns() - log_t0) / 1e9;
}

int log_open(const char *path)
{
	log_uptime();
	if (!path) {
		log_fp = stderr;
		return 0;
	}
	log_fp = fopen(path, "a");
	if (!log_fp) {
		log_fp = stderr;
		return -1;
	}
	setvbuf(log_fp, NULL, _IOLBF, 0);
	return 0;
}

void log_close(void)
{
	pthread_mutex_lock(&log_lock);
	if (log_fp && log_fp != stderr)
		fclose(log_fp);
	log_fp = NULL;
	pthread_mutex_unlock(&log_lock);
}

void log_set_level(enum log_level level)
{
	log_level = level;
}

bool log_enabled(enum log_level level)
{
	return level <= log_level;
}

FILE *log_stream(void)
{
	return log_fp ? log_fp : stderr;
}

void log_set_tag(const char *tag)
{
	log_tag = tag;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const tag[] = { "error", "warn", "info", "debug" };
	va_list ap;
	FILE *fp;

	if (!log_enabled(level))
		return;
	pthread_mutex_lock(&log_lock);
	fp = log_stream();
	fprintf(fp, "[%12.6f] %s%s%s: ", log_uptime(), log_tag ? log_tag : "",
		log_tag ? " " : "", tag[level]);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputc('\n', fp);
	pthread_mutex_unlock(&log_lock);
}
