/* kernel.unaligned.<dtype>.<fwd|bwd>.<vendor>: every kernel the library has (hipsoftmax_kernel_count,
 * hipsoftmax_get_kernel_info), forced alone with hipsoftmax_set_kernel, on rows whose length is a
 * multiple of no vector width of 16 bytes (12345, 781, 2001, 50257, 4097, 2055, 509, 302, 300, 77, 33
 * and 1 columns: issue 14's shapes, WARP's short rows and the edges of WARP's and ROW's ranges; 4097
 * and 2055 are up to 7 columns past a block's chunk of 4096 and 2048, which ROW's peeled kernels hold
 * (their whole packs under the chunk, the edges an element a thread: plan.c's row_block); 300 and
 * 302 16-bit columns are 600 and 604 bytes, rows on 8 and 4 bytes, WARP's _h and _q kernels' when
 * dense), in these layouts:
 *   dense;  every stride cols + 1;  every stride cols + 3 with each tensor 1, 2 or 3 elements into
 *   its allocation;  the input's stride cols + 1 with a dense output (backward: y cols + 1, dy
 *   cols + 3, dx dense);  dense with each tensor 1, 2 or 3 elements into its allocation (WARP's
 *   staged kernels: x's and y's spans at different offsets),
 * so that consecutive rows start at every alignment and x and y are misaligned differently; and their
 * aligned neighbours (12344, 784, 2000, 50256, 4096, 512, 32: every vector width divides them; 784
 * and 2000 are WARP's packed p32 and p64 rows on NVIDIA, 2000 and 4096 on 64-lane waves, 512 and 784
 * its packed backward's p16 and p32 rows on NVIDIA, 784 and 2000 on 64-lane waves) dense, and with
 * every stride one 16-byte access longer and each tensor 1, 2 or 3 accesses into its allocation: rows
 * the vector kernels take, starting off their 128-byte line, each tensor at another place in it.
 *   fwd: the plain forward's kernels (softmax, no option), the plain log-softmax's kernels (_log:
 *        ROW's and SPLIT's; their peeled and scalar ones take the unaligned rows, the others the
 *        aligned neighbours) and the forward-with-options kernels (scale 0.5; log-softmax on every
 *        other layout);
 *   bwd: the backward's kernels (softmax and log-softmax, scale 1 and 0.5).
 * A kernel the plan says cannot serve a shape (a vector kernel on the unaligned rows, a scalar one on
 * the vector layouts, a row longer than it holds) returns NOT_SUPPORTED: counted and listed per
 * kernel, not failed; but every kernel must run at least one case (on sm_80, sm_90 and gfx942 each
 * serves several), else the test would say nothing of it. The peeled kernels (_peel: vector kernels
 * for rows at any element offset) serve the unaligned rows too (packs straddling both ends of a row):
 * the plain forward's ROW twins in every layout (so do ROW's _shift and _stage twins of its packed
 * ones and its fp32 _stage kernels, made for the layouts whose y rows lie at other offsets than x's), its WARP
 * twins where x and y rows lie at the same offsets (not the x stride+1, y dense one); WARP's _h and _q kernels (16-bit packs of 8 and 4
 * bytes) the plain forward's and log-softmax's rows on their packs (300 and 302 dense, the aligned
 * neighbours); WARP's staged
 * kernels (_flat, 16-bit) the plain forward's dense
 * rows of up to 512 columns, with or without offsets; the forward with options' (_peel_fwd) and the backward's
 * (_peel_bwd: ROW, SPLIT, ONLINE) where every tensor's rows lie at the input's offset from their own
 * accesses (dense and stride+1, not the layouts whose tensors start at different places).
 *
 * Every buffer is allocated to exactly its offset plus its extent, so compute-sanitizer (the
 * sanitizer.memcheck.unaligned tests, HSM_TEST_QUICK: fewer shapes and rows) reports a read past the
 * last row; the padding between rows and the elements before the output hold sentinels that must not
 * change (777 in the inputs' padding: a kernel that read it as data would give wrong rows).
 * HSM_TEST_KERNELS=<part of a name> runs only the kernels whose names hold it (a kernel's change
 * under the sanitizers).
 *
 * Tolerances (test_util.h says why): forward |y - ref| <= rel * |ref| + abs, f32 2e-5 / 1e-37, f16
 * 6e-4 / 6e-8, bf16 4.5e-3 / 1e-37, log-softmax 2e-5 more; backward rel (f32 2e-6, else the dtype's
 * rounding) on the product and difference plus the row sum's rounding. References in float64 from
 * the stored (rounded) inputs. Exits HSM_SKIP_CODE when there is no GPU of the library's vendor. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsm_vendor.h"
#include "reference.h"
#include "reference_ops.h"
#include "test_util.h"

static const hipsoftmax_dtype api_dt[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
static const char *const dt_names[] = {"f32", "f16", "bf16"};
static const char *const fam_names[] = {"auto", "warp", "row", "online", "split", "channel"};

enum { KIND_PLAIN, KIND_LOG, KIND_FWD, KIND_BWD };
static const char *const kind_names[] = {"plain forward", "plain log-softmax", "forward with options", "backward"};
enum { L_DENSE, L_PAD1, L_PAD3, L_MIXED, L_VEC, L_DENSE_OFF, L_COUNT };
static const char *const layout_names[] = {"dense", "stride+1", "stride+3 offset", "x stride+1 y dense",
                                           "stride+16 bytes offset", "dense offset"};

typedef struct {
    char name[64];
    int family, kind;
    long long served, unsupported;
} kernel;

static long long failures;

/* One shape in one layout, inputs and reference made once and run by every kernel of its kind.
 * Tensors: in (forward x, backward y), in2 (backward dy), out (forward y, backward dx); strides and
 * offsets in elements. */
