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

/* Prints S to F as a JSON string. */
void trace_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}
