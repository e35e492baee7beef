/* fuzz_check.h: invariants every fuzz target checks on a successful parse. The checks stay on
 * under NDEBUG: they abort, which libFuzzer and the regression driver both report. */
#ifndef HIPSOFTMAX_TESTS_FUZZ_CHECK_H_8D3F62
#define HIPSOFTMAX_TESTS_FUZZ_CHECK_H_8D3F62

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "arch_reader.h"

#define FUZZ_ASSERT(cond)                                                              \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                   \
        }                                                                              \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_check_status(arch_status s)
{
    FUZZ_ASSERT(s == ARCH_OK || s == ARCH_ERR_CORRUPT || s == ARCH_ERR_UNSUPPORTED || s == ARCH_ERR_LIMIT ||
                s == ARCH_ERR_NOMEM);
    FUZZ_ASSERT(strcmp(arch_status_string(s), "unknown status") != 0);
}

/* The error record agrees with the status: every failure says what failed, and where, inside the
 * input; a success records nothing. */
static inline void fuzz_check_error(arch_status s, const arch_error *e, size_t size)
{
    char line[512];
    FUZZ_ASSERT(e->status == s);
    FUZZ_ASSERT(e->what != NULL);
    FUZZ_ASSERT(s == ARCH_OK || e->what[0] != 0);
    FUZZ_ASSERT(e->offset >= -1 && (e->offset < 0 || (uint64_t)e->offset <= size));
    FUZZ_ASSERT(e->sys_errno == 0 && e->size == -1);
    FUZZ_ASSERT(strlen(arch_error_format(e, line, sizeof line)) > 0);
}

/* Every value a successful parse reports lies within the hardware limits, names are terminated,
 * every kernel can be found again by its own name and target, and a kernel whose target the
 * tables know is found for that target's device (itself, or an earlier kernel of that name). */
static inline void fuzz_check_image(const arch_image *img)
{
    size_t i;
    FUZZ_ASSERT(img->n_kernels <= ARCH_MAX_KERNELS && img->n_skipped <= ARCH_MAX_SKIPPED);
    FUZZ_ASSERT((img->n_kernels == 0) == (img->kernels == NULL) || img->kernels != NULL);
    for (i = 0; i < img->n_kernels; i++) {
        const arch_kernel *k = &img->kernels[i];
        FUZZ_ASSERT(memchr(k->name, 0, sizeof(k->name)) && memchr(k->target, 0, sizeof(k->target)));
        FUZZ_ASSERT(k->vendor == ARCH_VENDOR_AMD || k->vendor == ARCH_VENDOR_NVIDIA);
        FUZZ_ASSERT(k->vgprs >= 0 && k->vgprs <= ARCH_MAX_VGPRS && k->regs == k->vgprs);
        FUZZ_ASSERT(k->agprs >= -1 && k->agprs <= ARCH_MAX_AGPRS);
        FUZZ_ASSERT(k->sgprs >= 0 && k->sgprs <= ARCH_MAX_SGPRS);
        FUZZ_ASSERT(k->static_smem <= ARCH_MAX_STATIC_SMEM);
        FUZZ_ASSERT(k->max_block >= 0 && k->max_block <= ARCH_MAX_BLOCK);
        FUZZ_ASSERT(k->vgpr_spills >= -1 && k->sgpr_spills >= -1);
        FUZZ_ASSERT(k->descriptor_mismatch == 0 || k->descriptor_mismatch == 1);
        if (k->vendor == ARCH_VENDOR_NVIDIA) {
            FUZZ_ASSERT(k->wave_size == 32 && k->regs <= ARCH_MAX_NV_REGS && k->agprs == -1);
            FUZZ_ASSERT(strncmp(k->target, "sm_", 3) == 0);
        } else {
            FUZZ_ASSERT(k->wave_size == 32 || k->wave_size == 64);
        }
        FUZZ_ASSERT(arch_image_find(img, k->target, k->name) != NULL);
        {
            arch_device dev;
            if (arch_target_lookup(k->target, 0, &dev) == ARCH_OK && dev.vendor == k->vendor) {
                const arch_kernel *f = arch_image_find_for_device(img, &dev, k->name);
                FUZZ_ASSERT(f != NULL && f->vendor == k->vendor && strcmp(f->name, k->name) == 0);
            }
        }
    }
    for (i = 0; i < img->n_skipped; i++)
        FUZZ_ASSERT(memchr(img->skipped[i], 0, sizeof(img->skipped[i])) != NULL);
}

/* Runs one per-format reader the way arch_image_parse does, then checks the result. */
static inline void fuzz_run_reader(arch_status (*reader)(arch_builder *, const uint8_t *, size_t),
                            const uint8_t *data, size_t size)
{
    arch_builder b;
    arch_status s;
    arch_builder_init(&b);
    s = reader(&b, size ? data : (const uint8_t *)"", size);
    fuzz_check_status(s);
    fuzz_check_error(s, &b.work.err, size);
    /* index as arch_image_parse does: the checks look every kernel up */
    if (s == ARCH_OK && arch_image_index_build(&b.img) == ARCH_OK)
        fuzz_check_image(&b.img);
    arch_builder_discard(&b);
}

#endif /* HIPSOFTMAX_TESTS_FUZZ_CHECK_H_8D3F62 */
