/* arch_amdgpu.c: AMDGPU HSA code objects: the NT_AMDGPU_METADATA note (MessagePack) and the
 * kernel descriptors it is cross-checked against (LLVM AMDGPUUsage, code object V3 and later). */
#include <stdlib.h>
#include <string.h>

#include "arch_cursor.h"
#include "arch_elf.h"
#include "arch_msgpack.h"
#include "arch_reader.h"

#define NT_AMDGPU_METADATA 32u
#define KD_SIZE 64u              /* the kernel descriptor */
#define KD_PGM_RSRC1_OFFSET 48u  /* COMPUTE_PGM_RSRC1 inside the descriptor */
#define TRIPLE_PREFIX "amdgcn-amd-amdhsa--"
/* Work-budget units per MessagePack value (arch_work.h). A value takes 1 byte at least, but
 * reading one costs about as much as walking 4-6 bytes of headers (measured under ASan), and
 * clang's metadata averages 9 bytes per value (seeds, stress kernels), so 4 keeps real metadata
 * under half a unit per byte while a payload of one-byte values pays for what it costs. */
#define MP_VALUE_UNITS 4u

/* Per-kernel facts gathered while the metadata is read, before the target is known. */
typedef struct amd_pending {
    int rsrc1_vgprs; /* COMPUTE_PGM_RSRC1 bits 5:0 of the kernel's descriptor; -1 when none found */
} amd_pending;

typedef struct amd_ctx {
    arch_builder *b;
    const arch_elf *elf;       /* NULL: metadata read alone, no descriptor cross-check */
    arch_elf_symtab syms[2];   /* .symtab and .dynsym, either may be empty */
    amd_pending *pending;
    size_t first;              /* index of this object's first kernel in the builder */
    char target[64];
} amd_ctx;

enum {
    HAVE_NAME = 1 << 0,
    HAVE_VGPR = 1 << 1,
    HAVE_SGPR = 1 << 2,
    HAVE_LDS = 1 << 3,
    HAVE_SCRATCH = 1 << 4,
    HAVE_WAVE = 1 << 5,
    HAVE_REQUIRED = (1 << 6) - 1
};

/* Stops the metadata reader with s, recording what and at first (the reader's own position
 * would only say where it stopped). */
static void md_fail(amd_ctx *c, arch_mp_reader *r, arch_status s, const char *what, const uint8_t *at)
{
    arch_fail(c->b, s, what, at);
    arch_mp_fail(r, s);
}

/* Reads a non-negative integer value within [lo, hi]; anything else is corrupt metadata. */
static int64_t mp_int_in(amd_ctx *c, arch_mp_reader *r, int64_t lo, int64_t hi)
{
    const uint8_t *at = r->cur.p;
    arch_mp_tag t;
    if (!arch_mp_read(r, &t))
        return 0;
    if (t.type != ARCH_MP_UINT || t.u > (uint64_t)hi || (int64_t)t.u < lo) {
        md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata value (not an integer in range)", at);
        return 0;
    }
    return (int64_t)t.u;
}

/* Reads a string value into a fixed array; a non-string is corrupt metadata. */
static void mp_str_into(amd_ctx *c, arch_mp_reader *r, char *dst, size_t cap)
{
    const uint8_t *at = r->cur.p;
    arch_mp_tag t;
    if (!arch_mp_read(r, &t))
        return;
    if (t.type != ARCH_MP_STR) {
        md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata value (not a string)", at);
        return;
    }
    arch_copy_name(dst, cap, t.ptr, t.len);
}

/* Finds COMPUTE_PGM_RSRC1's granulated VGPR count in the descriptor named by symbol (an indexed
 * lookup in each symbol table). Returns -1 when the object has no such symbol; a symbol whose 64
 * bytes fall outside its section makes the object corrupt. */
