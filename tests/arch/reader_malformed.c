/* reader_malformed.c: malformed inputs generated from valid files by named mutations, each
 * rejected with the right arch_status and never a crash; truncation at many points.
 * Usage: reader_malformed <amdgpu-code-object> <cubin> <bundle> <fatbin> [--write <dir>]
 * With --write, every mutated file is also written to <dir>/<name> (regression seeds). */
#include "reader_util.h"

#include "arch_elf.h"
#include "arch_msgpack.h"
#include "arch_reader.h"

static const char *write_dir;

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }
static uint64_t get64(const uint8_t *p) { return (uint64_t)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) | (uint64_t)(p[4] | p[5] << 8 | p[6] << 16 | (uint32_t)p[7] << 24) << 32; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

typedef struct input {
    const char *tag;
    uint8_t *data;
    size_t len;
} input;

/* The error of the last expect(): what failed and where. */
static arch_error last_err;

/* Parses a copy of exactly len bytes and checks the status, and that a failure says what failed
 * and where, inside the input. */
static void expect(const char *name, const uint8_t *d, size_t len, arch_status want)
{
    uint8_t *copy = malloc(len ? len : 1);
    arch_image img;
    arch_status s;
    memcpy(copy, d, len);
    s = arch_image_parse_ex(copy, len, &img, &last_err);
    RU_CHECK(s == want, "%s: got %s, want %s", name, arch_status_string(s), arch_status_string(want));
    RU_CHECK(last_err.status == s, "%s: error record %s, status %s", name, arch_status_string(last_err.status),
             arch_status_string(s));
    RU_CHECK(s == ARCH_OK || (last_err.what[0] && last_err.offset >= 0 && (size_t)last_err.offset <= len),
             "%s: failure without a place: '%s' at %lld", name, last_err.what, (long long)last_err.offset);
    if (s != ARCH_OK)
        RU_CHECK(img.n_kernels == 0 && img.kernels == NULL && img.skipped == NULL, "%s: output not empty", name);
    arch_image_free(&img);
    if (write_dir) {
        char path[1024];
        FILE *f;
        snprintf(path, sizeof(path), "%s/%s", write_dir, name);
        f = fopen(path, "wb");
        if (f) {
            fwrite(d, 1, len, f);
            fclose(f);
        }
    }
    free(copy);
}

static void expect_quiet(const char *name, const uint8_t *d, size_t len, arch_status want)
{
    const char *keep = write_dir;
    write_dir = NULL; /* truncations are many and easy to regenerate: not written out */
    expect(name, d, len, want);
    write_dir = keep;
}

static uint8_t *dup_input(const input *in)
{
    uint8_t *d = malloc(in->len);
    memcpy(d, in->data, in->len);
    return d;
}

/* Byte offset of a section's header and data, found through the library's own ELF layer. */
static int find_section(const uint8_t *d, size_t len, const char *name, size_t *hdr, size_t *data, uint64_t *size)
{
    arch_elf e;
    size_t i;
    int found = 0;
    if (arch_elf_open(&e, NULL, d, len) != ARCH_OK)
        return 0;
    for (i = 0; i < e.nsec && !found; i++) {
        if (strcmp(e.sec[i].name, name) == 0) {
            *hdr = (size_t)get64(d + 40) + i * 64;
            *data = e.sec[i].data ? (size_t)(e.sec[i].data - d) : 0;
            *size = e.sec[i].size;
            found = 1;
        }
    }
    arch_elf_close(&e);
    return found;
}

/* The bytes an ELF reader needs: the section table and every section's data. */
static size_t elf_needed(const uint8_t *d)
{
    size_t shoff = (size_t)get64(d + 40), n = get16(d + 60), end = shoff + n * 64, i;
    for (i = 0; i < n; i++) {
        const uint8_t *sh = d + shoff + i * 64;
        size_t e = (size_t)(get64(sh + 24) + get64(sh + 32));
        if (sh[4] != 8 && get64(sh + 32) != 0 && e > end) /* SHT_NOBITS occupies no file bytes */
            end = e;
    }
    return end;
}

typedef void (*mutator)(uint8_t *d, size_t len);

