/* arch_bundle.c: clang offload bundles ("__CLANG_OFFLOAD_BUNDLE__"), as written by
 * clang-offload-bundler and found standalone or in a host file's .hip_fatbin section. */
#include <stdlib.h>
#include <string.h>

#include "arch_cursor.h"
#include "arch_reader.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24u
#define BUNDLE_ENTRY_MIN 24u  /* offset, size, triple length: three 64-bit fields */
#define BUNDLE_MAX_TRIPLE 1024u
/* clang-offload-bundler writes one entry per offload target plus the host's: a few dozen at most.
 * The cap bounds the entry table read_one allocates (about 56 bytes per entry). */
#define BUNDLE_MAX_ENTRIES 65536u
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

/* One validated entry of the table. */
typedef struct bundle_entry {
    const uint8_t *hdr;     /* the entry's 24-byte header (for error offsets) */
    const uint8_t *triple;  /* tlen bytes, no NUL among them */
    size_t tlen;
    uint64_t off, size;     /* the payload, inside the bundle */
    size_t order;           /* position in the table */
    int repeat;             /* 1 when an earlier entry names the same payload */
} bundle_entry;

static int entry_cmp(const void *pa, const void *pb)
{
    const bundle_entry *a = pa, *b = pb;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int order_cmp(const void *pa, const void *pb)
{
    const bundle_entry *a = pa, *b = pb;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Reads and checks the entry table (after the magic and the count).
 * - per entry: offset, size and triple length within the bytes left; triples of 1 to 1024 bytes
 *   without NUL; every payload inside data (checked slice: offsets are from the bundle's start)
 * - each entry is charged to the work budget
 * Then marks the entries whose payload an earlier entry names (same offset and size): a shared
 * payload is read once. Returns ARCH_OK with *end = the end of the furthest payload or of the table. */
static arch_status read_table(arch_builder *b, arch_cursor *cur, const uint8_t *data, size_t len,
                              bundle_entry *ent, size_t count, size_t *end)
{
    size_t i, furthest;

    for (i = 0; i < count; i++) {
        bundle_entry *x = &ent[i];
        const uint8_t *payload;
        uint64_t tlen;

        x->hdr = cur->p;
        x->off = arch_cursor_le64(cur);
        x->size = arch_cursor_le64(cur);
        tlen = arch_cursor_le64(cur);
        if (cur->err != ARCH_OK)
            return arch_fail(b, cur->err, "offload bundle entry (header past the end)", cur->fail_at);
        if (tlen == 0 || tlen > BUNDLE_MAX_TRIPLE)
            return arch_fail(b, ARCH_ERR_CORRUPT, "offload bundle entry (triple length not in 1..1024)", x->hdr + 16);
        if (!arch_work_charge(&b->work, BUNDLE_ENTRY_MIN + tlen, x->hdr))
            return ARCH_ERR_LIMIT;
        x->triple = arch_cursor_bytes(cur, (size_t)tlen);
        if (!x->triple)
            return arch_fail(b, cur->err, "offload bundle entry (triple past the end)", cur->fail_at);
        x->tlen = (size_t)tlen;
        if (memchr(x->triple, 0, x->tlen))
            return arch_fail(b, ARCH_ERR_CORRUPT, "offload bundle entry (NUL in the triple)", x->triple);
        /* security: payload range checked against the bundle, never added blindly */
        if (!arch_slice(data, len, x->off, x->size, &payload))
            return arch_fail(b, ARCH_ERR_CORRUPT, "offload bundle entry (payload outside the bundle)", x->hdr);
        x->order = i;
        x->repeat = 0;
    }
    furthest = len - cur->left;
    for (i = 0; i < count; i++)
        if (ent[i].off + ent[i].size > furthest) /* off + size <= len: checked above */
            furthest = (size_t)(ent[i].off + ent[i].size);
    *end = furthest;
    /* sorted by payload, the repeats of a payload follow its first entry */
    qsort(ent, count, sizeof(*ent), entry_cmp);
    for (i = 1; i < count; i++)
        ent[i].repeat = ent[i].off == ent[i - 1].off && ent[i].size == ent[i - 1].size;
    qsort(ent, count, sizeof(*ent), order_cmp);
    return ARCH_OK;
}

/* Reads one bundle at the start of data.
 * - the 24-byte magic, then an entry count no larger than the entries the bytes left can hold
 * - the entry table passes read_table
 * - each distinct payload is read once, in table order; entries that repeat an earlier entry's
 *   payload add one line to the list of entries not read
 * Returns ARCH_OK with *end = the end of the furthest payload or of the entry table. */
static arch_status read_one(arch_builder *b, const uint8_t *data, size_t len, size_t *end)
{
    arch_cursor cur = arch_cursor_make(data, len);
    bundle_entry *ent;
    uint64_t count;
    size_t i, repeats = 0;
    arch_status s;

    arch_cursor_skip(&cur, BUNDLE_MAGIC_LEN);
    count = arch_cursor_le64(&cur);
    if (cur.err != ARCH_OK)
        return arch_fail(b, cur.err, "offload bundle header (truncated)", data);
    /* security: the count is bounded by what the remaining bytes could describe */
    if (count > cur.left / BUNDLE_ENTRY_MIN)
        return arch_fail(b, ARCH_ERR_CORRUPT, "offload bundle header (more entries than bytes)", data + BUNDLE_MAGIC_LEN);
    if (count > BUNDLE_MAX_ENTRIES)
        return arch_fail(b, ARCH_ERR_LIMIT, "offload bundle header (more than 65536 entries)", data + BUNDLE_MAGIC_LEN);
    if (count == 0) {
        *end = len - cur.left;
        return ARCH_OK;
    }
    ent = malloc((size_t)count * sizeof(*ent));
    if (!ent)
        return arch_fail(b, ARCH_ERR_NOMEM, "offload bundle entry table", data);
    s = read_table(b, &cur, data, len, ent, (size_t)count, end);
    for (i = 0; i < count && s == ARCH_OK; i++) {
        char triple[BUNDLE_MAX_TRIPLE + 1];
        if (ent[i].repeat) {
            repeats++;
            continue;
        }
        memcpy(triple, ent[i].triple, ent[i].tlen);
        triple[ent[i].tlen] = 0;
        s = read_entry(b, triple, data + ent[i].off, ent[i].size);
    }
    free(ent);
    if (s == ARCH_OK && repeats)
        s = arch_builder_skip(b, "%zu entr%s naming a payload an earlier entry names, read once", repeats,
                              repeats == 1 ? "y" : "ies");
    return s;
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
        return arch_fail(b, cur.err, "compressed offload bundle header (truncated)", data);
    if (total < 8 || total > len)
        return arch_fail(b, ARCH_ERR_CORRUPT, "compressed offload bundle header (total size)", data + 8);
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

    arch_work_begin(&b->work, data, len);
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
            s = arch_fail(b, ARCH_ERR_CORRUPT, "offload bundle (no bundle or CCOB magic)", data + pos);
        if (s != ARCH_OK)
            return s;
        pos += end; /* end >= 8: progress is guaranteed */
    }
    return ARCH_OK;
}