static int descriptor_vgprs(amd_ctx *c, arch_mp_reader *r, const char *symbol)
{
    size_t i;
    for (i = 0; i < 2; i++) {
        arch_elf_sym s;
        const uint8_t *kd;
        arch_status st = arch_elf_symbol_find(&c->syms[i], symbol, strlen(symbol), &s, NULL);
        if (st == ARCH_ERR_NOT_FOUND)
            continue;
        if (st != ARCH_OK) {
            arch_mp_fail(r, st); /* the budget ran out: recorded by the lookup */
            return -1;
        }
        st = arch_elf_symbol_bytes(c->elf, &s, KD_SIZE, &kd);
        if (st == ARCH_ERR_NOT_FOUND)
            continue;
        if (st != ARCH_OK) {
            md_fail(c, r, st, "AMDGPU kernel descriptor symbol (64 bytes outside its section)", s.entry);
            return -1;
        }
        return (int)(arch_le32(kd + KD_PGM_RSRC1_OFFSET) & 0x3fu);
    }
    return -1;
}

/* Reads one kernel map of amdhsa.kernels.
 * - the value is a map whose keys are strings
 * - .name and .symbol are strings; the counts and sizes are non-negative integers within the
 *   ARCH_MAX_* limits; .wavefront_size is 32 or 64
 * - .name, .vgpr_count, .sgpr_count, .group_segment_fixed_size, .private_segment_fixed_size and
 *   .wavefront_size are present
 * Returns through the reader's sticky error. */
static void read_kernel(amd_ctx *c, arch_mp_reader *r, unsigned depth)
{
    const uint8_t *at = r->cur.p;
    arch_mp_tag t;
    arch_kernel *k;
    char symbol[256] = "";
    uint32_t i, have = 0;
    arch_status s;

    if (!arch_mp_read(r, &t))
        return;
    if (t.type != ARCH_MP_MAP) {
        md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata kernel (not a map)", at);
        return;
    }
    s = arch_builder_kernel(c->b, &k);
    if (s != ARCH_OK) {
        arch_mp_fail(r, s);
        return;
    }
    k->vendor = ARCH_VENDOR_AMD;
    for (i = 0; i < t.len && arch_mp_error(r) == ARCH_OK; i++) {
        const uint8_t *kat = r->cur.p;
        arch_mp_tag key;
        if (!arch_mp_read(r, &key))
            break;
        if (key.type != ARCH_MP_STR) {
            md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata kernel key (not a string)", kat);
            break;
        }
        if (arch_mp_str_eq(&key, ".name")) {
            mp_str_into(c, r, k->name, sizeof(k->name));
            have |= HAVE_NAME;
        } else if (arch_mp_str_eq(&key, ".symbol")) {
            mp_str_into(c, r, symbol, sizeof(symbol));
        } else if (arch_mp_str_eq(&key, ".vgpr_count")) {
            k->vgprs = (int)mp_int_in(c, r, 0, ARCH_MAX_VGPRS);
            have |= HAVE_VGPR;
        } else if (arch_mp_str_eq(&key, ".agpr_count")) {
            k->agprs = (int)mp_int_in(c, r, 0, ARCH_MAX_AGPRS);
        } else if (arch_mp_str_eq(&key, ".sgpr_count")) {
            k->sgprs = (int)mp_int_in(c, r, 0, ARCH_MAX_SGPRS);
            have |= HAVE_SGPR;
        } else if (arch_mp_str_eq(&key, ".group_segment_fixed_size")) {
            k->static_smem = (uint32_t)mp_int_in(c, r, 0, ARCH_MAX_STATIC_SMEM);
            have |= HAVE_LDS;
        } else if (arch_mp_str_eq(&key, ".private_segment_fixed_size")) {
            k->scratch = (uint32_t)mp_int_in(c, r, 0, UINT32_MAX);
            have |= HAVE_SCRATCH;
        } else if (arch_mp_str_eq(&key, ".wavefront_size")) {
            const uint8_t *vat = r->cur.p;
            k->wave_size = (int)mp_int_in(c, r, 32, 64);
            if (k->wave_size != 32 && k->wave_size != 64)
                md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata .wavefront_size (not 32 or 64)", vat);
            have |= HAVE_WAVE;
        } else if (arch_mp_str_eq(&key, ".max_flat_workgroup_size")) {
            k->max_block = (int)mp_int_in(c, r, 0, ARCH_MAX_BLOCK);
        } else if (arch_mp_str_eq(&key, ".vgpr_spill_count")) {
            k->vgpr_spills = (int)mp_int_in(c, r, 0, INT32_MAX);
        } else if (arch_mp_str_eq(&key, ".sgpr_spill_count")) {
            k->sgpr_spills = (int)mp_int_in(c, r, 0, INT32_MAX);
        } else {
            arch_mp_skip(r, depth + 1);
        }
    }
    if (arch_mp_error(r) != ARCH_OK)
        return;
    if ((have & HAVE_REQUIRED) != HAVE_REQUIRED) {
        md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata kernel (a required key is missing)", at);
        return;
    }
    k->regs = k->vgprs;
    if (c->elf && c->pending)
        c->pending[c->b->img.n_kernels - 1 - c->first].rsrc1_vgprs =
            descriptor_vgprs(c, r, symbol[0] ? symbol : k->name);
}

