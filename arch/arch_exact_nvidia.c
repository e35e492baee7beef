/* arch_exact_nvidia.c: NVIDIA's cudaOccMaxActiveBlocksPerMultiprocessor (cuda_occupancy.h, CUDA 13.0)
 * for sm_80, sm_86, sm_89, sm_90, sm_100 and sm_120, written from the header's rules; the CPU test
 * arch.model.nvidia_sweep proves it equal to the header.
 *
 * The function attributes it models are those the CUDA runtime passes for a kernel launched by this
 * library: partitioned global caching off (no sm_8x/sm_9x supports it), one block barrier, no
 * virtual resources, and the shared-memory limit opted in to the device maximum
 * (cudaFuncAttributeMaxDynamicSharedMemorySize = sharedMemPerBlockOptin - static), so the launch fits
 * whenever static + dynamic shared memory <= sharedMemPerBlockOptin. The device state is the default
 * (no carveout preference).
 *
 * Rules left out because they never bind on these targets: the block-barrier limit (one barrier per
 * block; 2 per block slot on sm_80, sm_90, sm_100, 1 per block slot on sm_86, sm_89, sm_120: never
 * fewer blocks than the block slots), virtual resources (counted from sm_100 on; these kernels use
 * none), partitioned global caching (sm_52, sm_6x), the GP100 sub-partition re-check (sm_60).
 */
#include "arch_exact.h"

#include <limits.h>
#include <stdint.h>

static int64_t arch_round_up64(int64_t x, int64_t g) { return (x + g - 1) / g * g; }

/* The smallest carveout configuration >= bytes, or 0 when none is (the header's
 * cudaOccAlignUpShmemSizeVoltaPlus, which reports that as invalid input). */
static int64_t arch_nv_carveout(const arch_device *dev, int64_t bytes)
{
    for (int i = 0; i < dev->n_smem_configs && i < (int)(sizeof dev->smem_configs_kib / sizeof(int)); i++) {
        const int64_t cfg = (int64_t)dev->smem_configs_kib[i] * 1024;
        if (bytes <= cfg)
            return cfg;
    }
    return 0;
}

/* Registers (cudaOccMaxBlocksPerSMRegsLimit): registers are allocated per warp in reg_alloc_unit
 * units, each warp in one sub-partition. A block fails the launch-time check when its warps, rounded
 * up to a whole number of sub-partitions, need more than regsPerBlock. Precondition: regs >= 0. */
static int64_t arch_nv_regs_limit(const arch_device *dev, int64_t regs, int64_t warps_per_block)
{
    if (regs > dev->reg_alloc_max_per_thread)
        return 0;
    const int64_t per_warp = arch_round_up64(regs * dev->warp_size, dev->reg_alloc_unit);
    if (per_warp == 0)
        return INT_MAX;
    const int64_t hw_check = per_warp * arch_round_up64(warps_per_block, dev->warp_subpartitions);
    if (dev->regs_per_block < hw_check || dev->regs_per_block < per_warp * warps_per_block)
        return 0;
    const int64_t warps_per_sub = dev->regs_per_cu / dev->warp_subpartitions / per_warp;
    return warps_per_sub * dev->warp_subpartitions / warps_per_block;
}

/* Shared memory (cudaOccMaxBlocksPerSMSmemLimit): each block allocates static + reserved + dynamic
 * bytes rounded up to smem_alloc_unit; the SM runs in the default carveout (its full shared size)
 * unless one block needs more, then in the smallest carveout that holds one block. */
static int64_t arch_nv_smem_limit(const arch_device *dev, size_t static_smem, size_t dyn_smem)
{
    const size_t optin = dev->smem_per_block_optin;
    /* opted in to the maximum: dynamic may not exceed optin - static */
    if (static_smem > optin || dyn_smem > optin - static_smem)
        return 0;
    const int64_t alloc = arch_round_up64((int64_t)(static_smem + dyn_smem) +
                                              (int64_t)dev->reserved_smem_per_block,
                                          dev->smem_alloc_unit);
    if (alloc > (int64_t)(optin + dev->reserved_smem_per_block))
        return 0;
    int64_t per_sm = arch_nv_carveout(dev, (int64_t)dev->smem_per_cu);
    if (per_sm < alloc)
        per_sm = arch_nv_carveout(dev, alloc);
    if (alloc == 0)
        return INT_MAX;
    return per_sm / alloc;
}

/* Checks: the table parameters it divides by are positive and small (else ARCH_ERR_INVALID); a
 * negative register count is invalid. A block over the device's or the kernel's maximum gives 0
 * blocks (limiter block_size). Otherwise the minimum of the four limits, the limiter being the first
 * of registers, shared, warps, blocks that equals it (the header sets a bit for each that does). */
arch_status arch_exact_nvidia(const arch_device *dev, const arch_kernel *k, int block_threads,
                              size_t dyn_smem, arch_occupancy *out)
{
    if (dev->warp_size <= 0 || dev->warp_size > 1024 || dev->warp_subpartitions <= 0 ||
        dev->reg_alloc_unit <= 0 || dev->smem_alloc_unit <= 0 || dev->max_threads_per_cu <= 0 ||
        dev->max_threads_per_block <= 0 || dev->regs_per_cu <= 0 || dev->max_blocks_per_cu <= 0 ||
        dev->smem_per_block_optin > INT32_MAX || dev->reserved_smem_per_block > INT32_MAX)
        return ARCH_ERR_INVALID;
    if (k->regs < 0)
        return ARCH_ERR_INVALID;

    const int64_t warps_per_block = arch_round_up64(block_threads, dev->warp_size) / dev->warp_size;
    int64_t blocks;
    arch_limiter lim;
    if (block_threads > dev->max_threads_per_block || (k->max_block > 0 && block_threads > k->max_block)) {
        blocks = 0;
        lim = ARCH_LIMIT_BLOCK_SIZE;
    } else {
        const int64_t by_regs = arch_nv_regs_limit(dev, k->regs, warps_per_block);
        const int64_t by_smem = arch_nv_smem_limit(dev, k->static_smem, dyn_smem);
        const int64_t by_warps = (dev->max_threads_per_cu / dev->warp_size) / warps_per_block;
        const int64_t by_blocks = dev->max_blocks_per_cu;
        blocks = by_regs;
        if (by_smem < blocks)
            blocks = by_smem;
        if (by_warps < blocks)
            blocks = by_warps;
        if (by_blocks < blocks)
            blocks = by_blocks;
        lim = blocks == by_regs    ? ARCH_LIMIT_REGISTERS
              : blocks == by_smem  ? ARCH_LIMIT_SHARED
              : blocks == by_warps ? ARCH_LIMIT_WAVES
                                   : ARCH_LIMIT_BLOCKS;
    }
    out->blocks_per_cu = (int)blocks;
    out->limiter = lim;
    out->waves_per_simd = 0;
    out->warps_per_cu = (int)(blocks * warps_per_block);
    return ARCH_OK;
}
