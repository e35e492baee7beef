/* arch_cubin.c: NVIDIA cubins (ELF, EM_CUDA): SM version, .nv.info EIATTR records, per-kernel
 * sections (the record layout follows the public decoders CuAssembler and maxas). */
#include <stdio.h>
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
    uint8_t fmt;
    uint8_t attr;
    uint16_t value;          /* BVAL/HVAL */
    const uint8_t *payload;  /* SVAL */
    uint16_t size;           /* SVAL */
} eiattr;

/* Reads the next record.
 * - the 4-byte header fits; the format is one of NVAL/BVAL/HVAL/SVAL
 * - an SVAL payload fits in the bytes left
 * Returns 1 with *a filled, 0 at the clean end or on error (cursor error set). */
static int next_attr(arch_cursor *cur, eiattr *a)
{
    if (cur->err != ARCH_OK || cur->left == 0)
        return 0;
    a->fmt = arch_cursor_u8(cur);
    a->attr = arch_cursor_u8(cur);
    a->value = arch_cursor_le16(cur);
    a->payload = NULL;
    a->size = 0;
    if (cur->err != ARCH_OK)
        return 0;
    switch (a->fmt) {
    case EIFMT_NVAL: case EIFMT_BVAL: case EIFMT_HVAL:
        return 1;
    case EIFMT_SVAL:
        a->size = a->value;
        a->payload = arch_cursor_bytes(cur, a->size); /* security: bounded by the cursor */
        return a->payload != NULL;
    default:
        arch_cursor_fail(cur, ARCH_ERR_CORRUPT);
        return 0;
    }
}

typedef struct cubin_kernel_info {
    int have_regs;
    uint32_t regs;
    uint32_t frame;
} cubin_kernel_info;

/* Reads the global .nv.info records keyed by the kernel's symbol index.
 * - every record passes next_attr; keyed SVAL records hold at least 8 bytes
 * Returns ARCH_OK or ARCH_ERR_CORRUPT. */
static arch_status read_global_info(const arch_elf_section *info, size_t sym, cubin_kernel_info *ki)
{
    arch_cursor cur = arch_cursor_make(info ? info->data : NULL, info && info->data ? (size_t)info->size : 0);
    eiattr a;

    while (next_attr(&cur, &a)) {
        if (a.fmt != EIFMT_SVAL ||
            (a.attr != EIATTR_REGCOUNT && a.attr != EIATTR_FRAME_SIZE &&
             a.attr != EIATTR_MIN_STACK_SIZE && a.attr != EIATTR_MAX_STACK_SIZE))
            continue;
        if (a.size < 8)
            return ARCH_ERR_CORRUPT;
        if (arch_le32(a.payload) != sym)
            continue;
        if (a.attr == EIATTR_REGCOUNT) {
            ki->have_regs = 1;
            ki->regs = arch_le32(a.payload + 4);
        } else if (a.attr == EIATTR_FRAME_SIZE) {
            ki->frame = arch_le32(a.payload + 4);
        }
    }
    return cur.err;
}

/* Reads the kernel's own .nv.info.<kernel> records.
 * - every record passes next_attr; EIATTR_MAX_THREADS holds three 32-bit dimensions whose
 *   product is at most ARCH_MAX_BLOCK (product computed in 64 bits per step, so it cannot wrap)
 * Returns ARCH_OK or ARCH_ERR_CORRUPT. */
static arch_status read_kernel_info(const arch_elf_section *info, arch_kernel *k)
{
    arch_cursor cur = arch_cursor_make(info->data, info->data ? (size_t)info->size : 0);
    eiattr a;

    while (next_attr(&cur, &a)) {
        if (a.fmt == EIFMT_SVAL && a.attr == EIATTR_MAX_THREADS) {
            uint64_t x, y, z;
            if (a.size < 12)
                return ARCH_ERR_CORRUPT;
            x = arch_le32(a.payload);
            y = arch_le32(a.payload + 4);
            z = arch_le32(a.payload + 8);
            if (x > ARCH_MAX_BLOCK || y > ARCH_MAX_BLOCK || z > ARCH_MAX_BLOCK || x * y * z > ARCH_MAX_BLOCK)
                return ARCH_ERR_CORRUPT;
            k->max_block = (int)(x * y * z);
        }
    }
    return cur.err;
}

/* The section named prefix followed by name, or NULL. */
static const arch_elf_section *section_named(const arch_elf *e, const char *prefix, const char *name)
{
    size_t i, pl = strlen(prefix);
    for (i = 0; i < e->nsec; i++)
        if (strncmp(e->sec[i].name, prefix, pl) == 0 && strcmp(e->sec[i].name + pl, name) == 0)
            return &e->sec[i];
    return NULL;
}

