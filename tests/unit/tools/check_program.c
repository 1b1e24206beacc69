/*
 * check_program.c: unit tests of the launcher's ELF reader
 * (toplevel/program.c): what a program file is (built with pangaea.h,
 * linked with libpvm3.so, PVM linked in, other) and the PVM architecture
 * it is built for, read from ELF images made here of each class and byte
 * order: x86-64 (64-bit little-endian), i386 (32-bit little-endian) and
 * s390x (64-bit big-endian).  An i386 or s390x program linked with
 * libpvm3.so must be told as such (it gets libpangaea.so of its
 * architecture); a cut or lying file must be read without reading past
 * its end (the ASan pass).
 */
#include "../../../toplevel/launcher.h"
#include "checkutil.h"

#include <check.h>
#include <elf.h>
#include <stdio.h>
#include <string.h>

/* An ELF image being made: its bytes, class and byte order. */
struct img {
	unsigned char b[2048];
	int is64, msb;
};

/* Puts the N-byte (2, 4, 8) value V at OFF of IM in its byte order. */
static void put(struct img *im, size_t off, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		im->b[off + (im->msb ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

/* A word of IM's class (4 or 8 bytes) at OFF. */
static void put_word(struct img *im, size_t off, uint64_t v)
{
	put(im, off, v, im->is64 ? 8 : 4);
}

/* Section header I of IM (at 0x100): TYPE, its bytes at OFF (SIZE of
 * them), LINK. */
static void section(struct img *im, int i, uint32_t type, uint64_t off,
		    uint64_t size, uint32_t link)
{
	size_t at = 0x100 + (size_t)i * (im->is64 ? 64 : 40);

	put(im, at + 4, type, 4);
	put_word(im, at + (im->is64 ? 24 : 16), off);
	put_word(im, at + (im->is64 ? 32 : 20), size);
	put(im, at + (im->is64 ? 40 : 24), link, 4);
}

/* What the image links and defines. */
enum { NEEDS_PVM = 1, DEFINES_PVM = 2, DEFINES_PANGAEA = 4 };

/* Makes IM: an executable of class IS64, byte order MSB and MACHINE, with
 * a .dynstr, a .dynamic (libc.so.6, and libpvm3.so.3 with NEEDS_PVM), a
 * .symtab defining main (pvm_mytid, pangaea_init as WHAT says) and a
 * .strtab; its size. */
static size_t make(struct img *im, int is64, int msb, int machine, int what)
{
	static const char dynstr[] = "\0libc.so.6\0libpvm3.so.3";
	static const char strtab[] = "\0main\0pvm_mytid\0pangaea_init";
	const uint32_t names[] = { 1, 6, 16 };
	size_t dent = is64 ? 16 : 8, sent = is64 ? 24 : 16;
	int nd = 0, ns = 1;

	memset(im, 0, sizeof(*im));
	im->is64 = is64;
	im->msb = msb;
	memcpy(im->b, ELFMAG, SELFMAG);
	im->b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	im->b[EI_DATA] = msb ? ELFDATA2MSB : ELFDATA2LSB;
	im->b[EI_VERSION] = EV_CURRENT;
	put(im, 16, ET_EXEC, 2);
	put(im, 18, (uint64_t)machine, 2);
	put_word(im, is64 ? 40 : 32, 0x100);                /* e_shoff */
	put(im, is64 ? 58 : 46, is64 ? 64 : 40, 2);     /* e_shentsize */
	put(im, is64 ? 60 : 48, 5, 2);                  /* e_shnum */
	memcpy(im->b + 0x400, dynstr, sizeof(dynstr));
	memcpy(im->b + 0x700, strtab, sizeof(strtab));
	put_word(im, 0x500 + dent * nd, DT_NEEDED);
	put_word(im, 0x500 + dent * nd++ + dent / 2, 1);
	if (what & NEEDS_PVM) {
		put_word(im, 0x500 + dent * nd, DT_NEEDED);
		put_word(im, 0x500 + dent * nd++ + dent / 2, 11);
	}
	nd++; /* DT_NULL */
	for (int k = 0; k < 3; k++) {
		if (k == 1 && !(what & DEFINES_PVM))
			continue;
		if (k == 2 && !(what & DEFINES_PANGAEA))
			continue;
		put(im, 0x600 + sent * (size_t)ns, names[k], 4);
		put(im, 0x600 + sent * (size_t)ns++ + (is64 ? 6 : 14), 1, 2);
	}
	section(im, 1, SHT_STRTAB, 0x400, sizeof(dynstr), 0);
	section(im, 2, SHT_DYNAMIC, 0x500, dent * (size_t)nd, 1);
	section(im, 3, SHT_SYMTAB, 0x600, sent * (size_t)ns, 4);
	section(im, 4, SHT_STRTAB, 0x700, sizeof(strtab), 0);
	return 0x700 + sizeof(strtab);
}

/* The three architectures: class, byte order, machine, PVM's name. */
static const struct arch {
	int is64, msb, machine;
	const char *pvm;
} archs[] = {
	{ 1, 0, EM_X86_64, "LINUX64" },
	{ 0, 0, EM_386, "LINUX" },
	{ 1, 1, EM_S390, "LINUXS390" },
};

/* Writes the first N bytes of IM to cku_dir/prog; its path into PATH. */
static const char *spit(const struct img *im, size_t n, char *path, size_t len)
{
	cku_spit(cku_in_dir(path, len, "prog"), (const char *)im->b, n);
	return path;
}

START_TEST(test_kind_of_each_arch)
{
	const struct arch *a = &archs[_i];
	int native = a->machine == EM_X86_64;
	char path[PATH_MAX];
	struct img im;
	size_t n;

	n = make(&im, a->is64, a->msb, a->machine, NEEDS_PVM);
	spit(&im, n, path, sizeof(path));
	ck_assert_int_eq(la_program_kind(path), LA_PROG_DYNAMIC);
	ck_assert_str_eq(la_program_arch(path), a->pvm);
	n = make(&im, a->is64, a->msb, a->machine, DEFINES_PVM);
	ck_assert_int_eq(la_program_kind(spit(&im, n, path, sizeof(path))),
			 LA_PROG_STATIC);
	n = make(&im, a->is64, a->msb, a->machine,
		 NEEDS_PVM | DEFINES_PVM | DEFINES_PANGAEA);
	ck_assert_int_eq(la_program_kind(spit(&im, n, path, sizeof(path))),
			 LA_PROG_SOURCE);
	n = make(&im, a->is64, a->msb, a->machine, 0);
	ck_assert_int_eq(la_program_kind(spit(&im, n, path, sizeof(path))),
			 native ? LA_PROG_OTHER : LA_PROG_FOREIGN);
	/* a machine PVM has no name for here */
	n = make(&im, a->is64, a->msb, EM_SPARCV9, NEEDS_PVM);
	ck_assert_ptr_null(la_program_arch(spit(&im, n, path, sizeof(path))));
	ck_assert_int_eq(la_program_kind(path), LA_PROG_DYNAMIC);
}
END_TEST

/* Every cut of a dynamic program of each architecture is read within
 * its bytes (ASan) and is never taken for one that defines PVM or
 * records itself. */
START_TEST(test_cut_files)
{
	const struct arch *a = &archs[_i];
	char path[PATH_MAX];
	struct img im;
	size_t n = make(&im, a->is64, a->msb, a->machine, NEEDS_PVM);

	for (size_t k = 0; k <= n; k++) {
		enum la_prog_kind kind = la_program_kind(spit(&im, k, path, sizeof(path)));

		ck_assert_msg(kind != LA_PROG_STATIC && kind != LA_PROG_SOURCE,
			      "%s cut at %zu: kind %d", a->pvm, k, (int)kind);
		if (k < 20)
			ck_assert_ptr_null(la_program_arch(path));
	}
	ck_assert_int_eq(la_program_kind(path), LA_PROG_DYNAMIC);
}
END_TEST

/* Headers that lie (sections past the end, a wrong entry size, a string
 * table link out of range) are read within the file. */
START_TEST(test_lying_headers)
{
	const struct arch *a = &archs[_i];
	char path[PATH_MAX];
	struct img im;
	size_t n;

	n = make(&im, a->is64, a->msb, a->machine, NEEDS_PVM);
	put(&im, a->is64 ? 60 : 48, 0xffff, 2); /* e_shnum */
	ck_assert_int_eq(la_program_kind(spit(&im, n, path, sizeof(path))),
			 LA_PROG_DYNAMIC);
	n = make(&im, a->is64, a->msb, a->machine, NEEDS_PVM);
	put_word(&im, a->is64 ? 40 : 32, (uint64_t)-64); /* e_shoff */
	ck_assert_int_ne(la_program_kind(spit(&im, n, path, sizeof(path))),
			 LA_PROG_DYNAMIC);
	n = make(&im, a->is64, a->msb, a->machine, NEEDS_PVM);
	put(&im, a->is64 ? 58 : 46, a->is64 ? 40 : 64, 2); /* e_shentsize */
	ck_assert_int_ne(la_program_kind(spit(&im, n, path, sizeof(path))),
			 LA_PROG_DYNAMIC);
	n = make(&im, a->is64, a->msb, a->machine, NEEDS_PVM);
	section(&im, 2, SHT_DYNAMIC, 0x500, 0x10000, 1); /* past the end */
	section(&im, 3, SHT_SYMTAB, 0x600, 48, 4000);    /* link nowhere */
	ck_assert_int_ne(la_program_kind(spit(&im, n, path, sizeof(path))),
			 LA_PROG_DYNAMIC);
	/* an ELF of neither class or byte order: not read, foreign */
	n = make(&im, a->is64, a->msb, a->machine, NEEDS_PVM);
	im.b[EI_CLASS] = 7;
	ck_assert_int_eq(la_program_kind(spit(&im, n, path, sizeof(path))),
			 LA_PROG_FOREIGN);
	ck_assert_ptr_null(la_program_arch(path));
}
END_TEST

static Suite *program_suite(void)
{
	Suite *s = suite_create("program");
	TCase *tc = tcase_create("elf");

	cku_add_tmp_fixtures(tc);
	tcase_add_loop_test(tc, test_kind_of_each_arch, 0, 3);
	tcase_add_loop_test(tc, test_cut_files, 0, 3);
	tcase_add_loop_test(tc, test_lying_headers, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return cku_run(program_suite());
}
