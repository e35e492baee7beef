/* arch.model.amd: the exact AMD model (ROCm clr's hipOccupancyMaxActiveBlocksPerMultiprocessor,
 * arch/README.md) against worked examples derived by hand from its rules. Each example
 * spells the steps out; "w/SIMD" is waves per SIMD, blocks are 64-lane waves rounded up. */
#include <string.h>

#include "arch.h"
#include "model_check.h"

static arch_device dev_of(const char *name)
{
    arch_device d;
    memset(&d, 0, sizeof d);
    MODEL_CHECK(arch_target_lookup(name, 0, &d) == ARCH_OK);
    return d;
}

static arch_kernel kern(int vgprs, int sgprs, uint32_t lds)
{
    arch_kernel k;
    memset(&k, 0, sizeof k);
    k.vendor = ARCH_VENDOR_AMD;
    k.vgprs = vgprs;
    k.regs = vgprs;
    k.sgprs = sgprs;
    k.static_smem = lds;
    k.wave_size = 64;
    return k;
}

/* Runs the model and checks blocks per CU, the limiter and waves per SIMD. */
static void expect(const arch_device *d, arch_kernel k, int block, size_t dyn, const arch_amd_options *opt,
                   int blocks, arch_limiter lim, int waves_per_simd, int line)
{
    arch_occupancy o;
    memset(&o, 0, sizeof o);
    arch_status s = arch_occupancy_exact(d, &k, block, dyn, opt, &o);
    if (s != ARCH_OK || o.blocks_per_cu != blocks || o.limiter != lim || o.waves_per_simd != waves_per_simd) {
        fprintf(stderr, "line %d: %s vgprs=%d sgprs=%d lds=%u block=%d dyn=%zu: status %d, %d blocks (%s), %d w/SIMD;"
                        " want %d blocks (%s), %d w/SIMD\n",
                line, d->name, k.vgprs, k.sgprs, k.static_smem, block, dyn, (int)s, o.blocks_per_cu,
                arch_limiter_string(o.limiter), o.waves_per_simd, blocks, arch_limiter_string(lim),
                waves_per_simd);
        model_failures++;
    }
}
#define EXPECT(d, k, block, dyn, opt, blocks, lim, wps) expect(&(d), k, block, dyn, opt, blocks, lim, wps, __LINE__)

