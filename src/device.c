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
    if (arch_target_lookup(h->target, 0, &d) != ARCH_OK) {
        memset(&d, 0, sizeof d);
        snprintf(d.name, sizeof d.name, "%.31s", h->target);
    }
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
            st = from_hip(hipMemset(h->workspace, 0, bytes));
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

hipsoftmax_status hsm_device_func_attributes(const void *func, int *regs, int *static_smem)
{
    hipFuncAttributes attr;
    HSM_FORWARD_IF_ERROR(from_hip(hipFuncGetAttributes(&attr, func)));
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
        from_hip(hipFuncSetAttribute(func, hipFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    leave_device(h->device, prev);
    return st;
}

hipsoftmax_status hsm_device_launch(struct hipsoftmax_context *h, const hsm_plan *plan, const void *x, void *y,
                                    const hipsoftmax_problem *p)
{
    hsm_launch a;
    a.x = x;
    a.y = y;
    a.rows = p->rows;
    a.cols = p->cols;
    a.x_stride = p->x_row_stride;
    a.y_stride = p->y_row_stride;
    a.grid = plan->grid;
    a.block = plan->block;
    a.smem_bytes = plan->smem_bytes;
    a.cached_tiles = plan->cached_tiles;
    a.staged = plan->staged;
    a.stream = h->stream;
    a.group_width = plan->group_width;
    a.blocks_per_row = plan->blocks_per_row;
    a.workspace = h->workspace;
    a.workspace_blocks = h->workspace_grid;
    int prev = h->device;
    HSM_FORWARD_IF_ERROR(enter_device(h->device, &prev));
    const hipsoftmax_status st = from_hip((hipError_t)plan->ks->k->launch(plan->ks->k, &a));
    leave_device(h->device, prev);
    return st;
}
