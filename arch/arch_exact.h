/* arch_exact.h: the per-vendor exact occupancy models behind arch_occupancy_exact. Private to arch/,
 * do not expose.
 *
 * Both assume what arch_occupancy_exact checks first: dev, k and out are non-NULL and
 * block_threads > 0. Both write *out only on ARCH_OK. */
#ifndef HIPSOFTMAX_ARCH_EXACT_H_9C2E71
#define HIPSOFTMAX_ARCH_EXACT_H_9C2E71

#include "arch.h"

arch_status arch_exact_amd(const arch_device *dev, const arch_kernel *k, int block_threads,
                           size_t dyn_smem, const arch_amd_options *opt, arch_occupancy *out);

arch_status arch_exact_nvidia(const arch_device *dev, const arch_kernel *k, int block_threads,
                              size_t dyn_smem, arch_occupancy *out);

#endif /* HIPSOFTMAX_ARCH_EXACT_H_9C2E71 */