typedef struct {
    test_dtype t;
    int kind, log;
    float scale;
    int64_t rows, cols, s_in, s_in2, s_out;
    size_t o_in, o_in2, o_out;
    size_t b_in, b_in2, b_out;         /* allocation sizes in bytes: offset + extent, exactly */
    void *h_in, *h_in2, *h_out0;       /* host: the inputs' allocations and the output's before a call */
    double *ref, *tol;                 /* rows x cols: expected values and their tolerances */
    void *a_in, *a_in2, *a_out;        /* device allocations */
} ucase;

static size_t alloc_bytes(size_t off, int64_t rows, int64_t stride, int64_t cols, size_t es)
{
    return (off + (size_t)((rows - 1) * stride + cols)) * es;
}

/* The backward's y: a softmax (log-softmax) of random logits per row, as stored. */
static void fill_softmax_row(void *buf, size_t at, int64_t cols, test_dtype t, int log_softmax, double *logits)
{
    double m = -INFINITY, s = 0.0;
    for (int64_t c = 0; c < cols; c++) {
        logits[c] = test_uniform(-6.0f, 6.0f);
        m = logits[c] > m ? logits[c] : m;
    }
    for (int64_t c = 0; c < cols; c++)
        s += exp(logits[c] - m);
    for (int64_t c = 0; c < cols; c++)
        test_set(buf, at + (size_t)c, t, (float)(log_softmax ? logits[c] - m - log(s) : exp(logits[c] - m) / s));
}

