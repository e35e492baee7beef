/* arch.metadata: the registers and static shared memory the plan uses for every kernel (read from
 * the library's own code objects) equal what the vendor runtime reports for that kernel, and the
 * exact occupancy model equals the runtime's occupancy calculator at every block size the plan may
 * launch the kernel with. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <stdio.h>
#include <string.h>

#include "hsm_vendor.h"
#include "reference.h"

int main(void)
{
    hipsoftmax_handle h = test_open_handle();
    char target[64];
    hipsoftmax_get_target(h, target, sizeof target);
    size_t n = 0;
    hipsoftmax_kernel_count(h, &n);
    int failures = 0, from_code_object = 0, checks = 0;
    printf("%-22s %5s %5s %7s %7s  %s\n", "kernel", "regs", "(rt)", "smem", "(rt)", "blocks/CU model=runtime at block sizes");
    for (size_t i = 0; i < n; i++) {
        hipsoftmax_kernel_info ki = {.struct_size = sizeof ki};
        if (hipsoftmax_get_kernel_info(h, i, &ki) != HIPSOFTMAX_STATUS_SUCCESS)
            return 1;
        hipFuncAttributes attr;
        if (hipFuncGetAttributes(&attr, ki.function) != hipSuccess) {
            fprintf(stderr, "%s: hipFuncGetAttributes failed\n", ki.name);
            return 1;
        }
        from_code_object += ki.metadata_from_code_object;
        int bad = attr.numRegs != ki.regs || (int)attr.sharedSizeBytes != ki.static_smem || !ki.metadata_from_code_object;
        int occ_checked = 0;
        for (int b = ki.min_block; b <= ki.max_block; b += ki.block_step) {
            int model = -1, rt = -1;
            if (hipsoftmax_kernel_occupancy(h, i, b, &model) != HIPSOFTMAX_STATUS_SUCCESS ||
                hipOccupancyMaxActiveBlocksPerMultiprocessor(&rt, ki.function, b, 0) != hipSuccess || model != rt) {
                fprintf(stderr, "%s at block %d: model %d, runtime %d\n", ki.name, b, model, rt);
                bad = 1;
            }
            occ_checked++;
            checks++;
        }
        int m0 = -1, r0 = -1;
        hipsoftmax_kernel_occupancy(h, i, ki.max_block, &m0);
        hipOccupancyMaxActiveBlocksPerMultiprocessor(&r0, ki.function, ki.max_block, 0);
        printf("%-22s %5d %5d %7d %7d  %d=%d at %d (%d sizes checked)%s\n", ki.name, ki.regs, attr.numRegs,
               ki.static_smem, (int)attr.sharedSizeBytes, m0, r0, ki.max_block, occ_checked, bad ? "  MISMATCH" : "");
        failures += bad;
    }
    /* The plans themselves: residency with the dynamic shared memory each launch asks for (ONLINE's
     * cache, SPLIT's staged chunks), model against runtime, for every family. */
    static const long long shapes[][2] = {{4096, 128},   {4096, 512},  {4096, 2048}, {4096, 4096},  {4096, 8192},
                                          {4096, 16384}, {4096, 32768}, {4096, 65536}, {4096, 131072}, {4096, 262144},
                                          {32, 1048576}, {4, 8388608},  {61, 12289},   {2, 9000001}};
    static const hipsoftmax_dtype dts[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
    int plan_checks = 0;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        for (size_t di = 0; di < 3; di++) {
            hipsoftmax_problem p;
            hipsoftmax_problem_init(&p, dts[di], shapes[si][0], shapes[si][1]);
            hipsoftmax_plan_info pi = {.struct_size = sizeof pi};
            if (hipsoftmax_get_plan(h, &p, &pi) != HIPSOFTMAX_STATUS_SUCCESS) {
                fprintf(stderr, "%lldx%lld: no plan\n", shapes[si][0], shapes[si][1]);
                failures++;
                continue;
            }
            const void *func = NULL;
            for (size_t i = 0; i < n; i++) {
                hipsoftmax_kernel_info ki = {.struct_size = sizeof ki};
                if (hipsoftmax_get_kernel_info(h, i, &ki) == HIPSOFTMAX_STATUS_SUCCESS && strcmp(ki.name, pi.kernel) == 0)
                    func = ki.function;
            }
            int rt = -1;
            if (func == NULL ||
                hipOccupancyMaxActiveBlocksPerMultiprocessor(&rt, func, pi.block, (size_t)pi.dynamic_smem) != hipSuccess ||
                rt != pi.blocks_per_cu || rt < 1) {
                fprintf(stderr, "%lldx%lld %s block %d dynamic smem %d: model %d, runtime %d blocks/CU\n", shapes[si][0],
                        shapes[si][1], pi.kernel, pi.block, pi.dynamic_smem, pi.blocks_per_cu, rt);
                failures++;
            }
            printf("plan %lldx%lld dtype %d: %s %dx%d, %d B dynamic, %d blocks/CU (runtime %d)\n", shapes[si][0],
                   shapes[si][1], (int)dts[di], pi.kernel, pi.grid, pi.block, pi.dynamic_smem, pi.blocks_per_cu, rt);
            plan_checks++;
        }
    }
    printf("arch.metadata on %s: %d plans checked with their dynamic shared memory\n", target, plan_checks);
    printf("arch.metadata on %s: %zu kernels, %d with metadata from the code object, %d occupancy checks, %d mismatches\n",
           target, n, from_code_object, checks, failures);
    hipsoftmax_destroy(h);
    return failures == 0 ? 0 : 1;
}
