/* gen_inputs.h: generators of the large, valid-looking inputs that once made the readers run for
 * minutes (issue "Hardening found by an outside review", parser work bounds), and of hostile
 * variants that only a work budget stops. They are built in memory at test time from a few
 * parameters, so no megabytes are committed; tests/arch/bounds.c parses each against a time limit
 * and writes them out as seeds for the large-input fuzz job (tests/fuzz/run-fuzzers.sh).
 *
 * Layouts follow the readers' own descriptions (arch_elf.h, arch_cubin.c, arch_amdgpu.c,
 * arch_bundle.c, arch_fatbin.c). Every helper exits on allocation failure: this is test code. */
#ifndef HIPSOFTMAX_TESTS_GEN_INPUTS_H_5C08E2
#define HIPSOFTMAX_TESTS_GEN_INPUTS_H_5C08E2

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growing byte buffer ------------------------------------------------------------------- */

typedef struct gen_buf {
    uint8_t *p;
    size_t n, cap;
} gen_buf;

static inline void gen_reserve(gen_buf *b, size_t more)
{
    if (b->n + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + more)
        cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p) {
        fprintf(stderr, "gen_inputs: out of memory\n");
        exit(2);
    }
    b->cap = cap;
}

static inline size_t gen_put(gen_buf *b, const void *d, size_t n)
{
    size_t at = b->n;
    gen_reserve(b, n);
    if (n)
        memcpy(b->p + b->n, d, n);
    b->n += n;
    return at;
}

static inline size_t gen_fill(gen_buf *b, int byte, size_t n)
{
    size_t at = b->n;
    gen_reserve(b, n);
    memset(b->p + b->n, byte, n);
    b->n += n;
    return at;
}

