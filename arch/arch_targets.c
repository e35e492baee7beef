/* arch_targets.c: the property tables of the targets hipsoftmax knows, and name lookup.
 *
 * Sources, named per value below:
 *   [OCC]  AMD's gpu-specs reference and rocminfo listings in public issues
 *          and its section 2 (ROCm clr hipamd/src/hip_platform.cpp, the occupancy calculator);
 *   [CPG]  NVIDIA CUDA C++ Programming Guide, "Features and Technical Specifications" table per compute
 *          capability (threads, warps, blocks, registers and shared memory per SM and per block);
 *   [OCCH] NVIDIA cuda_occupancy.h (CUDA 13.0): allocation units, sub-partitions, carveout sizes;
 *   [BTG]  NVIDIA Blackwell Tuning Guide (CUDA 13.0), "Unified Shared Memory/L1/Texture Cache", and
 *          deviceQuery/cudaGetDeviceProperties listings of B200 and RTX 5090 in public issues.
 * The product that sets the SM/CU count is named per entry; where a device is present the library
 * replaces the runtime-reported fields with what the runtime says.
 */
#include "arch.h"

#include <stdio.h>
#include <string.h>

/* [OCC] the CDNA runtimes report regsPerBlock as 256 (older ROCm) or 512 (newer comgr table, counting
 * the unified VGPR+AGPR file of gfx90a/gfx942) registers x 64 lanes x 4 SIMDs. */
#define ARCH_CDNA_REGS_OLD 65536
#define ARCH_CDNA_REGS_NEW 131072

/* [CPG] every sm_8x/sm_9x: 64K 32-bit registers per SM and per block, 48 KiB static shared memory per
 * block without opt-in, 1 KiB reserved per block by the driver (reservedSharedMemPerBlock, sm_80+). */
#define ARCH_NV_REGS 65536
#define ARCH_NV_SMEM_BLOCK 49152
#define ARCH_NV_RESERVED 1024

#define ARCH_AMD_ENTRY(nm, minor_digit, cus, threads_cu, lane_vgprs, vgran, waves)                     \
    {                                                                                                 \
        .vendor = ARCH_VENDOR_AMD, .name = nm, .cc_major = 9, .cc_minor = minor_digit,                \
        .num_cus = cus, .warp_size = 64, .max_threads_per_cu = threads_cu,                            \
        .max_threads_per_block = 1024, .regs_per_block = ARCH_CDNA_REGS_OLD,                          \
        .regs_per_cu = ARCH_CDNA_REGS_OLD, .smem_per_block = 65536, .smem_per_block_optin = 65536,    \
        .smem_per_cu = 65536, .reserved_smem_per_block = 0, .max_blocks_per_cu = 0,                   \
        .simds_per_cu = 4, .max_waves_per_simd = waves, .vgprs_per_simd_lane = lane_vgprs,            \
        .vgpr_granule = vgran, .sgprs_per_simd = 800, .sgpr_granule = 16, .lds_granule = 512,         \
        .is_cdna = 1                                                                                  \
    }

#define ARCH_NV_ENTRY(nm, maj, mnr, sms, threads_sm, optin_kib, sm_kib, blocks, ...)                  \
    {                                                                                                 \
        .vendor = ARCH_VENDOR_NVIDIA, .name = nm, .cc_major = maj, .cc_minor = mnr, .num_cus = sms,   \
        .warp_size = 32, .max_threads_per_cu = threads_sm, .max_threads_per_block = 1024,             \
        .regs_per_block = ARCH_NV_REGS, .regs_per_cu = ARCH_NV_REGS,                                  \
        .smem_per_block = ARCH_NV_SMEM_BLOCK, .smem_per_block_optin = (size_t)(optin_kib) * 1024u,    \
        .smem_per_cu = (size_t)(sm_kib) * 1024u, .reserved_smem_per_block = ARCH_NV_RESERVED,         \
        .max_blocks_per_cu = blocks, .warp_subpartitions = 4, .reg_alloc_unit = 256,                  \
        .reg_alloc_max_per_thread = 256, .smem_alloc_unit = 128,                                      \
        .n_smem_configs = (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)),                         \
        .smem_configs_kib = {__VA_ARGS__}                                                             \
    }

