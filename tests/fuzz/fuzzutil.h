/*
 * fuzzutil.h: what the libFuzzer harnesses of tests/fuzz/ share (see
 * docs/FUZZING.md).  Each harness feeds its input to one reader of
 * Pangaea through the reader's own entry point; the readers read files,
 * so the input is written to a file of a private folder first.
 */
#ifndef PANGAEA_FUZZUTIL_H
#define PANGAEA_FUZZUTIL_H

#include <stddef.h>
#include <stdint.h>

/* The harness's private folder, made under $TMPDIR (or /tmp) at the first
 * call and removed with what it holds when the process exits normally;
 * aborts if it cannot be made. */
const char *fz_dir(void);

/* Writes SIZE bytes of DATA as fz_dir()/NAME, replacing any earlier file;
 * the file's path (a static buffer).  Aborts when the write fails: the
 * harness would otherwise test nothing. */
const char *fz_write(const char *name, const uint8_t *data, size_t size);

/* Removes every file of fz_dir() (the folder stays). */
void fz_clear(void);

/* Aborts with a message on stderr unless ERR holds a refusal: a
 * NUL-terminated, non-empty text within its LEN bytes (a reader that
 * refuses must say why).  WHAT names the reader. */
void fz_check_err(const char *what, const char *err, size_t len);

#endif /* PANGAEA_FUZZUTIL_H */