static void build(ucase *u, test_dtype t, int kind, int64_t rows, int64_t cols, int layout)
{
    memset(u, 0, sizeof *u);
    const size_t es = test_dtype_size(t);
    u->t = t, u->kind = kind, u->rows = rows, u->cols = cols;
    u->log = kind == KIND_LOG || (kind != KIND_PLAIN && layout % 2 == 1);
    u->scale = kind == KIND_FWD || (kind == KIND_BWD && layout >= L_PAD3) ? 0.5f : 1.0f;
    const int64_t v = (int64_t)(16 / es); /* elements of one 16-byte access */
    const int64_t pad_in = layout == L_PAD1 || layout == L_MIXED ? 1 : layout == L_PAD3 ? 3 : layout == L_VEC ? v : 0;
    const int64_t pad_in2 = layout == L_PAD1 ? 1 : layout == L_PAD3 || layout == L_MIXED ? 3 : layout == L_VEC ? v : 0;
    const int64_t pad_out = layout == L_PAD1 ? 1 : layout == L_PAD3 ? 3 : layout == L_VEC ? v : 0;
    u->s_in = cols + pad_in, u->s_in2 = cols + pad_in2, u->s_out = cols + pad_out;
    if (layout == L_PAD3 || layout == L_VEC || layout == L_DENSE_OFF) {
        const size_t step = layout == L_VEC ? (size_t)v : 1;
        u->o_in = step, u->o_in2 = 2 * step, u->o_out = 3 * step;
    }
    u->b_in = alloc_bytes(u->o_in, rows, u->s_in, cols, es);
    u->b_in2 = kind == KIND_BWD ? alloc_bytes(u->o_in2, rows, u->s_in2, cols, es) : 0;
    u->b_out = alloc_bytes(u->o_out, rows, u->s_out, cols, es);
    u->h_in = test_xmalloc(u->b_in), u->h_in2 = test_xmalloc(u->b_in2), u->h_out0 = test_xmalloc(u->b_out);
    for (size_t i = 0; i < u->b_in / es; i++)
        test_set(u->h_in, i, t, 777.0f); /* padding and lead-in sentinels */
    for (size_t i = 0; i < u->b_in2 / es; i++)
        test_set(u->h_in2, i, t, 777.0f);
    for (size_t i = 0; i < u->b_out / es; i++)
        test_set(u->h_out0, i, t, 555.0f);
    u->ref = test_xmalloc(sizeof(double) * (size_t)(rows * cols));
    u->tol = test_xmalloc(sizeof(double) * (size_t)(rows * cols));
    double *a = test_xmalloc(sizeof(double) * (size_t)cols), *b = test_xmalloc(sizeof(double) * (size_t)cols);
    for (int64_t r = 0; r < rows; r++) {
        const size_t in = u->o_in + (size_t)(r * u->s_in), in2 = u->o_in2 + (size_t)(r * u->s_in2);
        double *ref = u->ref + r * cols, *tol = u->tol + r * cols;
        if (kind != KIND_BWD) {
            for (int64_t c = 0; c < cols; c++)
                test_set(u->h_in, in + (size_t)c, t, test_uniform(-8.0f, 8.0f));
            for (int64_t c = 0; c < cols; c++)
                a[c] = (double)u->scale * test_get(u->h_in, in + (size_t)c, t);
            double mx, lse;
            test_ref_forward(a, cols, u->log, 0, ref, &mx, &lse);
            for (int64_t c = 0; c < cols; c++)
                tol[c] = test_forward_tol(t, 0.0, 1.0, ref[c], 0.0, u->log);
            continue;
        }
        fill_softmax_row(u->h_in, in, cols, t, u->log, a);
        for (int64_t c = 0; c < cols; c++) {
            test_set(u->h_in2, in2 + (size_t)c, t, test_uniform(-1.0f, 1.0f));
            a[c] = test_get(u->h_in, in + (size_t)c, t);
            b[c] = test_get(u->h_in2, in2 + (size_t)c, t);
        }
        double sa, s = 0.0;
        test_ref_backward(a, b, cols, u->log, u->scale, ref, &sa);
        for (int64_t c = 0; c < cols; c++)
            s += u->log ? b[c] : b[c] * a[c];
        for (int64_t c = 0; c < cols; c++)
            tol[c] = test_backward_tol(t, u->log, u->scale, 1.0, 0.0, a[c], b[c], s, sa, cols);
    }
    free(a), free(b);
    u->a_in = test_to_device(u->h_in, u->b_in);
    u->a_in2 = kind == KIND_BWD ? test_to_device(u->h_in2, u->b_in2) : NULL;
    CHECK_HIP(hipMalloc(&u->a_out, u->b_out));
}

static void destroy(ucase *u)
{
    CHECK_HIP(hipFree(u->a_in));
    if (u->a_in2 != NULL)
        CHECK_HIP(hipFree(u->a_in2));
    CHECK_HIP(hipFree(u->a_out));
    free(u->h_in), free(u->h_in2), free(u->h_out0), free(u->ref), free(u->tol);
}

/* The case's call on the handle's forced kernel. */
static hipsoftmax_status call(hipsoftmax_handle h, const ucase *u)
{
    const size_t es = test_dtype_size(u->t);
    const char *in = (const char *)u->a_in + u->o_in * es;
    char *out = (char *)u->a_out + u->o_out * es;
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, api_dt[u->t], u->rows, u->cols);
    p.algorithm = u->log ? HIPSOFTMAX_ALGO_LOG_SOFTMAX : HIPSOFTMAX_ALGO_SOFTMAX;
    p.scale = u->scale;
    if (u->kind == KIND_BWD) {
        p.y_row_stride = u->s_in, p.dy_row_stride = u->s_in2, p.x_row_stride = u->s_out;
        return hipsoftmax_backward(h, &p, in, (const char *)u->a_in2 + u->o_in2 * es, out);
    }
    p.x_row_stride = u->s_in, p.y_row_stride = u->s_out;
    return hipsoftmax_forward(h, &p, in, out);
}

