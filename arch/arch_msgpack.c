/* arch_msgpack.c: MessagePack pull reader with length, depth and node-count limits. */
#include "arch_msgpack.h"

#include <string.h>

void arch_mp_init(arch_mp_reader *r, const void *data, size_t len)
{
    r->cur = arch_cursor_make(data, len);
    r->nodes = 0;
    r->max_nodes = ARCH_MP_MAX_NODES;
}

static uint64_t mp_be(arch_mp_reader *r, size_t n)
{
    const uint8_t *b = arch_cursor_bytes(&r->cur, n);
    if (!b)
        return 0;
    switch (n) {
    case 1: return b[0];
    case 2: return arch_be16(b);
    case 4: return arch_be32(b);
    default: return arch_be64(b);
    }
}

/* Consumes a payload of len bytes. Security: len is checked against the bytes left by the cursor
 * before the pointer is kept. */
static void mp_payload(arch_mp_reader *r, arch_mp_tag *t, arch_mp_type type, uint64_t len)
{
    t->type = type;
    if (len > r->cur.left) {
        arch_mp_fail(r, ARCH_ERR_CORRUPT);
        return;
    }
    t->len = (uint32_t)len;
    t->ptr = arch_cursor_bytes(&r->cur, (size_t)len);
}

/* Records a container header.
 * Security: each element takes at least one byte, so a count larger than the bytes left is
 * corrupt; map counts are doubled in 64 bits first so the pair count cannot wrap. */
static void mp_container(arch_mp_reader *r, arch_mp_tag *t, arch_mp_type type, uint64_t count)
{
    uint64_t elems = type == ARCH_MP_MAP ? count * 2u : count;
    t->type = type;
    if (elems > r->cur.left) {
        arch_mp_fail(r, ARCH_ERR_CORRUPT);
        return;
    }
    t->len = (uint32_t)count;
}

/* Reads one tag.
 * - the node count stays within max_nodes (ARCH_ERR_LIMIT)
 * - the type byte is a defined one (0xc1 is never used: ARCH_ERR_CORRUPT)
 * - fixed-size values, payloads and container counts fit in the bytes left
 * Returns 1 with *t filled, 0 once an error is recorded. */