/* Reads amdhsa.kernels.
 * - the value is an array whose count fits in the bytes left (checked by the reader) and in
 *   ARCH_MAX_KERNELS; each element passes read_kernel */
static void read_kernels(amd_ctx *c, arch_mp_reader *r, unsigned depth)
{
    const uint8_t *at = r->cur.p;
    arch_mp_tag t;
    uint32_t i;

    if (!arch_mp_read(r, &t))
        return;
    if (t.type != ARCH_MP_ARRAY) {
        md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata amdhsa.kernels (not an array)", at);
        return;
    }
    if (c->pending || c->b->img.n_kernels != c->first) {
        md_fail(c, r, ARCH_ERR_CORRUPT, "AMDGPU metadata amdhsa.kernels (a second one)", at);
        return;
    }
    if (t.len > ARCH_MAX_KERNELS) {
        md_fail(c, r, ARCH_ERR_LIMIT, "AMDGPU metadata amdhsa.kernels (more than 65536 kernels)", at);
        return;
    }
    if (c->elf && t.len) {
        /* t.len was checked against the bytes left before this allocation */
        c->pending = calloc(t.len, sizeof(*c->pending));
        if (!c->pending) {
            md_fail(c, r, ARCH_ERR_NOMEM, "AMDGPU metadata amdhsa.kernels", at);
            return;
        }
    }
    for (i = 0; i < t.len && arch_mp_error(r) == ARCH_OK; i++)
        read_kernel(c, r, depth + 1);
}

/* VGPR allocation granule of the descriptor's granulated count (LLVM
 * getVGPREncodingGranule): 8 on gfx90a and gfx94x/gfx95x, 4 on the other gfx9 targets.
 * 0 (no cross-check) for gfx10 and later, whose granule depends on wave size and VGPR banks. */
static int vgpr_granule(const char *target)
{
    if (strncmp(target, "gfx90a", 6) == 0 || strncmp(target, "gfx94", 5) == 0 ||
        strncmp(target, "gfx95", 5) == 0)
        return 8;
    if (strncmp(target, "gfx9", 4) == 0 || strncmp(target, "gfx8", 4) == 0)
        return 4;
    return 0;
}

/* Sets target and descriptor_mismatch on this object's kernels once the whole map is read. */
static void finish_kernels(amd_ctx *c)
{
    size_t i, n = c->b->img.n_kernels - c->first;
    int g = vgpr_granule(c->target);

    for (i = 0; i < n; i++) {
        arch_kernel *k = &c->b->img.kernels[c->first + i];
        memcpy(k->target, c->target, sizeof(k->target));
        if (c->pending && g && c->pending[i].rsrc1_vgprs >= 0) {
            int total = k->vgprs > 0 ? k->vgprs : 1;
            int expect = (total + g - 1) / g - 1;
            k->descriptor_mismatch = expect != c->pending[i].rsrc1_vgprs;
        }
    }
}

static void set_target(amd_ctx *c, const uint8_t *s, size_t n)
{
    size_t pl = strlen(TRIPLE_PREFIX);
    if (n >= pl && memcmp(s, TRIPLE_PREFIX, pl) == 0) {
        s += pl;
        n -= pl;
    }
    arch_copy_name(c->target, sizeof(c->target), s, n);
}

/* Reads the metadata map.
 * - the top value is a map with string keys (MessagePack limits: arch_msgpack.h)
 * - amdhsa.target, when present, is a string; amdhsa.kernels passes read_kernels
 * - the payload holds exactly one value (trailing bytes are corrupt)
 * - the values read fit in the work budget (the reader's node cap is lowered to what is left)
 * Returns ARCH_OK or the first error (recorded with the position in the payload). */
