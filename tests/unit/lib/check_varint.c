/*
 * check_varint.c: unit tests of the LEB128 varints of the communication
 * log (pg_varint_put / pg_varint_get in logs/format/commlog-code.c).
 */
#include "pangaea-logs.h"
#include "checkutil.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VARINT_MAX 10 /* longest encoding of a 64-bit value */

static const uint64_t samples[] = {
	0, 1, 127, 128, 16383, 16384, UINT32_MAX, (uint64_t)1 << 63,
	UINT64_MAX
};
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

/* Number of bytes a LEB128 encoding of V takes (7 bits a byte). */
static size_t expected_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Each sample decodes back to itself, using exactly the bytes written. */
START_TEST(test_round_trip)
{
	uint64_t v = samples[_i], got = 0xdeadbeefdeadbeefULL;
	unsigned char buf[VARINT_MAX + 6];
	size_t n, k;

	memset(buf, 0xaa, sizeof(buf));
	n = pg_varint_put(buf, v);
	ck_assert_uint_ge(n, 1);
	ck_assert_uint_le(n, VARINT_MAX);
	ck_assert_uint_eq(n, expected_len(v));
	/* nothing written past the encoding */
	for (size_t i = n; i < sizeof(buf); i++)
		ck_assert_uint_eq(buf[i], 0xaa);
	/* decoding from a buffer exactly as long as the encoding */
	k = pg_varint_get(buf, n, &got);
	ck_assert_uint_eq(k, n);
	ck_assert_uint_eq(got, v);
	/* decoding from a longer buffer stops at the end of the varint */
	got = 0;
	k = pg_varint_get(buf, sizeof(buf), &got);
	ck_assert_uint_eq(k, n);
	ck_assert_uint_eq(got, v);
}
END_TEST

/* Encoded lengths at the boundaries of the 1- and 2-byte forms. */
START_TEST(test_lengths)
{
	unsigned char buf[VARINT_MAX];

	ck_assert_uint_eq(pg_varint_put(buf, 0), 1);
	ck_assert_uint_eq(pg_varint_put(buf, 1), 1);
	ck_assert_uint_eq(pg_varint_put(buf, 127), 1);
	ck_assert_uint_eq(pg_varint_put(buf, 128), 2);
	ck_assert_uint_eq(pg_varint_put(buf, 16383), 2);
	ck_assert_uint_eq(pg_varint_put(buf, 16384), 3);
	ck_assert_uint_eq(pg_varint_put(buf, UINT32_MAX), 5);
	ck_assert_uint_eq(pg_varint_put(buf, (uint64_t)1 << 63), 10);
	ck_assert_uint_eq(pg_varint_put(buf, UINT64_MAX), 10);
}
END_TEST

/* The exact bytes of a few encodings (little-endian groups, high bit = more). */
START_TEST(test_bytes)
{
	unsigned char buf[VARINT_MAX];
	static const unsigned char b300[] = { 0xac, 0x02 };
	static const unsigned char bmax[] = { 0xff, 0xff, 0xff, 0xff, 0xff,
					      0xff, 0xff, 0xff, 0xff, 0x01 };

	ck_assert_uint_eq(pg_varint_put(buf, 0), 1);
	ck_assert_uint_eq(buf[0], 0x00);
	ck_assert_uint_eq(pg_varint_put(buf, 127), 1);
	ck_assert_uint_eq(buf[0], 0x7f);
	ck_assert_uint_eq(pg_varint_put(buf, 128), 2);
	ck_assert_uint_eq(buf[0], 0x80);
	ck_assert_uint_eq(buf[1], 0x01);
	ck_assert_uint_eq(pg_varint_put(buf, 300), 2);
	ck_assert_mem_eq(buf, b300, sizeof(b300));
	ck_assert_uint_eq(pg_varint_put(buf, UINT64_MAX), 10);
	ck_assert_mem_eq(buf, bmax, sizeof(bmax));
}
END_TEST