static inline void gen_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void gen_be(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

static inline void gen_u8(gen_buf *b, uint8_t v) { gen_put(b, &v, 1); }
static inline void gen_u16(gen_buf *b, uint16_t v) { uint8_t t[2]; gen_le(t, v, 2); gen_put(b, t, 2); }
static inline void gen_u32(gen_buf *b, uint32_t v) { uint8_t t[4]; gen_le(t, v, 4); gen_put(b, t, 4); }
static inline void gen_u64(gen_buf *b, uint64_t v) { uint8_t t[8]; gen_le(t, v, 8); gen_put(b, t, 8); }
static inline void gen_align(gen_buf *b, size_t a) { gen_fill(b, 0, (a - b->n % a) % a); }

/* ---- an ELF64 little-endian writer ----------------------------------------------------------- */

typedef struct gen_sec {
    uint32_t name, type, link, info;
    uint64_t flags, addr, off, size, entsize;
} gen_sec;

typedef struct gen_elf {
    gen_buf file;   /* header placeholder, then section data in the order added */
    gen_buf shstr;  /* section-name string table */
    gen_sec *sec;
    size_t nsec, cap;
} gen_elf;

#define GEN_SHT_PROGBITS 1u
#define GEN_SHT_SYMTAB 2u
#define GEN_SHT_STRTAB 3u
#define GEN_SHT_NOTE 7u
#define GEN_SHT_CUDA_INFO 0x70000000u

static inline uint32_t gen_elf_name(gen_elf *g, const char *name)
{
    return (uint32_t)gen_put(&g->shstr, name, strlen(name) + 1);
}

/* Adds a section whose data (size bytes, copied; NULL: none) is placed next in the file. */
static inline size_t gen_elf_add(gen_elf *g, uint32_t name, uint32_t type, const void *data, uint64_t size,
                          uint32_t link, uint32_t info, uint64_t entsize)
{
    gen_sec s;
    memset(&s, 0, sizeof s);
    s.name = name;
    s.type = type;
    s.link = link;
    s.info = info;
    s.entsize = entsize;
    s.size = size;
    if (data && size) {
        gen_align(&g->file, 8);
        s.off = gen_put(&g->file, data, (size_t)size);
    }
    if (g->nsec == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 64;
        g->sec = realloc(g->sec, g->cap * sizeof *g->sec);
        if (!g->sec)
            exit(2);
    }
    g->sec[g->nsec] = s;
    return g->nsec++;
}

/* Starts a file: the header's 64 bytes, the null section, and .shstrtab as section 1 (its data is
 * written by gen_elf_finish), so e_shstrndx stays small however many sections follow. */
static inline void gen_elf_begin(gen_elf *g)
{
    memset(g, 0, sizeof *g);
    gen_fill(&g->file, 0, 64);
    gen_put(&g->shstr, "", 1);
    gen_elf_add(g, 0, 0, NULL, 0, 0, 0, 0);
    gen_elf_add(g, gen_elf_name(g, ".shstrtab"), GEN_SHT_STRTAB, NULL, 0, 0, 0, 0);
}

/* Writes .shstrtab, the section table and the header; returns the file (caller frees). */
static inline uint8_t *gen_elf_finish(gen_elf *g, uint16_t machine, uint8_t osabi, uint8_t abiversion, uint32_t flags,
                               uint16_t type, size_t *len)
{
    gen_align(&g->file, 8);
    g->sec[1].off = gen_put(&g->file, g->shstr.p, g->shstr.n);
    g->sec[1].size = g->shstr.n;
    gen_align(&g->file, 8);
    size_t shoff = g->file.n;
    for (size_t i = 0; i < g->nsec; i++) {
        const gen_sec *s = &g->sec[i];
        gen_u32(&g->file, s->name);
        gen_u32(&g->file, s->type);
        gen_u64(&g->file, s->flags);
        gen_u64(&g->file, s->addr);
        gen_u64(&g->file, s->off);
        gen_u64(&g->file, s->size);
        gen_u32(&g->file, s->link);
        gen_u32(&g->file, s->info);
        gen_u64(&g->file, 8);
        gen_u64(&g->file, s->entsize);
    }
    uint8_t *h = g->file.p;
    memcpy(h, "\177ELF", 4);
    h[4] = 2; /* ELFCLASS64 */
    h[5] = 1; /* little-endian */
    h[6] = 1;
    h[7] = osabi;
    h[8] = abiversion;
    gen_le(h + 16, type, 2);
    gen_le(h + 18, machine, 2);
    gen_le(h + 20, 1, 4);
    gen_le(h + 40, shoff, 8);
    gen_le(h + 48, flags, 4);
    gen_le(h + 52, 64, 2);
    gen_le(h + 58, 64, 2);
    gen_le(h + 60, g->nsec, 2);
    gen_le(h + 62, 1, 2);
    free(g->shstr.p);
    free(g->sec);
    *len = g->file.n;
    return g->file.p;
}

/* One ELF64 symbol: name offset, STT_FUNC/STB_GLOBAL, section index. */
static inline void gen_sym(gen_buf *b, uint32_t name, uint8_t info, uint16_t shndx, uint64_t value, uint64_t size)
{
    gen_u32(b, name);
    gen_u8(b, info);
    gen_u8(b, 0);
    gen_u16(b, shndx);
    gen_u64(b, value);
    gen_u64(b, size);
}

/* ---- cubins ------------------------------------------------------------------------------------ */

#define GEN_EM_CUDA 190
#define GEN_CUBIN_OSABI 0x41          /* CUDA 13: the SM in e_flags bits 15:8 */
#define GEN_CUBIN_FLAGS(sm) (0x6000004u | ((uint32_t)(sm) << 8))

/* An EIATTR_REGCOUNT record (SVAL): symbol index, registers. */
static inline void gen_regcount(gen_buf *b, uint32_t sym, uint32_t regs)
{
    gen_u8(b, 4);
    gen_u8(b, 0x2f);
    gen_u16(b, 8);
    gen_u32(b, sym);
    gen_u32(b, regs);
}

/* Slow input 1 (11 s before the fix): n `.nv.info.k` sections, all kernel "k" of one symbol. Each
 * kernel looked its symbol up linearly and scanned every section twice (.text.k, .nv.shared.k).
 * shared_info: every .nv.info.k section points at the same info_bytes of no-value records (a
 * hostile variant: each kernel would walk them all again). */
static inline uint8_t *gen_cubin_sections(size_t n, size_t info_bytes, size_t *len)
{
    gen_elf g;
    gen_buf str = {0}, sym = {0}, info = {0}, rec = {0};
    gen_elf_begin(&g);
    gen_put(&str, "\0k", 3);
    size_t strtab = gen_elf_add(&g, gen_elf_name(&g, ".strtab"), GEN_SHT_STRTAB, str.p, str.n, 0, 0, 0);
    uint8_t text[16] = {0};
    size_t text_i = gen_elf_add(&g, gen_elf_name(&g, ".text.k"), GEN_SHT_PROGBITS, text, sizeof text, 0, 32u << 24, 0);
    gen_fill(&sym, 0, 24);
    gen_sym(&sym, 1, 0x12, (uint16_t)text_i, 0, sizeof text);
    gen_elf_add(&g, gen_elf_name(&g, ".symtab"), GEN_SHT_SYMTAB, sym.p, sym.n, (uint32_t)strtab, 1, 24);
    gen_regcount(&info, 1, 32);
    gen_elf_add(&g, gen_elf_name(&g, ".nv.info"), GEN_SHT_CUDA_INFO, info.p, info.n, 0, 0, 0);
    uint32_t kname = gen_elf_name(&g, ".nv.info.k");
    size_t first = g.nsec;
    for (size_t i = 0; i < n; i++)
        gen_elf_add(&g, kname, GEN_SHT_CUDA_INFO, NULL, 0, 0, 0, 0);
    if (info_bytes) {
        for (size_t i = 0; i < info_bytes / 4; i++) {
            gen_u8(&rec, 1); /* EIFMT_NVAL, an attribute the reader ignores */
            gen_u8(&rec, 0x01);
            gen_u16(&rec, 0);
        }
        gen_align(&g.file, 8);
        size_t off = gen_put(&g.file, rec.p, rec.n);
        for (size_t i = 0; i < n; i++) {
            g.sec[first + i].off = off;
            g.sec[first + i].size = rec.n;
        }
    }
    free(str.p);
    free(sym.p);
    free(info.p);
    free(rec.p);
    return gen_elf_finish(&g, GEN_EM_CUDA, GEN_CUBIN_OSABI, 8, GEN_CUBIN_FLAGS(90), 2, len);
}

/* Slow input 2 (105 s before the fix): n kernels k0..k(n-1), each with its symbol and a
 * .nv.info.kN section, and a global .nv.info of `records` no-value records plus one REGCOUNT per
 * kernel. Each kernel rescanned the whole .nv.info and searched the symbols linearly. */
static inline uint8_t *gen_cubin_records(size_t n, size_t records, size_t *len)
{
    gen_elf g;
    gen_buf str = {0}, sym = {0}, info = {0};
    char name[32];
    gen_elf_begin(&g);
    gen_put(&str, "", 1);
    gen_fill(&sym, 0, 24);
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "k%zu", i);
        gen_sym(&sym, (uint32_t)gen_put(&str, name, strlen(name) + 1), 0x12, 0, 0, 0);
    }
    for (size_t i = 0; i < records; i++) {
        gen_u8(&info, 1);
        gen_u8(&info, 0x01);
        gen_u16(&info, 0);
    }
    for (size_t i = 0; i < n; i++)
        gen_regcount(&info, (uint32_t)(i + 1), 24 + (uint32_t)(i % 64));
    size_t strtab = gen_elf_add(&g, gen_elf_name(&g, ".strtab"), GEN_SHT_STRTAB, str.p, str.n, 0, 0, 0);
    gen_elf_add(&g, gen_elf_name(&g, ".symtab"), GEN_SHT_SYMTAB, sym.p, sym.n, (uint32_t)strtab, 1, 24);
    gen_elf_add(&g, gen_elf_name(&g, ".nv.info"), GEN_SHT_CUDA_INFO, info.p, info.n, 0, 0, 0);
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, ".nv.info.k%zu", i);
        gen_elf_add(&g, gen_elf_name(&g, name), GEN_SHT_CUDA_INFO, NULL, 0, 0, 0, 0);
    }
    free(str.p);
    free(sym.p);
    free(info.p);
    return gen_elf_finish(&g, GEN_EM_CUDA, GEN_CUBIN_OSABI, 8, GEN_CUBIN_FLAGS(80), 2, len);
}

