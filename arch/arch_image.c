/* arch_image.c: format detection, the kernel list builder, arch_image_parse/free, and the kernel
 * index behind arch_image_find and arch_image_find_for_device. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_cursor.h"
#include "arch_elf.h"
#include "arch_index.h"
#include "arch_reader.h"

/* The kernels by (name, base target): see arch_image_index_build. */
struct arch_image_index {
    arch_index_entry *e;
    size_t n;
};

void arch_builder_init(arch_builder *b)
{
    memset(b, 0, sizeof(*b));
    arch_work_init(&b->work);
}

void arch_builder_discard(arch_builder *b)
{
    arch_image_free(&b->img);
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
        return arch_fail(b, s, s == ARCH_ERR_LIMIT ? "kernel list (more than 65536 kernels)" : "kernel list", NULL);
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
        return arch_fail(b, s,
                         s == ARCH_ERR_LIMIT ? "list of entries not read (more than 4096)" : "list of entries not read",
                         NULL);
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
    arch_status s = arch_work_status(&b->work);

    if (s != ARCH_OK)
        return s; /* the section lookups ran out of budget */
    if ((!hip || !hip->data) && (!nv || !nv->data))
        return arch_fail(b, ARCH_ERR_UNSUPPORTED, "ELF host file (no .hip_fatbin or .nv_fatbin section)", e->data);
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

    arch_work_begin(&b->work, data, len);
    if (len >= sizeof(bundle_magic) - 1 && memcmp(data, bundle_magic, sizeof(bundle_magic) - 1) == 0)
        return arch_read_bundles(b, data, len);
    if (len >= 4 && memcmp(data, "CCOB", 4) == 0)
        return arch_read_bundles(b, data, len);
    if (len >= 4 && arch_le32(data) == 0xBA55ED50u)
        return arch_read_fatbins(b, data, len);
    if (!arch_elf_is_elf(data, len))
        return arch_fail(b, ARCH_ERR_UNSUPPORTED, "input (not ELF, an offload bundle or a fatbin)", data);
    /* e_machine picks the reader, which validates the whole file itself: device code objects are
     * opened once, not once here and again there */
    if (len >= 20 && arch_le16(data + 18) == ARCH_EM_AMDGPU)
        return arch_read_amdgpu(b, data, len, NULL);
    if (len >= 20 && arch_le16(data + 18) == ARCH_EM_CUDA)
        return arch_read_cubin(b, data, len);
    s = arch_elf_open(&e, &b->work, data, len);
    if (s != ARCH_OK)
        return s;
    s = read_host_elf(b, &e);
    arch_elf_close(&e);
    return s;
}

arch_status arch_image_parse_ex(const void *data, size_t len, arch_image *out, arch_error *err)
{
    arch_builder b;
    arch_status s;

    arch_builder_init(&b);
    if (out)
        memset(out, 0, sizeof(*out));
    if (!out || !data) {
        s = arch_fail(&b, ARCH_ERR_INVALID, "arch_image_parse (NULL argument)", NULL);
    } else {
        s = arch_read_any(&b, (const uint8_t *)data, len);
        if (s == ARCH_OK && (s = arch_image_index_build(&b.img)) != ARCH_OK)
            arch_fail(&b, s, "kernel index", NULL);
    }
    if (s != ARCH_OK) {
        /* every reader records where it failed; a path that did not still reports its status */
        if (b.work.err.status == ARCH_OK)
            arch_fail(&b, s, "input", NULL);
        s = b.work.err.status;
    }
    if (err)
        *err = b.work.err;
    if (s != ARCH_OK) {
        arch_builder_discard(&b);
        return s;
    }
    *out = b.img;
    return ARCH_OK;
}

arch_status arch_image_parse(const void *data, size_t len, arch_image *out)
{
    return arch_image_parse_ex(data, len, out, NULL);
}

static void index_free(arch_image *img)
{
    if (img->index) {
        free(img->index->e);
        free(img->index);
        img->index = NULL;
    }
}

void arch_image_free(arch_image *img)
{
    if (!img)
        return;
    index_free(img);
    free(img->kernels);
    free(img->skipped);
    memset(img, 0, sizeof(*img));
}

/* The base name lookups compare (arch_target_base), or, for a spelling that has none ("", ":x"),
 * the spelling itself, so that every kernel can be found by its own target. Returns 0 when
 * neither fits in out (ARCH_TARGET_KEY bytes): such a spelling matches no kernel. */
#define ARCH_TARGET_KEY 80
static int target_key(const char *target, char *out)
{
    size_t n;
    arch_status s = arch_target_base(target, out, ARCH_TARGET_KEY);
    if (s == ARCH_OK)
        return 1;
    n = strlen(target);
    if (s == ARCH_ERR_LIMIT || n >= ARCH_TARGET_KEY)
        return 0;
    memcpy(out, target, n + 1);
    return 1;
}

