/* softmax.c: the softmax entry points: validate, plan, launch. */
#include <stdio.h>
#include <string.h>

#include "log.h"

/* Everything after validation: the device check, the plan, the launch. *planned: hsm_plan_get's
 * status, or HSM_CONTINUE where the call did not get that far. */
static hipsoftmax_status run(struct hipsoftmax_context *h, const hsm_call *call, hsm_plan *plan,
                             hipsoftmax_status *planned)
{
    HSM_RETURN_IF(h->device < 0, HIPSOFTMAX_STATUS_NO_DEVICE);
    *planned = hsm_plan_get(h, call, plan);
    HSM_FORWARD_IF_ERROR(*planned);
    return hsm_device_launch(h, plan, call);
}

/* One softmax call, its log lines included. ptrs as hsm_validate takes them. */
static hipsoftmax_status softmax_call(const char *fn, struct hipsoftmax_context *h, const hipsoftmax_problem *p,
                                      hsm_op op, const void *const *ptrs)
{
    hsm_call call;
    hsm_plan plan;
    hipsoftmax_status planned = HSM_CONTINUE, st = HIPSOFTMAX_STATUS_INVALID_HANDLE, v = HSM_CONTINUE;
    if (h != NULL) {
        v = hsm_validate(p, op, ptrs, &call);
        st = v != HSM_CONTINUE ? v : run(h, &call, &plan, &planned);
    }
    if (HSM_LOG_ON(HSM_LOG_ALL)) {
        const hsm_log_op lo = {fn, p, op, ptrs, NULL, h != NULL && v == HSM_CONTINUE ? &call : NULL, &plan, planned, st};
        hsm_log_op_lines(h, &lo);
    }
    return st;
}

hipsoftmax_status hipsoftmax_forward(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *x, void *y)
{
    const void *const ptrs[2] = {x, y};
    return softmax_call(__func__, h, p, HSM_OP_FORWARD, ptrs);
}

hipsoftmax_status hipsoftmax_backward(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *y,
                                      const void *dy, void *dx)
{
    const void *const ptrs[3] = {y, dy, dx};
    return softmax_call(__func__, h, p, HSM_OP_BACKWARD, ptrs);
}

hipsoftmax_status hipsoftmax_forward_stats(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *x)
{
    const void *const ptrs[1] = {x};
    return softmax_call(__func__, h, p, HSM_OP_FORWARD_STATS, ptrs);
}

hipsoftmax_status hipsoftmax_backward_stats(hipsoftmax_handle h, const hipsoftmax_problem *p, const void *y,
                                            const void *dy)
{
    const void *const ptrs[2] = {y, dy};
    return softmax_call(__func__, h, p, HSM_OP_BACKWARD_STATS, ptrs);
}

/* Logged as one forward call under its own name (its trace shows the problem it builds). */
hipsoftmax_status hipsoftmax_softmax(hipsoftmax_handle h, hipsoftmax_dtype dtype, int64_t rows, int64_t cols,
                                     const void *x, int64_t x_row_stride, void *y, int64_t y_row_stride)
{
    hipsoftmax_problem p;
    hsm_problem_init(&p, dtype, rows, cols);
    p.x_row_stride = x_row_stride;
    p.y_row_stride = y_row_stride;
    const void *const ptrs[2] = {x, y};
    return softmax_call(__func__, h, &p, HSM_OP_FORWARD, ptrs);
}

/* The fields of hipsoftmax_plan_info every caller has: up to and including family. */
#define HSM_PLAN_INFO_MIN (offsetof(hipsoftmax_plan_info, family) + sizeof(hipsoftmax_family))

