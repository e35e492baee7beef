/* arch_cubin.c: NVIDIA cubins (ELF, EM_CUDA): SM version, .nv.info EIATTR records, per-kernel
 * sections (the record layout follows the public decoders CuAssembler and maxas). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_cursor.h"
#include "arch_elf.h"
#include "arch_reader.h"

/* EIATTR record formats */
#define EIFMT_NVAL 1 /* no value: 2 zero bytes */
#define EIFMT_BVAL 2 /* 2-byte field holding a byte value */
#define EIFMT_HVAL 3 /* 2-byte value */
#define EIFMT_SVAL 4 /* 2-byte size, then that many bytes */

/* EIATTR attributes read here */
#define EIATTR_MAX_THREADS 0x05
#define EIATTR_FRAME_SIZE 0x11
#define EIATTR_MIN_STACK_SIZE 0x12
#define EIATTR_MAX_STACK_SIZE 0x23
#define EIATTR_REGCOUNT 0x2f

/* ELF OSABI value of cubins written by CUDA 13 (ABI version 8). Checked on nvcc 13.0 output:
 * sm_80 e_flags 0x6005004, sm_90 0x6005A04, sm_100 0x6006402: the SM is bits 15:8. Earlier
 * toolkits (OSABI 0x33 "CUDA", ABI version 7) kept the SM in bits 7:0 (sm_80: 0x500550). */
#define CUBIN_OSABI_CUDA13 0x41

/* Bytes of shared memory the CUDA 13 toolchain puts at the start of every .nv.shared.<kernel>
 * section when the cubin has a .nv.shared.reserved.* section (sm_90 and later), measured with
 * nvcc 13.0: sh_size = ptxas' "bytes smem" + 1024 for every kernel. It is the device's
 * reservedSharedMemPerBlock, which the occupancy model adds itself, so it is not counted here. */
#define CUBIN_RESERVED_SMEM 1024u

unsigned arch_cubin_sm(uint8_t osabi, uint32_t e_flags)
{
    return osabi == CUBIN_OSABI_CUDA13 ? (e_flags >> 8) & 0xffu : e_flags & 0xffu;
}

/* One EIATTR record, its payload checked to lie inside the section. */
typedef struct eiattr {
    const uint8_t *at;       /* the record's first byte (for error offsets) */
    uint8_t fmt;
    uint8_t attr;
    uint16_t value;          /* BVAL/HVAL */
    const uint8_t *payload;  /* SVAL */
    uint16_t size;           /* SVAL */
} eiattr;

/* Reads the next record.
 * - the 4-byte header fits; the format is one of NVAL/BVAL/HVAL/SVAL
 * - an SVAL payload fits in the bytes left
 * - the record fits in the work budget: sections may share their data, so each walk is charged
 * Returns 1 with *a filled, 0 at the clean end or on error (recorded, and the cursor stopped). */
static int next_attr(arch_builder *b, arch_cursor *cur, eiattr *a)
{
    if (cur->err != ARCH_OK || cur->left == 0)
        return 0;
    a->at = cur->p;
    /* the 4-byte header; an SVAL payload is charged once its size is known */
    if (!arch_work_charge(&b->work, 4, a->at))
        return 0;
    a->fmt = arch_cursor_u8(cur);
    a->attr = arch_cursor_u8(cur);
    a->value = arch_cursor_le16(cur);
    a->payload = NULL;
    a->size = 0;
    if (cur->err != ARCH_OK) {
        arch_fail(b, cur->err, ".nv.info record (header past the section's end)", a->at);
        return 0;
    }
    switch (a->fmt) {
    case EIFMT_NVAL: case EIFMT_BVAL: case EIFMT_HVAL:
        return 1;
    case EIFMT_SVAL:
        a->size = a->value;
        a->payload = arch_cursor_bytes(cur, a->size); /* security: bounded by the cursor */
        if (!a->payload) {
            arch_fail(b, cur->err, ".nv.info record (value past the section's end)", a->at);
            return 0;
        }
        return arch_work_charge(&b->work, a->size, a->at);
    default:
        arch_fail(b, ARCH_ERR_CORRUPT, ".nv.info record (unknown format)", a->at);
        arch_cursor_fail(cur, ARCH_ERR_CORRUPT);
        return 0;
    }
}

/* The status of a finished record walk: the first error recorded (by next_attr or the budget). */
static arch_status walk_status(arch_builder *b, const arch_cursor *cur)
{
    if (arch_work_status(&b->work) != ARCH_OK)
        return arch_work_status(&b->work);
    return cur->err; /* ARCH_OK: every error above was recorded */
}

/* What the global .nv.info says about one symbol. */
typedef struct cubin_kernel_info {
    int have_regs;
    uint32_t regs;
    uint32_t frame;
    const uint8_t *regs_at; /* the record (or section header) the count comes from */
} cubin_kernel_info;

