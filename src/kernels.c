/* kernels.c: the handle's table of kernels, with the registers and LDS of each read from the
 * library's own code objects (the fat binary embedded in this shared library), so that the plan
 * sizes grids from what the compiler actually produced for the device's target. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The library's own file is read whole; no build of it comes near this size. */
#define HSM_MAX_SELF_BYTES ((size_t)1 << 30)

/* Parses the file this function lives in. Returns ARCH_OK and fills *img, or an error (the library
 * then falls back to the runtime's attributes). */
static arch_status parse_self(arch_image *img)
{
    Dl_info info;
    if (dladdr((void *)&hsm_kernels_load, &info) == 0 || info.dli_fname == NULL)
        return ARCH_ERR_NOT_FOUND;
    size_t len = 0;
    void *bytes = NULL;
    arch_error err;
    /* A regular file of bounded size, checked before it is read (arch_read_file). */
    if (arch_read_file(info.dli_fname, HSM_MAX_SELF_BYTES, &bytes, &len, &err) != ARCH_OK)
        return ARCH_ERR_NOT_FOUND;
    const arch_status st = arch_image_parse(bytes, len, img);
    free(bytes);
    return st;
}

static size_t count_all(void)
{
    size_t total = 0, n;
    hsm_warp_kernels(&n);
    total += n;
    hsm_row_kernels(&n);
    total += n;
    hsm_online_kernels(&n);
    total += n;
    hsm_split_kernels(&n);
    total += n;
    hsm_channel_kernels(&n);
    total += n;
    return total;
}

hipsoftmax_status hsm_kernels_load(struct hipsoftmax_context *h)
{
    const size_t total = count_all();
    h->kernels = calloc(total, sizeof *h->kernels);
    HSM_RETURN_IF(h->kernels == NULL, HIPSOFTMAX_STATUS_OUT_OF_MEMORY);
    const hsm_kernel *(*tables[])(size_t *) = {hsm_warp_kernels, hsm_row_kernels, hsm_online_kernels,
                                                hsm_split_kernels, hsm_channel_kernels};
    size_t at = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        size_t n = 0;
        const hsm_kernel *ks = tables[t](&n);
        for (size_t i = 0; i < n; i++)
            h->kernels[at++].k = &ks[i];
    }
    h->n_kernels = at;

    arch_image img;
    memset(&img, 0, sizeof img);
    const int have_image = parse_self(&img) == ARCH_OK;
    for (size_t i = 0; i < h->n_kernels; i++) {
        hsm_kernel_state *s = &h->kernels[i];
        /* The code the runtime loads on this device (an sm_86 GPU runs sm_80 code), found with the one
         * target-name normaliser that also names the device's model. */
        const arch_kernel *m = have_image ? arch_image_find_for_device(&img, &h->dev, s->k->name) : NULL;
        if (m != NULL) {
            s->meta = *m;
            s->have_meta = 1;
            s->meta_from_code_object = 1;
        } else if (h->device >= 0) {
            int regs = 0, smem = 0;
            if (hsm_device_func_attributes(h, s->k->func, &regs, &smem) == HIPSOFTMAX_STATUS_SUCCESS) {
                memset(&s->meta, 0, sizeof s->meta);
                snprintf(s->meta.name, sizeof s->meta.name, "%s", s->k->name);
                s->meta.vendor = h->dev.vendor;
                s->meta.regs = s->meta.vgprs = regs;
                s->meta.static_smem = (uint32_t)smem;
                s->meta.wave_size = h->dev.warp_size;
                s->have_meta = 1;
            }
        }
    }
    arch_image_free(&img);
    /* A target this library has no kernels for (another vendor's, or a GPU it was not built for and
     * cannot run): a handle would plan nothing. */
    int usable = 0;
    for (size_t i = 0; i < h->n_kernels; i++)
        usable |= h->kernels[i].have_meta;
    HSM_RETURN_IF(!usable, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    if (h->device >= 0) {
        for (size_t i = 0; i < h->n_kernels; i++) {
            const hsm_kernel_state *s = &h->kernels[i];
            if (s->have_meta && h->dev.smem_per_block_optin > s->meta.static_smem)
                HSM_FORWARD_IF_ERROR(
                    hsm_device_allow_smem(h, s->k->func, h->dev.smem_per_block_optin - s->meta.static_smem));
        }
    }
    return HIPSOFTMAX_STATUS_SUCCESS;
}

void hsm_kernels_free(struct hipsoftmax_context *h)
{
    free(h->kernels);
    h->kernels = NULL;
    h->n_kernels = 0;
}
