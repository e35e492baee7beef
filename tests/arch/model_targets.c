/* arch.targets: target names, lookup spellings, the regsPerBlock switch, and consistency of the
 * tables with the rules the models rely on. */
#include <string.h>

#include "arch.h"
#include "model_check.h"

static void expect_name(const char *spelling, const char *base)
{
    arch_device d;
    memset(&d, 0, sizeof d);
    arch_status s = arch_target_lookup(spelling, 0, &d);
    if (s != ARCH_OK || strcmp(d.name, base) != 0) {
        fprintf(stderr, "lookup(\"%s\"): status %d name \"%s\", want \"%s\"\n", spelling, (int)s, d.name, base);
        model_failures++;
    }
}

int main(void)
{
    static const char *const all[] = {"gfx908", "gfx90a", "gfx942", "sm_80", "sm_86", "sm_89", "sm_90"};
    MODEL_CHECK_INT(arch_target_count(), 7);
    for (size_t i = 0; i < 7; i++)
        MODEL_CHECK(arch_target_name(i) != NULL && strcmp(arch_target_name(i), all[i]) == 0);
    MODEL_CHECK(arch_target_name(7) == NULL);
    MODEL_CHECK(arch_target_name((size_t)-1) == NULL);

    expect_name("gfx942:sramecc+:xnack-", "gfx942");
    expect_name("gfx90a:xnack-", "gfx90a");
    expect_name("amdgcn-amd-amdhsa--gfx908", "gfx908");
    expect_name("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942");
    expect_name("sm_90a", "sm_90");
    expect_name("90", "sm_90");
    expect_name("86", "sm_86");
    expect_name("sm_89", "sm_89");

    arch_device d;
    static const char *const unknown[] = {"", "gfx", "gfx1100", "sm_75", "sm_", "sm_9", ":", "--", "sm_800",
                                          "gfx942gfx942gfx942gfx942gfx942gfx942"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        MODEL_CHECK(arch_target_lookup(unknown[i], 0, &d) == ARCH_ERR_NOT_FOUND);
    MODEL_CHECK(arch_target_lookup(NULL, 0, &d) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_target_lookup("gfx942", 0, NULL) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_target_lookup("gfx942", 12345, &d) == ARCH_ERR_INVALID);

    /* the regsPerBlock switch: unified-file targets only */
    MODEL_CHECK(arch_target_lookup("gfx942", 131072, &d) == ARCH_OK && d.regs_per_block == 131072);
    MODEL_CHECK(arch_target_lookup("gfx942", 65536, &d) == ARCH_OK && d.regs_per_block == 65536);
    MODEL_CHECK(arch_target_lookup("gfx90a", 131072, &d) == ARCH_OK && d.regs_per_block == 131072);
    MODEL_CHECK(arch_target_lookup("gfx908", 131072, &d) == ARCH_OK && d.regs_per_block == 65536);
    MODEL_CHECK(arch_target_lookup("sm_90", 131072, &d) == ARCH_OK && d.regs_per_block == 65536);

    /* the products the tables stand for */
    static const int cus[] = {120, 110, 304, 108, 72, 58, 132};
    for (size_t i = 0; i < 7; i++) {
        MODEL_CHECK(arch_target_lookup(all[i], 0, &d) == ARCH_OK);
        MODEL_CHECK_INT(d.num_cus, cus[i]);
        MODEL_CHECK(d.warp_size > 0 && d.max_threads_per_cu % d.warp_size == 0);
        MODEL_CHECK_INT(d.max_threads_per_block, 1024);
        if (d.vendor == ARCH_VENDOR_AMD) {
            MODEL_CHECK(d.is_cdna && d.warp_size == 64 && d.simds_per_cu == 4 && d.smem_per_cu == 65536);
            MODEL_CHECK(d.smem_per_block == d.smem_per_block_optin);
            MODEL_CHECK(d.vgprs_per_simd_lane % d.vgpr_granule == 0);
            /* gfx908 is where the runtime's 2560 threads and clr's 8 waves per SIMD disagree */
            MODEL_CHECK(d.simds_per_cu * d.max_waves_per_simd * d.warp_size == 2048);
        } else {
            MODEL_CHECK(d.vendor == ARCH_VENDOR_NVIDIA && d.warp_size == 32 && !d.is_cdna);
            MODEL_CHECK_INT(d.reserved_smem_per_block, 1024);
            MODEL_CHECK_INT(d.smem_per_block, 49152);
            /* opt-in plus the reserved KiB is the whole SM, which is the largest carveout */
            MODEL_CHECK(d.smem_per_block_optin + d.reserved_smem_per_block == d.smem_per_cu);
            MODEL_CHECK(d.n_smem_configs > 0 && d.n_smem_configs <= 12);
            MODEL_CHECK((size_t)d.smem_configs_kib[d.n_smem_configs - 1] * 1024 == d.smem_per_cu);
            for (int j = 1; j < d.n_smem_configs; j++)
                MODEL_CHECK(d.smem_configs_kib[j] > d.smem_configs_kib[j - 1]);
        }
    }
    MODEL_CHECK(arch_target_lookup("gfx908", 0, &d) == ARCH_OK && d.max_threads_per_cu == 2560 &&
                d.vgprs_per_simd_lane == 256 && d.vgpr_granule == 4);
    MODEL_CHECK(arch_target_lookup("sm_86", 0, &d) == ARCH_OK && d.max_blocks_per_cu == 16);
    MODEL_CHECK(arch_target_lookup("sm_89", 0, &d) == ARCH_OK && d.max_blocks_per_cu == 24);

    MODEL_CHECK(strcmp(arch_limiter_string(ARCH_LIMIT_REGISTERS), "registers") == 0);
    MODEL_CHECK(strcmp(arch_limiter_string((arch_limiter)99), "unknown") == 0);
    return model_report("arch.targets");
}