/* *call is the validated call and *planned hsm_plan_get's status, where the query got that far. */
static hipsoftmax_status get_plan(struct hipsoftmax_context *h, const hipsoftmax_problem *p, hsm_op op,
                                  hipsoftmax_plan_info *info, hsm_call *call, int *validated, hsm_plan *plan,
                                  hipsoftmax_status *planned)
{
    HSM_RETURN_IF(h == NULL, HIPSOFTMAX_STATUS_INVALID_HANDLE);
    HSM_RETURN_IF(info == NULL, HIPSOFTMAX_STATUS_INVALID_POINTER);
    HSM_RETURN_IF(info->struct_size < HSM_PLAN_INFO_MIN || info->struct_size > HSM_MAX_STRUCT_SIZE,
                  HIPSOFTMAX_STATUS_INVALID_VALUE);
    const hipsoftmax_status v = hsm_validate(p, op, NULL, call);
    if (v != HSM_CONTINUE)
        return v;
    *validated = 1;
    *planned = hsm_plan_get(h, call, plan);
    HSM_FORWARD_IF_ERROR(*planned);
    hipsoftmax_plan_info full;
    memset(&full, 0, sizeof full);
    full.family = (hipsoftmax_family)plan->ks->k->family;
    snprintf(full.kernel, sizeof full.kernel, "%s", plan->ks->k->name);
    full.block = plan->block;
    full.grid = plan->grid;
    full.blocks_per_row = plan->blocks_per_row;
    full.group_width = plan->group_width;
    full.regs = plan->ks->meta.regs;
    full.static_smem = (int)plan->ks->meta.static_smem;
    full.metadata_from_code_object = plan->ks->meta_from_code_object;
    full.dynamic_smem = (int)plan->smem_bytes;
    full.num_cus = h->dev.num_cus;
    arch_occupancy occ;
    if (arch_occupancy_exact(&h->dev, &plan->ks->meta, plan->block, plan->smem_bytes, NULL, &occ) == ARCH_OK)
        full.blocks_per_cu = occ.blocks_per_cu;
    return hsm_struct_out(info, info->struct_size, &full, sizeof full, HSM_PLAN_INFO_MIN);
}

/* A plan query, its log lines included (no bench line: it runs nothing). */
static hipsoftmax_status plan_query(const char *fn, struct hipsoftmax_context *h, const hipsoftmax_problem *p,
                                    hsm_op op, hipsoftmax_plan_info *info)
{
    hsm_call call;
    hsm_plan plan;
    int validated = 0;
    hipsoftmax_status planned = HSM_CONTINUE;
    const hipsoftmax_status st = get_plan(h, p, op, info, &call, &validated, &plan, &planned);
    if (HSM_LOG_ON(HSM_LOG_ALL)) {
        const hsm_log_op lo = {fn, p, op, NULL, info, validated ? &call : NULL, &plan, planned, st};
        hsm_log_op_lines(h, &lo);
    }
    return st;
}

hipsoftmax_status hipsoftmax_get_plan(hipsoftmax_handle h, const hipsoftmax_problem *p, hipsoftmax_plan_info *info)
{
    return plan_query(__func__, h, p, HSM_OP_FORWARD, info);
}

hipsoftmax_status hipsoftmax_get_backward_plan(hipsoftmax_handle h, const hipsoftmax_problem *p,
                                               hipsoftmax_plan_info *info)
{
    return plan_query(__func__, h, p, HSM_OP_BACKWARD, info);
}

hipsoftmax_status hipsoftmax_get_stats_plan(hipsoftmax_handle h, const hipsoftmax_problem *p, int backward,
                                            hipsoftmax_plan_info *info)
{
    if (h == NULL || (backward != 0 && backward != 1)) {
        /* Refused before plan_query, which traces the rest: traced here. */
        const hipsoftmax_status st = h == NULL ? HIPSOFTMAX_STATUS_INVALID_HANDLE : HIPSOFTMAX_STATUS_INVALID_VALUE;
        HSM_TRACE(st, "handle=%p, problem=%p, backward=%d, info=%p", (void *)h, (const void *)p, backward,
                  (void *)info);
        return st;
    }
    return plan_query(__func__, h, p, backward ? HSM_OP_BACKWARD_STATS : HSM_OP_FORWARD_STATS, info);
}
