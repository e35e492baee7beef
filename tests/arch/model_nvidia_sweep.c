/* arch.model.nvidia_sweep: the exact NVIDIA model against NVIDIA's own cuda_occupancy.h over a
 * deterministic random sweep of (target, registers, block size, static and dynamic shared memory).
 * Every case must agree on blocks per SM and warps per SM, and the model's limiter must be one of the
 * factors the header reports. */
#include <cuda_occupancy.h>

#include <stdint.h>
#include <string.h>

#include "arch.h"
#include "model_check.h"

/* Enough to reach every limiter on every target many times; takes well under a second. */
#define SWEEP_CASES 200000

static uint64_t sweep_state = 0x5eed0f50f7a7ull; /* fixed: the sweep is the same on every run */

static uint64_t sweep_next(void)
{
    /* splitmix64 */
    uint64_t z = (sweep_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t sweep_below(uint64_t n) { return sweep_next() % n; }

static cudaOccDeviceProp sweep_props(const arch_device *d)
{
    cudaOccDeviceProp p;
    memset(&p, 0, sizeof p);
    p.computeMajor = d->cc_major;
    p.computeMinor = d->cc_minor;
    p.maxThreadsPerBlock = d->max_threads_per_block;
    p.maxThreadsPerMultiprocessor = d->max_threads_per_cu;
    p.regsPerBlock = d->regs_per_block;
    p.regsPerMultiprocessor = d->regs_per_cu;
    p.warpSize = d->warp_size;
    p.sharedMemPerBlock = d->smem_per_block;
    p.sharedMemPerMultiprocessor = d->smem_per_cu;
    p.numSms = d->num_cus;
    p.sharedMemPerBlockOptin = d->smem_per_block_optin;
    p.reservedSharedMemPerBlock = d->reserved_smem_per_block;
    return p;
}

static unsigned sweep_bit(arch_limiter l)
{
    switch (l) {
    case ARCH_LIMIT_REGISTERS: return OCC_LIMIT_REGISTERS;
    case ARCH_LIMIT_SHARED: return OCC_LIMIT_SHARED_MEMORY;
    case ARCH_LIMIT_WAVES: return OCC_LIMIT_WARPS;
    case ARCH_LIMIT_BLOCKS: return OCC_LIMIT_BLOCKS;
    default: return 0;
    }
}

/* Shared memory drawn so that each regime shows up often: none, small, anything up to a little over
 * the opt-in limit (which must give 0 blocks in both). */
static size_t sweep_smem(size_t optin)
{
    switch (sweep_below(4)) {
    case 0: return 0;
    case 1: return (size_t)sweep_below(16385);
    case 2: return (size_t)sweep_below(optin / 2 + 1);
    default: return (size_t)sweep_below(optin + 4097);
    }
}

static int sweep_case(const arch_device *d, int regs, int block, size_t st, size_t dyn, int verbose)
{
    cudaOccDeviceProp props = sweep_props(d);
    cudaOccFuncAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.maxThreadsPerBlock = 1024;
    attr.numRegs = regs;
    attr.sharedSizeBytes = st;
    attr.partitionedGCConfig = PARTITIONED_GC_OFF;
    attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attr.maxDynamicSharedSizeBytes = st <= d->smem_per_block_optin ? d->smem_per_block_optin - st : 0;
    attr.numBlockBarriers = 1;
    cudaOccDeviceState state;
    state.cacheConfig = CACHE_PREFER_NONE;
    state.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
    cudaOccResult want;
    memset(&want, 0, sizeof want);
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&want, &props, &attr, &state, block, dyn) != CUDA_OCC_SUCCESS) {
        fprintf(stderr, "cuda_occupancy.h refused %s regs=%d block=%d static=%zu dyn=%zu\n", d->name, regs,
                block, st, dyn);
        return 1;
    }

    arch_kernel k;
    memset(&k, 0, sizeof k);
    k.vendor = ARCH_VENDOR_NVIDIA;
    k.regs = regs;
    k.static_smem = (uint32_t)st;
    arch_occupancy got;
    if (arch_occupancy_exact(d, &k, block, dyn, NULL, &got) != ARCH_OK) {
        fprintf(stderr, "model refused %s regs=%d block=%d\n", d->name, regs, block);
        return 1;
    }
    const int warps = (block + d->warp_size - 1) / d->warp_size;
    int bad = got.blocks_per_cu != want.activeBlocksPerMultiprocessor ||
              got.warps_per_cu != want.activeBlocksPerMultiprocessor * warps ||
              (want.limitingFactors != 0 && (sweep_bit(got.limiter) & want.limitingFactors) == 0);
    if (bad || verbose)
        fprintf(stderr, "%s %s regs=%d block=%d static=%zu dyn=%zu: model %d (%s), header %d (factors 0x%x)\n",
                bad ? "MISMATCH" : "case", d->name, regs, block, st, dyn, got.blocks_per_cu,
                arch_limiter_string(got.limiter), want.activeBlocksPerMultiprocessor, want.limitingFactors);
    return bad;
}

