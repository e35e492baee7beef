/* softmax.c: the softmax entry points: validate, plan, launch. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

void hipsoftmax_problem_init(hipsoftmax_problem *p, hipsoftmax_dtype dtype, int64_t rows, int64_t cols)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->algorithm = HIPSOFTMAX_ALGO_SOFTMAX;
    p->mode = HIPSOFTMAX_MODE_ROW;
    p->x_dtype = p->y_dtype = dtype;
    p->rows = rows;
    p->cols = cols;
    p->x_row_stride = p->y_row_stride = cols;
    p->inner = 1;
    p->scale = 1.0f;
    p->alpha = 1.0f;
    p->beta = 0.0f;
    p->mask = HIPSOFTMAX_MASK_NONE;
    p->mask_dtype = dtype;
}

hipsoftmax_status hipsoftmax_forward(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *x, void *y)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    const hipsoftmax_status v = hsm_validate(p, x, y);
    if (v != HSM_CONTINUE)
        return v;
    HSM_RETURN_IF(h->device < 0, HIPSOFTMAX_STATUS_NO_DEVICE);
    hsm_plan plan;
    HSM_FORWARD_IF_ERROR(hsm_plan_get(h, p, x, y, &plan));
    return hsm_device_launch(h, &plan, x, y, p);
}

hipsoftmax_status hipsoftmax_backward(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *y,
                                      const void *dy, void *dx)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    const hipsoftmax_status v = hsm_validate(p, y, dx);
    if (v != HSM_CONTINUE)
        return v;
    HSM_RETURN_IF(dy == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF((uintptr_t)dy % hsm_dtype_size(p->x_dtype) != 0, HIPSOFTMAX_STATUS_MISALIGNED);
    return HIPSOFTMAX_STATUS_NOT_SUPPORTED;
}

hipsoftmax_status hipsoftmax_softmax(hipsoftmax_handle h, hipsoftmax_dtype dtype, int64_t rows, int64_t cols,
                                     const void *x, int64_t x_row_stride, void *y, int64_t y_row_stride)
{
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, dtype, rows, cols);
    p.x_row_stride = x_row_stride;
    p.y_row_stride = y_row_stride;
    return hipsoftmax_forward(h, &p, x, y);
}

hipsoftmax_status hipsoftmax_get_plan(hipsoftmax_handle h, const hipsoftmax_problem *p, hipsoftmax_plan_info *info)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(info == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    /* Plans for distinct buffers aligned as the allocators give them (256 bytes): the layout most
     * callers have. */
    const void *x = (const void *)(uintptr_t)256, *y = (const void *)((uintptr_t)1 << 62);
    const hipsoftmax_status v = hsm_validate(p, x, y);
    if (v != HSM_CONTINUE)
        return v;
    hsm_plan plan;
    HSM_FORWARD_IF_ERROR(hsm_plan_get(h, p, x, y, &plan));
    memset(info, 0, sizeof *info);
    info->family = (hipsoftmax_family)plan.ks->k->family;
    snprintf(info->kernel, sizeof info->kernel, "%s", plan.ks->k->name);
    info->block = plan.block;
    info->grid = plan.grid;
    info->blocks_per_row = plan.blocks_per_row;
    info->group_width = plan.group_width;
    info->regs = plan.ks->meta.regs;
    info->static_smem = (int)plan.ks->meta.static_smem;
    info->metadata_from_code_object = plan.ks->meta_from_code_object;
    info->dynamic_smem = (int)plan.smem_bytes;
    info->num_cus = h->dev.num_cus;
    arch_occupancy occ;
    if (arch_occupancy_exact(&h->dev, &plan.ks->meta, plan.block, plan.smem_bytes, NULL, &occ) == ARCH_OK)
        info->blocks_per_cu = occ.blocks_per_cu;
    return HIPSOFTMAX_STATUS_SUCCESS;
}
