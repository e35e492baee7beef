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

/* arch_target_base: the one normaliser the table lookup and the image lookups share. */
static void expect_base(const char *spelling, arch_status want, const char *base)
{
    char out[32] = "junk";
    arch_status s = arch_target_base(spelling, out, sizeof out);
    if (s != want || strcmp(out, base) != 0) {
        fprintf(stderr, "arch_target_base(\"%s\"): status %d \"%s\", want %d \"%s\"\n", spelling, (int)s, out,
                (int)want, base);
        model_failures++;
    }
}

static void check_target_base(void)
{
    expect_base("90", ARCH_OK, "sm_90");
    expect_base("86", ARCH_OK, "sm_86");
    expect_base("sm_90a", ARCH_OK, "sm_90");
    expect_base("sm_100f", ARCH_OK, "sm_100");
    expect_base("sm_100a", ARCH_OK, "sm_100");
    expect_base("sm_120", ARCH_OK, "sm_120");
    expect_base("100a", ARCH_OK, "sm_100");
    expect_base("amdgcn-amd-amdhsa--gfx942", ARCH_OK, "gfx942");
    expect_base("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", ARCH_OK, "gfx90a");
    expect_base("gfx942:sramecc+:xnack-", ARCH_OK, "gfx942");
    expect_base("gfx90a", ARCH_OK, "gfx90a"); /* AMD names keep their letters */
    expect_base("gfx1100", ARCH_OK, "gfx1100"); /* not in the tables, still a base name */
    expect_base("sm_", ARCH_OK, "sm_");
    expect_base("", ARCH_ERR_NOT_FOUND, "");
    expect_base(":xnack-", ARCH_ERR_NOT_FOUND, "");
    expect_base("--", ARCH_ERR_NOT_FOUND, "");
    expect_base("amdgcn-amd-amdhsa--", ARCH_ERR_NOT_FOUND, "");
    expect_base("gfx942gfx942gfx942gfx942gfx942gfx942", ARCH_ERR_LIMIT, "");
    expect_base("12345678901234567890123456789", ARCH_ERR_LIMIT, "");
    char out[8];
    MODEL_CHECK(arch_target_base(NULL, out, sizeof out) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_target_base("gfx942", NULL, 8) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_target_base("gfx942", out, 0) == ARCH_ERR_INVALID);
    MODEL_CHECK(arch_target_base("gfx942", out, 6) == ARCH_ERR_LIMIT && out[0] == 0);
    MODEL_CHECK(arch_target_base("gfx942", out, 7) == ARCH_OK && strcmp(out, "gfx942") == 0);
    MODEL_CHECK(arch_target_base("90", out, 5) == ARCH_ERR_LIMIT && out[0] == 0);
    MODEL_CHECK(arch_target_base("90", out, 6) == ARCH_OK && strcmp(out, "sm_90") == 0);
}

int main(void)
{
    check_target_base();
    static const char *const all[] = {"gfx908", "gfx90a", "gfx942", "sm_80",  "sm_86",
                                      "sm_89",  "sm_90",  "sm_100", "sm_120"};
    enum { N_ALL = sizeof all / sizeof all[0] };
    MODEL_CHECK_INT(arch_target_count(), N_ALL);
    for (size_t i = 0; i < N_ALL; i++)
        MODEL_CHECK(arch_target_name(i) != NULL && strcmp(arch_target_name(i), all[i]) == 0);
    MODEL_CHECK(arch_target_name(N_ALL) == NULL);
    MODEL_CHECK(arch_target_name((size_t)-1) == NULL);

    expect_name("gfx942:sramecc+:xnack-", "gfx942");
    expect_name("gfx90a:xnack-", "gfx90a");
    expect_name("amdgcn-amd-amdhsa--gfx908", "gfx908");
    expect_name("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942");
    expect_name("sm_90a", "sm_90");
    expect_name("90", "sm_90");
    expect_name("86", "sm_86");
    expect_name("sm_89", "sm_89");
    expect_name("89:x", "sm_89");
    expect_name("nvptx64-nvidia-cuda--sm_80", "sm_80");
    expect_name("sm_100a", "sm_100");
    expect_name("sm_100f", "sm_100");
    expect_name("100", "sm_100");
    expect_name("sm_120a", "sm_120");

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
    static const int cus[] = {120, 110, 304, 108, 72, 58, 132, 148, 170};
    for (size_t i = 0; i < N_ALL; i++) {
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
    /* Blackwell: the data-center part as sm_90, the RTX part as sm_89 (1536 threads, 24 blocks, 100 KiB) */
    MODEL_CHECK(arch_target_lookup("sm_100", 0, &d) == ARCH_OK && d.cc_major == 10 && d.max_threads_per_cu == 2048 &&
                d.max_blocks_per_cu == 32 && d.smem_per_cu == 228 * 1024);
    MODEL_CHECK(arch_target_lookup("sm_120", 0, &d) == ARCH_OK && d.cc_major == 12 && d.max_threads_per_cu == 1536 &&
                d.max_blocks_per_cu == 24 && d.smem_per_cu == 100 * 1024);
    /* names that are not targets of the tables, though close to them */
    MODEL_CHECK(arch_target_lookup("sm_103", 0, &d) == ARCH_ERR_NOT_FOUND);
    MODEL_CHECK(arch_target_lookup("sm_12", 0, &d) == ARCH_ERR_NOT_FOUND);

    MODEL_CHECK(strcmp(arch_limiter_string(ARCH_LIMIT_REGISTERS), "registers") == 0);
    MODEL_CHECK(strcmp(arch_limiter_string((arch_limiter)99), "unknown") == 0);
    return model_report("arch.targets");
}
