/*
 * trace.c: what every pangaea-trace subcommand shares (the table and
 * main() are in pangaea-trace.c, above the subcommands).
 */
#include "trace.h"

#include <stdarg.h>
#include <stdio.h>

void trace_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	fputs("pangaea-trace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
