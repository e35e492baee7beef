/* arch_fatbin.c: NVIDIA fatbin containers (magic 0xBA55ED50), standalone (nvcc -fatbin) or in a
 * host file's .nv_fatbin section. The layout was checked on nvcc 13.0 output:
 *   container header (16 bytes): u32 magic, u16 version (1), u16 header size, u64 entries size
 *   entry header (64 bytes, PTX entries 80): u16 kind (1 PTX, 2 ELF), u16 version, u32 header
 *     size, u64 payload size, ..., u32 SM arch at 28, u64 flags at 40, u64 uncompressed size at 56
 * nvcc 13.0 compresses PTX entries by default and ELF entries with -Xfatbin=-compress-all (flag
 * 0x8000, zstd payload); older toolkits used flag 0x2000. --no-compress writes every entry plain. */
#include <stdlib.h>
#include <string.h>

#include "arch_cursor.h"
#include "arch_reader.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_HEADER_MIN 16u
#define FATBIN_ENTRY_MIN 64u
#define FATBIN_KIND_PTX 1u
#define FATBIN_KIND_ELF 2u
#define FATBIN_FLAG_COMPRESSED_OLD 0x2000u  /* CUDA up to 12.x (LZ4) */
#define FATBIN_FLAG_COMPRESSED 0x8000u      /* CUDA 12.8+ / 13 (zstd) */
/* Far above the 2 entries per SM target nvcc writes; bounds the table of cubin archs per container. */
#define FATBIN_MAX_ENTRIES 4096u

typedef struct fat_entry {
    const uint8_t *hdr;      /* the entry's header (for error offsets) */
    uint16_t kind;
    uint32_t arch;
    uint64_t flags;
    uint64_t uncompressed;
    const uint8_t *payload;
    uint64_t size;
} fat_entry;

/* Reads the entry header at the cursor.
 * - the 64-byte fixed part fits; the declared header size is at least 64 and fits
 * - the payload fits in what is left of the container (checked against bytes left)
 * Returns 1 with *fe filled and the cursor past the payload, 0 on error (cursor error set). */
static int next_entry(arch_cursor *cur, fat_entry *fe)
{
    const uint8_t *h;
    uint32_t hs;

    if (!arch_cursor_need(cur, FATBIN_ENTRY_MIN))
        return 0;
    h = cur->p;
    fe->hdr = h;
    hs = arch_le32(h + 4);
    fe->kind = arch_le16(h);
    fe->size = arch_le64(h + 8);
    fe->arch = arch_le32(h + 28);
    fe->flags = arch_le64(h + 40);
    fe->uncompressed = arch_le64(h + 56);
    if (hs < FATBIN_ENTRY_MIN) {
        arch_cursor_fail(cur, ARCH_ERR_CORRUPT);
        return 0;
    }
    arch_cursor_skip(cur, hs);
    /* security: payload size compared with what remains, never added to an offset */
    if (cur->err != ARCH_OK || fe->size > cur->left) {
        arch_cursor_fail(cur, ARCH_ERR_CORRUPT);
        return 0;
    }
    fe->payload = arch_cursor_bytes(cur, (size_t)fe->size);
    return fe->payload != NULL;
}

static int entry_compressed(const fat_entry *fe)
{
    return (fe->flags & (FATBIN_FLAG_COMPRESSED | FATBIN_FLAG_COMPRESSED_OLD)) != 0 || fe->uncompressed != 0;
}

static int arch_cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* First pass over one container's entries (already bounded to the container).
 * - every entry passes next_entry and is charged to the work budget; at most FATBIN_MAX_ENTRIES
 * Fills elf (room for FATBIN_MAX_ENTRIES) with the archs of its ELF entries, compressed or not,
 * sorted, so that each PTX entry finds its cubin in O(log n) instead of rescanning the container.
 * Returns ARCH_OK or the error. */
static arch_status scan_entries(arch_builder *b, const uint8_t *entries, size_t len, uint32_t *elf, size_t *n_elf)
{
    arch_cursor cur = arch_cursor_make(entries, len);
    fat_entry fe;
    size_t n = 0;

    *n_elf = 0;
    while (cur.left > 0) {
        const uint8_t *at = cur.p;
        if (!arch_work_charge(&b->work, FATBIN_ENTRY_MIN, at))
            return ARCH_ERR_LIMIT;
        if (++n > FATBIN_MAX_ENTRIES)
            return arch_fail(b, ARCH_ERR_LIMIT, "fatbin container (more than 4096 entries)", at);
        if (!next_entry(&cur, &fe))
            return arch_fail(b, cur.err, "fatbin entry header (header or payload past the container)", at);
        if (fe.kind == FATBIN_KIND_ELF)
            elf[(*n_elf)++] = fe.arch;
    }
    qsort(elf, *n_elf, sizeof(*elf), arch_cmp);
    return ARCH_OK;
}

