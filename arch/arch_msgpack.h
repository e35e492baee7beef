/* arch_msgpack.h: a small pull reader for MessagePack (the AMDGPU metadata note's payload).
 * Private to hipsoftmax, do not expose.
 *
 * The reader walks the bytes in place and allocates nothing. Every declared length or count is
 * checked against the bytes left before it is used; nesting depth and the number of values read
 * are limited. Errors are sticky (see arch_cursor.h).
 */
#ifndef HIPSOFTMAX_ARCH_MSGPACK_H_2C81F0
#define HIPSOFTMAX_ARCH_MSGPACK_H_2C81F0

#include <stddef.h>
#include <stdint.h>

#include "arch_cursor.h"

/* The AMDGPU metadata of a large code object nests 4 deep and holds some 100 values per kernel;
 * these limits leave wide margins while bounding the work a hostile note can cause. */
#define ARCH_MP_MAX_DEPTH 32
#define ARCH_MP_MAX_NODES (1u << 22)

typedef enum arch_mp_type {
    ARCH_MP_NIL = 0,   /* nil */
    ARCH_MP_BOOL = 1,  /* true/false: u holds 0 or 1 */
    ARCH_MP_UINT = 2,  /* non-negative integer: u */
    ARCH_MP_INT = 3,   /* negative integer: i */
    ARCH_MP_FLOAT = 4, /* float 32/64: value not decoded */
    ARCH_MP_STR = 5,   /* string: ptr, len (not NUL-terminated) */
    ARCH_MP_BIN = 6,   /* binary: ptr, len */
    ARCH_MP_EXT = 7,   /* extension: ptr, len (type byte not kept) */
    ARCH_MP_ARRAY = 8, /* array header: len elements follow */
    ARCH_MP_MAP = 9    /* map header: len key/value pairs follow */
} arch_mp_type;

typedef struct arch_mp_tag {
    arch_mp_type type;
    uint64_t u;
    int64_t i;
    const uint8_t *ptr;
    uint32_t len;
} arch_mp_tag;

typedef struct arch_mp_reader {
    arch_cursor cur;
    size_t nodes;      /* values read so far */
    size_t max_nodes;  /* ARCH_MP_MAX_NODES, or less where the parse's work budget has less left */
} arch_mp_reader;

/* Starts a reader with max_nodes = ARCH_MP_MAX_NODES; callers may lower it. */
void arch_mp_init(arch_mp_reader *r, const void *data, size_t len);

/* Reads one value's tag (strings, binaries and extensions with their payload; arrays and maps
 * with their count only). Returns 1, or 0 once an error is recorded. */
int arch_mp_read(arch_mp_reader *r, arch_mp_tag *t);

/* Skips the children of a tag just read (nothing for scalars), depth being t's nesting level. */
void arch_mp_skip_children(arch_mp_reader *r, const arch_mp_tag *t, unsigned depth);

/* Reads and skips one whole value at nesting level depth. */
void arch_mp_skip(arch_mp_reader *r, unsigned depth);

/* 1 when t is a string equal to the NUL-terminated s. */
int arch_mp_str_eq(const arch_mp_tag *t, const char *s);

static inline arch_status arch_mp_error(const arch_mp_reader *r)
{
    return r->cur.err;
}

static inline void arch_mp_fail(arch_mp_reader *r, arch_status s)
{
    arch_cursor_fail(&r->cur, s);
}

#endif /* HIPSOFTMAX_ARCH_MSGPACK_H_2C81F0 */