/* Reads the global .nv.info once, filling info[sym] for the records keyed by symbol index sym
 * (info has nsyms entries; records for other indices name no symbol and are ignored; where a
 * symbol has several records of one attribute the last one counts).
 * - every record passes next_attr; keyed SVAL records hold at least 8 bytes
 * Returns ARCH_OK or the error. */
static arch_status read_global_info(arch_builder *b, const arch_elf_section *ginfo, cubin_kernel_info *info,
                                    size_t nsyms)
{
    arch_cursor cur = arch_cursor_make(ginfo && ginfo->data ? ginfo->data : NULL,
                                       ginfo && ginfo->data ? (size_t)ginfo->size : 0);
    eiattr a;

    while (next_attr(b, &cur, &a)) {
        uint32_t sym;
        if (a.fmt != EIFMT_SVAL ||
            (a.attr != EIATTR_REGCOUNT && a.attr != EIATTR_FRAME_SIZE &&
             a.attr != EIATTR_MIN_STACK_SIZE && a.attr != EIATTR_MAX_STACK_SIZE))
            continue;
        if (a.size < 8)
            return arch_fail(b, ARCH_ERR_CORRUPT, ".nv.info record (keyed attribute under 8 bytes)", a.at);
        sym = arch_le32(a.payload);
        if (sym >= nsyms)
            continue;
        if (a.attr == EIATTR_REGCOUNT) {
            info[sym].have_regs = 1;
            info[sym].regs = arch_le32(a.payload + 4);
            info[sym].regs_at = a.at;
        } else if (a.attr == EIATTR_FRAME_SIZE) {
            info[sym].frame = arch_le32(a.payload + 4);
        }
    }
    return walk_status(b, &cur);
}

/* Reads the kernel's own .nv.info.<kernel> records.
 * - every record passes next_attr; EIATTR_MAX_THREADS holds three 32-bit dimensions whose
 *   product is at most ARCH_MAX_BLOCK (product computed in 64 bits per step, so it cannot wrap)
 * Returns ARCH_OK or the error. */
static arch_status read_kernel_info(arch_builder *b, const arch_elf_section *info, arch_kernel *k)
{
    arch_cursor cur = arch_cursor_make(info->data, info->data ? (size_t)info->size : 0);
    eiattr a;

    while (next_attr(b, &cur, &a)) {
        if (a.fmt == EIFMT_SVAL && a.attr == EIATTR_MAX_THREADS) {
            uint64_t x, y, z;
            if (a.size < 12)
                return arch_fail(b, ARCH_ERR_CORRUPT, ".nv.info.<kernel> record (EIATTR_MAX_THREADS under 12 bytes)",
                                 a.at);
            x = arch_le32(a.payload);
            y = arch_le32(a.payload + 4);
            z = arch_le32(a.payload + 8);
            if (x > ARCH_MAX_BLOCK || y > ARCH_MAX_BLOCK || z > ARCH_MAX_BLOCK || x * y * z > ARCH_MAX_BLOCK)
                return arch_fail(b, ARCH_ERR_CORRUPT, ".nv.info.<kernel> record (EIATTR_MAX_THREADS over 1024)",
                                 a.at);
            k->max_block = (int)(x * y * z);
        }
    }
    return walk_status(b, &cur);
}

/* What every kernel of one cubin shares. */
typedef struct cubin_ctx {
    arch_builder *b;
    const arch_elf *e;
    const arch_elf_symtab *syms;
    const cubin_kernel_info *info; /* per symbol index, from the global .nv.info */
    unsigned sm;
    uint32_t reserved;
} cubin_ctx;

#define NV_INFO_PREFIX ".nv.info."

/* Reads one kernel, named by its .nv.info.<kernel> section.
 * - a symbol of that name exists in .symtab (an indexed lookup, as are the sections below)
 * - its register count comes from EIATTR_REGCOUNT or, failing that, from .text.<kernel>
 *   sh_info bits 31:24; one of the two exists and is at most ARCH_MAX_NV_REGS
 * - .nv.shared.<kernel>, when present, is at most ARCH_MAX_STATIC_SMEM (plus the reserved part)
 * Returns ARCH_OK or the error. */
