/* arch_work.h: one parse's work budget and its first error. Private to hipsoftmax, do not expose.
 *
 * Size limits alone do not bound a parser's time: a few MB can name the same bytes a million
 * times (sections, notes or bundle entries that overlap, names that share one long string). Every
 * reader of one arch_image_parse therefore draws on one budget of bytes to examine, set from the
 * input's size when the outermost reader begins. Each step whose count the input controls is
 * charged the bytes it examines: a section header 64, a symbol 24 plus its name, a note or EIATTR
 * record header and its payload, a MessagePack value 4 (arch_amdgpu.c says why), a bundle or fatbin
 * entry header its size. A file read once costs about its size (twice where a host ELF is opened
 * again by the reader of its format); the budget allows ARCH_WORK_PER_BYTE times the size, so only
 * inputs that make the readers go over the same bytes again and again run out, with
 * ARCH_ERR_LIMIT ("work budget") in a time linear in their size.
 *
 * The first error is kept with the structure it was found in and its byte offset from the start
 * of the whole input (sticky, as in arch_cursor.h: later errors are consequences of the first).
 */
#ifndef HIPSOFTMAX_ARCH_WORK_H_3B90D7
#define HIPSOFTMAX_ARCH_WORK_H_3B90D7

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/* Bytes examined per input byte, and a floor for tiny inputs (measured: see arch/README.md). */
#define ARCH_WORK_PER_BYTE 4u
#define ARCH_WORK_FLOOR (1u << 20)

typedef struct arch_work {
    const uint8_t *base;   /* the whole input: offsets are counted from here; NULL until begun */
    size_t len;
    uint64_t left;         /* units left */
    arch_error err;        /* the first error; status ARCH_OK while none */
} arch_work;

void arch_work_init(arch_work *w);

/* The first call sets the input and its budget; later calls (nested readers) change nothing. */
void arch_work_begin(arch_work *w, const void *data, size_t len);

/* Records s (when no error is recorded yet) with what and the offset of at inside the input
 * (-1 when at is NULL or outside it). Returns s, so that callers can `return arch_work_fail(...)`.
 * w may be NULL: nothing is recorded. */
arch_status arch_work_fail(arch_work *w, arch_status s, const char *what, const void *at);

/* Takes units from the budget. Returns 1 while it lasts; 0 once it is spent, with ARCH_ERR_LIMIT
 * ("work budget") recorded at at. w NULL or not begun: unlimited. */
int arch_work_charge(arch_work *w, uint64_t units, const void *at);

/* The first error's status: ARCH_OK while none. */
static inline arch_status arch_work_status(const arch_work *w)
{
    return w ? w->err.status : ARCH_OK;
}

#endif /* HIPSOFTMAX_ARCH_WORK_H_3B90D7 */
