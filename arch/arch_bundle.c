/* arch_bundle.c: clang offload bundles ("__CLANG_OFFLOAD_BUNDLE__"), as written by
 * clang-offload-bundler and found standalone or in a host file's .hip_fatbin section. */
#include <string.h>

#include "arch_cursor.h"
#include "arch_reader.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24u
#define BUNDLE_ENTRY_MIN 24u  /* offset, size, triple length: three 64-bit fields */
#define BUNDLE_MAX_TRIPLE 1024u
#define AMDGPU_TRIPLE "amdgcn-amd-amdhsa-"

/* Reads one entry's payload by its triple: "hip*-amdgcn-amd-amdhsa-..." entries are AMDGPU code
 * objects, "host-..." entries hold no device code, anything else is listed as not read. */
static arch_status read_entry(arch_builder *b, const char *triple, const uint8_t *payload, uint64_t size)
{
    const char *dash = strchr(triple, '-');
    const char *hint;

    if (strncmp(triple, "host-", 5) == 0)
        return ARCH_OK;
    if (!dash || strncmp(triple, "hip", 3) != 0 || strncmp(dash + 1, AMDGPU_TRIPLE, strlen(AMDGPU_TRIPLE)) != 0)
        return arch_builder_skip(b, "%s: not an AMDGPU HIP code object, not read", triple);
    if (size == 0)
        return arch_builder_skip(b, "%s: empty entry", triple);
    /* the target follows "amdgcn-amd-amdhsa-" and the empty environment field's '-' */
    hint = dash + 1 + strlen(AMDGPU_TRIPLE);
    if (*hint == '-')
        hint++;
    return arch_read_amdgpu(b, payload, (size_t)size, hint);
}

/* Reads one bundle at the start of data.
 * - the 24-byte magic, then an entry count no larger than the entries the bytes left can hold
 * - per entry: offset, size and triple length within the bytes left; triples up to 1024 bytes
 * - every payload lies inside data (checked slice: offsets are from the bundle's start)
 * Returns ARCH_OK with *end = the end of the furthest payload or of the entry table. */
static arch_status read_one(arch_builder *b, const uint8_t *data, size_t len, size_t *end)
{
    arch_cursor cur = arch_cursor_make(data, len);
    uint64_t count, i;
    size_t furthest;
    arch_status s = ARCH_OK;

    arch_cursor_skip(&cur, BUNDLE_MAGIC_LEN);
    count = arch_cursor_le64(&cur);
    if (cur.err != ARCH_OK)
        return cur.err;
    /* security: the count is bounded by what the remaining bytes could describe */
    if (count > cur.left / BUNDLE_ENTRY_MIN)
        return ARCH_ERR_CORRUPT;
    for (i = 0; i < count && s == ARCH_OK; i++) {
        uint64_t off = arch_cursor_le64(&cur), size = arch_cursor_le64(&cur), tlen = arch_cursor_le64(&cur);
        const uint8_t *tp, *payload;
        char triple[BUNDLE_MAX_TRIPLE + 1];

        if (cur.err != ARCH_OK)
            return cur.err;
        if (tlen == 0 || tlen > BUNDLE_MAX_TRIPLE)
            return ARCH_ERR_CORRUPT;
        tp = arch_cursor_bytes(&cur, (size_t)tlen);
        if (!tp)
            return cur.err;
        if (memchr(tp, 0, (size_t)tlen))
            return ARCH_ERR_CORRUPT;
        memcpy(triple, tp, (size_t)tlen);
        triple[tlen] = 0;
        /* security: payload range checked against the bundle, never added blindly */
        if (!arch_slice(data, len, off, size, &payload))
            return ARCH_ERR_CORRUPT;
        s = read_entry(b, triple, payload, size);
    }
    if (s != ARCH_OK)
        return s;
    furthest = len - cur.left;
    cur = arch_cursor_make(data, len);
    arch_cursor_skip(&cur, BUNDLE_MAGIC_LEN + 8);
    for (i = 0; i < count; i++) {
        uint64_t off = arch_cursor_le64(&cur), size = arch_cursor_le64(&cur), tlen = arch_cursor_le64(&cur);
        arch_cursor_skip(&cur, (size_t)tlen);
        if (off + size > furthest) /* off + size <= len: checked above */
            furthest = (size_t)(off + size);
    }
    *end = furthest;
    return ARCH_OK;
}

/* Accounts for a compressed bundle ("CCOB", clang-offload-bundler -compress) without reading it.
 * - version 2 stores the total size as 32 bits at offset 8, version 3 as 64 bits; version 1 has
 *   none, so it is taken to run to the end
 * Returns ARCH_OK with *end, or ARCH_ERR_CORRUPT when the size does not fit. */
static arch_status skip_compressed(arch_builder *b, const uint8_t *data, size_t len, size_t *end)
{
    arch_cursor cur = arch_cursor_make(data, len);
    uint16_t version;
    uint64_t total = len;

    arch_cursor_skip(&cur, 4);
    version = arch_cursor_le16(&cur);
    arch_cursor_skip(&cur, 2);
    if (version == 2)
        total = arch_cursor_le32(&cur);
    else if (version >= 3)
        total = arch_cursor_le64(&cur);
    if (cur.err != ARCH_OK)
        return cur.err;
    if (total < 8 || total > len)
        return ARCH_ERR_CORRUPT;
    *end = (size_t)total;
    return arch_builder_skip(b, "compressed offload bundle (CCOB version %u), not read", (unsigned)version);
}

/* Reads bundles back to back, as a linker concatenates them into .hip_fatbin.
 * - zero bytes between bundles are alignment padding and skipped
 * - anything else must start with the bundle or CCOB magic
 * Returns ARCH_OK or the first error. */
arch_status arch_read_bundles(arch_builder *b, const uint8_t *data, size_t len)
{
    size_t pos = 0;

    while (pos < len) {
        size_t end = 0, left;
        arch_status s;

        if (data[pos] == 0) {
            pos++;
            continue;
        }
        left = len - pos;
        if (left >= BUNDLE_MAGIC_LEN && memcmp(data + pos, BUNDLE_MAGIC, BUNDLE_MAGIC_LEN) == 0)
            s = read_one(b, data + pos, left, &end);
        else if (left >= 4 && memcmp(data + pos, "CCOB", 4) == 0)
            s = skip_compressed(b, data + pos, left, &end);
        else
            s = ARCH_ERR_CORRUPT;
        if (s != ARCH_OK)
            return s;
        pos += end; /* end >= 8: progress is guaranteed */
    }
    return ARCH_OK;
}
