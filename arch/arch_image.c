/* arch_image.c: format detection, the kernel list builder, arch_image_parse/free/find. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_cursor.h"
#include "arch_elf.h"
#include "arch_reader.h"

void arch_builder_init(arch_builder *b)
{
    memset(b, 0, sizeof(*b));
}

void arch_builder_discard(arch_builder *b)
{
    free(b->img.kernels);
    free(b->img.skipped);
    arch_builder_init(b);
}

/* Grows an array to hold one more element. Doubling from 8 keeps appends amortised O(1). */
static arch_status grow(void **arr, size_t *cap, size_t n, size_t elem, size_t max)
{
    size_t ncap;
    void *p;

    if (n >= max)
        return ARCH_ERR_LIMIT;
    if (n < *cap)
        return ARCH_OK;
    ncap = *cap ? *cap * 2 : 8;
    if (ncap > max)
        ncap = max;
    p = realloc(*arr, ncap * elem);
    if (!p)
        return ARCH_ERR_NOMEM;
    *arr = p;
    *cap = ncap;
    return ARCH_OK;
}

arch_status arch_builder_kernel(arch_builder *b, arch_kernel **out)
{
    arch_kernel *k;
    void *arr = b->img.kernels;
    arch_status s = grow(&arr, &b->cap_kernels, b->img.n_kernels, sizeof(arch_kernel), ARCH_MAX_KERNELS);

    b->img.kernels = arr;
    if (s != ARCH_OK)
        return s;
    k = &b->img.kernels[b->img.n_kernels++];
    memset(k, 0, sizeof(*k));
    k->agprs = -1;
    k->vgpr_spills = -1;
    k->sgpr_spills = -1;
    *out = k;
    return ARCH_OK;
}

arch_status arch_builder_skip(arch_builder *b, const char *fmt, ...)
{
    va_list ap;
    void *arr = b->img.skipped;
    arch_status s = grow(&arr, &b->cap_skipped, b->img.n_skipped, sizeof(*b->img.skipped), ARCH_MAX_SKIPPED);

    b->img.skipped = arr;
    if (s != ARCH_OK)
        return s;
    va_start(ap, fmt);
    vsnprintf(b->img.skipped[b->img.n_skipped], sizeof(*b->img.skipped), fmt, ap);
    va_end(ap);
    b->img.n_skipped++;
    return ARCH_OK;
}

void arch_copy_name(char *dst, size_t cap, const void *src, size_t n)
{
    size_t i;
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
    /* names end up in reports: keep them printable */
    for (i = 0; i < n; i++)
        if ((unsigned char)dst[i] < 0x20 || (unsigned char)dst[i] == 0x7f)
            dst[i] = '?';
}

/* Reads an ELF host object, executable or shared library through its embedded device code.
 * - .hip_fatbin, when present with data, holds clang offload bundles
 * - .nv_fatbin, when present with data, holds NVIDIA fatbins
 * Returns ARCH_ERR_UNSUPPORTED when neither is there. */
static arch_status read_host_elf(arch_builder *b, const arch_elf *e)
{
    const arch_elf_section *hip = arch_elf_section_by_name(e, ".hip_fatbin");
    const arch_elf_section *nv = arch_elf_section_by_name(e, ".nv_fatbin");
    arch_status s = ARCH_OK;

    if ((!hip || !hip->data) && (!nv || !nv->data))
        return ARCH_ERR_UNSUPPORTED;
    if (hip && hip->data)
        s = arch_read_bundles(b, hip->data, (size_t)hip->size);
    if (s == ARCH_OK && nv && nv->data)
        s = arch_read_fatbins(b, nv->data, (size_t)nv->size);
    return s;
}

arch_status arch_read_any(arch_builder *b, const uint8_t *data, size_t len)
{
    static const char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__";
    arch_elf e;
    arch_status s;

    if (len >= sizeof(bundle_magic) - 1 && memcmp(data, bundle_magic, sizeof(bundle_magic) - 1) == 0)
        return arch_read_bundles(b, data, len);
    if (len >= 4 && memcmp(data, "CCOB", 4) == 0)
        return arch_read_bundles(b, data, len);
    if (len >= 4 && arch_le32(data) == 0xBA55ED50u)
        return arch_read_fatbins(b, data, len);
    if (!arch_elf_is_elf(data, len))
        return ARCH_ERR_UNSUPPORTED;
    s = arch_elf_open(&e, data, len);
    if (s != ARCH_OK)
        return s;
    if (e.machine == ARCH_EM_AMDGPU)
        s = arch_read_amdgpu(b, data, len, NULL);
    else if (e.machine == ARCH_EM_CUDA)
        s = arch_read_cubin(b, data, len);
    else
        s = read_host_elf(b, &e);
    arch_elf_close(&e);
    return s;
}

arch_status arch_image_parse(const void *data, size_t len, arch_image *out)
{
    arch_builder b;
    arch_status s;

    if (!out)
        return ARCH_ERR_INVALID;
    memset(out, 0, sizeof(*out));
    if (!data)
        return ARCH_ERR_INVALID;
    arch_builder_init(&b);
    s = arch_read_any(&b, (const uint8_t *)data, len);
    if (s != ARCH_OK) {
        arch_builder_discard(&b);
        return s;
    }
    *out = b.img;
    return ARCH_OK;
}

void arch_image_free(arch_image *img)
{
    if (!img)
        return;
    free(img->kernels);
    free(img->skipped);
    memset(img, 0, sizeof(*img));
}

/* Length of a target's base name: up to the first ':' and, for NVIDIA "sm_NN", without a
 * trailing architecture-specific suffix letter ("sm_90a" -> "sm_90", "sm_100f" -> "sm_100"). */
static size_t base_len(const char *t)
{
    size_t n = strcspn(t, ":");
    if (n > 3 && strncmp(t, "sm_", 3) == 0 && (t[n - 1] == 'a' || t[n - 1] == 'f'))
        n--;
    return n;
}

const arch_kernel *arch_image_find(const arch_image *img, const char *base_target, const char *kernel)
{
    size_t i, bl;

    if (!img || !base_target || !kernel || (img->n_kernels && !img->kernels))
        return NULL;
    bl = base_len(base_target);
    for (i = 0; i < img->n_kernels; i++) {
        const arch_kernel *k = &img->kernels[i];
        if (strcmp(k->name, kernel) == 0 && base_len(k->target) == bl &&
            strncmp(k->target, base_target, bl) == 0)
            return k;
    }
    return NULL;
}