static const arch_device arch_targets[] = {
    /* gfx908, MI100: 120 CUs [OCC]. 2560 threads per CU is what the runtime reports (40 waves per CU
     * from the HSA agent); clr's occupancy calculator still caps gfx9 at 8 waves per SIMD while LLVM
     * says 10 for gfx908: the default is clr's 8, callers may set 10 (unconfirmed on hardware) [OCC].
     * 256 architectural VGPRs per lane (AGPRs are a separate file), granule 4 [OCC section 2]. */
    ARCH_AMD_ENTRY("gfx908", 0, 120, 2560, 256, 4, 8),
    /* gfx90a, MI250X per GCD: 110 CUs (MI210: 104) [OCC]. Unified 512-entry VGPR+AGPR file per lane,
     * granule 8; 8 waves per SIMD, so 2048 threads per CU [OCC]. */
    ARCH_AMD_ENTRY("gfx90a", 0, 110, 2048, 512, 8, 8),
    /* gfx942, MI300X: 304 CUs (MI300A: 228) [OCC]; same register file and wave limits as gfx90a. */
    ARCH_AMD_ENTRY("gfx942", 4, 304, 2048, 512, 8, 8),
    /* sm_80, A100: 108 SMs; 2048 threads, 32 blocks, 164 KiB shared per SM, 163 KiB per block with
     * opt-in [CPG]; carveouts 0..164 KiB [OCCH cudaOccAlignUpShmemSizeVoltaPlus, minor 0]. */
    ARCH_NV_ENTRY("sm_80", 8, 0, 108, 2048, 163, 164, 32, 0, 8, 16, 32, 64, 100, 132, 164),
    /* sm_86, A10: 72 SMs (an RTX 3090 has 82); 1536 threads, 16 blocks, 100 KiB shared per SM, 99 KiB
     * per block with opt-in [CPG]; carveouts 0..100 KiB [OCCH, minors other than 0 and 7]. */
    ARCH_NV_ENTRY("sm_86", 8, 6, 72, 1536, 99, 100, 16, 0, 8, 16, 32, 64, 100),
    /* sm_89, L4: 58 SMs (an RTX 4090 has 128); as sm_86 but 24 blocks per SM [CPG, OCCH]. */
    ARCH_NV_ENTRY("sm_89", 8, 9, 58, 1536, 99, 100, 24, 0, 8, 16, 32, 64, 100),
    /* sm_90, H100 SXM: 132 SMs; 2048 threads, 32 blocks, 228 KiB shared per SM, 227 KiB per block with
     * opt-in [CPG]; carveouts 0..228 KiB [OCCH, major 9]. */
    ARCH_NV_ENTRY("sm_90", 9, 0, 132, 2048, 227, 228, 32, 0, 8, 16, 32, 64, 100, 132, 164, 196, 228),
    /* sm_100, B200: 148 SMs; 2048 threads, 64K registers, 228 KiB shared per SM, 227 KiB per block
     * with opt-in [BTG, CPG]; 32 blocks per SM and carveouts 0..228 KiB [OCCH, major 10 minor 0]. */
    ARCH_NV_ENTRY("sm_100", 10, 0, 148, 2048, 227, 228, 32, 0, 8, 16, 32, 64, 100, 132, 164, 196, 228),
    /* sm_120, RTX 5090: 170 SMs; 1536 threads, 64K registers, 100 KiB shared per SM, 99 KiB per block
     * with opt-in [BTG, CPG]; 24 blocks per SM and carveouts 0..100 KiB [OCCH, major 12]. */
    ARCH_NV_ENTRY("sm_120", 12, 0, 170, 1536, 99, 100, 24, 0, 8, 16, 32, 64, 100),
};

#define ARCH_N_TARGETS (sizeof(arch_targets) / sizeof(arch_targets[0]))

size_t arch_target_count(void) { return ARCH_N_TARGETS; }

const char *arch_target_name(size_t i) { return i < ARCH_N_TARGETS ? arch_targets[i].name : NULL; }

/* The one normaliser of target spellings, for the table lookup below and for arch_image's kernel
 * lookups (arch.h lists the rules). Works on the part after the last "--" and before the first ':'. */
arch_status arch_target_base(const char *name, char *out, size_t outsz)
{
    const char *p = name;
    const char *dd;
    if (name == NULL || out == NULL || outsz == 0)
        return ARCH_ERR_INVALID;
    out[0] = '\0';
    while ((dd = strstr(p, "--")) != NULL)
        p = dd + 2;
    size_t n = strcspn(p, ":");
    if (n == 0)
        return ARCH_ERR_NOT_FOUND;
    if (p[0] >= '0' && p[0] <= '9') {
        /* a bare compute capability, as CUDA tools write it ("90" for sm_90) */
        if (n + 3 >= outsz)
            return ARCH_ERR_LIMIT;
        memcpy(out, "sm_", 3);
        memcpy(out + 3, p, n);
        n += 3;
        out[n] = '\0';
    } else {
        if (n >= outsz)
            return ARCH_ERR_LIMIT;
        memcpy(out, p, n);
        out[n] = '\0';
    }
    /* sm_90a (arch-specific) and sm_100f (family) code is still sm_90 / sm_100 code */
    if (n > 3 && strncmp(out, "sm_", 3) == 0 && (out[n - 1] == 'a' || out[n - 1] == 'f'))
        out[n - 1] = '\0';
    return ARCH_OK;
}

arch_status arch_target_lookup(const char *name, int regs_per_block_amd, arch_device *out)
{
    char base[32];
    if (name == NULL || out == NULL)
        return ARCH_ERR_INVALID;
    if (regs_per_block_amd != 0 && regs_per_block_amd != ARCH_CDNA_REGS_OLD &&
        regs_per_block_amd != ARCH_CDNA_REGS_NEW)
        return ARCH_ERR_INVALID;
    if (arch_target_base(name, base, sizeof base) != ARCH_OK)
        return ARCH_ERR_NOT_FOUND;
    for (size_t i = 0; i < ARCH_N_TARGETS; i++) {
        if (strcmp(arch_targets[i].name, base) != 0)
            continue;
        *out = arch_targets[i];
        /* Only the unified-file targets changed what the runtime reports [OCC]; gfx908's 256
         * architectural VGPRs per lane give 65536 in every ROCm release. */
        if (out->vendor == ARCH_VENDOR_AMD && out->vgprs_per_simd_lane == 512 &&
            regs_per_block_amd == ARCH_CDNA_REGS_NEW) {
            out->regs_per_block = ARCH_CDNA_REGS_NEW;
            out->regs_per_cu = ARCH_CDNA_REGS_NEW;
        }
        return ARCH_OK;
    }
    return ARCH_ERR_NOT_FOUND;
}