/* Runs kernel k on the case (the output reset first) and checks it; returns 1 if it ran. */
static int run_kernel(hipsoftmax_handle h, const ucase *u, kernel *k, const char *layout)
{
    CHECK_HSM(hipsoftmax_set_kernel(h, k->name));
    CHECK_HIP(hipMemcpy(u->a_out, u->h_out0, u->b_out, hipMemcpyHostToDevice));
    const hipsoftmax_status st = call(h, u);
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED) {
        k->unsupported++;
        return 0;
    }
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "%s %lldx%lld %s: %s\n", k->name, (long long)u->rows, (long long)u->cols, layout,
                hipsoftmax_status_string(st));
        failures++;
        return 0;
    }
    k->served++;
    const size_t es = test_dtype_size(u->t);
    void *got = test_xmalloc(u->b_out);
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipMemcpy(got, u->a_out, u->b_out, hipMemcpyDeviceToHost));
    long long bad = 0;
    for (size_t i = 0; i < u->b_out / es; i++) {
        const int64_t rel = (int64_t)i - (int64_t)u->o_out, r = rel >= 0 ? rel / u->s_out : -1;
        const int64_t c = rel >= 0 ? rel % u->s_out : -1;
        if (rel < 0 || c >= u->cols) { /* before the output, or between its rows */
            if (memcmp((char *)got + i * es, (char *)u->h_out0 + i * es, es) != 0 && bad++ < 5)
                fprintf(stderr, "  element %zu of the output's allocation (not the output's) written\n", i);
            continue;
        }
        const double g = test_get(got, i, u->t), want = u->ref[r * u->cols + c];
        if (!test_matches(g, want, u->tol[r * u->cols + c], u->t) && bad++ < 5)
            fprintf(stderr, "  row %lld col %lld: got %.9g expected %.9g\n", (long long)r, (long long)c, g, want);
    }
    if (bad) {
        fprintf(stderr, "%s %s %lldx%lld %s log %d scale %g: %lld wrong\n", k->name, kind_names[u->kind],
                (long long)u->rows, (long long)u->cols, layout, u->log, (double)u->scale, bad);
        failures++;
    }
    free(got);
    return 1;
}

/* The kernels of dtype t and the kinds asked for, from their names: hsm_<family>_<dtype>_<variant>,
 * with _fwd (forward with options), _bwd (backward) or _log (the plain log-softmax) at the end,
 * nothing for the plain forward. */
static int list_kernels(hipsoftmax_handle h, test_dtype t, int bwd, kernel **out)
{
    size_t n = 0;
    CHECK_HSM(hipsoftmax_kernel_count(h, &n));
    kernel *ks = test_xmalloc(sizeof *ks * (n > 0 ? n : 1));
    int m = 0;
    char token[16];
    snprintf(token, sizeof token, "_%s_", dt_names[t]);
    /* HSM_TEST_KERNELS: only the kernels whose names hold it (a kernel change under the sanitizers). */
    const char *only = getenv("HSM_TEST_KERNELS");
    for (size_t i = 0; i < n; i++) {
        hipsoftmax_kernel_info info = {.struct_size = sizeof info};
        CHECK_HSM(hipsoftmax_get_kernel_info(h, i, &info));
        const size_t len = strlen(info.name);
        if (strstr(info.name, token) == NULL || (only != NULL && strstr(info.name, only) == NULL))
            continue;
        const int kind = len > 4 && strcmp(info.name + len - 4, "_bwd") == 0   ? KIND_BWD
                         : len > 4 && strcmp(info.name + len - 4, "_fwd") == 0 ? KIND_FWD
                         : len > 4 && strcmp(info.name + len - 4, "_log") == 0 ? KIND_LOG
                                                                               : KIND_PLAIN;
        if ((kind == KIND_BWD) != bwd)
            continue;
        /* The row families only: CHANNEL's kernels serve [outer][C][inner] tensors, whose padded and
         * off-16-byte layouts test_channel.c forces on each of them (its vector kernels never serve a
         * row, inner 1, so here they would run nothing). */
        if (info.family == HIPSOFTMAX_FAMILY_CHANNEL)
            continue;
        memset(&ks[m], 0, sizeof ks[m]);
        snprintf(ks[m].name, sizeof ks[m].name, "%s", info.name);
        ks[m].family = (int)info.family;
        ks[m].kind = kind;
        m++;
    }
    *out = ks;
    return m;
}

