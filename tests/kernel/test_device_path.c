/* kernel.device_path.<vendor>: the library's device path (issue 16) with the pointers, streams,
 * runtime state and devices an application hands it, each result checked against the float64
 * reference (reference.c):
 *   1. x and y at different alignments: every pair of element offsets 0..8 of x and y (x != y), rows
 *      of odd and even lengths from 1 to 65544 columns, every family forced and the plan's choice.
 *   2. Single rows starting off a 128-byte line: x at every element offset inside the line (4..124
 *      bytes for fp32, 2..126 for 16-bit), y 64 bytes further round the line, 1000 to 262144 columns,
 *      every family forced; x and y each in an allocation of exactly offset + row bytes, so
 *      compute-sanitizer reports a read or write past the row.
 *   3. A non-blocking stream set before the first call on a new handle, that call planned on SPLIT
 *      (4 rows of 1,048,576 columns), with the legacy default stream kept busy meanwhile: the
 *      handle's workspace must be zeroed before a launch that is not ordered after that stream.
 *      Several fresh handles, each likely given the freed (not zeroed) workspace of the one before.
 *   4. A pending application error (an invalid device ordinal, a failed allocation) the application
 *      has not read: the call must still succeed and compute, and hipGetLastError / cudaGetLastError
 *      must afterwards return the application's error (the library neither reads nor replaces it),
 *      on an existing handle for every family and on a handle created while the error is pending.
 *      Where the runtime itself clears the last error on every successful call (some HIP runtime
 *      versions do; the test probes it first), only status and results are checked, and it says so.
 *   5. Where the machine has two devices: a handle on each from create_for_device, with either device
 *      current; the thread's current device must be the same after every create and call, and each
 *      handle must describe its own device. On every machine: two handles on the current device
 *      running at the same time on two streams.
 *   6. A SPLIT launch (8 rows, several blocks a row) captured into a graph and replayed with new x
 *      each time, with an uncaptured call on the same handle between replays: a replay repeats the
 *      launch's exchange tags (softmax_split.hip), so the library must fence such a launch. A runtime
 *      that cannot capture the launch says so and skips the part.
 * Tolerances: |y - ref| <= rel * |ref| + abs per dtype (test_util.h says why: f32 2e-5 / 1e-37, f16
 * 6e-4 / 6e-8, bf16 4.5e-3 / 1e-37). Bytes of y's allocation before y and between rows must not change.
 * HSM_TEST_QUICK (the compute-sanitizer run): fewer offsets and lengths, the same five parts.
 * Exits HSM_SKIP_CODE when there is no GPU of the library's vendor. */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsm_vendor.h"
#include "reference.h"
#include "test_util.h"

static const hipsoftmax_dtype api_dt[] = {HIPSOFTMAX_DTYPE_F32, HIPSOFTMAX_DTYPE_F16, HIPSOFTMAX_DTYPE_BF16};
static const char *const dt_names[] = {"f32", "f16", "bf16"};
static const char *const fam_names[] = {"auto", "warp", "row", "online", "split"};

static long long cases, unsupported, failures;
static int quick;

/* Makes `device` current; returns the device that was. */
static int enter_device(int device)
{
    int prev = 0;
    CHECK_HIP(hipGetDevice(&prev));
    if (prev != device)
        CHECK_HIP(hipSetDevice(device));
    return prev;
}

static void expect_device(int want, const char *after)
{
    int cur = -1;
    CHECK_HIP(hipGetDevice(&cur));
    if (cur != want) {
        fprintf(stderr, "current device %d after %s, expected %d (not restored)\n", cur, after, want);
        failures++;
    }
}

/* One plain forward (hipsoftmax_softmax) on buffers of its own. x and y each lie in an allocation of
 * exactly offset + extent bytes (hipMalloc gives 256-byte aligned blocks, so the offset sets where the
 * tensor starts relative to a 128-byte line). */