int arch_mp_read(arch_mp_reader *r, arch_mp_tag *t)
{
    uint8_t b;

    memset(t, 0, sizeof(*t));
    if (r->cur.err != ARCH_OK)
        return 0;
    /* security: bounds the total work whatever the shape of the data */
    if (++r->nodes > r->max_nodes) {
        arch_mp_fail(r, ARCH_ERR_LIMIT);
        return 0;
    }
    b = arch_cursor_u8(&r->cur);
    if (r->cur.err != ARCH_OK)
        return 0;
    if (b <= 0x7f) {
        t->type = ARCH_MP_UINT;
        t->u = b;
    } else if (b <= 0x8f) {
        mp_container(r, t, ARCH_MP_MAP, b & 0x0fu);
    } else if (b <= 0x9f) {
        mp_container(r, t, ARCH_MP_ARRAY, b & 0x0fu);
    } else if (b <= 0xbf) {
        mp_payload(r, t, ARCH_MP_STR, b & 0x1fu);
    } else if (b >= 0xe0) {
        t->type = ARCH_MP_INT;
        t->i = (int64_t)(int8_t)b;
    } else {
        switch (b) {
        case 0xc0: t->type = ARCH_MP_NIL; break;
        case 0xc2: case 0xc3: t->type = ARCH_MP_BOOL; t->u = b & 1u; break;
        case 0xc4: mp_payload(r, t, ARCH_MP_BIN, mp_be(r, 1)); break;
        case 0xc5: mp_payload(r, t, ARCH_MP_BIN, mp_be(r, 2)); break;
        case 0xc6: mp_payload(r, t, ARCH_MP_BIN, mp_be(r, 4)); break;
        case 0xc7: { uint64_t n = mp_be(r, 1); arch_cursor_skip(&r->cur, 1); mp_payload(r, t, ARCH_MP_EXT, n); } break;
        case 0xc8: { uint64_t n = mp_be(r, 2); arch_cursor_skip(&r->cur, 1); mp_payload(r, t, ARCH_MP_EXT, n); } break;
        case 0xc9: { uint64_t n = mp_be(r, 4); arch_cursor_skip(&r->cur, 1); mp_payload(r, t, ARCH_MP_EXT, n); } break;
        case 0xca: t->type = ARCH_MP_FLOAT; arch_cursor_skip(&r->cur, 4); break;
        case 0xcb: t->type = ARCH_MP_FLOAT; arch_cursor_skip(&r->cur, 8); break;
        case 0xcc: t->type = ARCH_MP_UINT; t->u = mp_be(r, 1); break;
        case 0xcd: t->type = ARCH_MP_UINT; t->u = mp_be(r, 2); break;
        case 0xce: t->type = ARCH_MP_UINT; t->u = mp_be(r, 4); break;
        case 0xcf: t->type = ARCH_MP_UINT; t->u = mp_be(r, 8); break;
        /* two's complement conversions done in unsigned arithmetic, then narrowed by value */
        case 0xd0: t->type = ARCH_MP_INT; t->i = (int8_t)(uint8_t)mp_be(r, 1); break;
        case 0xd1: t->type = ARCH_MP_INT; t->i = (int16_t)(uint16_t)mp_be(r, 2); break;
        case 0xd2: t->type = ARCH_MP_INT; t->i = (int32_t)(uint32_t)mp_be(r, 4); break;
        case 0xd3: {
            uint64_t v = mp_be(r, 8);
            t->type = ARCH_MP_INT;
            t->i = v > (uint64_t)INT64_MAX ? -(int64_t)(~v) - 1 : (int64_t)v;
        } break;
        case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
            arch_cursor_skip(&r->cur, 1);
            mp_payload(r, t, ARCH_MP_EXT, 1u << (b - 0xd4));
            break;
        case 0xd9: mp_payload(r, t, ARCH_MP_STR, mp_be(r, 1)); break;
        case 0xda: mp_payload(r, t, ARCH_MP_STR, mp_be(r, 2)); break;
        case 0xdb: mp_payload(r, t, ARCH_MP_STR, mp_be(r, 4)); break;
        case 0xdc: mp_container(r, t, ARCH_MP_ARRAY, mp_be(r, 2)); break;
        case 0xdd: mp_container(r, t, ARCH_MP_ARRAY, mp_be(r, 4)); break;
        case 0xde: mp_container(r, t, ARCH_MP_MAP, mp_be(r, 2)); break;
        case 0xdf: mp_container(r, t, ARCH_MP_MAP, mp_be(r, 4)); break;
        default: arch_mp_fail(r, ARCH_ERR_CORRUPT); break; /* 0xc1: never used */
        }
    }
    /* an int with a non-negative value is reported as UINT so callers test one type */
    if (t->type == ARCH_MP_INT && t->i >= 0) {
        t->type = ARCH_MP_UINT;
        t->u = (uint64_t)t->i;
    }
    return r->cur.err == ARCH_OK;
}

void arch_mp_skip_children(arch_mp_reader *r, const arch_mp_tag *t, unsigned depth)
{
    uint64_t n, k;

    if (t->type != ARCH_MP_ARRAY && t->type != ARCH_MP_MAP)
        return;
    /* security: recursion is bounded by the depth limit */
    if (depth + 1 > ARCH_MP_MAX_DEPTH) {
        arch_mp_fail(r, ARCH_ERR_LIMIT);
        return;
    }
    n = t->type == ARCH_MP_MAP ? (uint64_t)t->len * 2u : t->len;
    /* security: the error is checked on every iteration so a failed child ends the loop */
    for (k = 0; k < n && r->cur.err == ARCH_OK; k++)
        arch_mp_skip(r, depth + 1);
}

void arch_mp_skip(arch_mp_reader *r, unsigned depth)
{
    arch_mp_tag t;
    if (arch_mp_read(r, &t))
        arch_mp_skip_children(r, &t, depth);
}

int arch_mp_str_eq(const arch_mp_tag *t, const char *s)
{
    size_t n = strlen(s);
    return t->type == ARCH_MP_STR && t->len == n && (n == 0 || memcmp(t->ptr, s, n) == 0);
}
