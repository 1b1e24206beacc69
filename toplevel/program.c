/*
 * program.c: what kind of PVM program the launcher is given, read from
 * its ELF file before the run.  A program built with pangaea.h records
 * itself; an unmodified program linked with libpvm3.so gets libpangaea.so
 * (LD_PRELOAD, exported to every task of the run through PVM_EXPORT), and
 * so does any other program of this machine (an interpreter whose module
 * dlopens libpvm3, a script): it joins the run at its first PVM call; an
 * unmodified program with PVM linked in statically cannot be recorded and
 * is refused.
 */
#include "launcher.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PRELOAD_LIB "libpangaea.so"
/* this machine's multiarch triplet: what $LIB says here (lib/TRIPLET) */
#if defined(__x86_64__)
#define PG_TRIPLET "x86_64-linux-gnu"
#elif defined(__i386__)
#define PG_TRIPLET "i386-linux-gnu"
#elif defined(__s390x__)
#define PG_TRIPLET "s390x-linux-gnu"
#elif defined(__aarch64__)
#define PG_TRIPLET "aarch64-linux-gnu"
#else
#define PG_TRIPLET "unknown-linux-gnu"
#endif

/* What the ELF image at IMG (SIZE bytes) holds, as flags. */
enum { HAS_PANGAEA = 1, NEEDS_LIBPVM = 2, DEFINES_PVM = 4, HAS_SYMTAB = 8,
       FOREIGN = 16 };

/* Strings that the code of libpangaea and of a static libpvm3 put in a
 * program, for stripped programs, whose symbol tables are gone: the name
 * of the run's context variable, read at every join (with its NUL), and
 * the start of libpvm's own message prefix ("libpvm [t%x]: ..."). */
static const char PANGAEA_MARK[] = PG_ENV_CONTEXT;
static const char LIBPVM_MARK[] = "libpvm [t%x]";

/* An ELF image of either class (32 or 64 bits) and either byte order,
 * read field by field (so that an i386 or s390x program is read here as
 * well as one of this machine). */
struct elf {
	const unsigned char *img;
	size_t size;
	int is64, msb;
};

/* Whether LEN bytes at OFF lie inside an image of SIZE bytes (without
 * overflow, whatever the file claims). */
static int in_image(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

/* The unsigned field of N bytes (2, 4 or 8) at OFF of E, in E's byte
 * order (the caller has checked that it lies inside the image). */
static uint64_t elf_get(const struct elf *e, uint64_t off, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)e->img[off + (e->msb ? n - 1 - i : i)] << (8 * i);
	return v;
}

/* A word of E (4 bytes in a 32-bit image, 8 in a 64-bit one). */
static uint64_t elf_word(const struct elf *e, uint64_t off)
{
	return elf_get(e, off, e->is64 ? 8 : 4);
}

/* A section header of E, the fields the launcher reads. */
struct elf_sec {
	uint32_t type, link;
	uint64_t offset, size;
};

/* Section I of E into SEC: 0, or -1 if it lies outside the image. */
static int elf_section(const struct elf *e, unsigned i, struct elf_sec *sec)
{
	uint64_t shoff = elf_word(e, e->is64 ? 40 : 32);
	unsigned entsize = (unsigned)elf_get(e, e->is64 ? 58 : 46, 2),
		 shnum = (unsigned)elf_get(e, e->is64 ? 60 : 48, 2);
	uint64_t at;

	if (i >= shnum || entsize != (e->is64 ? 64u : 40u) ||
	    !in_image(shoff, (uint64_t)(i + 1) * entsize, e->size))
		return -1;
	at = shoff + (uint64_t)i * entsize;
	sec->type = (uint32_t)elf_get(e, at + 4, 4);
	sec->offset = elf_word(e, at + (e->is64 ? 24 : 16));
	sec->size = elf_word(e, at + (e->is64 ? 32 : 20));
	sec->link = (uint32_t)elf_get(e, at + (e->is64 ? 40 : 24), 4);
	return in_image(sec->offset, sec->size, e->size) ? 0 : -1;
}

/* The string at OFF of string table STR (NULL: none), or "" if out of
 * bounds. */
static const char *elf_string(const struct elf *e, const struct elf_sec *str,
			      uint64_t off)
{
	if (!str || off >= str->size ||
	    !memchr(e->img + str->offset + off, '\0', str->size - off))
		return "";
	return (const char *)e->img + str->offset + off;
}