int main(int argc, char **argv)
{
    int dti = -1, bwd = -1;
    for (int i = 0; argc == 3 && i < 3; i++)
        if (strcmp(argv[1], dt_names[i]) == 0)
            dti = i;
    if (argc == 3)
        bwd = strcmp(argv[2], "bwd") == 0 ? 1 : strcmp(argv[2], "fwd") == 0 ? 0 : -1;
    if (dti < 0 || bwd < 0) {
        fprintf(stderr, "usage: %s f32|f16|bf16 fwd|bwd\n", argv[0]);
        return 2;
    }
    const test_dtype t = (test_dtype)dti;
    const int quick = getenv("HSM_TEST_QUICK") != NULL;
    hipsoftmax_handle h = test_open_handle(); /* exits with the skip code without a GPU */
    kernel *ks = NULL;
    const int nk = list_kernels(h, t, bwd, &ks);
    /* The unaligned rows, then their aligned neighbours (negative: only the layouts of whole accesses). */
    static const int64_t full[] = {12345, 781, 2001, 50257, 4097, 2055, 509, 302, 300, 77, 33, 1,
                                   -12344, -784, -2000, -50256, -4096, -512, -32};
    static const int64_t brief[] = {781, 4097, 2055, 302, 300, 77, 33, -784, -4096, -32};
    const int64_t *shapes = quick ? brief : full;
    const int ns = quick ? (int)(sizeof brief / sizeof brief[0]) : (int)(sizeof full / sizeof full[0]);
    long long cases = 0, ran = 0, unsupported = 0;
    for (int s = 0; s < ns; s++) {
        const int aligned = shapes[s] < 0;
        /* About 2^19 elements (2^14 under the sanitizer); at least 3 rows, so every layout has rows
         * at three alignments. WARP's short rows get hundreds: several rows per warp and block. */
        const int64_t cols = aligned ? -shapes[s] : shapes[s];
        const int64_t want = (quick ? (int64_t)1 << 14 : (int64_t)1 << 19) / cols;
        const int64_t rows = want < 3 ? 3 : want > 257 ? 257 : want;
        for (int l = 0; l < L_COUNT; l++) {
            if (aligned ? l != L_DENSE && l != L_VEC : l == L_VEC)
                continue;
            for (int kind = bwd ? KIND_BWD : KIND_PLAIN; kind <= (bwd ? KIND_BWD : KIND_FWD); kind++) {
                ucase u;
                build(&u, t, kind, rows, cols, l);
                for (int i = 0; i < nk; i++)
                    if (ks[i].kind == kind) {
                        cases++;
                        ran += run_kernel(h, &u, &ks[i], layout_names[l]);
                    }
                destroy(&u);
            }
        }
    }
    CHECK_HSM(hipsoftmax_set_kernel(h, NULL));
    /* Per kernel; each must have run something in the full set (the quick one, under the sanitizer,
     * leaves out the 1-column rows only the s1 kernels serve: there a kernel that ran nothing is
     * listed, not failed). */
    for (int i = 0; i < nk; i++)
        unsupported += ks[i].unsupported;
    for (int i = 0; i < nk; i++)
        printf("  %-28s %-20s %3lld run, %3lld not supported%s\n", ks[i].name, kind_names[ks[i].kind], ks[i].served,
               ks[i].unsupported, ks[i].served == 0 ? " (none ran)" : "");
    for (int i = 0; i < nk && !quick; i++)
        if (ks[i].served == 0) {
            fprintf(stderr, "%s (%s, %s) ran no case\n", ks[i].name, fam_names[ks[i].family], kind_names[ks[i].kind]);
            failures++;
        }
    free(ks);
    hipsoftmax_destroy(h);
    printf("kernel.unaligned.%s.%s: %d kernels, %lld kernel cases, %lld run, %lld not supported, %lld failures\n",
           dt_names[t], bwd ? "bwd" : "fwd", nk, cases, ran, unsupported, failures);
    return failures == 0 && nk > 0 ? 0 : 1;
}