typedef struct {
    test_dtype t;
    int64_t rows, cols, xs, ys; /* row strides in elements */
    size_t xoff, yoff;          /* bytes from each allocation's start to x, y */
    int device;                 /* where the buffers live */
    hipStream_t stream;         /* the handle's stream: results are read back on it (NULL: synchronise) */
    void *xa, *ya, *x, *y;      /* allocations, tensors */
    void *hx, *hy0;             /* host: x, and y's whole allocation before the call */
    size_t xbytes, ybytes;      /* extents of x and y */
} dcase;

static dcase make_case(test_dtype t, int64_t rows, int64_t cols, size_t xoff, size_t yoff)
{
    dcase k;
    memset(&k, 0, sizeof k);
    k.t = t, k.rows = rows, k.cols = cols, k.xs = cols, k.ys = cols, k.xoff = xoff, k.yoff = yoff;
    return k;
}

static void prepare(dcase *k)
{
    const size_t es = test_dtype_size(k->t);
    k->xbytes = (size_t)((k->rows - 1) * k->xs + k->cols) * es;
    k->ybytes = (size_t)((k->rows - 1) * k->ys + k->cols) * es;
    k->hx = test_xmalloc(k->xbytes);
    k->hy0 = test_xmalloc(k->yoff + k->ybytes);
    for (size_t i = 0; i < k->xbytes / es; i++)
        test_set(k->hx, i, k->t, test_uniform(-8.0f, 8.0f));
    memset(k->hy0, 0x5a, k->yoff + k->ybytes); /* before y and between rows: must survive */
    const int prev = enter_device(k->device);
    CHECK_HIP(hipMalloc(&k->xa, k->xoff + k->xbytes));
    CHECK_HIP(hipMalloc(&k->ya, k->yoff + k->ybytes));
    k->x = (char *)k->xa + k->xoff;
    k->y = (char *)k->ya + k->yoff;
    CHECK_HIP(hipMemcpy(k->x, k->hx, k->xbytes, hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(k->ya, k->hy0, k->yoff + k->ybytes, hipMemcpyHostToDevice));
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipSetDevice(prev));
}

static hipsoftmax_status launch(hipsoftmax_handle h, const dcase *k)
{
    return hipsoftmax_softmax(h, api_dt[k->t], k->rows, k->cols, k->x, k->xs, k->y, k->ys);
}

static void release(dcase *k)
{
    const int prev = enter_device(k->device);
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipFree(k->xa));
    CHECK_HIP(hipFree(k->ya));
    CHECK_HIP(hipSetDevice(prev));
    free(k->hx), free(k->hy0);
    k->hx = k->hy0 = NULL;
}

/* Reads y's allocation back (on the case's stream when it has one: the work must have been enqueued
 * there, since nothing else is waited for) and compares it with the reference. */