/* Reads one kernel, named by its .nv.info.<kernel> section.
 * - a symbol of that name exists in .symtab
 * - its register count comes from EIATTR_REGCOUNT or, failing that, from .text.<kernel>
 *   sh_info bits 31:24; one of the two exists and is at most ARCH_MAX_NV_REGS
 * - .nv.shared.<kernel>, when present, is at most ARCH_MAX_STATIC_SMEM (plus the reserved part)
 * Returns ARCH_OK or the error. */
static arch_status read_kernel(arch_builder *b, const arch_elf *e, const arch_elf_symtab *syms,
                               const arch_elf_section *ginfo, const arch_elf_section *kinfo,
                               unsigned sm, uint32_t reserved)
{
    const char *name = kinfo->name + strlen(".nv.info.");
    const arch_elf_section *text, *shared;
    cubin_kernel_info ki = {0, 0, 0};
    arch_elf_sym sym;
    size_t symi = arch_elf_symbol_find(syms, name, &sym);
    uint32_t text_regs = 0;
    arch_kernel *k;
    arch_status s;

    if (!symi)
        return ARCH_ERR_CORRUPT;
    s = read_global_info(ginfo, symi, &ki);
    if (s != ARCH_OK)
        return s;
    text = section_named(e, ".text.", name);
    if (text)
        text_regs = text->info >> 24;
    if (!ki.have_regs) {
        if (!text_regs)
            return ARCH_ERR_CORRUPT;
        ki.regs = text_regs;
    }
    if (ki.regs > ARCH_MAX_NV_REGS)
        return ARCH_ERR_CORRUPT;
    s = arch_builder_kernel(b, &k);
    if (s != ARCH_OK)
        return s;
    k->vendor = ARCH_VENDOR_NVIDIA;
    arch_copy_name(k->name, sizeof(k->name), name, strlen(name));
    snprintf(k->target, sizeof(k->target), "sm_%u", sm);
    k->regs = k->vgprs = (int)ki.regs;
    k->scratch = ki.frame;
    k->wave_size = 32;
    /* CUDA 13 for sm_90 leaves sh_info bits 31:24 zero; compare only where it wrote a count */
    k->descriptor_mismatch = text_regs != 0 && ki.have_regs && text_regs != ki.regs;
    shared = section_named(e, ".nv.shared.", name);
    if (shared) {
        uint64_t sz = shared->size >= reserved ? shared->size - reserved : shared->size;
        if (sz > ARCH_MAX_STATIC_SMEM)
            return ARCH_ERR_CORRUPT;
        k->static_smem = (uint32_t)sz;
    }
    return read_kernel_info(kinfo, k);
}

/* Reads a cubin.
 * - the ELF layer's checks and e_machine == EM_CUDA; an SM version in [10, 255]
 * - a .symtab that passes arch_elf_symtab_open
 * - every kernel (a .nv.info.<kernel> section) passes read_kernel
 * Returns ARCH_OK or the error. */
arch_status arch_read_cubin(arch_builder *b, const uint8_t *data, size_t len)
{
    arch_elf e;
    arch_elf_symtab syms;
    const arch_elf_section *st, *ginfo;
    unsigned sm;
    uint32_t reserved = 0;
    size_t i;
    arch_status s = arch_elf_open(&e, data, len);

    if (s != ARCH_OK)
        return s;
    sm = arch_cubin_sm(e.osabi, e.flags);
    st = arch_elf_section_by_type(&e, ARCH_SHT_SYMTAB);
    if (e.machine != ARCH_EM_CUDA || sm < 10 || !st)
        s = ARCH_ERR_CORRUPT;
    if (s == ARCH_OK)
        s = arch_elf_symtab_open(&e, st, &syms);
    ginfo = arch_elf_section_by_name(&e, ".nv.info");
    for (i = 0; i < e.nsec; i++)
        if (strncmp(e.sec[i].name, ".nv.shared.reserved.", strlen(".nv.shared.reserved.")) == 0)
            reserved = CUBIN_RESERVED_SMEM;
    for (i = 0; i < e.nsec && s == ARCH_OK; i++)
        if (strncmp(e.sec[i].name, ".nv.info.", strlen(".nv.info.")) == 0 && e.sec[i].name[9])
            s = read_kernel(b, &e, &syms, ginfo, &e.sec[i], sm, reserved);
    arch_elf_close(&e);
    return s;
}