static void elf_shoff_past_end(uint8_t *d, size_t len) { put64(d + 40, len); }
static void elf_shoff_wrapping(uint8_t *d, size_t len) { (void)len; put64(d + 40, UINT64_MAX - 63); }
static void elf_shnum_huge(uint8_t *d, size_t len) { (void)len; put16(d + 60, 0xfeff); }
static void elf_shentsize_32(uint8_t *d, size_t len) { (void)len; put16(d + 58, 32); }
static void elf_shstrndx_out(uint8_t *d, size_t len) { (void)len; put16(d + 62, get16(d + 60)); }
static void elf_class32(uint8_t *d, size_t len) { (void)len; d[4] = 1; }
static void elf_big_endian(uint8_t *d, size_t len) { (void)len; d[5] = 2; }

static void shstrtab_edit(uint8_t *d, size_t len, int what)
{
    size_t shoff = (size_t)get64(d + 40), hdr = shoff + (size_t)get16(d + 62) * 64;
    uint64_t off = get64(d + hdr + 24), size = get64(d + hdr + 32);
    if (what == 0)
        put64(d + hdr + 24, len);                      /* offset past the end */
    else if (what == 1)
        put64(d + hdr + 32, UINT64_MAX - off + 2);     /* offset + size wraps around */
    else
        d[off + size - 1] = 'x';                       /* no final NUL */
}
static void elf_section_offset_past_end(uint8_t *d, size_t len) { shstrtab_edit(d, len, 0); }
static void elf_section_size_wrapping(uint8_t *d, size_t len) { shstrtab_edit(d, len, 1); }
static void elf_shstrtab_no_nul(uint8_t *d, size_t len) { shstrtab_edit(d, len, 2); }

static void symtab_edit(uint8_t *d, size_t len, int what)
{
    size_t hdr, data;
    uint64_t size;
    if (what == 0 && find_section(d, len, ".strtab", &hdr, &data, &size))
        d[data + size - 1] = 'x';
    if (what == 1 && find_section(d, len, ".symtab", &hdr, &data, &size))
        put64(d + hdr + 56, 16);
}
static void elf_strtab_no_nul(uint8_t *d, size_t len) { symtab_edit(d, len, 0); }
static void elf_symtab_entsize(uint8_t *d, size_t len) { symtab_edit(d, len, 1); }

/* The AMDGPU note: the first note of .note (namesz at 0, descsz at 4, payload at 20). */
static void note_edit(uint8_t *d, size_t len, int what)
{
    size_t hdr, data;
    uint64_t size;
    if (!find_section(d, len, ".note", &hdr, &data, &size))
        return;
    if (what == 0)
        put32(d + data, 0xffffffffu);
    else if (what == 1)
        put32(d + data + 4, 0xfffffffdu);
    else if (what == 2)
        put32(d + data + 4, (uint32_t)size);
    else if (what == 3)
        d[data + 20] = 0xc1;                            /* a MessagePack type byte never used */
    else if (what == 4) {
        d[data + 20] = 0xdf;                            /* map32 with 2^32-1 pairs */
        put32(d + data + 21, 0xffffffffu);
    }
}
static void note_namesz_overflow(uint8_t *d, size_t len) { note_edit(d, len, 0); }
static void note_descsz_overflow(uint8_t *d, size_t len) { note_edit(d, len, 1); }
static void note_descsz_past_section(uint8_t *d, size_t len) { note_edit(d, len, 2); }
static void msgpack_bad_type(uint8_t *d, size_t len) { note_edit(d, len, 3); }
static void msgpack_map_count_huge(uint8_t *d, size_t len) { note_edit(d, len, 4); }