static void compare(const dcase *k, const char *what)
{
    const size_t es = test_dtype_size(k->t), all = k->yoff + k->ybytes;
    unsigned char *hy = test_xmalloc(all);
    const int prev = enter_device(k->device);
    if (k->stream != NULL) {
        CHECK_HIP(hipMemcpyAsync(hy, k->ya, all, hipMemcpyDeviceToHost, k->stream));
        CHECK_HIP(hipStreamSynchronize(k->stream));
    } else {
        CHECK_HIP(hipDeviceSynchronize());
        CHECK_HIP(hipMemcpy(hy, k->ya, all, hipMemcpyDeviceToHost));
    }
    CHECK_HIP(hipSetDevice(prev));
    double *in = test_xmalloc(sizeof(double) * (size_t)k->cols), *ref = test_xmalloc(sizeof(double) * (size_t)k->cols);
    long long bad = 0;
    if (memcmp(hy, k->hy0, k->yoff) != 0 && bad++ < 5)
        fprintf(stderr, "  bytes before y written\n");
    const unsigned char *y = hy + k->yoff, *y0 = (const unsigned char *)k->hy0 + k->yoff;
    for (int64_t r = 0; r < k->rows; r++) {
        for (int64_t c = 0; c < k->cols; c++)
            in[c] = test_get(k->hx, (size_t)(r * k->xs + c), k->t);
        test_reference_row(in, ref, k->cols);
        for (int64_t c = 0; c < k->cols; c++) {
            const double got = test_get(y, (size_t)(r * k->ys + c), k->t);
            const double tol = test_forward_tol(k->t, 0.0, 1.0, ref[c], 0.0, 0);
            if (!test_matches(got, ref[c], tol, k->t) && bad++ < 5)
                fprintf(stderr, "  row %lld col %lld: got %.9g expected %.9g\n", (long long)r, (long long)c, got,
                        ref[c]);
        }
        const size_t pad0 = (size_t)(r * k->ys + k->cols) * es, pad1 = (size_t)((r + 1) * k->ys) * es;
        if (r + 1 < k->rows && memcmp(y + pad0, y0 + pad0, pad1 - pad0) != 0 && bad++ < 5)
            fprintf(stderr, "  padding after row %lld written\n", (long long)r);
    }
    if (bad) {
        fprintf(stderr, "%s: %s %lldx%lld strides %lld/%lld, x at +%zu bytes, y at +%zu: %lld wrong\n", what,
                dt_names[k->t], (long long)k->rows, (long long)k->cols, (long long)k->xs, (long long)k->ys, k->xoff,
                k->yoff, bad);
        failures++;
    }
    free(hy), free(in), free(ref);
}

/* compare, then releases the case. */
static void verify(dcase *k, const char *what)
{
    compare(k, what);
    release(k);
}

/* Prepares, calls and verifies one case; NOT_SUPPORTED (a forced family that cannot serve the shape)
 * is counted, any other status is a failure. Returns the status. */
static hipsoftmax_status run_one(hipsoftmax_handle h, dcase *k, const char *what)
{
    prepare(k);
    const hipsoftmax_status st = launch(h, k);
    cases++;
    if (st == HIPSOFTMAX_STATUS_SUCCESS) {
        verify(k, what);
        return st;
    }
    if (st == HIPSOFTMAX_STATUS_NOT_SUPPORTED) {
        unsupported++;
    } else {
        fprintf(stderr, "%s: %s %lldx%lld, x at +%zu bytes, y at +%zu: %s\n", what, dt_names[k->t],
                (long long)k->rows, (long long)k->cols, k->xoff, k->yoff, hipsoftmax_status_string(st));
        failures++;
    }
    release(k);
    return st;
}

/* After a family's cases: the plan's own choice must serve every shape, and a forced family at least
 * one (else the part tested nothing of it). */
static void expect_served(int fam, test_dtype t, long long ran, long long tried, const char *what)
{
    if ((fam == HIPSOFTMAX_FAMILY_AUTO && ran != tried) || ran == 0) {
        fprintf(stderr, "%s: family %s %s served %lld of %lld cases\n", what, fam_names[fam], dt_names[t], ran, tried);
        failures++;
    }
}

/* Where a part puts x and y: byte offsets into their allocations for elements of es bytes, at most
 * MAX_PLACES pairs. Returns how many. */
#define MAX_PLACES 128
typedef int (*placements)(size_t es, size_t *xo, size_t *yo);

/* Every family forced, then the plan's choice, on every dtype, placement and row length. */
static void run_families(hipsoftmax_handle h, const char *what, int64_t rows, const int64_t *cols, int ncols,
                         placements where)
{
    size_t xo[MAX_PLACES], yo[MAX_PLACES];
    for (int fam = 0; fam < 5; fam++) {
        CHECK_HSM(hipsoftmax_set_family(h, (hipsoftmax_family)fam));
        for (int t = 0; t < 3; t++) {
            const int n = where(test_dtype_size((test_dtype)t), xo, yo);
            long long ran = 0, tried = 0;
            for (int p = 0; p < n; p++)
                for (int i = 0; i < ncols; i++) {
                    dcase k = make_case((test_dtype)t, rows, cols[i], xo[p], yo[p]);
                    tried++;
                    ran += run_one(h, &k, what) == HIPSOFTMAX_STATUS_SUCCESS;
                }
            expect_served(fam, (test_dtype)t, ran, tried, what);
        }
    }
    CHECK_HSM(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_AUTO));
}