static arch_status read_metadata(amd_ctx *c, const uint8_t *data, size_t len)
{
    arch_work *w = &c->b->work;
    arch_mp_reader r;
    arch_mp_tag t;
    uint32_t i;
    int charged;

    arch_mp_init(&r, data, len);
    if (w->base && w->left / MP_VALUE_UNITS < r.max_nodes)
        r.max_nodes = (size_t)(w->left / MP_VALUE_UNITS);
    if (arch_mp_read(&r, &t) && t.type != ARCH_MP_MAP)
        md_fail(c, &r, ARCH_ERR_CORRUPT, "AMDGPU metadata (not a map)", data);
    for (i = 0; i < t.len && arch_mp_error(&r) == ARCH_OK; i++) {
        const uint8_t *at = r.cur.p;
        arch_mp_tag key;
        if (!arch_mp_read(&r, &key))
            break;
        if (key.type != ARCH_MP_STR) {
            md_fail(c, &r, ARCH_ERR_CORRUPT, "AMDGPU metadata key (not a string)", at);
        } else if (arch_mp_str_eq(&key, "amdhsa.kernels")) {
            read_kernels(c, &r, 1);
        } else if (arch_mp_str_eq(&key, "amdhsa.target")) {
            arch_mp_tag v;
            at = r.cur.p;
            if (arch_mp_read(&r, &v)) {
                if (v.type != ARCH_MP_STR)
                    md_fail(c, &r, ARCH_ERR_CORRUPT, "AMDGPU metadata amdhsa.target (not a string)", at);
                else
                    set_target(c, v.ptr, v.len);
            }
        } else {
            arch_mp_skip(&r, 1);
        }
    }
    if (arch_mp_error(&r) == ARCH_OK && r.cur.left != 0)
        md_fail(c, &r, ARCH_ERR_CORRUPT, "AMDGPU metadata (bytes after the map)", r.cur.p);
    /* where the budget set the node cap, this charge is what reports it */
    charged = arch_work_charge(w, (uint64_t)r.nodes * MP_VALUE_UNITS, r.cur.fail_at ? r.cur.fail_at : data);
    if (arch_mp_error(&r) != ARCH_OK) {
        arch_fail(c->b, arch_mp_error(&r),
                  arch_mp_error(&r) == ARCH_ERR_LIMIT
                      ? "AMDGPU metadata (MessagePack nesting or value count over the limit)"
                      : "AMDGPU metadata (MessagePack: unused type byte, or a length or count past the end)",
                  r.cur.fail_at);
        return arch_work_status(w);
    }
    if (!charged)
        return arch_work_status(w);
    finish_kernels(c);
    return ARCH_OK;
}

arch_status arch_read_amdgpu_metadata(arch_builder *b, const uint8_t *msgpack, size_t len,
                                      const char *target_hint)
{
    amd_ctx c;
    arch_status s;

    arch_work_begin(&b->work, msgpack, len);
    memset(&c, 0, sizeof(c));
    c.b = b;
    c.first = b->img.n_kernels;
    if (target_hint)
        set_target(&c, (const uint8_t *)target_hint, strlen(target_hint));
    s = read_metadata(&c, msgpack, len);
    free(c.pending);
    return s;
}

/* Walks the notes of one SHT_NOTE section looking for the AMDGPU metadata note.
 * - each note needs a 12-byte header and its 4-aligned name and descriptor within the bytes
 *   left (sizes added in 64 bits, so they cannot wrap); landing exactly on the end is the only
 *   clean stop
 * - each note is charged to the work budget: note sections may share their bytes
 * Returns ARCH_OK with *desc set (NULL when this section has none) or the error. */