/* ---- AMDGPU code objects ----------------------------------------------------------------------- */

#define GEN_EM_AMDGPU 224
#define GEN_AMDGPU_OSABI 64   /* ELFOSABI_AMDGPU_HSA */
#define GEN_AMDGPU_GFX942 0x4c

static inline void mp_str(gen_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (n < 32) {
        gen_u8(b, (uint8_t)(0xa0 | n));
    } else {
        gen_u8(b, 0xd9);
        gen_u8(b, (uint8_t)n);
    }
    gen_put(b, s, n);
}

static inline void mp_head32(gen_buf *b, uint8_t type, uint32_t n)
{
    uint8_t t[5];
    t[0] = type;
    gen_be(t + 1, n, 4);
    gen_put(b, t, 5);
}

/* One kernel map with the keys the reader requires. */
static inline void mp_kernel(gen_buf *b, const char *name)
{
    gen_u8(b, 0x86);
    mp_str(b, ".name");
    mp_str(b, name);
    mp_str(b, ".vgpr_count");
    gen_u8(b, 32);
    mp_str(b, ".sgpr_count");
    gen_u8(b, 16);
    mp_str(b, ".group_segment_fixed_size");
    gen_u8(b, 0);
    mp_str(b, ".private_segment_fixed_size");
    gen_u8(b, 0);
    mp_str(b, ".wavefront_size");
    gen_u8(b, 64);
}