/* ---- 1. x and y at different alignments ------------------------------------------------------------ */

/* Every pair of element offsets 0..8 with x's and y's different (quick: y four elements after x,
 * modulo 9). */
static int offset_pairs(size_t es, size_t *xo, size_t *yo)
{
    int n = 0;
    for (size_t ox = 0; ox <= 8; ox++)
        for (size_t oy = 0; oy <= 8; oy++)
            if (ox != oy && (!quick || oy == (ox + 4) % 9))
                xo[n] = ox * es, yo[n] = oy * es, n++;
    return n;
}

static void part_alignments(hipsoftmax_handle h)
{
    /* Odd and even, short (WARP), in one block (ROW), and long enough for ONLINE's tiles and SPLIT's
     * groups; 784 and 12344 divide by every vector width, so their rows take the vector kernels where
     * both offsets allow. Three rows: with odd lengths, rows 2 and 3 start at other alignments. */
    static const int64_t full[] = {1, 7, 33, 512, 784, 4097, 12344, 65544};
    static const int64_t brief[] = {33, 784, 12345};
    run_families(h, "alignments", 3, quick ? brief : full, quick ? 3 : (int)(sizeof full / sizeof full[0]),
                 offset_pairs);
}

/* ---- 2. single rows off a 128-byte line ------------------------------------------------------------ */

/* x at every element offset inside a 128-byte line (quick: 4, 16, 28, ..., 124: each of 0, 4, 8 and
 * 12 bytes past a 16-byte boundary), y 64 bytes further round the line. */
static int line_offsets(size_t es, size_t *xo, size_t *yo)
{
    int n = 0;
    for (size_t o = quick ? 4 : es; o < 128; o += quick ? 12 : es)
        xo[n] = o, yo[n] = (o + 64) % 128, n++;
    return n;
}

static void part_single_rows(hipsoftmax_handle h)
{
    /* Multiples of 8 (the vector path where the offset is a multiple of 16 bytes) and odd lengths;
     * 262144 columns put a single fp32 row on SPLIT's groups, laid out from its line. */
    static const int64_t full[] = {1000, 1001, 16384, 100003, 262144};
    static const int64_t brief[] = {1000, 1001, 100003};
    run_families(h, "single rows", 1, quick ? brief : full, quick ? 3 : (int)(sizeof full / sizeof full[0]),
                 line_offsets);
}

/* ---- 3. a non-blocking stream before the first call on a new handle -------------------------------- */

static void print_plan(hipsoftmax_handle h, const dcase *k, const char *what)
{
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    hipsoftmax_problem_init(&p, api_dt[k->t], k->rows, k->cols);
    if (hipsoftmax_get_plan(h, &p, &info) == HIPSOFTMAX_STATUS_SUCCESS)
        printf("  %s: %s %lldx%lld planned on %s (%s, %d blocks per row)\n", what, dt_names[k->t], (long long)k->rows,
               (long long)k->cols, fam_names[info.family], info.kernel, info.blocks_per_row);
}