/* Reads one container's entries (already bounded to the container).
 * - the entries pass scan_entries
 * - plain ELF entries pass arch_read_cubin; compressed ones, PTX and unknown kinds are listed
 * Returns ARCH_OK or the first error. */
static arch_status read_entries(arch_builder *b, const uint8_t *entries, size_t len)
{
    arch_cursor cur = arch_cursor_make(entries, len);
    uint32_t *elf = malloc(FATBIN_MAX_ENTRIES * sizeof(*elf));
    size_t n_elf = 0;
    fat_entry fe;
    arch_status s;

    if (!elf)
        return arch_fail(b, ARCH_ERR_NOMEM, "fatbin container", entries);
    s = scan_entries(b, entries, len, elf, &n_elf);
    /* the scan checked every entry: this pass cannot fail in next_entry */
    while (s == ARCH_OK && cur.left > 0 && next_entry(&cur, &fe)) {
        if (fe.kind == FATBIN_KIND_ELF) {
            if (entry_compressed(&fe))
                s = arch_builder_skip(b, "sm_%u: compressed entry, not read", (unsigned)fe.arch);
            else
                s = arch_read_cubin(b, fe.payload, (size_t)fe.size);
        } else if (fe.kind == FATBIN_KIND_PTX) {
            if (bsearch(&fe.arch, elf, n_elf, sizeof(*elf), arch_cmp))
                s = arch_builder_skip(b, "sm_%u: PTX beside the cubin, not read", (unsigned)fe.arch);
            else
                s = arch_builder_skip(b, "sm_%u: PTX only", (unsigned)fe.arch);
        } else {
            s = arch_builder_skip(b, "sm_%u: entry of kind %u, not read", (unsigned)fe.arch, (unsigned)fe.kind);
        }
    }
    free(elf);
    if (s == ARCH_OK && cur.err != ARCH_OK)
        s = arch_fail(b, cur.err, "fatbin entry header", cur.fail_at);
    return s;
}

/* Reads containers back to back, as the linker concatenates them into .nv_fatbin.
 * - zero bytes between containers are alignment padding and skipped
 * - each container: magic, version 1, header size >= 16, header and entries within the bytes left
 * Returns ARCH_OK or the first error. */
arch_status arch_read_fatbins(arch_builder *b, const uint8_t *data, size_t len)
{
    size_t pos = 0;

    arch_work_begin(&b->work, data, len);
    while (pos < len) {
        arch_cursor cur;
        uint16_t version, hs;
        uint64_t size;
        const uint8_t *entries;
        arch_status s;

        if (data[pos] == 0) {
            pos++;
            continue;
        }
        cur = arch_cursor_make(data + pos, len - pos);
        if (arch_cursor_le32(&cur) != FATBIN_MAGIC)
            return arch_fail(b, ARCH_ERR_CORRUPT, "fatbin container header (no fatbin magic)", data + pos);
        version = arch_cursor_le16(&cur);
        hs = arch_cursor_le16(&cur);
        size = arch_cursor_le64(&cur);
        if (cur.err != ARCH_OK)
            return arch_fail(b, ARCH_ERR_CORRUPT, "fatbin container header (truncated)", data + pos);
        if (hs < FATBIN_HEADER_MIN)
            return arch_fail(b, ARCH_ERR_CORRUPT, "fatbin container header (header size under 16)", data + pos + 6);
        if (version != 1)
            return arch_fail(b, ARCH_ERR_UNSUPPORTED, "fatbin container header (version is not 1)", data + pos + 4);
        /* security: header and entries checked against what remains of the section */
        if (!arch_slice(data + pos, len - pos, hs, size, &entries))
            return arch_fail(b, ARCH_ERR_CORRUPT, "fatbin container header (entries past the end)", data + pos + 8);
        s = read_entries(b, entries, (size_t)size);
        if (s != ARCH_OK)
            return s;
        pos += hs + (size_t)size;
    }
    return ARCH_OK;
}