/* Replaces the one-byte value after the first occurrence of a MessagePack key string. */
static void set_value_after(uint8_t *d, size_t len, const char *key, uint8_t v)
{
    size_t kl = strlen(key), i;
    for (i = 0; i + kl + 2 <= len; i++) {
        if (d[i] == (0xa0 | kl) && memcmp(d + i + 1, key, kl) == 0) {
            d[i + 1 + kl] = v;
            return;
        }
    }
}
static void msgpack_vgpr_string(uint8_t *d, size_t len) { set_value_after(d, len, ".vgpr_count", 0xa0); }
static void msgpack_vgpr_negative(uint8_t *d, size_t len) { set_value_after(d, len, ".vgpr_count", 0xff); }
static void msgpack_wave_48(uint8_t *d, size_t len) { set_value_after(d, len, ".wavefront_size", 48); }
static void msgpack_vgpr_disagrees(uint8_t *d, size_t len) { set_value_after(d, len, ".vgpr_count", 0x7f); }
static void msgpack_kernels_not_array(uint8_t *d, size_t len) { set_value_after(d, len, "amdhsa.kernels", 0xc0); }

static void kd_outside_section(uint8_t *d, size_t len)
{
    size_t hdr, data, i;
    uint64_t size;
    if (!find_section(d, len, ".symtab", &hdr, &data, &size))
        return;
    for (i = 24; i + 24 <= size; i += 24)
        if (d[data + i + 4] == 0x11) /* STB_GLOBAL STT_OBJECT: the .kd symbols */
            put64(d + data + i + 8, UINT64_MAX - 8);
}

/* .nv.info records: format byte, attribute byte, 2-byte value or size */
static void nvinfo_edit(uint8_t *d, size_t len, int what)
{
    size_t hdr, data, i;
    uint64_t size;
    if (!find_section(d, len, ".nv.info", &hdr, &data, &size))
        return;
    if (what == 0)
        d[data] = 9;
    else if (what == 1)
        put16(d + data + 2, 0xffff);
    else
        for (i = 0; i + 12 <= size; i += 4 + get16(d + data + i + 2))
            if (d[data + i] == 4 && d[data + i + 1] == 0x2f)
                put32(d + data + i + 8, 300);
}
static void nvinfo_bad_format(uint8_t *d, size_t len) { nvinfo_edit(d, len, 0); }
static void nvinfo_sval_past_end(uint8_t *d, size_t len) { nvinfo_edit(d, len, 1); }
static void nvinfo_regcount_huge(uint8_t *d, size_t len) { nvinfo_edit(d, len, 2); }
static void cubin_sm_zero(uint8_t *d, size_t len) { (void)len; put32(d + 48, 0); }

static void bundle_count_huge(uint8_t *d, size_t len) { (void)len; put64(d + 24, UINT64_MAX / 2); }
static void bundle_offset_past_end(uint8_t *d, size_t len) { put64(d + 32, len + 1); }
static void bundle_size_wrapping(uint8_t *d, size_t len) { (void)len; put64(d + 32, 64); put64(d + 40, UINT64_MAX); }
static void bundle_triple_huge(uint8_t *d, size_t len) { (void)len; put64(d + 48, 1ull << 40); }
static void bundle_triple_nul(uint8_t *d, size_t len) { (void)len; d[56] = 0; }

static void fatbin_size_past_end(uint8_t *d, size_t len) { put64(d + 8, len); }
static void fatbin_entry_size_huge(uint8_t *d, size_t len) { (void)len; put64(d + 16 + 8, 1ull << 63); }
static void fatbin_entry_header_small(uint8_t *d, size_t len) { (void)len; put32(d + 16 + 4, 8); }
static void fatbin_header_small(uint8_t *d, size_t len) { (void)len; put16(d + 6, 8); }
static void fatbin_version_2(uint8_t *d, size_t len) { (void)len; put16(d + 4, 2); }
static void fatbin_compressed_flag(uint8_t *d, size_t len) { (void)len; d[16 + 41] |= 0x80; }

typedef struct mutation {
    int input;            /* 0 amdgpu, 1 cubin, 2 bundle, 3 fatbin */
    const char *name;
    mutator fn;
    arch_status want;
    const char *what;     /* the structure the error names (a substring of arch_error.what) */
    long long at;         /* the byte offset it names; -1: where the section lies in this file */
} mutation;