/* The flags of symbol table SH of E. */
static int elf_symbols(const struct elf *e, const struct elf_sec *sh)
{
	struct elf_sec strs;
	const struct elf_sec *str = elf_section(e, sh->link, &strs) ? NULL : &strs;
	uint64_t ent = e->is64 ? 24 : 16, n = sh->size / ent;
	int flags = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t at = sh->offset + i * ent;
		const char *name = elf_string(e, str, elf_get(e, at, 4));

		if (elf_get(e, at + (e->is64 ? 6 : 14), 2) == SHN_UNDEF)
			continue;
		if (strcmp(name, "pangaea_init") == 0)
			flags |= HAS_PANGAEA;
		else if (strcmp(name, "pvm_mytid") == 0)
			flags |= DEFINES_PVM;
	}
	return flags;
}

/* The flags of dynamic section SH of E (the libraries it needs). */
static int elf_needed(const struct elf *e, const struct elf_sec *sh)
{
	struct elf_sec strs;
	const struct elf_sec *str = elf_section(e, sh->link, &strs) ? NULL : &strs;
	uint64_t ent = e->is64 ? 16 : 8, n = sh->size / ent;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t at = sh->offset + i * ent;

		if (elf_word(e, at) == DT_NEEDED &&
		    strncmp(elf_string(e, str, elf_word(e, at + ent / 2)),
			    "libpvm3.so", 10) == 0)
			return NEEDS_LIBPVM;
	}
	return 0;
}

/* The flags of the ELF image IMG (SIZE bytes), 32 or 64 bits, either
 * byte order; with FOREIGN if it is not built for this machine (i386,
 * s390x: our library of its architecture goes into it, make arch; or an
 * ELF of a class or byte order we cannot read); 0 for anything else (a
 * script). */
static int elf_flags(const unsigned char *img, size_t size)
{
	struct elf e = { img, size, 0, 0 };
	struct elf_sec sh;
	int flags = 0;
	unsigned shnum;

	if (size < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG) != 0)
		return 0;
	e.is64 = img[EI_CLASS] == ELFCLASS64;
	e.msb = img[EI_DATA] == ELFDATA2MSB;
	if (size < (e.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)) ||
	    (img[EI_CLASS] != ELFCLASS32 && !e.is64) ||
	    (img[EI_DATA] != ELFDATA2LSB && !e.msb))
		return FOREIGN; /* an ELF, but none we can read */
	if (!e.is64 || e.msb || elf_get(&e, 18, 2) != EM_X86_64)
		flags |= FOREIGN;
	shnum = (unsigned)elf_get(&e, e.is64 ? 60 : 48, 2);
	for (unsigned i = 0; i < shnum; i++) {
		if (elf_section(&e, i, &sh) < 0)
			break;
		if (sh.type == SHT_SYMTAB)
			flags |= HAS_SYMTAB;
		if (sh.type == SHT_SYMTAB || sh.type == SHT_DYNSYM)
			flags |= elf_symbols(&e, &sh);
		else if (sh.type == SHT_DYNAMIC)
			flags |= elf_needed(&e, &sh);
	}
	if (!(flags & (HAS_SYMTAB | HAS_PANGAEA))) {
		/* stripped: what is linked in shows in its strings */
		if (memmem(img, size, PANGAEA_MARK, sizeof(PANGAEA_MARK)))
			flags |= HAS_PANGAEA;
		else if (!(flags & NEEDS_LIBPVM) &&
			 memmem(img, size, LIBPVM_MARK, sizeof(LIBPVM_MARK) - 1))
			flags |= DEFINES_PVM;
	}
	return flags;
}

const char *la_program_arch(const char *path)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC), machine;
	ssize_t n = fd < 0 ? -1 : read(fd, h, sizeof(h));

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0)
		return NULL;
	/* e_machine, in the byte order the file says */
	machine = h[EI_DATA] == ELFDATA2MSB ? h[18] << 8 | h[19] : h[19] << 8 | h[18];
	if (machine == EM_X86_64 && h[EI_CLASS] == ELFCLASS64)
		return "LINUX64";
	if (machine == EM_386 && h[EI_CLASS] == ELFCLASS32)
		return "LINUX";
	if (machine == EM_S390 && h[EI_CLASS] == ELFCLASS64)
		return "LINUXS390";
	return NULL;
}

enum la_prog_kind la_program_kind(const char *path)
{
	struct stat st;
	void *img;
	int fd = open(path, O_RDONLY | O_CLOEXEC), flags = 0;