static arch_status read_kernel(const cubin_ctx *c, const arch_elf_section *kinfo)
{
    arch_builder *b = c->b;
    const char *name = kinfo->name + strlen(NV_INFO_PREFIX);
    size_t nl = kinfo->name_len - strlen(NV_INFO_PREFIX), symi = 0;
    const arch_elf_section *text, *shared;
    cubin_kernel_info ki = {0, 0, 0, NULL};
    arch_elf_sym sym;
    uint32_t text_regs = 0;
    arch_kernel *k;
    arch_status s = arch_elf_symbol_find(c->syms, name, nl, &sym, &symi);

    if (s == ARCH_ERR_NOT_FOUND)
        return arch_fail(b, ARCH_ERR_CORRUPT, ".nv.info.<kernel> section header (no symbol of that name)", kinfo->hdr);
    if (s != ARCH_OK)
        return s;
    ki = c->info[symi];
    s = arch_elf_find_section(c->e, ".text.", name, nl, &text);
    if (s != ARCH_OK)
        return s;
    if (text)
        text_regs = text->info >> 24;
    if (!ki.have_regs) {
        if (!text_regs)
            return arch_fail(b, ARCH_ERR_CORRUPT, ".nv.info.<kernel> section header (no register count)", kinfo->hdr);
        ki.regs = text_regs;
        ki.regs_at = text->hdr;
    }
    if (ki.regs > ARCH_MAX_NV_REGS)
        return arch_fail(b, ARCH_ERR_CORRUPT, "cubin register count (over 255)", ki.regs_at);
    s = arch_builder_kernel(b, &k);
    if (s != ARCH_OK)
        return s;
    k->vendor = ARCH_VENDOR_NVIDIA;
    arch_copy_name(k->name, sizeof(k->name), name, nl);
    snprintf(k->target, sizeof(k->target), "sm_%u", c->sm);
    k->regs = k->vgprs = (int)ki.regs;
    k->scratch = ki.frame;
    k->wave_size = 32;
    /* CUDA 13 for sm_90 leaves sh_info bits 31:24 zero; compare only where it wrote a count */
    k->descriptor_mismatch = text_regs != 0 && ki.have_regs && text_regs != ki.regs;
    s = arch_elf_find_section(c->e, ".nv.shared.", name, nl, &shared);
    if (s != ARCH_OK)
        return s;
    if (shared) {
        uint64_t sz = shared->size >= c->reserved ? shared->size - c->reserved : shared->size;
        if (sz > ARCH_MAX_STATIC_SMEM)
            return arch_fail(b, ARCH_ERR_CORRUPT, ".nv.shared.<kernel> section header (over 1 MiB)", shared->hdr);
        k->static_smem = (uint32_t)sz;
    }
    return read_kernel_info(b, kinfo, k);
}

/* Reads a cubin.
 * - the ELF layer's checks and e_machine == EM_CUDA; an SM version in [10, 255]
 * - a .symtab that passes arch_elf_symtab_open
 * - the global .nv.info, read once (read_global_info)
 * - every kernel (a .nv.info.<kernel> section) passes read_kernel
 * Returns ARCH_OK or the error. */
arch_status arch_read_cubin(arch_builder *b, const uint8_t *data, size_t len)
{
    arch_elf e;
    arch_elf_symtab syms;
    const arch_elf_section *st, *ginfo;
    cubin_kernel_info *info = NULL;
    cubin_ctx c;
    size_t i;
    arch_status s;

    arch_work_begin(&b->work, data, len);
    s = arch_elf_open(&e, &b->work, data, len);
    if (s != ARCH_OK)
        return s;
    memset(&syms, 0, sizeof(syms));
    memset(&c, 0, sizeof(c));
    c.b = b;
    c.e = &e;
    c.syms = &syms;
    c.sm = arch_cubin_sm(e.osabi, e.flags);
    st = arch_elf_section_by_type(&e, ARCH_SHT_SYMTAB);
    if (e.machine != ARCH_EM_CUDA)
        s = arch_fail(b, ARCH_ERR_CORRUPT, "cubin ELF header (e_machine is not EM_CUDA)", data + 18);
    else if (c.sm < 10)
        s = arch_fail(b, ARCH_ERR_CORRUPT, "cubin ELF header (no SM version in e_flags)", data + 48);
    else if (!st)
        s = arch_fail(b, ARCH_ERR_CORRUPT, "cubin (no .symtab section)", data);
    if (s == ARCH_OK)
        s = arch_elf_symtab_open(&e, st, &syms);
    if (s == ARCH_OK) {
        /* one entry per symbol: at most one per 24 bytes of the file */
        info = calloc(syms.count ? syms.count : 1, sizeof(*info));
        if (!info)
            s = arch_fail(b, ARCH_ERR_NOMEM, "cubin symbol facts", st->hdr);
    }
    if (s == ARCH_OK) {
        ginfo = arch_elf_section_by_name(&e, ".nv.info");
        s = arch_work_status(&b->work);
        if (s == ARCH_OK)
            s = read_global_info(b, ginfo, info, syms.count);
        c.info = info;
    }
    for (i = 0; i < e.nsec && s == ARCH_OK; i++)
        if (strncmp(e.sec[i].name, ".nv.shared.reserved.", strlen(".nv.shared.reserved.")) == 0)
            c.reserved = CUBIN_RESERVED_SMEM;
    for (i = 0; i < e.nsec && s == ARCH_OK; i++)
        if (strncmp(e.sec[i].name, NV_INFO_PREFIX, strlen(NV_INFO_PREFIX)) == 0 && e.sec[i].name[9])
            s = read_kernel(&c, &e.sec[i]);
    free(info);
    arch_elf_symtab_close(&syms);
    arch_elf_close(&e);
    return s;
}
