/* arch_tutorial.c: the Triton fused-softmax tutorial's occupancy formula, exactly as written.
 *
 * The tutorial reads its inputs from Triton's driver (get_device_properties):
 *   NUM_SM    = multiProcessorCount                 -> dev->num_cus
 *   NUM_REGS  = max_num_regs = regsPerBlock         -> dev->regs_per_block (both vendors)
 *   WARP_SIZE = warpSize                            -> dev->warp_size
 *   max_threads_per_sm = maxThreadsPerMultiProcessor-> dev->max_threads_per_cu (HIP branch only)
 *   SIZE_SMEM = max_shared_mem: on NVIDIA the opt-in per-block limit
 *               (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) -> dev->smem_per_block_optin;
 *               on AMD hipDeviceProp.sharedMemPerBlock -> dev->smem_per_block.
 * Python's // on the positive operands used here is C's integer division.
 */
#include "arch.h"

#include <stdint.h>

static int64_t arch_min64(int64_t a, int64_t b) { return a < b ? a : b; }

static arch_status arch_tutorial_undefined(arch_tutorial *out, const char *why)
{
    out->num_gprs = 0;
    out->occupancy = 0;
    out->num_programs = 0;
    out->why_undefined = why;
    return ARCH_ERR_INVALID;
}

/* Checks, in order, and reports the first failure in out->why_undefined with ARCH_ERR_INVALID:
 *   - dev and out are non-NULL (else ARCH_ERR_INVALID, out untouched);
 *   - the device properties the formula divides by are positive;
 *   - n_regs > 0 and num_warps > 0 (the formula divides by both);
 *   - n_rows >= 0.
 * size_smem == 0 is defined here as "no shared-memory cap" (the tutorial divides by it). */
arch_status arch_occupancy_tutorial(const arch_device *dev, int n_regs, size_t size_smem,
                                    int num_warps, int64_t n_rows, arch_tutorial *out)
{
    if (dev == NULL || out == NULL)
        return ARCH_ERR_INVALID;
    if (dev->warp_size <= 0 || dev->regs_per_block <= 0 || dev->num_cus <= 0 ||
        (dev->vendor == ARCH_VENDOR_AMD && dev->max_threads_per_cu <= 0))
        return arch_tutorial_undefined(out, "device properties missing (warp size, registers, CUs)");
    if (dev->vendor != ARCH_VENDOR_AMD && dev->vendor != ARCH_VENDOR_NVIDIA)
        return arch_tutorial_undefined(out, "unknown vendor");
    if (n_regs <= 0)
        return arch_tutorial_undefined(out, "n_regs <= 0: the formula divides by the register count");
    if (num_warps <= 0)
        return arch_tutorial_undefined(out, "num_warps <= 0: the formula divides by the warp count");
    if (n_rows < 0)
        return arch_tutorial_undefined(out, "n_rows is negative");

    int64_t num_gprs = dev->regs_per_block;
    int64_t occupancy;
    size_t size_smem_dev;
    if (dev->vendor == ARCH_VENDOR_AMD) {
        /* The tutorial doubles on its CDNA list (gfx940/941/942, gfx90a, gfx908); elsewhere NUM_GPRS
         * is left unset by the tutorial and NUM_REGS is the only meaningful value. */
        if (dev->is_cdna)
            num_gprs *= 2;
        int64_t max_num_waves = dev->max_threads_per_cu / dev->warp_size;
        occupancy = arch_min64(num_gprs / dev->warp_size / n_regs, max_num_waves) / num_warps;
        size_smem_dev = dev->smem_per_block;
    } else {
        /* a // (b*c*d) == a // b // c // d for positive integers, and the product could overflow */
        occupancy = num_gprs / n_regs / dev->warp_size / num_warps;
        size_smem_dev = dev->smem_per_block_optin;
    }
    if (size_smem > 0)
        occupancy = arch_min64(occupancy, (int64_t)(size_smem_dev / size_smem));

    out->num_gprs = (int)num_gprs;
    out->occupancy = (int)occupancy; /* <= max_num_waves or NUM_REGS / 32: fits */
    out->num_programs = arch_min64((int64_t)dev->num_cus * occupancy, n_rows);
    out->why_undefined = NULL;
    return ARCH_OK;
}
