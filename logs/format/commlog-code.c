/*
 * commlog-code.c: LEB128 varints, as the communication log codes its
 * values (commlog-code.h), for the other formats that use them (the
 * data of a call record, pangaea-trace dump).
 */
#include "commlog-code.h"

size_t pg_varint_put(unsigned char *p, uint64_t v)
{
	return comm_varint_put(p, v);
}

size_t pg_varint_get(const unsigned char *p, size_t n, uint64_t *v)
{
	return comm_varint_get(p, n, v);
}
