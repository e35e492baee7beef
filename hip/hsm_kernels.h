/* hsm_kernels.h: the C interface between the host library (src/) and the kernels (hip/).
 * Private to hipsoftmax, do not expose. Plain C, no vendor types: src/ sees kernels only as table
 * entries with a launch function, so the plan never needs to know how a family is written.
 */
#ifndef HSM_KERNELS_H_91D0C2
#define HSM_KERNELS_H_91D0C2

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel families (README.md). Values match hipsoftmax_family in the public experimental API. */
typedef enum hsm_family {
    HSM_FAMILY_WARP = 1,   /* several rows per warp: a group of lanes holds one row in registers */
    HSM_FAMILY_ROW = 2,    /* persistent: one block holds one row in registers, loops over rows */
    HSM_FAMILY_ONLINE = 3, /* one block per row streams it twice: online (max, sum), then write */
    HSM_FAMILY_SPLIT = 4   /* a group of co-resident blocks holds one row, combining partials */
} hsm_family;

/* Element types (hsm_dtype_of in src/ maps hipsoftmax_dtype to these). */
typedef enum hsm_dtype { HSM_F32 = 0, HSM_F16 = 1, HSM_BF16 = 2 } hsm_dtype;

/* Everything one launch needs; sizes in elements unless named _bytes. */
typedef struct hsm_launch {
    const void *x;
    void *y;
    int64_t rows, cols;
    int64_t x_stride, y_stride;    /* row strides, elements */
    int grid, block;               /* blocks, threads per block */
    size_t smem_bytes;             /* dynamic shared memory per block */
    void *stream;                  /* hipStream_t */
    int group_width;               /* WARP: lanes per row (power of two <= warp size) */
    int blocks_per_row;            /* SPLIT: blocks sharing a row (>= 1) */
    void *workspace;               /* SPLIT: hsm_split_workspace_bytes(workspace_blocks) bytes, zeroed once */
    int workspace_blocks;          /* SPLIT: the largest grid the workspace serves (>= grid) */
    int cached_tiles;              /* ONLINE: tiles of each row kept in smem_bytes of shared memory */
    int staged;                    /* SPLIT: accesses (vec elements each) per thread of the block's chunk
                                      held in smem_bytes of shared memory, after its registers' share */
} hsm_launch;

typedef struct hsm_kernel hsm_kernel;
struct hsm_kernel {
    const char *name;              /* the kernel's symbol (extern "C", so also its name in code objects) */
    const void *func;              /* host handle for the runtime's attribute and occupancy queries */
    hsm_family family;
    hsm_dtype dtype;
    int vec;                       /* elements per memory access: 16 bytes' worth, or 1 (any alignment) */
    int cols_per_thread;           /* row elements a thread keeps in registers (ONLINE: per tile) */
    int max_block;                 /* the __launch_bounds__ the kernel was compiled with */
    int (*launch)(const hsm_kernel *k, const hsm_launch *a); /* returns a hipError_t */
};

/* The kernels of each family compiled into this library. */
const hsm_kernel *hsm_warp_kernels(size_t *count);
const hsm_kernel *hsm_row_kernels(size_t *count);
const hsm_kernel *hsm_online_kernels(size_t *count);
const hsm_kernel *hsm_split_kernels(size_t *count);

/* SPLIT: staged accesses per thread that form one tile: copied as one group, folded as it lands. */
#define HSM_SPLIT_STAGE_PACKS 4

/* The L2 cache line of both vendors: SPLIT lays rows out from the line that holds their start
 * (hsm_line_lead), and the plan leaves room for that. */
#define HSM_LINE_BYTES 128

/* Bytes of SPLIT workspace for grids of up to `grid` blocks (barrier words and per-block partials). */
size_t hsm_split_workspace_bytes(int grid);

#ifdef __cplusplus
}
#endif
#endif /* HSM_KERNELS_H_91D0C2 */