static const mutation mutations[] = {
    {0, "elf-shoff-past-end", elf_shoff_past_end, ARCH_ERR_CORRUPT, "ELF header (section table", 40},
    {0, "elf-shoff-wrapping", elf_shoff_wrapping, ARCH_ERR_CORRUPT, "ELF header (section table", 40},
    {0, "elf-shnum-huge", elf_shnum_huge, ARCH_ERR_CORRUPT, "ELF header (section table", 40},
    {0, "elf-shentsize-32", elf_shentsize_32, ARCH_ERR_CORRUPT, "ELF header (e_shentsize", 58},
    {0, "elf-shstrndx-out-of-range", elf_shstrndx_out, ARCH_ERR_CORRUPT, "ELF header (e_shstrndx", 62},
    {0, "elf-class32", elf_class32, ARCH_ERR_UNSUPPORTED, "ELF header (ELF32", 4},
    {0, "elf-big-endian", elf_big_endian, ARCH_ERR_UNSUPPORTED, "ELF header (ELF32 or big-endian", 4},
    {0, "elf-section-offset-past-end", elf_section_offset_past_end, ARCH_ERR_CORRUPT, "ELF section header (data", -1},
    {0, "elf-section-size-wrapping", elf_section_size_wrapping, ARCH_ERR_CORRUPT, "ELF section header (data", -1},
    {0, "elf-shstrtab-without-nul", elf_shstrtab_no_nul, ARCH_ERR_CORRUPT, "section-name string table (no final", -1},
    {0, "elf-strtab-without-nul", elf_strtab_no_nul, ARCH_ERR_CORRUPT, "symbol string table (no final NUL", -1},
    {0, "elf-symtab-entsize-16", elf_symtab_entsize, ARCH_ERR_CORRUPT, "symbol table section header (sh_entsize", -1},
    {0, "note-namesz-overflow", note_namesz_overflow, ARCH_ERR_CORRUPT, "ELF note (name or descriptor", -1},
    {0, "note-descsz-overflow", note_descsz_overflow, ARCH_ERR_CORRUPT, "ELF note (name or descriptor", -1},
    {0, "note-descsz-past-section", note_descsz_past_section, ARCH_ERR_CORRUPT, "ELF note (name or descriptor", -1},
    {0, "msgpack-type-0xc1", msgpack_bad_type, ARCH_ERR_CORRUPT, "AMDGPU metadata (MessagePack: unused type", -1},
    {0, "msgpack-map-count-huge", msgpack_map_count_huge, ARCH_ERR_CORRUPT, "AMDGPU metadata (MessagePack", -1},
    {0, "msgpack-vgpr-count-string", msgpack_vgpr_string, ARCH_ERR_CORRUPT, "metadata value (not an integer", -1},
    {0, "msgpack-vgpr-count-negative", msgpack_vgpr_negative, ARCH_ERR_CORRUPT, "metadata value (not an integer", -1},
    {0, "msgpack-wavefront-48", msgpack_wave_48, ARCH_ERR_CORRUPT, ".wavefront_size (not 32 or 64)", -1},
    {0, "msgpack-kernels-nil", msgpack_kernels_not_array, ARCH_ERR_CORRUPT, "amdhsa.kernels (not an array)", -1},
    {0, "kd-outside-section", kd_outside_section, ARCH_ERR_CORRUPT, "kernel descriptor symbol (64 bytes outside", -1},
    {0, "msgpack-vgpr-count-disagrees", msgpack_vgpr_disagrees, ARCH_OK, "", 0},
    {1, "cubin-shoff-wrapping", elf_shoff_wrapping, ARCH_ERR_CORRUPT, "ELF header (section table", 40},
    {1, "cubin-strtab-without-nul", elf_strtab_no_nul, ARCH_ERR_CORRUPT, "symbol string table (no final NUL", -1},
    {1, "nvinfo-format-9", nvinfo_bad_format, ARCH_ERR_CORRUPT, ".nv.info record (unknown format)", -1},
    {1, "nvinfo-sval-past-end", nvinfo_sval_past_end, ARCH_ERR_CORRUPT, ".nv.info record (value past", -1},
    {1, "nvinfo-regcount-300", nvinfo_regcount_huge, ARCH_ERR_CORRUPT, "register count (over 255)", -1},
    {1, "cubin-sm-zero", cubin_sm_zero, ARCH_ERR_CORRUPT, "cubin ELF header (no SM version", 48},
    {2, "bundle-count-huge", bundle_count_huge, ARCH_ERR_CORRUPT, "offload bundle header (more entries", 24},
    {2, "bundle-offset-past-end", bundle_offset_past_end, ARCH_ERR_CORRUPT, "bundle entry (payload outside", 32},
    {2, "bundle-size-wrapping", bundle_size_wrapping, ARCH_ERR_CORRUPT, "bundle entry (payload outside", 32},
    {2, "bundle-triple-length-huge", bundle_triple_huge, ARCH_ERR_CORRUPT, "bundle entry (triple length", 48},
    {2, "bundle-triple-with-nul", bundle_triple_nul, ARCH_ERR_CORRUPT, "bundle entry (NUL in the triple)", 56},
    {3, "fatbin-size-past-end", fatbin_size_past_end, ARCH_ERR_CORRUPT, "fatbin container header (entries past", 8},
    {3, "fatbin-entry-size-huge", fatbin_entry_size_huge, ARCH_ERR_CORRUPT, "fatbin entry header", 16},
    {3, "fatbin-entry-header-8", fatbin_entry_header_small, ARCH_ERR_CORRUPT, "fatbin entry header", 16},
    {3, "fatbin-header-8", fatbin_header_small, ARCH_ERR_CORRUPT, "fatbin container header (header size", 6},
    {3, "fatbin-version-2", fatbin_version_2, ARCH_ERR_UNSUPPORTED, "fatbin container header (version", 4},
    {3, "fatbin-entry-compressed-flag", fatbin_compressed_flag, ARCH_OK, "", 0},
};