/* Every value with one bit set, and its neighbours, round-trips. */
START_TEST(test_all_bit_positions)
{
	unsigned char buf[VARINT_MAX];

	for (int b = 0; b < 64; b++) {
		uint64_t base = (uint64_t)1 << b;
		uint64_t vals[3] = { base - 1, base, base + 1 };

		for (int j = 0; j < 3; j++) {
			uint64_t got = ~vals[j];
			size_t n = pg_varint_put(buf, vals[j]);

			ck_assert_uint_eq(n, expected_len(vals[j]));
			ck_assert_uint_eq(pg_varint_get(buf, n, &got), n);
			ck_assert_uint_eq(got, vals[j]);
		}
	}
}
END_TEST

/* Varints written back to back decode one after the other. */
START_TEST(test_sequence)
{
	unsigned char buf[NSAMPLES * VARINT_MAX];
	size_t n = 0, pos = 0;

	for (size_t i = 0; i < NSAMPLES; i++)
		n += pg_varint_put(buf + n, samples[i]);
	for (size_t i = 0; i < NSAMPLES; i++) {
		uint64_t got;
		size_t k = pg_varint_get(buf + pos, n - pos, &got);

		ck_assert_uint_gt(k, 0);
		ck_assert_uint_eq(got, samples[i]);
		pos += k;
	}
	ck_assert_uint_eq(pos, n);
}
END_TEST

/* A varint cut off anywhere before its last byte decodes to nothing. */
START_TEST(test_cut_off)
{
	uint64_t v = samples[_i];
	unsigned char buf[VARINT_MAX];
	size_t n = pg_varint_put(buf, v);

	for (size_t cut = 0; cut < n; cut++) {
		uint64_t got = 42;

		ck_assert_msg(pg_varint_get(buf, cut, &got) == 0,
			      "value %llu cut to %zu of %zu bytes decoded",
			      (unsigned long long)v, cut, n);
		ck_assert_uint_eq(got, 42); /* left alone */
	}
}
END_TEST

/* An empty buffer holds no varint. */
START_TEST(test_empty)
{
	unsigned char b = 0;
	uint64_t got = 7;

	ck_assert_uint_eq(pg_varint_get(&b, 0, &got), 0);
	ck_assert_uint_eq(got, 7);
}
END_TEST

/* Eleven continuation bytes (too long for 64 bits) decode to nothing. */
START_TEST(test_too_long)
{
	unsigned char buf[16];
	uint64_t got = 9;

	memset(buf, 0x80, 11);
	buf[11] = 0x01; /* a terminator after the 11 continuation bytes */
	ck_assert_uint_eq(pg_varint_get(buf, 11, &got), 0);
	ck_assert_uint_eq(pg_varint_get(buf, 12, &got), 0);
	ck_assert_uint_eq(got, 9);
	/* 10 continuation bytes then a terminator: 11 bytes, also too long */
	memset(buf, 0xff, 10);
	buf[10] = 0x00;
	ck_assert_uint_eq(pg_varint_get(buf, 11, &got), 0);
	ck_assert_uint_eq(got, 9);
}
END_TEST

/* A non-minimal encoding (zero padding groups) still reads its value. */
START_TEST(test_padded)
{
	static const unsigned char buf[] = { 0x81, 0x80, 0x80, 0x00 };
	uint64_t got = 0;

	ck_assert_uint_eq(pg_varint_get(buf, sizeof(buf), &got), 4);
	ck_assert_uint_eq(got, 1);
}
END_TEST

static Suite *varint_suite(void)
{
	Suite *s = suite_create("varint");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_round_trip, 0, (int)NSAMPLES);
	tcase_add_test(tc, test_lengths);
	tcase_add_test(tc, test_bytes);
	tcase_add_test(tc, test_all_bit_positions);
	tcase_add_test(tc, test_sequence);
	tcase_add_loop_test(tc, test_cut_off, 0, (int)NSAMPLES);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_padded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(varint_suite());
}
