/* plan.c: which kernel family and launch geometry serve a problem on this handle's device. The grid of
 * every family comes from the exact occupancy model (arch/) applied to the metadata of the kernel
 * that will run; plans are cached per (dtype, alignment, forced family, rows, cols). */
#include <string.h>

#include "internal.h"

/* Thresholds chosen from bench/sweep-kernels.sh on an H200 (bench/results/h200-2026-11-21.md), each
 * family and kernel forced on the same shapes in one run:
 * - WARP up to 512 columns: at 1024 columns ROW was 3% (fp32) to 18% (bf16) faster, at 512 equal.
 * - ROW blocks of at most 512 threads, each thread holding at least 32 bytes of the row (two 16-byte
 *   accesses): 1024-thread ROW blocks (one per SM) ran at about half the copy bandwidth, and 16-byte
 *   chunks per thread were 5-15% slower than 32- or 64-byte ones.
 * - Rows longer than that, many of them: ONLINE (a tile or more of each row cached in shared memory,
 *   the rest re-read, partly from L2). At M=4096, N=32K..256K it was within 6% of the best SPLIT
 *   kernel for fp32 and 1.6x faster than SPLIT for bf16 before it had that cache; with it, 66-85%
 *   (fp32) and 67-74% (bf16) of the copy bandwidth.
 * - Few rows (fewer than 2 per SM), long ones: SPLIT, which puts the whole GPU on each row. */
#define HSM_WARP_MAX_COLS 512
#define HSM_ROW_PREFERRED_BLOCK 512
#define HSM_ROW_MIN_BYTES_PER_THREAD 32
#define HSM_MANY_ROWS_PER_CU 2
#define HSM_SPLIT_MIN_COLS 4096

static int occupancy_smem(const struct hipsoftmax_context *h, const hsm_kernel_state *ks, int block, size_t dyn)
{
    arch_occupancy occ;
    if (block > ks->k->max_block || arch_occupancy_exact(&h->dev, &ks->meta, block, dyn, NULL, &occ) != ARCH_OK)
        return 0;
    return occ.blocks_per_cu;
}

static int occupancy(const struct hipsoftmax_context *h, const hsm_kernel_state *ks, int block)
{
    return occupancy_smem(h, ks, block, 0);
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Kernels of a family for dtype and vector width, in table order (ascending cols_per_thread). */
static const hsm_kernel_state *next_kernel(const struct hipsoftmax_context *h, const hsm_kernel_state *after,
                                           hsm_family f, hsm_dtype dt, int vec)
{
    const hsm_kernel_state *end = h->kernels + h->n_kernels;
    for (const hsm_kernel_state *s = after != NULL ? after + 1 : h->kernels; s < end; s++)
        if (s->k->family == f && s->k->dtype == dt && s->k->vec == vec && s->have_meta &&
            (h->forced_kernel[0] == '\0' || strcmp(h->forced_kernel, s->k->name) == 0))
            return s;
    return NULL;
}

/* The most elements a lane/thread of the family holds for dtype and vec (0: none built). */
static int max_cols_per_thread(const struct hipsoftmax_context *h, hsm_family f, hsm_dtype dt, int vec)
{
    int c = 0;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, f, dt, vec); s != NULL; s = next_kernel(h, s, f, dt, vec))
        c = s->k->cols_per_thread > c ? s->k->cols_per_thread : c;
    return c;
}

static hipsoftmax_status plan_warp(const struct hipsoftmax_context *h, hsm_dtype dt, int vec, int64_t rows,
                                   int64_t cols, hsm_plan *out)
{
    const int warp = h->dev.warp_size;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_WARP, dt, vec); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_WARP, dt, vec)) {
        const int c = s->k->cols_per_thread;
        if ((int64_t)warp * c < cols)
            continue;
        int w = 1;
        while ((int64_t)w * c < cols)
            w *= 2;
        const int block = s->k->max_block;
        const int bpc = occupancy(h, s, block);
        HSM_RETURN_IF(bpc == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
        out->ks = s;
        out->block = block;
        out->group_width = w;
        out->blocks_per_row = 1;
        out->grid = (int)min64(ceil_div(rows, block / w), (int64_t)h->dev.num_cus * bpc);
        return HIPSOFTMAX_STATUS_SUCCESS;
    }
    return HIPSOFTMAX_STATUS_NOT_SUPPORTED;
}

/* ROW: the smallest per-thread chunk of at least HSM_ROW_MIN_BYTES_PER_THREAD bytes that covers the
 * row with at most HSM_ROW_PREFERRED_BLOCK threads; failing that, the smallest chunk that covers it with
 * any block the kernel allows. */