	if (fd < 0)
		return LA_PROG_OTHER;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (img != MAP_FAILED) {
			flags = elf_flags(img, (size_t)st.st_size);
			munmap(img, (size_t)st.st_size);
		}
	}
	close(fd);
	if (flags & HAS_PANGAEA)
		return LA_PROG_SOURCE;
	if (flags & NEEDS_LIBPVM)
		return LA_PROG_DYNAMIC;
	if (flags & DEFINES_PVM)
		return LA_PROG_STATIC;
	return flags & FOREIGN ? LA_PROG_FOREIGN : LA_PROG_OTHER;
}

int la_lib_path(const char *name, char *out, size_t n)
{
	char self[PG_PATH_MAX], lib[PG_PATH_MAX + 64];
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (k <= 0)
		return -1;
	self[k] = '\0';
	snprintf(lib, sizeof(lib), "%s/../lib/pangaea/%s", dirname(self), name);
	if (!realpath(lib, out) || strlen(out) >= n || access(out, R_OK) < 0)
		return -1;
	return 0;
}

/* The per-architecture form of PRELOAD (DIR/libpangaea.so) into OUT:
 * DIR/$LIB/libpangaea.so, for the dynamic loader to expand (make arch
 * puts each architecture's there); 0, or -1 (with a warning) if this
 * machine's own is not there: make arch was not run. */
static int per_arch_path(const struct la_opts *o, char *out, size_t n)
{
	const char *preload = o->preload;
	char dir[PG_PATH_MAX], mine[PG_PATH_MAX + 64];
	const char *slash = strrchr(preload, '/');
	size_t l = slash ? (size_t)(slash - preload) : 0;

	if (!slash || l >= sizeof(dir))
		return -1;
	memcpy(dir, preload, l);
	dir[l] = '\0';
	snprintf(mine, sizeof(mine), "%s/lib/" PG_TRIPLET "/" PRELOAD_LIB, dir);
	if (access(mine, R_OK) < 0) {
		la_say(o, "warning: the virtual machine has hosts of several "
		       "architectures, but %s is missing (make arch): tasks "
		       "on the others run without Pangaea", mine);
		return -1;
	}
	snprintf(out, n, "%s/$LIB/" PRELOAD_LIB, dir);
	return 0;
}

int la_programs_check(struct la_opts *o)
{
	o->preload[0] = '\0';
	for (int i = 0; i < o->nprog; i++) {
		const char *path = o->progs[i].path;

		switch (la_program_kind(path)) {
		case LA_PROG_STATIC:
			la_error("%s is linked statically with PVM: rebuild it "
				 "with pangaea.h or link libpvm3 dynamically",
				 path);
			return -1;
		case LA_PROG_OTHER:
			/* an interpreter, a script, a program whose module
			   dlopens libpvm3 later: preloaded too, so that it is
			   recorded if it talks PVM (if not, the run names it
			   "not instrumented"); without the library at hand it
			   runs as it is, and is named so too */
			if (!o->preload[0])
				(void)la_lib_path(PRELOAD_LIB, o->preload,
						  sizeof(o->preload));
			break;
		case LA_PROG_DYNAMIC:
			if (!o->preload[0] &&
			    la_lib_path(PRELOAD_LIB, o->preload, sizeof(o->preload)) < 0) {
				la_error("%s is not built with pangaea.h and "
					 "cannot get " PRELOAD_LIB " (not found "
					 "next to the launcher, in ../lib/pangaea)",
					 path);
				return -1;
			}
			break;
		default:
			break;
		}
	}
	return 0;
}

void la_programs_preload(const struct la_opts *o)
{
	const char *old = getenv("LD_PRELOAD");
	char both[2 * PG_PATH_MAX + 2], per[PG_PATH_MAX + 32];

	if (!o->preload[0])
		return;
	/* hosts of several architectures: each task's loader picks the
	 * libpangaea.so of its own (make arch; $LIB is lib/TRIPLET) */
	const char *mine = o->preload;
	if (la_hosts_narch() > 1 && per_arch_path(o, per, sizeof(per)) == 0)
		mine = per;
	/* the user's own preloads (libfaketime, ...) stay, after ours */
	if (old && *old && !strstr(old, mine))
		snprintf(both, sizeof(both), "%s:%s", mine, old);
	else
		snprintf(both, sizeof(both), "%s", mine);
	la_vm_export("LD_PRELOAD", both);
}

int la_programs_folder(void)
{
	char cwd[PG_PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd))) {
		la_error("cannot tell the working folder: %s", strerror(errno));
		return -1;
	}
	la_vm_export(PG_ENV_CWD, cwd);
	return 0;
}