/* The metadata note: kernels maps, then `filler` nil values under a key the reader skips. */
static inline void gen_amd_metadata(gen_buf *mp, size_t kernels, size_t filler)
{
    gen_u8(mp, filler ? 0x83 : 0x82);
    mp_str(mp, "amdhsa.target");
    mp_str(mp, "amdgcn-amd-amdhsa--gfx942");
    mp_str(mp, "amdhsa.kernels");
    mp_head32(mp, 0xdd, (uint32_t)kernels);
    for (size_t i = 0; i < kernels; i++)
        mp_kernel(mp, "k");
    if (filler) {
        mp_str(mp, "amdhsa.printf");
        mp_head32(mp, 0xdd, (uint32_t)filler);
        gen_fill(mp, 0xc0, filler);
    }
}

static inline void gen_note(gen_buf *note, const gen_buf *desc)
{
    gen_u32(note, 7);
    gen_u32(note, (uint32_t)desc->n);
    gen_u32(note, 32); /* NT_AMDGPU_METADATA */
    gen_put(note, "AMDGPU\0", 8);
    gen_put(note, desc->p, desc->n);
    gen_align(note, 4);
}

/* Slow input 3 (20 s before the fix): `kernels` kernels named "k" and `symbols` symbols, none of
 * them "k" or "k.kd": each kernel's descriptor search walked every symbol.
 * long_name > 0: a hostile variant where the symbols' names start at successive offsets of one
 * long_name-byte string, so that hashing or comparing every name costs symbols x long_name.
 * note_copies > 0: that many extra SHT_NOTE sections, all pointing at the same note_bytes of
 * foreign notes (hostile: each would be walked again), placed before the real note. */