int main(void)
{
    static const char *const names[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};
    enum { N_DEVS = sizeof names / sizeof names[0] };
    arch_device devs[N_DEVS];
    for (int i = 0; i < N_DEVS; i++)
        MODEL_CHECK(arch_target_lookup(names[i], 0, &devs[i]) == ARCH_OK);
    if (model_failures)
        return model_report("arch.model.nvidia_sweep");

    long mismatches = 0, zero = 0;
    long by_lim[7] = {0};
    for (long n = 0; n < SWEEP_CASES; n++) {
        const arch_device *d = &devs[sweep_below(N_DEVS)];
        const int regs = 1 + (int)sweep_below(255);
        const int block = 1 + (int)sweep_below(1024);
        const size_t st = sweep_smem(d->smem_per_block_optin);
        const size_t dyn = sweep_smem(d->smem_per_block_optin);
        if (sweep_case(d, regs, block, st, dyn, 0) && ++mismatches > 20)
            break;
        arch_kernel k;
        memset(&k, 0, sizeof k);
        k.regs = regs;
        k.static_smem = (uint32_t)st;
        arch_occupancy o;
        if (arch_occupancy_exact(d, &k, block, dyn, NULL, &o) == ARCH_OK) {
            by_lim[o.limiter]++;
            zero += o.blocks_per_cu == 0;
        }
    }
    /* fixed edges: no registers at all, the full block, shared memory exactly at and one over the limit */
    for (int i = 0; i < N_DEVS; i++) {
        const arch_device *d = &devs[i];
        mismatches += sweep_case(d, 0, 1024, 0, 0, 0);
        mismatches += sweep_case(d, 255, 32, 0, 0, 0);
        mismatches += sweep_case(d, 32, 256, 0, d->smem_per_block_optin, 0);
        mismatches += sweep_case(d, 32, 256, 0, d->smem_per_block_optin + 1, 0);
        mismatches += sweep_case(d, 32, 256, d->smem_per_block_optin, 0, 0);
        mismatches += sweep_case(d, 32, 256, d->smem_per_block_optin + 1, 0, 0);
        mismatches += sweep_case(d, 64, 768, 0, 0, 0);
    }
    MODEL_CHECK_INT(mismatches, 0);
    /* the sweep must have exercised every limiter, else it proves less than it claims */
    MODEL_CHECK(by_lim[ARCH_LIMIT_REGISTERS] > 0 && by_lim[ARCH_LIMIT_SHARED] > 0 &&
                by_lim[ARCH_LIMIT_WAVES] > 0 && by_lim[ARCH_LIMIT_BLOCKS] > 0 && zero > 0);
    printf("%d cases: registers %ld, shared %ld, warps %ld, blocks %ld limited; %ld with 0 blocks\n",
           SWEEP_CASES, by_lim[ARCH_LIMIT_REGISTERS], by_lim[ARCH_LIMIT_SHARED], by_lim[ARCH_LIMIT_WAVES],
           by_lim[ARCH_LIMIT_BLOCKS], zero);
    return model_report("arch.model.nvidia_sweep");
}