int main(void)
{
    arch_device g908 = dev_of("gfx908"), g90a = dev_of("gfx90a"), g942 = dev_of("gfx942");
    const arch_amd_options llvm = {.llvm_barrier_limit = 1, .llvm_lds_granule = 1};

    /* rocprof-compute's MI200 example: 122 VGPRs -> align8 128 -> 512/128 = 4 w/SIMD.
     * SGPRs 32 -> 800/32 = 25, no limit. 4 SIMDs x 4 waves x 64 = 1024 threads; block 256 -> 4 blocks. */
    EXPECT(g90a, kern(122, 32, 0), 256, 0, NULL, 4, ARCH_LIMIT_REGISTERS, 4);
    /* same kernel, block 1024 (16 waves): 1024 / 1024 = 1 block */
    EXPECT(g90a, kern(122, 32, 0), 1024, 0, NULL, 1, ARCH_LIMIT_REGISTERS, 4);
    /* 129 VGPRs -> 136 -> 512/136 = 3 w/SIMD -> 768 threads: a 1024-thread block cannot fit */
    EXPECT(g90a, kern(129, 32, 0), 1024, 0, NULL, 0, ARCH_LIMIT_REGISTERS, 0);
    /* 513 VGPRs -> 520 > 512: no wave fits at all */
    EXPECT(g90a, kern(513, 16, 0), 64, 0, NULL, 0, ARCH_LIMIT_REGISTERS, 0);

    /* the README's row kernel: gfx942, 32 VGPRs -> 512/32 = 16 w/SIMD, capped at clr's 8:
     * 4 x 8 x 64 = 2048 threads -> 8 blocks of 256, limited by wave slots */
    EXPECT(g942, kern(32, 16, 0), 256, 0, NULL, 8, ARCH_LIMIT_WAVES, 8);
    /* 65-thread block takes 2 waves (128 threads): 2048 / 128 = 16 blocks, 32 waves, 8 w/SIMD */
    EXPECT(g942, kern(32, 16, 0), 65, 0, NULL, 16, ARCH_LIMIT_WAVES, 8);
    /* one-wave blocks: 2048 / 64 = 32 blocks; LLVM's barrier rule exempts single-wave groups */
    EXPECT(g942, kern(32, 16, 0), 64, 0, &llvm, 32, ARCH_LIMIT_WAVES, 8);

    /* gfx908 granule 4 over 256 arch VGPRs: 84 -> 84 -> 256/84 = 3 w/SIMD -> 768 threads -> 3 blocks;
     * 85 -> 88 -> 256/88 = 2 -> 512 threads -> 2 blocks. On gfx90a 85 -> 88 -> 512/88 = 5 -> 5 blocks. */
    EXPECT(g908, kern(84, 32, 0), 256, 0, NULL, 3, ARCH_LIMIT_REGISTERS, 3);
    EXPECT(g908, kern(85, 32, 0), 256, 0, NULL, 2, ARCH_LIMIT_REGISTERS, 2);
    EXPECT(g90a, kern(85, 32, 0), 256, 0, NULL, 5, ARCH_LIMIT_REGISTERS, 5);
    /* gfx908 65 VGPRs: granule 4 -> 68 -> 3 w/SIMD (gfx90a's granule 8 would give 72) */
    EXPECT(g908, kern(65, 32, 0), 64, 0, NULL, 12, ARCH_LIMIT_REGISTERS, 3);

    /* gfx908 waves per SIMD: 24 VGPRs -> 256/24 = 10. clr caps at 8: 2048 threads -> 8 blocks of 256;
     * with LLVM's 10: 2560 threads -> 10 blocks */
    EXPECT(g908, kern(24, 32, 0), 256, 0, NULL, 8, ARCH_LIMIT_WAVES, 8);
    arch_device g908_10 = g908;
    g908_10.max_waves_per_simd = 10;
    EXPECT(g908_10, kern(24, 32, 0), 256, 0, NULL, 10, ARCH_LIMIT_WAVES, 10);
    /* the barrier switch binds only where more than 16 multi-wave groups fit, i.e. with 10 w/SIMD:
     * block 128 (2 waves), 16 VGPRs: 2560 / 128 = 20 groups (clr); LLVM caps at 16 */
    EXPECT(g908_10, kern(16, 32, 0), 128, 0, NULL, 20, ARCH_LIMIT_WAVES, 10);
    EXPECT(g908_10, kern(16, 32, 0), 128, 0, &llvm, 16, ARCH_LIMIT_BLOCKS, 8);

    /* SGPR-limited: 102 SGPRs -> align16 112 -> 800/112 = 7 w/SIMD (VGPRs 32 allow 16):
     * 4 x 7 x 64 = 1792 threads -> 7 blocks of 256 */
    EXPECT(g90a, kern(32, 102, 0), 256, 0, NULL, 7, ARCH_LIMIT_SGPRS, 7);
    /* both files limit: 128 VGPRs -> 512/128 = 4 w/SIMD, 200 SGPRs -> 208 -> 800/208 = 3: SGPRs bind */
    EXPECT(g942, kern(128, 200, 0), 256, 0, NULL, 3, ARCH_LIMIT_SGPRS, 3);

    /* LDS-limited: 20000 bytes static -> 65536/20000 = 3 blocks (waves would allow 8) */
    EXPECT(g942, kern(32, 16, 20000), 256, 0, NULL, 3, ARCH_LIMIT_SHARED, 3);
    /* dynamic LDS counts the same: 32768 -> 2 blocks */
    EXPECT(g942, kern(32, 16, 0), 256, 32768, NULL, 2, ARCH_LIMIT_SHARED, 2);
    /* LLVM's 512-byte granule: 13100 -> clr 65536/13100 = 5; LLVM 13312 -> 65536/13312 = 4 */
    EXPECT(g942, kern(32, 16, 13100), 256, 0, NULL, 5, ARCH_LIMIT_SHARED, 5);
    EXPECT(g942, kern(32, 16, 13100), 256, 0, &llvm, 4, ARCH_LIMIT_SHARED, 4);
    /* more LDS than a CU has: 0 blocks */
    EXPECT(g942, kern(32, 16, 70000), 256, 0, NULL, 0, ARCH_LIMIT_SHARED, 0);
    EXPECT(g942, kern(32, 16, 0), 256, SIZE_MAX, NULL, 0, ARCH_LIMIT_SHARED, 0);

    /* block size: over 1024 cannot launch; over the kernel's .max_flat_workgroup_size neither */
    EXPECT(g942, kern(32, 16, 0), 1025, 0, NULL, 0, ARCH_LIMIT_BLOCK_SIZE, 0);
    arch_kernel bounded = kern(32, 16, 0);
    bounded.max_block = 256;
    EXPECT(g942, bounded, 256, 0, NULL, 8, ARCH_LIMIT_WAVES, 8);
    EXPECT(g942, bounded, 512, 0, NULL, 0, ARCH_LIMIT_BLOCK_SIZE, 0);

    /* no register information at all: only the wave slots limit */
    EXPECT(g90a, kern(0, 0, 0), 256, 0, NULL, 8, ARCH_LIMIT_WAVES, 8);
    /* newer ROCm's regsPerBlock changes nothing here: the exact model never reads it */
    arch_device g942_new;
    MODEL_CHECK(arch_target_lookup("gfx942", 131072, &g942_new) == ARCH_OK);
    EXPECT(g942_new, kern(128, 32, 0), 256, 0, NULL, 4, ARCH_LIMIT_REGISTERS, 4);

    /* misuse */
    arch_occupancy o;
    arch_kernel k = kern(32, 16, 0);
    MODEL_CHECK(arch_occupancy_exact(&g942, &k, 0, 0, NULL, &o) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_occupancy_exact(&g942, &k, -5, 0, NULL, &o) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_occupancy_exact(NULL, &k, 64, 0, NULL, &o) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_occupancy_exact(&g942, NULL, 64, 0, NULL, &o) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_occupancy_exact(&g942, &k, 64, 0, NULL, NULL) == ARCH_ERR_INVALID);
    arch_device broken = g942;
    broken.vgpr_granule = 0;
    MODEL_CHECK(arch_occupancy_exact(&broken, &k, 64, 0, NULL, &o) == ARCH_ERR_INVALID);
    k.vgprs = 2147483647; /* a hostile count must not overflow the alignment */
    MODEL_CHECK(arch_occupancy_exact(&g942, &k, 64, 0, NULL, &o) == ARCH_OK && o.blocks_per_cu == 0);
    return model_report("arch.model.amd");
}