static inline uint8_t *gen_amdgpu(size_t kernels, size_t symbols, size_t long_name, size_t filler, size_t note_copies,
                           size_t note_bytes, size_t *len)
{
    gen_elf g;
    gen_buf str = {0}, sym = {0}, mp = {0}, note = {0}, foreign = {0};
    gen_elf_begin(&g);
    gen_put(&str, "", 1);
    if (long_name)
        gen_fill(&str, 'a', long_name);
    else
        gen_put(&str, "s", 1);
    gen_put(&str, "", 1);
    gen_fill(&sym, 0, 24);
    for (size_t i = 0; i < symbols; i++)
        gen_sym(&sym, long_name ? 1 + (uint32_t)(i % long_name) : 1, 0x11, 0, 0, 64);
    if (note_copies) {
        while (foreign.n + 16 <= note_bytes) {
            gen_u32(&foreign, 4);
            gen_u32(&foreign, 0);
            gen_u32(&foreign, 1);
            gen_put(&foreign, "GNU", 4);
        }
        gen_align(&g.file, 8);
        size_t off = gen_put(&g.file, foreign.p, foreign.n);
        uint32_t nn = gen_elf_name(&g, ".note.foreign");
        for (size_t i = 0; i < note_copies; i++) {
            size_t s = gen_elf_add(&g, nn, GEN_SHT_NOTE, NULL, 0, 0, 0, 0);
            g.sec[s].off = off;
            g.sec[s].size = foreign.n;
        }
    }
    gen_amd_metadata(&mp, kernels, filler);
    gen_note(&note, &mp);
    gen_elf_add(&g, gen_elf_name(&g, ".note"), GEN_SHT_NOTE, note.p, note.n, 0, 0, 0);
    size_t strtab = gen_elf_add(&g, gen_elf_name(&g, ".strtab"), GEN_SHT_STRTAB, str.p, str.n, 0, 0, 0);
    gen_elf_add(&g, gen_elf_name(&g, ".symtab"), GEN_SHT_SYMTAB, sym.p, sym.n, (uint32_t)strtab, 1, 24);
    free(str.p);
    free(sym.p);
    free(mp.p);
    free(note.p);
    free(foreign.p);
    return gen_elf_finish(&g, GEN_EM_AMDGPU, GEN_AMDGPU_OSABI, 3, GEN_AMDGPU_GFX942, 3, len);
}

/* ---- offload bundles --------------------------------------------------------------------------- */

/* Slow input 4 (> 120 s before the fix): a bundle of `entries` entries that all point at one
 * AMDGPU code object whose metadata holds `filler` values; each entry parsed it again.
 * grow_size: a hostile variant where entry i names i more bytes than the payload (the ELF reader
 * ignores trailing bytes), so that no two entries name the same range. */
static inline uint8_t *gen_bundle_shared(size_t entries, size_t filler, int grow_size, size_t *len)
{
    static const char triple[] = "hipv4-amdgcn-amd-amdhsa--gfx942";
    size_t plen;
    uint8_t *payload = gen_amdgpu(1, 1, 0, filler, 0, 0, &plen);
    gen_buf b = {0};
    size_t tl = sizeof triple - 1, table = 24 + 8 + entries * (24 + tl);
    gen_put(&b, "__CLANG_OFFLOAD_BUNDLE__", 24);
    gen_u64(&b, entries);
    for (size_t i = 0; i < entries; i++) {
        gen_u64(&b, table);
        gen_u64(&b, plen + (grow_size ? i : 0));
        gen_u64(&b, tl);
        gen_put(&b, triple, tl);
    }
    gen_put(&b, payload, plen);
    if (grow_size)
        gen_fill(&b, 0, entries);
    free(payload);
    *len = b.n;
    return b.p;
}

/* ---- fatbins ----------------------------------------------------------------------------------- */

/* Slow input 5 (2.5 s before the fix, ~160 s at 1 GiB): one fatbin container of `entries` PTX
 * entries of ptx_bytes each; each PTX entry rescanned the container for a cubin of its arch. */
static inline uint8_t *gen_fatbin_ptx(size_t entries, size_t ptx_bytes, size_t *len)
{
    gen_buf b = {0};
    size_t ehs = 80, total = entries * (ehs + ptx_bytes);
    gen_u32(&b, 0xBA55ED50u);
    gen_u16(&b, 1);
    gen_u16(&b, 16);
    gen_u64(&b, total);
    for (size_t i = 0; i < entries; i++) {
        size_t at = gen_fill(&b, 0, ehs);
        gen_le(b.p + at, 1, 2);                     /* kind: PTX */
        gen_le(b.p + at + 2, 0x101, 2);
        gen_le(b.p + at + 4, ehs, 4);               /* header size */
        gen_le(b.p + at + 8, ptx_bytes, 8);         /* payload size */
        gen_le(b.p + at + 28, 80 + 10 * (i % 2), 4); /* sm_80 / sm_90 */
        gen_fill(&b, 'p', ptx_bytes);
    }
    *len = b.n;
    return b.p;
}

#endif /* HIPSOFTMAX_TESTS_GEN_INPUTS_H_5C08E2 */