static arch_status find_metadata_note(arch_builder *b, const arch_elf_section *sec, const uint8_t **desc,
                                      size_t *dlen)
{
    arch_cursor cur = arch_cursor_make(sec->data, sec->data ? (size_t)sec->size : 0);

    *desc = NULL;
    while (cur.left > 0) {
        const uint8_t *at = cur.p;
        uint64_t namesz, descsz, an, ad;
        uint32_t type;
        const uint8_t *name, *d;

        if (!arch_work_charge(&b->work, 12, at)) /* the note header; the walk skips the rest */
            return ARCH_ERR_LIMIT;
        /* security: a header that does not fit, or sizes past the end, stop the walk as corrupt */
        if (cur.left < 12)
            return arch_fail(b, ARCH_ERR_CORRUPT, "ELF note (header past the section's end)", at);
        namesz = arch_cursor_le32(&cur);
        descsz = arch_cursor_le32(&cur);
        type = arch_cursor_le32(&cur);
        an = (namesz + 3) & ~(uint64_t)3;
        ad = (descsz + 3) & ~(uint64_t)3;
        if (an > cur.left || ad > cur.left - an)
            return arch_fail(b, ARCH_ERR_CORRUPT, "ELF note (name or descriptor past the section's end)", at);
        name = arch_cursor_bytes(&cur, (size_t)an);
        d = arch_cursor_bytes(&cur, (size_t)ad);
        if (cur.err != ARCH_OK)
            return arch_fail(b, cur.err, "ELF note", cur.fail_at);
        if (type == NT_AMDGPU_METADATA && namesz == 7 && memcmp(name, "AMDGPU", 7) == 0) {
            *desc = d;
            *dlen = (size_t)descsz;
            return ARCH_OK;
        }
    }
    return ARCH_OK;
}

/* The target named by e_flags' EF_AMDGPU_MACH (bits 7:0) for objects whose metadata has no
 * amdhsa.target (code object V3): only the targets this project builds. */
static const char *mach_target(uint32_t e_flags)
{
    switch (e_flags & 0xffu) {
    case 0x30: return "gfx908";
    case 0x3f: return "gfx90a";
    case 0x4c: return "gfx942";
    default: return "unknown";
    }
}

/* Reads an AMDGPU code object.
 * - the ELF layer's checks (arch_elf_open) and e_machine == EM_AMDGPU
 * - exactly the first NT_AMDGPU_METADATA note is read (note walk: find_metadata_note)
 * - .symtab / .dynsym pass arch_elf_symtab_open; descriptors lie inside their sections
 * Returns ARCH_OK, ARCH_ERR_UNSUPPORTED (no metadata note: code object V2 or older) or the error. */
arch_status arch_read_amdgpu(arch_builder *b, const uint8_t *data, size_t len, const char *target_hint)
{
    arch_elf e;
    amd_ctx c;
    const uint8_t *desc = NULL;
    size_t dlen = 0, i;
    arch_status s;

    arch_work_begin(&b->work, data, len);
    s = arch_elf_open(&e, &b->work, data, len);
    if (s != ARCH_OK)
        return s;
    if (e.machine != ARCH_EM_AMDGPU) {
        arch_elf_close(&e);
        return arch_fail(b, ARCH_ERR_CORRUPT, "AMDGPU ELF header (e_machine is not EM_AMDGPU)", data + 18);
    }
    memset(&c, 0, sizeof(c));
    c.b = b;
    c.elf = &e;
    c.first = b->img.n_kernels;
    for (i = 0; i < e.nsec && s == ARCH_OK && !desc; i++)
        if (e.sec[i].type == ARCH_SHT_NOTE)
            s = find_metadata_note(b, &e.sec[i], &desc, &dlen);
    if (s == ARCH_OK && !desc)
        s = arch_fail(b, ARCH_ERR_UNSUPPORTED, "AMDGPU code object (no metadata note: code object V2 or older)", data);
    for (i = 0; i < 2 && s == ARCH_OK; i++) {
        const arch_elf_section *st = arch_elf_section_by_type(&e, i ? ARCH_SHT_DYNSYM : ARCH_SHT_SYMTAB);
        if (st)
            s = arch_elf_symtab_open(&e, st, &c.syms[i]);
    }
    if (s == ARCH_OK) {
        const char *t = target_hint ? target_hint : mach_target(e.flags);
        set_target(&c, (const uint8_t *)t, strlen(t));
        s = read_metadata(&c, desc, dlen);
    }
    free(c.pending);
    arch_elf_symtab_close(&c.syms[0]);
    arch_elf_symtab_close(&c.syms[1]);
    arch_elf_close(&e);
    return s;
}
