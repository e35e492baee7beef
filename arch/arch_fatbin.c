/* arch_fatbin.c: NVIDIA fatbin containers (magic 0xBA55ED50), standalone (nvcc -fatbin) or in a
 * host file's .nv_fatbin section. The layout was checked on nvcc 13.0 output:
 *   container header (16 bytes): u32 magic, u16 version (1), u16 header size, u64 entries size
 *   entry header (64 bytes, PTX entries 80): u16 kind (1 PTX, 2 ELF), u16 version, u32 header
 *     size, u64 payload size, ..., u32 SM arch at 28, u64 flags at 40, u64 uncompressed size at 56
 * nvcc 13.0 compresses PTX entries by default and ELF entries with -Xfatbin=-compress-all (flag
 * 0x8000, zstd payload); older toolkits used flag 0x2000. --no-compress writes every entry plain. */
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
/* Far above the 2 entries per SM target nvcc writes; bounds the PTX-beside-cubin scan. */
#define FATBIN_MAX_ENTRIES 4096u

typedef struct fat_entry {
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

/* 1 when the container holds an ELF entry (compressed or not) for arch. */
static int has_elf_for(const uint8_t *entries, size_t len, uint32_t arch)
{
    arch_cursor cur = arch_cursor_make(entries, len);
    fat_entry fe;
    while (cur.left > 0 && next_entry(&cur, &fe))
        if (fe.kind == FATBIN_KIND_ELF && fe.arch == arch)
            return 1;
    return 0;
}

/* Reads one container's entries (already bounded to the container).
 * - every entry passes next_entry; at most FATBIN_MAX_ENTRIES entries
 * - plain ELF entries pass arch_read_cubin; compressed ones, PTX and unknown kinds are listed
 * Returns ARCH_OK or the first error. */
static arch_status read_entries(arch_builder *b, const uint8_t *entries, size_t len)
{
    arch_cursor cur = arch_cursor_make(entries, len);
    fat_entry fe;
    size_t n = 0;
    arch_status s = ARCH_OK;

    while (s == ARCH_OK && cur.left > 0 && next_entry(&cur, &fe)) {
        if (++n > FATBIN_MAX_ENTRIES)
            return ARCH_ERR_LIMIT;
        if (fe.kind == FATBIN_KIND_ELF) {
            if (entry_compressed(&fe))
                s = arch_builder_skip(b, "sm_%u: compressed entry, not read", (unsigned)fe.arch);
            else
                s = arch_read_cubin(b, fe.payload, (size_t)fe.size);
        } else if (fe.kind == FATBIN_KIND_PTX) {
            if (has_elf_for(entries, len, fe.arch))
                s = arch_builder_skip(b, "sm_%u: PTX beside the cubin, not read", (unsigned)fe.arch);
            else
                s = arch_builder_skip(b, "sm_%u: PTX only", (unsigned)fe.arch);
        } else {
            s = arch_builder_skip(b, "sm_%u: entry of kind %u, not read", (unsigned)fe.arch, (unsigned)fe.kind);
        }
    }
    if (s != ARCH_OK)
        return s;
    return cur.err;
}

/* Reads containers back to back, as the linker concatenates them into .nv_fatbin.
 * - zero bytes between containers are alignment padding and skipped
 * - each container: magic, version 1, header size >= 16, header and entries within the bytes left
 * Returns ARCH_OK or the first error. */
arch_status arch_read_fatbins(arch_builder *b, const uint8_t *data, size_t len)
{
    size_t pos = 0;

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
            return ARCH_ERR_CORRUPT;
        version = arch_cursor_le16(&cur);
        hs = arch_cursor_le16(&cur);
        size = arch_cursor_le64(&cur);
        if (cur.err != ARCH_OK || hs < FATBIN_HEADER_MIN)
            return ARCH_ERR_CORRUPT;
        if (version != 1)
            return ARCH_ERR_UNSUPPORTED;
        /* security: header and entries checked against what remains of the section */
        if (!arch_slice(data + pos, len - pos, hs, size, &entries))
            return ARCH_ERR_CORRUPT;
        s = read_entries(b, entries, (size_t)size);
        if (s != ARCH_OK)
            return s;
        pos += hs + (size_t)size;
    }
    return ARCH_OK;
}