/* Where the structure a mutation breaks lies in this file: the failing section's header for the
 * ELF layer, the note's first byte, the record inside .nv.info; -1 where the offset is only
 * checked to lie inside the file (MessagePack values, descriptor symbols). */
static long long expected_at(const mutation *mu, const uint8_t *d, size_t len)
{
    size_t hdr, data;
    uint64_t size;
    if (mu->at >= 0)
        return mu->at;
    if (strstr(mu->name, "section-") || strstr(mu->name, "shstrtab"))
        return (long long)(get64(d + 40) + (uint64_t)get16(d + 62) * 64) + (strstr(mu->name, "section-") ? 24 : 0);
    if (strstr(mu->name, "strtab-without-nul") && find_section(d, len, ".strtab", &hdr, &data, &size))
        return (long long)hdr;
    if (strstr(mu->name, "symtab-entsize") && find_section(d, len, ".symtab", &hdr, &data, &size))
        return (long long)hdr;
    if (strncmp(mu->name, "note-", 5) == 0 && find_section(d, len, ".note", &hdr, &data, &size))
        return (long long)data;
    if (strncmp(mu->name, "nvinfo-format", 13) == 0 && find_section(d, len, ".nv.info", &hdr, &data, &size))
        return (long long)data;
    if (strncmp(mu->name, "nvinfo-sval", 11) == 0 && find_section(d, len, ".nv.info", &hdr, &data, &size))
        return (long long)data;
    return -1;
}

/* MessagePack limits, driven through the metadata reader directly. */
static void check_msgpack_limits(void)
{
    arch_builder b;
    size_t depth = 40, n = ARCH_MP_MAX_NODES + 16, i;
    uint8_t *d = malloc(n + 64);
    arch_status s;

    /* {"x": [[[[...]]]]} nested deeper than the limit */
    d[0] = 0x81;
    d[1] = 0xa1;
    d[2] = 'x';
    memset(d + 3, 0x91, depth);
    d[3 + depth] = 0xc0;
    arch_builder_init(&b);
    s = arch_read_amdgpu_metadata(&b, d, 4 + depth, "gfx942");
    RU_CHECK(s == ARCH_ERR_LIMIT, "msgpack-depth-40: %s", arch_status_string(s));
    arch_builder_discard(&b);

    /* {"x": [nil x n]}: more values than the node limit */
    d[3] = 0xdd;
    d[4] = (uint8_t)(n >> 24), d[5] = (uint8_t)(n >> 16), d[6] = (uint8_t)(n >> 8), d[7] = (uint8_t)n;
    for (i = 0; i < n; i++)
        d[8 + i] = 0xc0;
    arch_builder_init(&b);
    s = arch_read_amdgpu_metadata(&b, d, 8 + n, "gfx942");
    RU_CHECK(s == ARCH_ERR_LIMIT, "msgpack-node-limit: %s", arch_status_string(s));
    arch_builder_discard(&b);

    /* {"amdhsa.kernels": array32 of 2^32-1} in a few bytes: count checked before any loop */
    {
        static const uint8_t k[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a', '.', 'k', 'e', 'r', 'n', 'e', 'l', 's',
                                    0xdd, 0xff, 0xff, 0xff, 0xff, 0x80};
        arch_builder_init(&b);
        s = arch_read_amdgpu_metadata(&b, k, sizeof(k), "gfx942");
        RU_CHECK(s == ARCH_ERR_CORRUPT, "msgpack-kernels-count-huge: %s", arch_status_string(s));
        arch_builder_discard(&b);
    }
    free(d);
}

