/* handle.c: creating and configuring handles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static hipsoftmax_status new_context(struct hipsoftmax_context **out)
{
    struct hipsoftmax_context *h = calloc(1, sizeof *h);
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_OUT_OF_MEMORY);
    h->device = -1;
    h->forced = HIPSOFTMAX_FAMILY_AUTO;
    *out = h;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status destroy(hipsoftmax_handle h)
{
    if (h == NULL)
        return HIPSOFTMAX_STATUS_SUCCESS;
    hsm_device_close(h);
    hsm_kernels_free(h);
    free(h);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status create(hipsoftmax_handle *out, int device)
{
    HSM_RETURN_IF(out == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    *out = NULL;
    struct hipsoftmax_context *h;
    HSM_FORWARD_IF_ERROR(new_context(&h));
    hipsoftmax_status st = hsm_device_open(h, device);
    if (st == HIPSOFTMAX_STATUS_SUCCESS)
        st = hsm_kernels_load(h);
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        destroy(h);
        return st;
    }
    *out = h;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status create_for_device(hipsoftmax_handle *out, int device)
{
    HSM_RETURN_IF(out == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    *out = NULL;
    HSM_RETURN_IF(device < 0, HIPSOFTMAX_STATUS_INVALID_VALUE);
    return create(out, device);
}

static hipsoftmax_status create_offline(hipsoftmax_handle *out, const char *target)
{
    HSM_RETURN_IF(out == NULL || target == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    *out = NULL;
    arch_device dev;
    HSM_RETURN_IF(arch_target_lookup(target, 0, &dev) != ARCH_OK, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    struct hipsoftmax_context *h;
    HSM_FORWARD_IF_ERROR(new_context(&h));
    h->dev = dev;
    snprintf(h->target, sizeof h->target, "%s", target);
    /* A device of this target would support cooperative launches (every supported one does). */
    h->cooperative = 1;
    const hipsoftmax_status st = hsm_kernels_load(h);
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        destroy(h);
        return st;
    }
    *out = h;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status set_stream(hipsoftmax_handle h, hipsoftmax_stream stream)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    h->stream = stream;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status get_stream(hipsoftmax_handle h, hipsoftmax_stream *stream)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(stream == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    *stream = h->stream;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status get_target(hipsoftmax_handle h, char *buf, size_t size)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(buf == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(size == 0, HIPSOFTMAX_STATUS_INVALID_SIZE);
    snprintf(buf, size, "%s", h->target);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status set_family(hipsoftmax_handle h, hipsoftmax_family family)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF((int)family < HIPSOFTMAX_FAMILY_AUTO || (int)family > HIPSOFTMAX_FAMILY_CHANNEL,
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    h->forced = family;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status set_kernel(hipsoftmax_handle h, const char *name)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    int known = name == NULL;
    for (size_t i = 0; !known && i < h->n_kernels; i++)
        known = strcmp(h->kernels[i].k->name, name) == 0;
    HSM_RETURN_IF(!known, HIPSOFTMAX_STATUS_INVALID_VALUE);
    snprintf(h->forced_kernel, sizeof h->forced_kernel, "%s", name != NULL ? name : "");
    memset(h->plans, 0, sizeof h->plans); /* cached plans were made under the old choice */
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status kernel_count(hipsoftmax_handle h, size_t *count)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(count == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    *count = h->n_kernels;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* The fields of hipsoftmax_kernel_info every caller has: up to and including name. */
#define HSM_KERNEL_INFO_MIN (offsetof(hipsoftmax_kernel_info, name) + sizeof(((hipsoftmax_kernel_info *)0)->name))

static hipsoftmax_status get_kernel_info(hipsoftmax_handle h, size_t index, hipsoftmax_kernel_info *out)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(out == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(out->struct_size < HSM_KERNEL_INFO_MIN || out->struct_size > HSM_MAX_STRUCT_SIZE,
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    HSM_RETURN_IF(index >= h->n_kernels, HIPSOFTMAX_STATUS_INVALID_VALUE);
    const hsm_kernel_state *s = &h->kernels[index];
    hipsoftmax_kernel_info full, *info = &full;
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", s->k->name);
    info->function = s->k->func;
    info->family = (hipsoftmax_family)s->k->family;
    info->regs = s->meta.regs;
    info->static_smem = (int)s->meta.static_smem;
    info->metadata_from_code_object = s->meta_from_code_object;
    /* The block sizes plan.c may choose for the family. */
    switch (s->k->family) {
    case HSM_FAMILY_WARP:
    case HSM_FAMILY_ONLINE: info->min_block = info->max_block = s->k->max_block; info->block_step = 1; break;
    case HSM_FAMILY_ROW: info->min_block = h->dev.warp_size; info->max_block = s->k->max_block;
        info->block_step = h->dev.warp_size; break;
    case HSM_FAMILY_SPLIT: info->min_block = 128; info->max_block = s->k->max_block; info->block_step = 128; break;
    case HSM_FAMILY_CHANNEL: info->min_block = h->dev.warp_size; info->max_block = s->k->max_block;
        info->block_step = h->dev.warp_size; break;
    }
    return hsm_struct_out(out, out->struct_size, info, sizeof *info, HSM_KERNEL_INFO_MIN);
}

static hipsoftmax_status kernel_occupancy(hipsoftmax_handle h, size_t index, int block, int *blocks_per_cu)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(blocks_per_cu == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(index >= h->n_kernels || block <= 0, HIPSOFTMAX_STATUS_INVALID_VALUE);
    const hsm_kernel_state *s = &h->kernels[index];
    HSM_RETURN_IF(!s->have_meta, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    arch_occupancy occ;
    HSM_RETURN_IF(arch_occupancy_exact(&h->dev, &s->meta, block, 0, NULL, &occ) != ARCH_OK,
                  HIPSOFTMAX_STATUS_INTERNAL_ERROR);
    *blocks_per_cu = occ.blocks_per_cu;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* ---- the public functions: each one above, and its trace line (log.h) ---------------------------- */

/* A handle created, or the status: what a trace shows of *out. */
static const void *created(hipsoftmax_handle *out, hipsoftmax_status st)
{
    return out != NULL && st == HIPSOFTMAX_STATUS_SUCCESS ? (const void *)*out : NULL;
}

hipsoftmax_status hipsoftmax_create(hipsoftmax_handle *out)
{
    const hipsoftmax_status st = create(out, -1);
    HSM_TRACE(st, "out=%p -> %p", (void *)out, created(out, st));
    return st;
}

hipsoftmax_status hipsoftmax_create_for_device(hipsoftmax_handle *out, int device)
{
    const hipsoftmax_status st = create_for_device(out, device);
    HSM_TRACE(st, "out=%p, device=%d -> %p", (void *)out, device, created(out, st));
    return st;
}

hipsoftmax_status hipsoftmax_create_offline(hipsoftmax_handle *out, const char *target)
{
    const hipsoftmax_status st = create_offline(out, target);
    HSM_TRACE(st, "out=%p, target=%s%.64s%s -> %p", (void *)out, target != NULL ? "\"" : "",
              target != NULL ? target : "NULL", target != NULL ? "\"" : "", created(out, st));
    return st;
}

hipsoftmax_status hipsoftmax_destroy(hipsoftmax_handle h)
{
    /* Traced first: the handle's address may be reused as soon as it is freed. */
    HSM_TRACE(HIPSOFTMAX_STATUS_SUCCESS, "handle=%p", (void *)h);
    return destroy(h);
}

hipsoftmax_status hipsoftmax_set_stream(hipsoftmax_handle h, hipsoftmax_stream stream)
{
    const hipsoftmax_status st = set_stream(h, stream);
    HSM_TRACE(st, "handle=%p, stream=%p", (void *)h, stream);
    return st;
}

hipsoftmax_status hipsoftmax_get_stream(hipsoftmax_handle h, hipsoftmax_stream *stream)
{
    const hipsoftmax_status st = get_stream(h, stream);
    HSM_TRACE(st, "handle=%p, stream=%p -> %p", (void *)h, (void *)stream,
              st == HIPSOFTMAX_STATUS_SUCCESS ? *stream : NULL);
    return st;
}

hipsoftmax_status hipsoftmax_get_target(hipsoftmax_handle h, char *buf, size_t size)
{
    const hipsoftmax_status st = get_target(h, buf, size);
    HSM_TRACE(st, "handle=%p, buf=%p, size=%zu -> \"%s\"", (void *)h, (void *)buf, size,
              st == HIPSOFTMAX_STATUS_SUCCESS ? buf : "");
    return st;
}

hipsoftmax_status hipsoftmax_set_family(hipsoftmax_handle h, hipsoftmax_family family)
{
    const hipsoftmax_status st = set_family(h, family);
    HSM_TRACE(st, "handle=%p, family=%d", (void *)h, (int)family);
    return st;
}

hipsoftmax_status hipsoftmax_set_kernel(hipsoftmax_handle h, const char *name)
{
    const hipsoftmax_status st = set_kernel(h, name);
    HSM_TRACE(st, "handle=%p, name=%s%.64s%s", (void *)h, name != NULL ? "\"" : "", name != NULL ? name : "NULL",
              name != NULL ? "\"" : "");
    return st;
}

hipsoftmax_status hipsoftmax_kernel_count(hipsoftmax_handle h, size_t *count)
{
    const hipsoftmax_status st = kernel_count(h, count);
    HSM_TRACE(st, "handle=%p, count=%p -> %zu", (void *)h, (void *)count, st == HIPSOFTMAX_STATUS_SUCCESS ? *count : 0);
    return st;
}

hipsoftmax_status hipsoftmax_get_kernel_info(hipsoftmax_handle h, size_t index, hipsoftmax_kernel_info *out)
{
    const hipsoftmax_status st = get_kernel_info(h, index, out);
    HSM_TRACE(st, "handle=%p, index=%zu, info=%p -> %s", (void *)h, index, (void *)out,
              st == HIPSOFTMAX_STATUS_SUCCESS ? out->name : "");
    return st;
}

hipsoftmax_status hipsoftmax_kernel_occupancy(hipsoftmax_handle h, size_t index, int block, int *blocks_per_cu)
{
    const hipsoftmax_status st = kernel_occupancy(h, index, block, blocks_per_cu);
    HSM_TRACE(st, "handle=%p, index=%zu, block=%d, blocks_per_cu=%p -> %d", (void *)h, index, block,
              (void *)blocks_per_cu, st == HIPSOFTMAX_STATUS_SUCCESS ? *blocks_per_cu : 0);
    return st;
}