static void part_nonblocking(void)
{
    /* 32 memsets of 256 MiB keep the legacy default stream busy for milliseconds: a workspace
     * zeroed there and not waited for would still hold the last handle's values when the first launch
     * on a non-blocking stream starts. */
    const size_t busy_bytes = (size_t)256 << 20;
    void *busy = NULL;
    CHECK_HIP(hipMalloc(&busy, busy_bytes));
    const int handles = quick ? 2 : 6;
    for (int i = 0; i < handles; i++) {
        /* The plan's choice (SPLIT for few long rows) and SPLIT forced, fp32 and bf16. */
        const int forced = i % 2;
        dcase k = make_case(i % 4 < 2 ? T_F32 : T_BF16, 4, quick ? (int64_t)1 << 18 : (int64_t)1 << 20, 0, 0);
        hipStream_t s = NULL;
        CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
        k.stream = s;
        prepare(&k);
        for (int j = 0; j < 32; j++)
            CHECK_HIP(hipMemsetAsync(busy, j, busy_bytes, NULL));
        hipsoftmax_handle h = NULL;
        hipsoftmax_status st = hipsoftmax_create(&h);
        if (st == HIPSOFTMAX_STATUS_SUCCESS && forced)
            st = hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_SPLIT);
        if (st == HIPSOFTMAX_STATUS_SUCCESS)
            st = hipsoftmax_set_stream(h, s);
        if (st == HIPSOFTMAX_STATUS_SUCCESS)
            st = launch(h, &k);
        cases++;
        if (st != HIPSOFTMAX_STATUS_SUCCESS) {
            fprintf(stderr, "non-blocking stream, handle %d: %s\n", i, hipsoftmax_status_string(st));
            failures++;
            CHECK_HIP(hipStreamSynchronize(s));
            release(&k);
        } else {
            verify(&k, "non-blocking stream, first call on a new handle");
            print_plan(h, &k, forced ? "non-blocking, SPLIT forced" : "non-blocking, the plan's choice");
        }
        hipsoftmax_destroy(h);
        CHECK_HIP(hipStreamDestroy(s));
    }
    CHECK_HIP(hipDeviceSynchronize());
    CHECK_HIP(hipFree(busy));
}

/* ---- 4. a pending application error ---------------------------------------------------------------- */

/* Leaves a non-sticky error as the runtime's last error, unread: kind 0 an invalid device ordinal,
 * kind 1 an allocation no GPU can satisfy. Returns it. */
static hipError_t provoke(int kind)
{
    if (kind == 0) {
        int n = 0;
        CHECK_HIP(hipGetDeviceCount(&n));
        return hipSetDevice(n); /* one past the last device */
    }
    void *p = NULL;
    return hipMalloc(&p, (size_t)1 << 62);
}

/* Whether the runtime keeps an unread error across later successful calls until it is read, and
 * reading it resets it (the CUDA runtime's documented behaviour), rather than every call overwriting
 * it (some HIP runtime versions): only then can the test see whether the library consumed the
 * application's error. Clears the error it made. */
static int runtime_keeps_errors(void)
{
    (void)hipGetLastError();
    const hipError_t e = provoke(0);
    int dev = 0;
    CHECK_HIP(hipGetDevice(&dev));
    const hipError_t kept = hipGetLastError(), after = hipGetLastError();
    if (e == hipSuccess) {
        fprintf(stderr, "pending error: hipSetDevice(device count) succeeded\n");
        failures++;
        return 0;
    }
    return kept == e && after == hipSuccess;
}

static void check_pending(hipsoftmax_status st, hipError_t provoked, hipError_t after, int keeps, const char *what)
{
    if (provoked == hipSuccess) {
        fprintf(stderr, "%s: the error could not be provoked\n", what);
        failures++;
    }
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "%s: %s with the application's %s pending\n", what, hipsoftmax_status_string(st),
                hipGetErrorName(provoked));
        failures++;
    }
    if (keeps && after != provoked) {
        fprintf(stderr, "%s: last error afterwards %s, expected the application's %s\n", what, hipGetErrorName(after),
                hipGetErrorName(provoked));
        failures++;
    }
}