int main(int argc, char **argv)
{
    input in[4];
    size_t i, m;

    if (argc != 5 && !(argc == 7 && strcmp(argv[5], "--write") == 0)) {
        fprintf(stderr, "usage: %s <amdgpu-code-object> <cubin> <bundle> <fatbin> [--write <dir>]\n", argv[0]);
        return 2;
    }
    if (argc == 7)
        write_dir = argv[6];
    for (i = 0; i < 4; i++) {
        in[i].tag = argv[i + 1];
        in[i].data = ru_load(argv[i + 1], &in[i].len);
        expect("valid", in[i].data, in[i].len, ARCH_OK);
    }
    for (m = 0; m < sizeof(mutations) / sizeof(mutations[0]); m++) {
        const mutation *mu = &mutations[m];
        uint8_t *d = dup_input(&in[mu->input]);
        mu->fn(d, in[mu->input].len);
        RU_CHECK(memcmp(d, in[mu->input].data, in[mu->input].len) != 0, "%s: the mutation changed nothing", mu->name);
        expect(mu->name, d, in[mu->input].len, mu->want);
        if (mu->want != ARCH_OK) {
            long long at = expected_at(mu, in[mu->input].data, in[mu->input].len);
            RU_CHECK(strstr(last_err.what, mu->what) != NULL, "%s: error names '%s', want '%s'", mu->name,
                     last_err.what, mu->what);
            RU_CHECK(at < 0 || last_err.offset == at, "%s: error at byte %lld, want %lld", mu->name,
                     (long long)last_err.offset, at);
        }
        if (mu->fn == msgpack_vgpr_disagrees) {
            arch_image img;
            size_t k, mism = 0;
            if (arch_image_parse(d, in[0].len, &img) == ARCH_OK)
                for (k = 0; k < img.n_kernels; k++)
                    mism += img.kernels[k].descriptor_mismatch;
            RU_CHECK(mism == 1, "%s: %zu kernels flag descriptor_mismatch", mu->name, mism);
            arch_image_free(&img);
        }
        free(d);
    }
    /* truncation: every cut of the first 256 bytes and 256 cuts spread over the rest */
    for (i = 0; i < 4; i++) {
        size_t len = in[i].len, cut, needed = i < 2 ? elf_needed(in[i].data) : len;
        for (cut = 0; cut < len; cut += cut < 256 ? 1 : (len / 256 ? len / 256 : 1)) {
            char name[64];
            arch_status want = ARCH_ERR_CORRUPT;
            if (cut >= needed)
                want = ARCH_OK; /* only bytes no reader looks at (program headers) were cut */
            if (cut < (i == 2 ? 24u : 4u))
                want = ARCH_ERR_UNSUPPORTED; /* too short to carry the format's magic */
            snprintf(name, sizeof(name), "truncated-%zu-at-%zu", i, cut);
            expect_quiet(name, in[i].data, cut, want);
        }
    }
    check_msgpack_limits();
    expect("empty", (const uint8_t *)"", 0, ARCH_ERR_UNSUPPORTED);
    expect("not-a-code-object", (const uint8_t *)"hello, world", 12, ARCH_ERR_UNSUPPORTED);
    for (i = 0; i < 4; i++)
        free(in[i].data);
    return ru_finish("arch.reader.malformed");
}
