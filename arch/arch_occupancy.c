/* arch_occupancy.c: the vendor dispatch of the exact model, and limiter names. */
#include "arch.h"
#include "arch_exact.h"

arch_status arch_occupancy_exact(const arch_device *dev, const arch_kernel *k, int block_threads,
                                 size_t dyn_smem, const arch_amd_options *amd_opt,
                                 arch_occupancy *out)
{
    if (dev == NULL || k == NULL || out == NULL || block_threads <= 0)
        return ARCH_ERR_INVALID;
    switch (dev->vendor) {
    case ARCH_VENDOR_AMD:
        return arch_exact_amd(dev, k, block_threads, dyn_smem, amd_opt, out);
    case ARCH_VENDOR_NVIDIA:
        return arch_exact_nvidia(dev, k, block_threads, dyn_smem, out);
    case ARCH_VENDOR_UNKNOWN:
        break;
    }
    return ARCH_ERR_INVALID;
}

const char *arch_limiter_string(arch_limiter l)
{
    switch (l) {
    case ARCH_LIMIT_NONE: return "none";
    case ARCH_LIMIT_REGISTERS: return "registers";
    case ARCH_LIMIT_SGPRS: return "sgprs";
    case ARCH_LIMIT_SHARED: return "shared";
    case ARCH_LIMIT_WAVES: return "waves";
    case ARCH_LIMIT_BLOCKS: return "blocks";
    case ARCH_LIMIT_BLOCK_SIZE: return "block_size";
    }
    return "unknown";
}