static void part_pending_error(hipsoftmax_handle h)
{
    const int keeps = runtime_keeps_errors();
    if (!keeps)
        printf("  this runtime clears the last error on successful calls: pending-error results checked, "
               "preservation not\n");
    /* A shape each family serves (fp32); SPLIT's is a cooperative launch, the others plain ones. */
    static const struct { hipsoftmax_family fam; int64_t rows, cols; } shapes[] = {
        {HIPSOFTMAX_FAMILY_AUTO, 64, 4096},   {HIPSOFTMAX_FAMILY_WARP, 1000, 300}, {HIPSOFTMAX_FAMILY_ROW, 256, 4096},
        {HIPSOFTMAX_FAMILY_ONLINE, 64, 50000}, {HIPSOFTMAX_FAMILY_SPLIT, 4, 1 << 20}};
    for (int kind = 0; kind < 2; kind++) {
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            CHECK_HSM(hipsoftmax_set_family(h, shapes[i].fam));
            dcase k = make_case(T_F32, shapes[i].rows, shapes[i].cols, 0, 0);
            prepare(&k);
            (void)hipGetLastError();
            const hipError_t e = provoke(kind);
            const hipsoftmax_status st = launch(h, &k);
            const hipError_t after = hipGetLastError();
            cases++;
            char what[96];
            snprintf(what, sizeof what, "pending %s, %s", hipGetErrorName(e), fam_names[shapes[i].fam]);
            check_pending(st, e, after, keeps, what);
            if (st == HIPSOFTMAX_STATUS_SUCCESS)
                verify(&k, what);
            else
                release(&k);
        }
        /* The error pending while a handle is created, then its first call. */
        dcase k = make_case(T_F32, 4, 1 << 20, 0, 0);
        prepare(&k);
        (void)hipGetLastError();
        const hipError_t e = provoke(kind);
        hipsoftmax_handle h2 = NULL;
        hipsoftmax_status st = hipsoftmax_create(&h2);
        if (st == HIPSOFTMAX_STATUS_SUCCESS)
            st = launch(h2, &k);
        const hipError_t after = hipGetLastError();
        cases++;
        char what[96];
        snprintf(what, sizeof what, "pending %s, create and first call", hipGetErrorName(e));
        check_pending(st, e, after, keeps, what);
        if (st == HIPSOFTMAX_STATUS_SUCCESS)
            verify(&k, what);
        else
            release(&k);
        hipsoftmax_destroy(h2);
    }
    CHECK_HSM(hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_AUTO));
}

/* ---- 5. handles on two devices; two handles on one device at once ----------------------------------- */

/* Whether handle h describes device d: its target name and SM/CU count are the device's. */
static void expect_describes(hipsoftmax_handle h, int d)
{
    hipDeviceProp_t prop;
    CHECK_HIP(hipGetDeviceProperties(&prop, d));
    char want[64], got[64] = "";
    hsm_prop_target(&prop, want, sizeof want);
    hipsoftmax_problem p;
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 4096, 4096);
    if (hipsoftmax_get_target(h, got, sizeof got) != HIPSOFTMAX_STATUS_SUCCESS || strcmp(got, want) != 0 ||
        hipsoftmax_get_plan(h, &p, &info) != HIPSOFTMAX_STATUS_SUCCESS || info.num_cus != prop.multiProcessorCount) {
        fprintf(stderr, "handle for device %d: target %s with %d SMs/CUs, the device is %s with %d\n", d, got,
                info.num_cus, want, prop.multiProcessorCount);
        failures++;
    }
}

