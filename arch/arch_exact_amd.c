/* arch_exact_amd.c: ROCm clr's hipOccupancyMaxActiveBlocksPerMultiprocessor (hipamd/src/hip_platform.cpp)
 * for gfx9 CDNA targets, following its rules (arch/README.md), with LLVM's two extra rules as switches.
 *
 * The per-target numbers (waves per SIMD, VGPR file and granule, SGPR file and granule, SIMDs, LDS)
 * come from the arch_device table, so a caller can change any of them, e.g. gfx908's 8 vs 10 waves.
 */
#include "arch_exact.h"

#include <limits.h>
#include <stdint.h>

/* LLVM AMDGPU (AMDGPUSubtarget getMaxWorkGroupsPerCU): a workgroup of more than one wave holds a
 * hardware barrier, and a gfx9 CU has 16 of them. clr does not model it. */
#define ARCH_AMD_LLVM_BARRIERS_PER_CU 16

/* Sanity bound on caller-supplied table parameters (real values: wave 64, 4 SIMDs, 8-10 waves). */
#define ARCH_AMD_PARAM_MAX 1024

static int64_t arch_align_up64(int64_t x, int64_t g) { return (x + g - 1) / g * g; }

static int64_t arch_min64(int64_t a, int64_t b) { return a < b ? a : b; }

static void arch_amd_result(const arch_device *dev, int64_t blocks, int64_t waves_per_block,
                            arch_limiter lim, arch_occupancy *out)
{
    int64_t waves = blocks * waves_per_block;
    out->blocks_per_cu = (int)blocks;
    out->limiter = lim;
    out->warps_per_cu = (int)waves;
    /* waves spread round-robin over the SIMDs: the busiest SIMD holds the rounded-up share */
    out->waves_per_simd = (int)((waves + dev->simds_per_cu - 1) / dev->simds_per_cu);
}

/* Checks:
 *   - the table parameters it divides by are positive (else ARCH_ERR_INVALID);
 *   - block_threads against the device's and the kernel's maximum workgroup size (clr step 1;
 *     a block over the kernel's .max_flat_workgroup_size cannot launch either): over is 0 blocks.
 * Then clr's steps 2-8, each limit in int64 so that register and LDS counts read from a file cannot
 * overflow. Returns ARCH_OK with the limiter that bounds the result. */
arch_status arch_exact_amd(const arch_device *dev, const arch_kernel *k, int block_threads,
                           size_t dyn_smem, const arch_amd_options *opt, arch_occupancy *out)
{
    const int wave = k->wave_size > 0 ? k->wave_size : dev->warp_size;
    if (wave <= 0 || dev->simds_per_cu <= 0 || dev->max_waves_per_simd <= 0 ||
        dev->vgprs_per_simd_lane <= 0 || dev->vgpr_granule <= 0 || dev->sgprs_per_simd <= 0 ||
        dev->sgpr_granule <= 0 || dev->lds_granule <= 0 || dev->max_threads_per_block <= 0)
        return ARCH_ERR_INVALID;
    /* keeps SIMDs x waves x wave size (step 6) far inside int */
    if (wave > ARCH_AMD_PARAM_MAX || dev->simds_per_cu > ARCH_AMD_PARAM_MAX ||
        dev->max_waves_per_simd > ARCH_AMD_PARAM_MAX)
        return ARCH_ERR_INVALID;
    const int llvm_barrier = opt != NULL && opt->llvm_barrier_limit;
    const int llvm_lds = opt != NULL && opt->llvm_lds_granule;
    const int64_t waves_per_block = arch_align_up64(block_threads, wave) / wave;

    /* step 1 */
    if (block_threads > dev->max_threads_per_block || (k->max_block > 0 && block_threads > k->max_block)) {
        arch_amd_result(dev, 0, waves_per_block, ARCH_LIMIT_BLOCK_SIZE, out);
        return ARCH_OK;
    }

    /* steps 2-5: waves per SIMD allowed by the register files; 0 means the kernel cannot launch */
    const int64_t max_waves = dev->max_waves_per_simd;
    int64_t vgpr_waves = max_waves;
    if (k->vgprs > 0)
        vgpr_waves = dev->vgprs_per_simd_lane / arch_align_up64(k->vgprs, dev->vgpr_granule);
    int64_t sgpr_waves = INT64_MAX;
    if (k->sgprs > 0)
        sgpr_waves = dev->sgprs_per_simd / arch_align_up64(k->sgprs, dev->sgpr_granule);
    const int64_t gpr_waves = arch_min64(vgpr_waves, sgpr_waves);
    arch_limiter lim = ARCH_LIMIT_WAVES;
    if (gpr_waves < max_waves)
        lim = sgpr_waves < vgpr_waves ? ARCH_LIMIT_SGPRS : ARCH_LIMIT_REGISTERS;

    /* step 6 */
    const int64_t threads_per_cu = (int64_t)dev->simds_per_cu * arch_min64(max_waves, gpr_waves) * wave;
    int64_t blocks = threads_per_cu / (waves_per_block * wave);

    /* step 7: LDS; a total that cannot be represented cannot fit either */
    const size_t lds_static = k->static_smem;
    if (dyn_smem > SIZE_MAX - lds_static - (size_t)dev->lds_granule) {
        arch_amd_result(dev, 0, waves_per_block, ARCH_LIMIT_SHARED, out);
        return ARCH_OK;
    }
    size_t lds = lds_static + dyn_smem;
    if (llvm_lds && lds > 0)
        lds = (lds + (size_t)dev->lds_granule - 1) / (size_t)dev->lds_granule * (size_t)dev->lds_granule;
    if (lds > 0) {
        const size_t lds_blocks = dev->smem_per_cu / lds;
        /* step 8 */
        if ((uint64_t)lds_blocks < (uint64_t)blocks) {
            blocks = (int64_t)lds_blocks;
            lim = ARCH_LIMIT_SHARED;
        }
    }

    if (llvm_barrier && waves_per_block > 1 && blocks > ARCH_AMD_LLVM_BARRIERS_PER_CU) {
        blocks = ARCH_AMD_LLVM_BARRIERS_PER_CU;
        lim = ARCH_LIMIT_BLOCKS;
    }
    arch_amd_result(dev, blocks, waves_per_block, lim, out);
    return ARCH_OK;
}