/* The index key of (kernel name, target key): the name, a NUL, then the target key. */
static void kernel_key(const char *name, const char *key, uint64_t *hash, uint64_t *len)
{
    size_t nl = strlen(name), kl = strlen(key);
    *hash = arch_hash(arch_hash(ARCH_HASH_INIT, name, nl + 1), key, kl);
    *len = nl + 1 + kl;
}

/* Indexes the kernels by (name, target key). Kernel names and targets are bounded arrays (255 and
 * 63 characters), so building costs O(n log n) and a lookup O(log n) plus the run of kernels with
 * the same name and base target (one per target feature variant in real files). */
arch_status arch_image_index_build(arch_image *img)
{
    struct arch_image_index *ix;
    size_t i;

    if (!img)
        return ARCH_ERR_INVALID;
    index_free(img);
    if (img->n_kernels == 0)
        return ARCH_OK;
    ix = calloc(1, sizeof(*ix));
    if (!ix)
        return ARCH_ERR_NOMEM;
    ix->e = malloc(img->n_kernels * sizeof(*ix->e));
    if (!ix->e) {
        free(ix);
        return ARCH_ERR_NOMEM;
    }
    for (i = 0; i < img->n_kernels; i++) {
        const arch_kernel *k = &img->kernels[i];
        char key[ARCH_TARGET_KEY];
        /* k->target is at most 63 characters: its key always fits */
        if (!target_key(k->target, key))
            key[0] = 0;
        kernel_key(k->name, key, &ix->e[ix->n].hash, &ix->e[ix->n].len);
        ix->e[ix->n].pos = i;
        ix->n++;
    }
    arch_index_sort(ix->e, ix->n);
    img->index = ix;
    return ARCH_OK;
}

/* 1 when k is named name, its target's key is key, and its vendor is vendor (UNKNOWN: any). */
static int kernel_matches(const arch_kernel *k, const char *name, const char *key, arch_vendor vendor)
{
    char kk[ARCH_TARGET_KEY];
    if (strcmp(k->name, name) != 0 || (vendor != ARCH_VENDOR_UNKNOWN && k->vendor != vendor))
        return 0;
    return target_key(k->target, kk) && strcmp(kk, key) == 0;
}

static const arch_kernel *image_find(const arch_image *img, const char *target, const char *kernel,
                                     arch_vendor vendor)
{
    char key[ARCH_TARGET_KEY];
    size_t i;

    if (!img || !target || !kernel || (img->n_kernels && !img->kernels) || !target_key(target, key))
        return NULL;
    if (img->index) {
        const struct arch_image_index *ix = img->index;
        uint64_t h, l;
        kernel_key(kernel, key, &h, &l);
        for (i = arch_index_first(ix->e, ix->n, h, l); i < ix->n && ix->e[i].hash == h && ix->e[i].len == l; i++)
            if (kernel_matches(&img->kernels[ix->e[i].pos], kernel, key, vendor))
                return &img->kernels[ix->e[i].pos];
        return NULL;
    }
    for (i = 0; i < img->n_kernels; i++)
        if (kernel_matches(&img->kernels[i], kernel, key, vendor))
            return &img->kernels[i];
    return NULL;
}

const arch_kernel *arch_image_find(const arch_image *img, const char *target, const char *kernel)
{
    return image_find(img, target, kernel, ARCH_VENDOR_UNKNOWN);
}

/* NVIDIA numbers targets major * 10 + minor (sm_86 is 8.6, sm_100 10.0, sm_121 12.1): a minor
 * is one digit. */
#define ARCH_NV_MAX_MINOR 9

const arch_kernel *arch_image_find_for_device(const arch_image *img, const arch_device *dev, const char *kernel)
{
    if (!img || !dev || !kernel)
        return NULL;
    if (dev->vendor == ARCH_VENDOR_AMD)
        return image_find(img, dev->name, kernel, ARCH_VENDOR_AMD);
    if (dev->vendor != ARCH_VENDOR_NVIDIA || dev->cc_major <= 0 || dev->cc_major > 99 || dev->cc_minor < 0)
        return NULL;
    /* SASS runs on devices of its major and an equal or higher minor: the runtime loads the
     * highest minor that does not exceed the device's, so try from the device's minor down */
    for (int m = dev->cc_minor > ARCH_NV_MAX_MINOR ? ARCH_NV_MAX_MINOR : dev->cc_minor; m >= 0; m--) {
        char t[8] = "sm_";
        size_t at = 3;
        const arch_kernel *k;
        /* "sm_<major><minor>", major 1-99 (checked above): written directly, lookups are hot */
        if (dev->cc_major >= 10)
            t[at++] = (char)('0' + dev->cc_major / 10);
        t[at++] = (char)('0' + dev->cc_major % 10);
        t[at++] = (char)('0' + m);
        t[at] = '\0';
        k = image_find(img, t, kernel, ARCH_VENDOR_NVIDIA);
        if (k)
            return k;
    }
    return NULL;
}
