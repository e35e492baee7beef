/* softmax.c: the softmax entry points: validate, plan, launch. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Everything after validation: the device check, the plan, the launch. */
static hipsoftmax_status run(struct hipsoftmax_context *h, const hsm_call *call)
{
    HSM_RETURN_IF(h->device < 0, HIPSOFTMAX_STATUS_NO_DEVICE);
    hsm_plan plan;
    HSM_FORWARD_IF_ERROR(hsm_plan_get(h, call, &plan));
    return hsm_device_launch(h, &plan, call);
}

hipsoftmax_status hipsoftmax_forward(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *x, void *y)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    const void *const ptrs[2] = {x, y};
    hsm_call call;
    const hipsoftmax_status v = hsm_validate(p, HSM_OP_FORWARD, ptrs, &call);
    if (v != HSM_CONTINUE)
        return v;
    return run(h, &call);
}

hipsoftmax_status hipsoftmax_backward(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *y,
                                      const void *dy, void *dx)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    const void *const ptrs[3] = {y, dy, dx};
    hsm_call call;
    const hipsoftmax_status v = hsm_validate(p, HSM_OP_BACKWARD, ptrs, &call);
    if (v != HSM_CONTINUE)
        return v;
    return run(h, &call);
}

hipsoftmax_status hipsoftmax_forward_stats(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *x)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    const void *const ptrs[1] = {x};
    hsm_call call;
    const hipsoftmax_status v = hsm_validate(p, HSM_OP_FORWARD_STATS, ptrs, &call);
    if (v != HSM_CONTINUE)
        return v;
    return run(h, &call);
}

hipsoftmax_status hipsoftmax_backward_stats(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *y,
                                            const void *dy)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    const void *const ptrs[2] = {y, dy};
    hsm_call call;
    const hipsoftmax_status v = hsm_validate(p, HSM_OP_BACKWARD_STATS, ptrs, &call);
    if (v != HSM_CONTINUE)
        return v;
    return run(h, &call);
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

/* The fields of hipsoftmax_plan_info every caller has: up to and including family. */
#define HSM_PLAN_INFO_MIN (offsetof(hipsoftmax_plan_info, family) + sizeof(hipsoftmax_family))

static hipsoftmax_status get_plan(struct hipsoftmax_context *h, const hipsoftmax_problem *p, hsm_op op,
                                  hipsoftmax_plan_info *info)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(info == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(info->struct_size < HSM_PLAN_INFO_MIN || info->struct_size > HSM_MAX_STRUCT_SIZE,
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    hsm_call call;
    const hipsoftmax_status v = hsm_validate(p, op, NULL, &call);
    if (v != HSM_CONTINUE)
        return v;
    hsm_plan plan;
    HSM_FORWARD_IF_ERROR(hsm_plan_get(h, &call, &plan));
    hipsoftmax_plan_info full;
    memset(&full, 0, sizeof full);
    full.family = (hipsoftmax_family)plan.ks->k->family;
    snprintf(full.kernel, sizeof full.kernel, "%s", plan.ks->k->name);
    full.block = plan.block;
    full.grid = plan.grid;
    full.blocks_per_row = plan.blocks_per_row;
    full.group_width = plan.group_width;
    full.regs = plan.ks->meta.regs;
    full.static_smem = (int)plan.ks->meta.static_smem;
    full.metadata_from_code_object = plan.ks->meta_from_code_object;
    full.dynamic_smem = (int)plan.smem_bytes;
    full.num_cus = h->dev.num_cus;
    arch_occupancy occ;
    if (arch_occupancy_exact(&h->dev, &plan.ks->meta, plan.block, plan.smem_bytes, NULL, &occ) == ARCH_OK)
        full.blocks_per_cu = occ.blocks_per_cu;
    return hsm_struct_out(info, info->struct_size, &full, sizeof full, HSM_PLAN_INFO_MIN);
}

hipsoftmax_status hipsoftmax_get_plan(hipsoftmax_handle h, const hipsoftmax_problem *p, hipsoftmax_plan_info *info)
{
    return get_plan(h, p, HSM_OP_FORWARD, info);
}

hipsoftmax_status hipsoftmax_get_backward_plan(hipsoftmax_handle h, const hipsoftmax_problem *p,
                                               hipsoftmax_plan_info *info)
{
    return get_plan(h, p, HSM_OP_BACKWARD, info);
}
