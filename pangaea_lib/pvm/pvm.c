/*
 * pvm.c: small helpers around PVM's own calls: the text of an error, the
 * host of a task, the size and the packing of PVM's data types, PVM's
 * receive functions by kind.  No state, nothing of Pangaea's run.
 */
#include "pangaea-internal.h"

#include <dlfcn.h>
#include <stdio.h>

/* libpvm keeps its error texts in pvm_errlist (what pvm_perror prints),
 * which pvm3.h does not declare. */
extern char *pvm_errlist[];
extern int pvm_nerr;

/* PVM's data types: the size of an item, and its pvm_packf format (the
 * typed pack functions do not share one signature; pvm_packf covers them
 * all, with the same encoding). */
static const struct {
	int dt;
	int size;
	const char *fmt;
} types[] = {
	{ PVM_BYTE, 1, "%*c" },
	{ PVM_SHORT, sizeof(short), "%*hd" },
	{ PVM_USHORT, sizeof(short), "%*hud" },
	{ PVM_INT, sizeof(int), "%*d" },
	{ PVM_UINT, sizeof(int), "%*ud" },
	{ PVM_LONG, sizeof(long), "%*ld" },
	{ PVM_ULONG, sizeof(long), "%*lud" },
	{ PVM_FLOAT, sizeof(float), "%*f" },
	{ PVM_CPLX, 2 * sizeof(float), "%*x" },
	{ PVM_DOUBLE, sizeof(double), "%*lf" },
	{ PVM_DCPLX, 2 * sizeof(double), "%*lx" },
};

void pg_pvm_stand_aside(void)
{
	void (*aside)(void);

	/* (preload.c's switch, which a pangaea.h program also throws) */
	*(void **)&aside = dlsym(RTLD_DEFAULT, "pg_preload_source_mode");
	if (aside)
		aside();
}

const char *pg_pvm_errtext(int code)
{
	static char buf[48];

	if (code < 0 && -code < pvm_nerr && pvm_errlist[-code])
		snprintf(buf, sizeof(buf), "PVM error %d, %s", code,
			 pvm_errlist[-code]);
	else
		snprintf(buf, sizeof(buf), "PVM error %d", code);
	return buf;
}

void pg_pvm_host_in(const struct pvmhostinfo *hosts, int nhost, int tid,
		    char *buf, size_t n)
{
	int dtid = pvm_tidtohost(tid);

	snprintf(buf, n, "?");
	for (int i = 0; dtid >= 0 && i < nhost; i++)
		if (hosts[i].hi_tid == dtid)
			snprintf(buf, n, "%s", hosts[i].hi_name);
}

void pg_pvm_host_of(int tid, char *buf, size_t n)
{
	struct pvmhostinfo *hosts;
	int nhost, narch;

	if (pvm_tidtohost(tid) < 0 || pvm_config(&nhost, &narch, &hosts) < 0)
		nhost = 0;
	pg_pvm_host_in(hosts, nhost, tid, buf, n);
}

/* The entry of TYPES for DT, or -1 (PVM_STR and unknown types). */
static int type_index(int dt)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].dt == dt)
			return (int)i;
	return -1;
}

int pg_pvm_item_size(int dt)
{
	int i = type_index(dt);

	if (i >= 0)
		return types[i].size;
	return dt == PVM_STR ? PvmNotImpl : PvmBadParam;
}

int pg_pvm_pack(int pack, void *buf, int count, int dt)
{
	int i = type_index(dt);

	if (i < 0)
		return PvmBadParam;
	return pack ? pvm_packf(types[i].fmt, count, buf)
		    : pvm_unpackf(types[i].fmt, count, buf);
}
