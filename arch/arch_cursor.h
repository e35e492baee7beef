/* arch_cursor.h: the bounded little-endian reader every arch/ parser reads through.
 * Private to hipsoftmax, do not expose.
 *
 * A cursor is a pointer plus the bytes left. Every read checks the length first and then consumes;
 * multi-byte values are assembled byte by byte (no casts to unaligned structs, no host-endian loads).
 * Errors are sticky: after the first failure every read returns 0 and touches no memory, so callers
 * check once, at the end; fail_at keeps where the failing read was tried, for error reports.
 */
#ifndef HIPSOFTMAX_ARCH_CURSOR_H_6A0D2E
#define HIPSOFTMAX_ARCH_CURSOR_H_6A0D2E

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch.h"

typedef struct arch_cursor {
    const uint8_t *p;   /* next unread byte (NULL once an error is recorded) */
    size_t left;        /* bytes left from p */
    arch_status err;    /* first error, ARCH_OK while none */
    const uint8_t *fail_at; /* where the first failing read started (NULL while none) */
} arch_cursor;

static inline arch_cursor arch_cursor_make(const void *p, size_t n)
{
    arch_cursor c;
    c.p = (const uint8_t *)p;
    c.left = p ? n : 0;
    c.err = ARCH_OK;
    c.fail_at = NULL;
    return c;
}

/* Records the first error only; later errors do not overwrite it. */
static inline void arch_cursor_fail(arch_cursor *c, arch_status s)
{
    if (c->err == ARCH_OK) {
        c->err = s;
        c->fail_at = c->p;
    }
    c->p = NULL;
    c->left = 0;
}

/* Returns 1 when n more bytes may be read. Security: the only gate in front of every read. */
static inline int arch_cursor_need(arch_cursor *c, size_t n)
{
    if (c->err != ARCH_OK)
        return 0;
    if (n > c->left) {
        arch_cursor_fail(c, ARCH_ERR_CORRUPT);
        return 0;
    }
    return 1;
}

static inline uint16_t arch_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t arch_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t arch_le64(const uint8_t *p)
{
    return (uint64_t)arch_le32(p) | ((uint64_t)arch_le32(p + 4) << 32);
}

static inline uint16_t arch_be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t arch_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline uint64_t arch_be64(const uint8_t *p)
{
    return ((uint64_t)arch_be32(p) << 32) | (uint64_t)arch_be32(p + 4);
}

/* Consumes n bytes and returns where they start, or NULL (error recorded) when fewer are left. */
static inline const uint8_t *arch_cursor_bytes(arch_cursor *c, size_t n)
{
    const uint8_t *r;
    if (!arch_cursor_need(c, n))
        return NULL;
    r = c->p;
    c->p += n;
    c->left -= n;
    return r;
}

static inline void arch_cursor_skip(arch_cursor *c, size_t n)
{
    (void)arch_cursor_bytes(c, n);
}

static inline uint8_t arch_cursor_u8(arch_cursor *c)
{
    const uint8_t *b = arch_cursor_bytes(c, 1);
    return b ? b[0] : 0;
}

static inline uint16_t arch_cursor_le16(arch_cursor *c)
{
    const uint8_t *b = arch_cursor_bytes(c, 2);
    return b ? arch_le16(b) : 0;
}

static inline uint32_t arch_cursor_le32(arch_cursor *c)
{
    const uint8_t *b = arch_cursor_bytes(c, 4);
    return b ? arch_le32(b) : 0;
}

static inline uint64_t arch_cursor_le64(arch_cursor *c)
{
    const uint8_t *b = arch_cursor_bytes(c, 8);
    return b ? arch_le64(b) : 0;
}

/* Length of the string at s, looking at no more than max bytes (C11 has no strnlen). */
static inline size_t arch_strnlen(const char *s, size_t max)
{
    const char *z = (const char *)memchr(s, 0, max);
    return z ? (size_t)(z - s) : max;
}

/* Cuts [off, off + size) out of a buffer of len bytes.
 * Security: compares with what remains (off <= len, size <= len - off) instead of adding, so a
 * huge or wrapping offset/size read from the file can never point outside the buffer.
 * Returns 1 and sets *out on success, 0 when the range does not fit. */
static inline int arch_slice(const uint8_t *base, size_t len, uint64_t off, uint64_t size,
                             const uint8_t **out)
{
    if (off > (uint64_t)len || size > (uint64_t)len - off)
        return 0;
    *out = base + (size_t)off;
    return 1;
}

#endif /* HIPSOFTMAX_ARCH_CURSOR_H_6A0D2E */