static hipsoftmax_status plan_row(const struct hipsoftmax_context *h, hsm_dtype dt, int vec, int64_t rows,
                                  int64_t cols, hsm_plan *out)
{
    const int warp = h->dev.warp_size;
    const int es = dt == HSM_F32 ? 4 : 2;
    const hsm_kernel_state *pick = NULL, *fallback = NULL;
    int pick_block = 0, fallback_block = 0;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ROW, dt, vec); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_ROW, dt, vec)) {
        const int64_t block = ceil_div(ceil_div(cols, s->k->cols_per_thread), warp) * warp;
        if (block > s->k->max_block || occupancy(h, s, (int)block) == 0)
            continue;
        if (fallback == NULL) {
            fallback = s;
            fallback_block = (int)block;
        }
        if (block <= HSM_ROW_PREFERRED_BLOCK && s->k->cols_per_thread * es >= HSM_ROW_MIN_BYTES_PER_THREAD) {
            pick = s;
            pick_block = (int)block;
            break;
        }
    }
    if (pick == NULL) {
        pick = fallback;
        pick_block = fallback_block;
    }
    HSM_RETURN_IF(pick == NULL, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    out->ks = pick;
    out->block = pick_block;
    out->group_width = 0;
    out->blocks_per_row = 1;
    out->grid = (int)min64(rows, (int64_t)h->dev.num_cus * occupancy(h, pick, pick_block));
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* Whether ROW holds a row of `cols` within its preferred block size. */
static int row_fits(const struct hipsoftmax_context *h, hsm_dtype dt, int vec, int64_t cols)
{
    const int c = max_cols_per_thread(h, HSM_FAMILY_ROW, dt, vec);
    return c > 0 && cols <= (int64_t)HSM_ROW_PREFERRED_BLOCK * c;
}

/* ONLINE: one block per row at a time, with as many of the row's tiles cached in shared memory as
 * the per-block limit allows. Two ways to spend that memory: keep every block the registers allow
 * resident (smaller cache each), or take the largest cache (often one block per SM). Measured on an
 * H200 (fp32, M=4096): with half the row or more cached, more resident blocks won (N=32K: 78% vs 74%
 * of the copy bandwidth); with less, the larger cache did (N=64K: 78% vs 73%, N=128K: 76% vs 69%). */
static hipsoftmax_status plan_online(const struct hipsoftmax_context *h, hsm_dtype dt, int vec, int64_t rows,
                                     int64_t cols, hsm_plan *out)
{
    const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_ONLINE, dt, vec);
    HSM_RETURN_IF(s == NULL, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    const int block = s->k->max_block;
    const int64_t tile = (int64_t)block * s->k->cols_per_thread;
    const int64_t tile_bytes = tile * (dt == HSM_F32 ? 4 : 2);
    const int64_t tiles = ceil_div(cols, tile);
    const size_t limit = h->dev.smem_per_block_optin > s->meta.static_smem
                             ? h->dev.smem_per_block_optin - s->meta.static_smem : 0;
    /* Every resident block the registers allow, each with the cache that still fits beside them. */
    const int bpc = occupancy(h, s, block);
    HSM_RETURN_IF(bpc == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    int64_t cached = min64(tiles, (int64_t)limit / tile_bytes);
    while (cached > 0 && occupancy_smem(h, s, block, (size_t)(cached * tile_bytes)) < bpc)
        cached--;
    int resident = bpc;
    /* Less than half the row cached: take the largest cache instead. */
    if (2 * cached < tiles) {
        const int64_t most = min64(tiles, (int64_t)limit / tile_bytes);
        const int r = occupancy_smem(h, s, block, (size_t)(most * tile_bytes));
        if (r > 0 && most > cached) {
            cached = most;
            resident = r;
        }
    }
    out->ks = s;
    out->block = block;
    out->group_width = 0;
    out->blocks_per_row = 1;
    out->cached_tiles = (int)cached;
    out->smem_bytes = (size_t)(cached * tile_bytes);
    out->grid = (int)min64(rows, (int64_t)h->dev.num_cus * resident);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

/* SPLIT: of every SPLIT kernel for the dtype and every block size it allows, the one that holds the
 * most of the row on chip across the co-resident grid (fewest elements streamed twice), and on ties
 * the most co-resident blocks. Measured on an H200 (bench/results/h200-2026-11-21.md): many small
 * blocks per row beat few large ones of equal capacity (more groups in flight hide each group's
 * barrier). A row gets as many blocks as its length needs, capped by what can be co-resident. */
static hipsoftmax_status plan_split(const struct hipsoftmax_context *h, hsm_dtype dt, int vec, int64_t rows,
                                    int64_t cols, hsm_plan *out)
{
    HSM_RETURN_IF(!h->cooperative && h->device >= 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    int64_t best_held = -1, best_grid = 0;
    for (const hsm_kernel_state *s = next_kernel(h, NULL, HSM_FAMILY_SPLIT, dt, vec); s != NULL;
         s = next_kernel(h, s, HSM_FAMILY_SPLIT, dt, vec)) {
        for (int block = s->k->max_block; block >= 128; block /= 2) {
            const int64_t resident = (int64_t)h->dev.num_cus * occupancy(h, s, block);
            const int64_t g = min64(resident, h->workspace_grid > 0 ? h->workspace_grid : resident);
            if (g == 0)
                continue;
            const int64_t chunk = (int64_t)block * s->k->cols_per_thread;
            const int64_t k = min64(ceil_div(cols, chunk), g);
            const int64_t groups = min64(g / k, rows);
            const int64_t held = groups * min64(k * chunk, cols);
            if (held > best_held || (held == best_held && groups * k > best_grid)) {
                best_held = held;
                best_grid = groups * k;
                out->ks = s;
                out->block = block;
                out->group_width = 0;
                out->blocks_per_row = (int)k;
                out->grid = (int)(groups * k);
            }
        }
    }
    HSM_RETURN_IF(best_grid == 0, HIPSOFTMAX_STATUS_NOT_SUPPORTED);
    return HIPSOFTMAX_STATUS_SUCCESS;
}

static hipsoftmax_status plan_auto(const struct hipsoftmax_context *h, hsm_dtype dt, int vec, int64_t rows,
                                   int64_t cols, hsm_plan *out)
{
    if (cols <= HSM_WARP_MAX_COLS && plan_warp(h, dt, vec, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    const int many_rows = rows >= (int64_t)h->dev.num_cus * HSM_MANY_ROWS_PER_CU;
    if ((!many_rows && cols >= HSM_SPLIT_MIN_COLS) &&
        plan_split(h, dt, vec, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    if (row_fits(h, dt, vec, cols) && plan_row(h, dt, vec, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    if (plan_online(h, dt, vec, rows, cols, out) == HIPSOFTMAX_STATUS_SUCCESS)
        return HIPSOFTMAX_STATUS_SUCCESS;
    return plan_warp(h, dt, vec, rows, cols, out);
}

static hipsoftmax_status plan_compute(const struct hipsoftmax_context *h, hipsoftmax_family family, hsm_dtype dt,
                                      int vec, int64_t rows, int64_t cols, hsm_plan *out)
{
    if (h->forced_kernel[0] != '\0') {
        for (size_t i = 0; i < h->n_kernels; i++)
            if (strcmp(h->kernels[i].k->name, h->forced_kernel) == 0)
                family = (hipsoftmax_family)h->kernels[i].k->family;
    }
    switch (family) {
    case HIPSOFTMAX_FAMILY_WARP: return plan_warp(h, dt, vec, rows, cols, out);
    case HIPSOFTMAX_FAMILY_ROW: return plan_row(h, dt, vec, rows, cols, out);
    case HIPSOFTMAX_FAMILY_ONLINE: return plan_online(h, dt, vec, rows, cols, out);
    case HIPSOFTMAX_FAMILY_SPLIT: return plan_split(h, dt, vec, rows, cols, out);
    case HIPSOFTMAX_FAMILY_AUTO: break;
    }
    return plan_auto(h, dt, vec, rows, cols, out);
}

/* Preconditions: the problem passed hsm_validate. */
hipsoftmax_status hsm_plan_get(struct hipsoftmax_context *h, const hipsoftmax_problem *p, const void *x,
                               const void *y, hsm_plan *out)
{
    const size_t es = hsm_dtype_size(p->x_dtype);
    const int v = (int)(16 / es);
    /* 16-byte accesses need 16-byte aligned rows and a row length that whole accesses cover. */
    const int aligned = (uintptr_t)x % 16 == 0 && (uintptr_t)y % 16 == 0 && p->cols % v == 0 &&
                        p->x_row_stride % v == 0 && p->y_row_stride % v == 0;
    const int vec = aligned ? v : 1;
    const hsm_dtype dt = hsm_dtype_of(p->x_dtype);

    const uint64_t key = (uint64_t)p->rows * 0x9E3779B97F4A7C15ull ^ (uint64_t)p->cols * 0xC2B2AE3D27D4EB4Full ^
                         (uint64_t)dt << 3 ^ (uint64_t)vec << 7 ^ (uint64_t)h->forced << 11;
    hsm_plan_entry *e = &h->plans[key % HSM_PLAN_CACHE];
    if (e->valid && e->dtype == dt && e->vec == vec && e->family == (int)h->forced && e->rows == p->rows &&
        e->cols == p->cols) {
        *out = e->plan;
        return e->status;
    }
    hsm_plan plan;
    memset(&plan, 0, sizeof plan);
    const hipsoftmax_status st = plan_compute(h, h->forced, dt, vec, p->rows, p->cols, &plan);
    e->valid = 1;
    e->dtype = dt;
    e->vec = vec;
    e->family = (int)h->forced;
    e->rows = p->rows;
    e->cols = p->cols;
    e->status = st;
    e->plan = plan;
    *out = plan;
    return st;
}