static void part_two_devices(int count)
{
    int home0 = 0;
    CHECK_HIP(hipGetDevice(&home0));
    for (int home = 0; home < 2; home++) {
        CHECK_HIP(hipSetDevice(home));
        hipsoftmax_handle h[2] = {NULL, NULL};
        hipStream_t s[2] = {NULL, NULL};
        dcase k[2][2];
        for (int d = 0; d < 2; d++) {
            const hipsoftmax_status st = hipsoftmax_create_for_device(&h[d], d);
            expect_device(home, "hipsoftmax_create_for_device");
            if (st != HIPSOFTMAX_STATUS_SUCCESS) {
                fprintf(stderr, "create_for_device(%d): %s\n", d, hipsoftmax_status_string(st));
                failures++;
                return;
            }
            expect_describes(h[d], d);
            const int prev = enter_device(d);
            CHECK_HIP(hipStreamCreateWithFlags(&s[d], hipStreamNonBlocking));
            CHECK_HIP(hipSetDevice(prev));
            CHECK_HSM(hipsoftmax_set_stream(h[d], s[d]));
            /* A SPLIT-planned problem and a ROW one on each device. */
            k[d][0] = make_case(T_F32, 4, (int64_t)1 << 20, 0, 0);
            k[d][1] = make_case(T_BF16, 1823, 781, 0, 0);
            for (int j = 0; j < 2; j++) {
                k[d][j].device = d, k[d][j].stream = s[d];
                prepare(&k[d][j]);
            }
        }
        hipsoftmax_handle bad = NULL;
        if (hipsoftmax_create_for_device(&bad, count) != HIPSOFTMAX_STATUS_INVALID_VALUE || bad != NULL) {
            fprintf(stderr, "create_for_device(%d) (no such device): not INVALID_VALUE\n", count);
            failures++;
        }
        expect_device(home, "hipsoftmax_create_for_device of a device that does not exist");
        hipsoftmax_status st[2][2];
        for (int d = 0; d < 2; d++)
            for (int j = 0; j < 2; j++) {
                st[d][j] = launch(h[d], &k[d][j]);
                cases++;
                expect_device(home, "a call on another device's handle");
            }
        for (int d = 0; d < 2; d++)
            for (int j = 0; j < 2; j++) {
                if (st[d][j] == HIPSOFTMAX_STATUS_SUCCESS) {
                    verify(&k[d][j], d == 0 ? "device 0's handle" : "device 1's handle");
                } else {
                    fprintf(stderr, "device %d: %s\n", d, hipsoftmax_status_string(st[d][j]));
                    failures++;
                    release(&k[d][j]);
                }
            }
        for (int d = 0; d < 2; d++) {
            hipsoftmax_destroy(h[d]);
            expect_device(home, "hipsoftmax_destroy");
            const int prev = enter_device(d);
            CHECK_HIP(hipStreamDestroy(s[d]));
            CHECK_HIP(hipSetDevice(prev));
        }
    }
    CHECK_HIP(hipSetDevice(home0));
}

/* Two handles on the current device, each on its own non-blocking stream, their calls enqueued back
 * to back so that both SPLIT launches (each with its handle's workspace) run at the same time. */
static void part_two_handles(void)
{
    const int rounds = quick ? 1 : 4;
    for (int r = 0; r < rounds; r++) {
        hipsoftmax_handle h[2];
        hipStream_t s[2];
        dcase k[2];
        for (int i = 0; i < 2; i++) {
            h[i] = test_open_handle();
            CHECK_HIP(hipStreamCreateWithFlags(&s[i], hipStreamNonBlocking));
            CHECK_HSM(hipsoftmax_set_stream(h[i], s[i]));
            k[i] = make_case(i == 0 ? T_F32 : T_BF16, 4, quick ? (int64_t)1 << 18 : (int64_t)1 << 20, 0, 0);
            k[i].stream = s[i];
            prepare(&k[i]);
        }
        hipsoftmax_status st[2];
        for (int i = 0; i < 2; i++) {
            st[i] = launch(h[i], &k[i]);
            cases++;
        }
        for (int i = 0; i < 2; i++) {
            if (st[i] == HIPSOFTMAX_STATUS_SUCCESS) {
                verify(&k[i], "two handles at once on one device");
            } else {
                fprintf(stderr, "two handles at once, handle %d: %s\n", i, hipsoftmax_status_string(st[i]));
                failures++;
                release(&k[i]);
            }
            hipsoftmax_destroy(h[i]);
            CHECK_HIP(hipStreamDestroy(s[i]));
        }
    }
}

/* ---- 6. a SPLIT launch captured into a graph ------------------------------------------------------ */

