/* device.c: everything that talks to the vendor runtime. The only file of src/ that includes
 * hsm_vendor.h; the rest of the library sees the handle's neutral fields. */
#include <string.h>

#include "hsm_vendor.h"
#include "internal.h"

/* Runtime errors become our status here, at the boundary. */
static hipsoftmax_status from_hip(hipError_t e)
{
    switch (e) {
    case hipSuccess: return HIPSOFTMAX_STATUS_SUCCESS;
    case hipErrorNoDevice:
    case hipErrorInsufficientDriver:
    case hipErrorInvalidDevice: return HIPSOFTMAX_STATUS_NO_DEVICE;
    case hipErrorOutOfMemory: return HIPSOFTMAX_STATUS_OUT_OF_MEMORY;
    case hipErrorInvalidValue:
    case hipErrorCooperativeLaunchTooLarge:
    case hipErrorNotSupported: return HIPSOFTMAX_STATUS_BACKEND_ERROR;
    default: return HIPSOFTMAX_STATUS_UNKNOWN_BACKEND_ERROR;
    }
}

/* Makes `device` current and returns the previous current device through *prev. */
static hipsoftmax_status enter_device(int device, int *prev)
{
    HSM_FORWARD_IF_ERROR(from_hip(hipGetDevice(prev)));
    if (*prev != device)
        HSM_FORWARD_IF_ERROR(from_hip(hipSetDevice(device)));
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static void leave_device(int device, int prev)
{
    if (prev != device)
        (void)hipSetDevice(prev);
}

/* Fills h->dev from the runtime's properties, on top of the target table's model parameters (which
 * the runtime does not report: SIMDs, VGPR granules, ...). */
static hipsoftmax_status read_properties(struct hipsoftmax_context *h, int device)
{
    hipDeviceProp_t prop;
    HSM_FORWARD_IF_ERROR(from_hip(hipGetDeviceProperties(&prop, device)));
    hsm_prop_target(&prop, h->target, sizeof h->target);
    arch_device d;
    /* A GPU whose target the occupancy model does not know cannot be planned for. */
    HSM_RETURN_IF(arch_target_lookup(h->target, 0, &d) != ARCH_OK, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    d.num_cus = prop.multiProcessorCount;
    d.warp_size = prop.warpSize;
    d.max_threads_per_cu = prop.maxThreadsPerMultiProcessor;
    d.max_threads_per_block = prop.maxThreadsPerBlock;
    d.regs_per_block = prop.regsPerBlock;
    d.regs_per_cu = hsm_prop_regs_per_cu(&prop);
    d.smem_per_block = prop.sharedMemPerBlock;
    d.smem_per_block_optin = hsm_prop_smem_optin(&prop);
    d.smem_per_cu = hsm_prop_smem_per_cu(&prop);
    d.reserved_smem_per_block = hsm_prop_reserved_smem(&prop);
    if (hsm_prop_max_blocks_per_cu(&prop) > 0)
        d.max_blocks_per_cu = hsm_prop_max_blocks_per_cu(&prop);
    h->dev = d;
    int coop = 0;
    if (hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, device) != hipSuccess)
        coop = 0;
    h->cooperative = coop;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

hipsoftmax_status hsm_device_open(struct hipsoftmax_context *h, int device)
{
    int count = 0;
    const hipError_t e = hipGetDeviceCount(&count);
    HSM_RETURN_IF(e != hipSuccess || count <= 0, HIPSOFTMAX_STATUS_NO_DEVICE);
    if (device < 0)
        HSM_FORWARD_IF_ERROR(from_hip(hipGetDevice(&device)));
    HSM_RETURN_IF(device >= count, HIPSOFTMAX_STATUS_INVALID_VALUE);
    int prev = device;
    HSM_FORWARD_IF_ERROR(enter_device(device, &prev));
    hipsoftmax_status st = read_properties(h, device);
    if (st == HIPSOFTMAX_STATUS_SUCCESS) {
        /* Enough barrier words and partials for any co-resident grid: 64 blocks per CU is above every
         * supported target's block-slot limit (32 on sm_80/sm_90 and on CDNA). */
        h->workspace_grid = h->dev.num_cus * 64;
        const size_t bytes = hsm_split_workspace_bytes(h->workspace_grid);
        st = from_hip(hipMalloc(&h->workspace, bytes));
        if (st == HIPSOFTMAX_STATUS_SUCCESS) {
            /* Zeroed and waited for here: the caller's first launch may be on a stream that is not
             * ordered after the default stream (a non-blocking one). */
            st = from_hip(hipMemsetAsync(h->workspace, 0, bytes, NULL));
            if (st == HIPSOFTMAX_STATUS_SUCCESS)
                st = from_hip(hipStreamSynchronize(NULL));
            h->split_epoch = 1;
            if (st != HIPSOFTMAX_STATUS_SUCCESS) {
                (void)hipFree(h->workspace);
                h->workspace = NULL;
            }
        } else {
            h->workspace = NULL;
        }
    }
    if (st == HIPSOFTMAX_STATUS_SUCCESS)
        h->device = device;
    leave_device(device, prev);
    return st;
}

void hsm_device_close(struct hipsoftmax_context *h)
{
    if (h->device >= 0 && h->workspace != NULL) {
        int prev = h->device;
        if (enter_device(h->device, &prev) == HIPSOFTMAX_STATUS_SUCCESS) {
            (void)hipFree(h->workspace);
            leave_device(h->device, prev);
        }
    }
    h->workspace = NULL;
}

/* On the handle's device: a kernel's attributes can differ between the GPUs of a mixed host. */
hipsoftmax_status hsm_device_func_attributes(struct hipsoftmax_context *h, const void *func, int *regs,
                                             int *static_smem)
{
    int prev = h->device;
    HSM_FORWARD_IF_ERROR(enter_device(h->device, &prev));
    hipFuncAttributes attr;
    const hipsoftmax_status st = from_hip(hipFuncGetAttributes(&attr, func));
    leave_device(h->device, prev);
    HSM_FORWARD_IF_ERROR(st);
    *regs = attr.numRegs;
    *static_smem = (int)attr.sharedSizeBytes;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* A kernel may use no more dynamic shared memory than it was opted into (the default, 48 KiB on NVIDIA,
 * is below what ONLINE's cache and SPLIT's staged chunks plan for). Done once per handle and kernel, at
 * creation, so that no launch pays a runtime call for it. */
hipsoftmax_status hsm_device_allow_smem(struct hipsoftmax_context *h, const void *func, size_t bytes)
{
    if (bytes <= h->dev.smem_per_block)
        return HIPSOFTMAX_STATUS_SUCCESS;
    int prev = h->device;
    HSM_FORWARD_IF_ERROR(enter_device(h->device, &prev));
    const hipsoftmax_status st =
        from_hip(hsm_func_allow_dyn_smem(func, (int)bytes));
    leave_device(h->device, prev);
    return st;
}

/* n / d as hsm_div computes it: the smallest shift with 2^shift >= d, and the multiplier
 * floor(2^32 * (2^shift - d) / d) + 1 (Granlund and Montgomery), exact for every n < 2^32. */
static hsm_fastdiv fastdiv(uint32_t d)
{
    hsm_fastdiv f;
    f.d = d;
    f.shift = 0;
    while (f.shift < 32 && ((uint64_t)1 << f.shift) < d)
        f.shift++;
    f.mul = (uint32_t)((((uint64_t)1 << 32) * (((uint64_t)1 << f.shift) - d)) / d + 1);
    return f;
}

/* The kernels' options for a call (forward and backward kernels read them; plain ones, softmax or
 * log-softmax (_log), ignore them). */
static void op_args(const hsm_call *call, hsm_op_args *o)
{
    const hipsoftmax_problem *p = &call->p;
    const int bwd = hsm_op_is_backward(call->op);
    memset(o, 0, sizeof *o);
    o->out_dtype = hsm_dtype_of(bwd ? p->x_dtype : p->y_dtype);
    o->in2_dtype = hsm_dtype_of(p->dy_dtype);
    o->log = p->algorithm == HIPSOFTMAX_ALGO_LOG_SOFTMAX;
    o->safe = (p->flags & HIPSOFTMAX_FLAG_SAFE_ROWS) != 0;
    o->scale = p->scale;
    o->alpha = p->alpha;
    o->beta = p->beta;
    o->blend = p->alpha != 1.0f || p->beta != 0.0f;
    o->stats = p->stats;
    o->no_out = hsm_op_stats_only(call->op);
    o->stats_in = p->stats_in;
    o->stats_shards = p->stats_in_shards > 0 ? p->stats_in_shards : 1;
    const int64_t records = p->rows * (p->mode == HIPSOFTMAX_MODE_CHANNEL ? p->inner : 1);
    o->stats_stride = p->stats_in_shard_stride > 0 ? p->stats_in_shard_stride : HIPSOFTMAX_STATS_FLOATS * records;
    o->queries = p->queries;
    o->heads = p->heads;
    /* Row indices and (row / queries) fit 32 bits: the divisions are a multiply and a shift. */
    o->div32 = p->rows <= (int64_t)UINT32_MAX && p->queries <= (int64_t)UINT32_MAX && p->heads <= (int64_t)UINT32_MAX;
    if (o->div32) {
        o->q_div = fastdiv((uint32_t)p->queries);
        o->h_div = fastdiv((uint32_t)p->heads);
    }
    if (bwd)
        return;
    const int tensor_mask = p->mask == HIPSOFTMAX_MASK_ADDITIVE || p->mask == HIPSOFTMAX_MASK_BOOL;
    o->causal = p->mask == HIPSOFTMAX_MASK_CAUSAL;
    o->causal_offset = p->causal_offset;
    /* Without a mask tensor the scale joins the exponent (u = x); with one, u = scale * x + mask. */
    o->sigma = tensor_mask ? 1.0f : p->scale;
    if (tensor_mask) {
        o->mask = p->mask == HIPSOFTMAX_MASK_BOOL        ? HSM_MK_BOOL
                  : p->mask_dtype == HIPSOFTMAX_DTYPE_F16 ? HSM_MK_ADD_F16
                  : p->mask_dtype == HIPSOFTMAX_DTYPE_BF16 ? HSM_MK_ADD_BF16
                                                           : HSM_MK_ADD_F32;
        o->mask_ptr = p->mask_ptr;
        /* A dimension of one is shared: its stride is 0 to the kernels. */
        o->mask_row_stride = p->mask_rows == 1 ? 0 : p->mask_row_stride;
        o->mask_batch_stride = p->mask_batches == 1 ? 0 : p->mask_batch_stride;
        /* A mask row per query that the heads share: ROW's forward visits the whole batches' rows
         * head-fastest (hsm_visit_row says why). */
        const int64_t batch_rows = p->heads * p->queries;
        if (o->div32 && p->heads > 1 && o->mask_row_stride != 0 && batch_rows <= p->rows)
            o->grouped_rows = p->rows / batch_rows * batch_rows;
    }
}

/* The tags of a SPLIT launch whose groups exchange (softmax_split.hip: a round a row a group handles,
 * each round's pairs tagged epoch + the rounds before it): *epoch, the first, and *fenced. A launch
 * takes the handle's next tags, below 2^31, which only grow, so no pair an earlier launch left in the
 * workspace carries one of its own; where they would reach 2^31 the workspace is zeroed first, on the
 * launch's stream, and they start again at 1. A launch captured into a graph (every replay repeats its
 * tags) or of 2^31 rounds or more is fenced instead, its tags from 2^31 up, which no unfenced launch
 * takes; a capture state the runtime cannot tell counts as captured. */
#define HSM_SPLIT_FENCED_TAGS 0x80000000u
static hipsoftmax_status split_tags(struct hipsoftmax_context *h, const hsm_plan *plan, int64_t rows,
                                    unsigned *epoch, int *fenced)
{
    *epoch = 0;
    *fenced = 0;
    if (plan->ks->k->family != HSM_FAMILY_SPLIT || plan->blocks_per_row < 2)
        return HIPSOFTMAX_STATUS_SUCCESS;
    const int64_t groups = plan->grid / plan->blocks_per_row;
    const uint64_t rounds = (uint64_t)((rows + groups - 1) / groups);
    hipStreamCaptureStatus capture = hipStreamCaptureStatusNone;
    if (hipStreamIsCapturing((hipStream_t)h->stream, &capture) != hipSuccess ||
        capture != hipStreamCaptureStatusNone || rounds >= HSM_SPLIT_FENCED_TAGS - 1) {
        *epoch = HSM_SPLIT_FENCED_TAGS;
        *fenced = 1;
        return HIPSOFTMAX_STATUS_SUCCESS;
    }
    if ((uint64_t)h->split_epoch + rounds >= HSM_SPLIT_FENCED_TAGS) {
        const hipsoftmax_status st = from_hip(
            hipMemsetAsync(h->workspace, 0, hsm_split_workspace_bytes(h->workspace_grid), (hipStream_t)h->stream));
        if (st != HIPSOFTMAX_STATUS_SUCCESS)
            return st;
        h->split_epoch = 1;
    }
    *epoch = h->split_epoch;
    h->split_epoch += (unsigned)rounds;
    return HIPSOFTMAX_STATUS_SUCCESS;
}

hipsoftmax_status hsm_device_launch(struct hipsoftmax_context *h, const hsm_plan *plan, const hsm_call *call)
{
    const hipsoftmax_problem *p = &call->p;
    const int bwd = hsm_op_is_backward(call->op);
    hsm_launch a;
    memset(&a, 0, sizeof a);
    a.x = call->in0;
    a.x2 = call->in1;
    a.y = call->out;
    a.rows = p->rows;
    a.cols = p->cols;
    a.x_stride = bwd ? p->y_row_stride : p->x_row_stride;
    a.x2_stride = p->dy_row_stride;
    a.y_stride = bwd ? p->x_row_stride : p->y_row_stride;
    op_args(call, &a.op);
    a.grid = plan->grid;
    a.block = plan->block;
    a.smem_bytes = plan->smem_bytes;
    a.cached_tiles = plan->cached_tiles;
    a.staged = plan->staged;
    a.inner = p->inner;
    a.channel_warps = plan->channel_warps;
    a.channel_lanes = plan->channel_lanes;
    a.flat_rows = plan->flat_rows;
    a.ahead = plan->ahead;
    a.stream = h->stream;
    a.group_width = plan->group_width;
    a.blocks_per_row = plan->blocks_per_row;
    a.workspace = h->workspace;
    a.workspace_blocks = h->workspace_grid;
    int prev = h->device;
    HSM_FORWARD_IF_ERROR(enter_device(h->device, &prev));
    hipsoftmax_status st = split_tags(h, plan, p->rows, &a.epoch, &a.fenced);
    if (st == HIPSOFTMAX_STATUS_SUCCESS)
        st = from_hip((hipError_t)plan->ks->k->launch(plan->ks->k, &a));
    leave_device(h->device, prev);
    return st;
}
