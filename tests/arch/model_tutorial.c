/* arch.model.tutorial: the Triton tutorial's formula against values worked out by hand from it as
 * written (the Triton fused-softmax tutorial, quoted in arch/README.md):
 *   NVIDIA: occupancy = NUM_REGS // (n_regs * WARP_SIZE * num_warps)
 *   HIP:    NUM_GPRS = NUM_REGS (x2 on CDNA); max_num_waves = max_threads_per_sm // WARP_SIZE
 *           occupancy = min(NUM_GPRS // WARP_SIZE // n_regs, max_num_waves) // num_warps
 *   both:   occupancy = min(occupancy, SIZE_SMEM // size_smem); num_programs = min(NUM_SM * occupancy, n_rows)
 */
#include <string.h>

#include "arch.h"
#include "model_check.h"

static arch_device dev_of(const char *name, int regs)
{
    arch_device d;
    memset(&d, 0, sizeof d);
    MODEL_CHECK(arch_target_lookup(name, regs, &d) == ARCH_OK);
    return d;
}

static void expect(const arch_device *d, int n_regs, size_t smem, int warps, int64_t rows, int gprs, int occ,
                   int64_t programs, int line)
{
    arch_tutorial t;
    memset(&t, 0, sizeof t);
    arch_status s = arch_occupancy_tutorial(d, n_regs, smem, warps, rows, &t);
    if (s != ARCH_OK || t.num_gprs != gprs || t.occupancy != occ || t.num_programs != programs ||
        t.why_undefined != NULL) {
        fprintf(stderr, "line %d: %s n_regs=%d smem=%zu warps=%d rows=%lld: status %d gprs %d occ %d programs %lld;"
                        " want %d %d %lld\n",
                line, d->name, n_regs, smem, warps, (long long)rows, (int)s, t.num_gprs, t.occupancy,
                (long long)t.num_programs, gprs, occ, (long long)programs);
        model_failures++;
    }
}
#define EXPECT(d, r, s, w, rows, g, o, p) expect(&(d), r, s, w, rows, g, o, p, __LINE__)

int main(void)
{
    arch_device a100 = dev_of("sm_80", 0), h100 = dev_of("sm_90", 0), l4 = dev_of("sm_89", 0);
    arch_device mi300 = dev_of("gfx942", 0), mi300_new = dev_of("gfx942", 131072);
    arch_device mi250 = dev_of("gfx90a", 0), mi250_new = dev_of("gfx90a", 131072);
    arch_device mi100 = dev_of("gfx908", 0);

    /* The A100 walkthrough: 65536 // (64 * 32 * 8) = 4 per SM; 108 * 4 = 432 programs for 4096 rows.
     * SIZE_SMEM is the opt-in 163 KiB: 166912 // 2048 = 81 does not cap. */
    EXPECT(a100, 64, 2048, 8, 4096, 65536, 4, 432);
    /* The same with 100 KiB of shared memory: 166912 // 102400 = 1 caps at 1 -> 108 */
    EXPECT(a100, 64, 102400, 8, 4096, 65536, 1, 108);
    /* H100, 32 registers, 8 warps: 65536 // 8192 = 8; 132 * 8 = 1056, capped by 1000 rows */
    EXPECT(h100, 32, 0, 8, 1000, 65536, 8, 1000);
    /* n_regs * 32 * num_warps > NUM_REGS: 0 programs, as the tutorial would launch */
    EXPECT(l4, 255, 0, 16, 4096, 65536, 0, 0);

    /* CDNA doubling with the older regsPerBlock 65536: NUM_GPRS = 131072.
     * gfx942, 128 VGPRs, 4 warps: min(131072 // 64 // 128 = 16, 2048 // 64 = 32) // 4 = 4 -> 304 * 4 = 1216.
     * That equals the exact model (512/128 = 4 waves per SIMD = 4 blocks of 4 waves). */
    EXPECT(mi300, 128, 0, 4, 1 << 20, 131072, 4, 1216);
    /* newer ROCm reports 131072: NUM_GPRS = 262144 -> min(32, 32) // 4 = 8: twice the exact model */
    EXPECT(mi300_new, 128, 0, 4, 1 << 20, 262144, 8, 2432);
    EXPECT(mi250, 128, 0, 4, 1 << 20, 131072, 4, 440);
    EXPECT(mi250_new, 128, 0, 4, 1 << 20, 262144, 8, 880);
    /* 32 VGPRs: the wave cap hides the difference: min(64 or 128, 32) // 4 = 8 either way */
    EXPECT(mi300, 32, 0, 4, 1 << 20, 131072, 8, 2432);
    EXPECT(mi300_new, 32, 0, 4, 1 << 20, 262144, 8, 2432);
    /* AMD SIZE_SMEM is sharedMemPerBlock (64 KiB): 65536 // 20000 = 3 */
    EXPECT(mi300, 32, 20000, 4, 1 << 20, 131072, 3, 912);
    /* gfx908 reports 2560 threads per CU: max_num_waves 40; 16 VGPRs: min(128, 40) // 4 = 10 */
    EXPECT(mi100, 16, 0, 4, 1 << 20, 131072, 10, 1200);

    /* a non-CDNA AMD target: the tutorial leaves NUM_GPRS unset, the model uses NUM_REGS:
     * min(65536 // 64 // 128 = 8, 32) // 4 = 2 */
    arch_device rdna = mi300;
    rdna.is_cdna = 0;
    EXPECT(rdna, 128, 0, 4, 1 << 20, 65536, 2, 608);

    /* undefined: division by n_regs or num_warps; out carries why */
    arch_tutorial t;
    MODEL_CHECK(arch_occupancy_tutorial(&mi300, 0, 0, 4, 10, &t) == ARCH_ERR_INVALID && t.why_undefined != NULL);
    MODEL_CHECK(arch_occupancy_tutorial(&a100, 32, 0, 0, 10, &t) == ARCH_ERR_INVALID && t.why_undefined != NULL);
    MODEL_CHECK(arch_occupancy_tutorial(&a100, -1, 0, 4, 10, &t) == ARCH_ERR_INVALID && t.why_undefined != NULL);
    MODEL_CHECK(arch_occupancy_tutorial(&a100, 32, 0, 4, -1, &t) == ARCH_ERR_INVALID && t.why_undefined != NULL);
    MODEL_CHECK(arch_occupancy_tutorial(NULL, 32, 0, 4, 10, &t) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_occupancy_tutorial(&a100, 32, 0, 4, 10, NULL) == ARCH_ERR_INVALID);
    /* no overflow for the largest inputs */
    MODEL_CHECK(arch_occupancy_tutorial(&a100, 2147483647, 1, 2147483647, INT64_MAX, &t) == ARCH_OK &&
                t.occupancy == 0);
    return model_report("arch.model.tutorial");
}