static void part_graph(void)
{
    const int replays = quick ? 3 : 8;
    const int64_t cols = quick ? (int64_t)1 << 16 : (int64_t)1 << 18;
    dcase k = make_case(T_F32, 8, cols, 0, 0), other = make_case(T_F32, 8, cols, 0, 0);
    hipStream_t s = NULL;
    CHECK_HIP(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    k.stream = other.stream = s;
    prepare(&k);
    hipsoftmax_handle h = NULL;
    hipsoftmax_status st = hipsoftmax_create(&h);
    if (st == HIPSOFTMAX_STATUS_SUCCESS)
        st = hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_SPLIT);
    if (st == HIPSOFTMAX_STATUS_SUCCESS)
        st = hipsoftmax_set_stream(h, s);
    if (st != HIPSOFTMAX_STATUS_SUCCESS) {
        fprintf(stderr, "graph: handle: %s\n", hipsoftmax_status_string(st));
        failures++;
        hipsoftmax_destroy(h);
        release(&k);
        CHECK_HIP(hipStreamDestroy(s));
        return;
    }
    print_plan(h, &k, "graph, SPLIT forced");
    hipGraph_t graph = NULL;
    hipGraphExec_t exec = NULL;
    CHECK_HIP(hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal));
    st = launch(h, &k);
    const hipError_t ended = hipStreamEndCapture(s, &graph);
    const hipError_t made = st == HIPSOFTMAX_STATUS_SUCCESS && ended == hipSuccess
                                ? hipGraphInstantiateWithFlags(&exec, graph, 0)
                                : hipErrorNotSupported;
    if (made != hipSuccess) {
        printf("  graph: the launch was not captured (%s; end of capture %s; instantiation %s): part skipped\n",
               hipsoftmax_status_string(st), hipGetErrorName(ended), hipGetErrorName(made));
        (void)hipGetLastError();
    } else {
        const size_t es = test_dtype_size(k.t);
        for (int r = 0; r < replays; r++) {
            for (size_t i = 0; i < k.xbytes / es; i++)
                test_set(k.hx, i, k.t, test_uniform(-8.0f, 8.0f));
            CHECK_HIP(hipMemcpyAsync(k.x, k.hx, k.xbytes, hipMemcpyHostToDevice, s));
            CHECK_HIP(hipGraphLaunch(exec, s));
            cases++;
            compare(&k, "graph replay");
            /* An uncaptured call on the same handle between replays (its tags the handle's own). */
            prepare(&other);
            st = launch(h, &other);
            cases++;
            if (st == HIPSOFTMAX_STATUS_SUCCESS) {
                verify(&other, "uncaptured call between graph replays");
            } else {
                fprintf(stderr, "graph: uncaptured call: %s\n", hipsoftmax_status_string(st));
                failures++;
                release(&other);
            }
        }
        CHECK_HIP(hipGraphExecDestroy(exec));
    }
    if (graph != NULL)
        CHECK_HIP(hipGraphDestroy(graph));
    hipsoftmax_destroy(h);
    release(&k);
    CHECK_HIP(hipStreamDestroy(s));
}

int main(void)
{
    quick = getenv("HSM_TEST_QUICK") != NULL;
    hipsoftmax_handle h = test_open_handle(); /* exits with the skip code without a GPU */
    static const char *const parts[] = {"alignments",    "single rows off a line",    "non-blocking stream",
                                        "pending error", "two devices / two handles", "graph"};
    for (int part = 0; part < 6; part++) {
        const long long c0 = cases, u0 = unsupported, f0 = failures;
        switch (part) {
        case 0: part_alignments(h); break;
        case 1: part_single_rows(h); break;
        case 2: part_nonblocking(); break;
        case 3: part_pending_error(h); break;
        case 5: part_graph(); break;
        default: {
            int count = 0;
            CHECK_HIP(hipGetDeviceCount(&count));
            if (count >= 2)
                part_two_devices(count);
            else
                printf("  one device: two-device case skipped\n");
            part_two_handles();
        }
        }
        printf("%s: %lld cases, %lld not supported by the forced family, %lld failures\n", parts[part],
               cases - c0, unsupported - u0, failures - f0);
        fflush(stdout);
    }
    hipsoftmax_destroy(h);
    printf("kernel.device_path: %lld cases, %lld not supported, %lld failures\n", cases, unsupported, failures);
    return failures == 0 ? 0 : 1;
}
