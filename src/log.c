/* log.c: call logging switched on by HIPSOFTMAX_LOG (log.h; README, "Logging"). Everything here runs
 * only where a HIPSOFTMAX_LOG bit is set, after the call it logs has done its work: a log line never
 * changes what a call returns, and nothing a caller passes (NULL pointers, a problem whose struct_size
 * is wrong) is read beyond what the call itself read. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

atomic_int hsm_log_mask_ = -1;

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static int log_level;  /* written once, under log_once */
static FILE *log_file; /* likewise; stderr, or HIPSOFTMAX_LOG_PATH opened for appending (never closed) */

/* Reads HIPSOFTMAX_LOG (a number: decimal, or 0x.. as ROCBLAS_LAYER; bits past HSM_LOG_ALL are
 * ignored) and HIPSOFTMAX_LOG_PATH. A value that is not a number, or a path that cannot be opened,
 * gets one warning on stderr: the user asked for logging and would otherwise wonder where it went. */
static void log_init(void)
{
    const char *v = getenv("HIPSOFTMAX_LOG");
    int level = 0;
    if (v != NULL && *v != '\0') {
        char *end;
        const long n = strtol(v, &end, 0);
        if (*end != '\0' || n < 0)
            fprintf(stderr, "hipsoftmax: HIPSOFTMAX_LOG=%s is not a bitmask of 1, 2, 4: logging off\n", v);
        else
            level = (int)(n & HSM_LOG_ALL);
    }
    log_file = stderr;
    const char *path = getenv("HIPSOFTMAX_LOG_PATH");
    if (level != 0 && path != NULL && *path != '\0') {
        FILE *f = fopen(path, "a");
        if (f != NULL)
            log_file = f;
        else
            fprintf(stderr, "hipsoftmax: cannot open HIPSOFTMAX_LOG_PATH=%s (%s): logging to stderr\n", path,
                    strerror(errno));
    }
    log_level = level;
    atomic_store_explicit(&hsm_log_mask_, level, memory_order_relaxed);
}

/* The bits of `bits` that are on, the variables read first (the slow path's own check). */
static int log_enabled(int bits)
{
    pthread_once(&log_once, log_init);
    return log_level & bits;
}

/* ---- lines -------------------------------------------------------------------------------------- */

/* One line, built in place and written whole. Lines are far shorter than this (a trace with every
 * field set is about 900 characters); a longer one is cut and ends in "...". */
#define HSM_LOG_LINE 4096
typedef struct line {
    char s[HSM_LOG_LINE];
    size_t n;
} line;

static void vadd(line *l, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void vadd(line *l, const char *fmt, va_list ap)
{
    if (l->n >= sizeof l->s - 1)
        return;
    const int k = vsnprintf(l->s + l->n, sizeof l->s - l->n, fmt, ap);
    if (k > 0)
        l->n = l->n + (size_t)k < sizeof l->s - 1 ? l->n + (size_t)k : sizeof l->s - 1;
}

static void add(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(l, fmt, ap);
    va_end(ap);
}

/* Writes the line and a newline with one fwrite under the mutex, then flushes, so that lines of
 * several threads never interleave and a line is in the file before the call returns (a crash in the
 * next call loses nothing). Appending processes each write whole lines too (O_APPEND, one write). */
static void emit(line *l)
{
    if (l->n >= sizeof l->s - 1)
        memcpy(l->s + sizeof l->s - 5, "...", 3), l->n = sizeof l->s - 2;
    l->s[l->n++] = '\n';
    pthread_mutex_lock(&log_mutex);
    fwrite(l->s, 1, l->n, log_file);
    fflush(log_file);
    pthread_mutex_unlock(&log_mutex);
}

void hsm_log_trace(const char *fn, hipsoftmax_status status, const char *fmt, ...)
{
    if (!log_enabled(HSM_LOG_TRACE))
        return;
    line l = {.n = 0};
    add(&l, "hipsoftmax trace: %s(", fn);
    va_list ap;
    va_start(ap, fmt);
    vadd(&l, fmt, ap);
    va_end(ap);
    add(&l, ") = %s", hipsoftmax_status_string(status));
    emit(&l);
}

/* ---- names ------------------------------------------------------------------------------------- */

/* Name of an enum value in a table starting at `first`, or NULL when out of range. */
static const char *enum_name(int v, int first, const char *const *names, int n)
{
    return v >= first && v < first + n ? names[v - first] : NULL;
}
static const char *const trace_dtypes[] = {"f32", "f16", "bf16"};
static const char *const bench_dtypes[] = {"fp32", "fp16", "bf16"}; /* hipsoftmax-bench's spelling */
static const char *const algos[] = {"softmax", "log_softmax"};
static const char *const modes[] = {"row", "channel"};
static const char *const masks[] = {"none", "additive", "causal", "bool"};
static const char *const bench_masks[] = {"none", "add", "causal", "bool"};
static const char *const families[] = {"auto", "warp", "row", "online", "split", "channel"};
#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* An enum field for a trace: its name, or its number where it has none. */
static void add_enum(line *l, const char *field, int v, int first, const char *const *names, int n)
{
    const char *s = enum_name(v, first, names, n);
    if (s != NULL)
        add(l, " %s=%s", field, s);
    else
        add(l, " %s=%d", field, v);
}
const char *hsm_log_dtype(hipsoftmax_dtype d, char buf[16])
{
    const char *s = enum_name((int)d, HIPSOFTMAX_DTYPE_F32, trace_dtypes, N_OF(trace_dtypes));
    if (s != NULL)
        return s;
    snprintf(buf, 16, "%d", (int)d);
    return buf;
}
#define ADD_DTYPE(l, field, v) add_enum((l), (field), (int)(v), HIPSOFTMAX_DTYPE_F32, trace_dtypes, N_OF(trace_dtypes))

/* ---- trace of a problem ---------------------------------------------------------------------------- */

/* The caller's problem as read by the call (defaults resolved), or NULL when the call could not read
 * it (NULL, or struct_size out of range: the trace then shows only that). */
static const hipsoftmax_problem *read_problem(const hipsoftmax_problem *user, hipsoftmax_problem *q)
{
    return user != NULL && hsm_problem_read(user, q) == HSM_CONTINUE ? q : NULL;
}

/* "problem={...}": rows, cols and x's dtype always, then every field that is not its default. */
static void add_problem(line *l, const hipsoftmax_problem *user, const hipsoftmax_problem *q)
{
    if (user == NULL) {
        add(l, "problem=NULL");
        return;
    }
    if (q == NULL) {
        add(l, "problem={struct_size=%zu (unreadable)}", user->struct_size);
        return;
    }
    add(l, "problem={rows=%" PRId64 " cols=%" PRId64, q->rows, q->cols);
    ADD_DTYPE(l, "x_dtype", q->x_dtype);
    if (q->y_dtype != q->x_dtype)
        ADD_DTYPE(l, "y_dtype", q->y_dtype);
    if (user->struct_size != sizeof *q)
        add(l, " struct_size=%zu", user->struct_size);
    if (q->algorithm != HIPSOFTMAX_ALGO_SOFTMAX)
        add_enum(l, "algorithm", (int)q->algorithm, HIPSOFTMAX_ALGO_SOFTMAX, algos, N_OF(algos));
    if (q->mode != HIPSOFTMAX_MODE_ROW)
        add_enum(l, "mode", (int)q->mode, HIPSOFTMAX_MODE_ROW, modes, N_OF(modes));
    if (q->x_row_stride != q->cols)
        add(l, " x_row_stride=%" PRId64, q->x_row_stride);
    if (q->y_row_stride != q->cols)
        add(l, " y_row_stride=%" PRId64, q->y_row_stride);
    if (q->inner != 1)
        add(l, " inner=%" PRId64, q->inner);
    if (q->scale != 1.0f)
        add(l, " scale=%.9g", (double)q->scale);
    if (q->alpha != 1.0f)
        add(l, " alpha=%.9g", (double)q->alpha);
    if (q->beta != 0.0f)
        add(l, " beta=%.9g", (double)q->beta);
    if (q->mask != HIPSOFTMAX_MASK_NONE)
        add_enum(l, "mask", (int)q->mask, HIPSOFTMAX_MASK_NONE, masks, N_OF(masks));
    if (q->mask == HIPSOFTMAX_MASK_ADDITIVE || q->mask_dtype != q->x_dtype)
        ADD_DTYPE(l, "mask_dtype", q->mask_dtype);
    if (q->mask_ptr != NULL)
        add(l, " mask_ptr=%p", q->mask_ptr);
    if (q->mask_row_stride != 0)
        add(l, " mask_row_stride=%" PRId64, q->mask_row_stride);
    if (q->causal_offset != 0)
        add(l, " causal_offset=%" PRId64, q->causal_offset);
    if (q->flags != 0)
        add(l, " flags=0x%x", q->flags);
    if (q->dy_dtype != q->y_dtype)
        ADD_DTYPE(l, "dy_dtype", q->dy_dtype);
    if (q->dy_row_stride != q->y_row_stride)
        add(l, " dy_row_stride=%" PRId64, q->dy_row_stride);
    if (q->heads != 1)
        add(l, " heads=%" PRId64, q->heads);
    if (q->queries != q->rows)
        add(l, " queries=%" PRId64, q->queries);
    if (q->mask_batches != 1)
        add(l, " mask_batches=%" PRId64, q->mask_batches);
    if (q->mask_rows != (q->queries < q->rows ? q->queries : q->rows))
        add(l, " mask_rows=%" PRId64, q->mask_rows);
    if (q->mask_batch_stride != 0)
        add(l, " mask_batch_stride=%" PRId64, q->mask_batch_stride);
    if (q->stats != NULL)
        add(l, " stats=%p", (void *)q->stats);
    if (q->stats_in != NULL)
        add(l, " stats_in=%p", (const void *)q->stats_in);
    if (q->stats_in_shards != 0)
        add(l, " stats_in_shards=%" PRId64, q->stats_in_shards);
    if (q->stats_in_shard_stride != 0)
        add(l, " stats_in_shard_stride=%" PRId64, q->stats_in_shard_stride);
    add(l, "}");
}

/* The names of hsm_validate's ptrs, per hsm_op. */
static const char *const ptr_names[4][3] = {{"x", "y", NULL}, {"y", "dy", "dx"}, {"x", NULL, NULL}, {"y", "dy", NULL}};

static void trace_op(const struct hipsoftmax_context *h, const hsm_log_op *op, const hipsoftmax_problem *q)
{
    line l = {.n = 0};
    add(&l, "hipsoftmax trace: %s(handle=%p, ", op->fn, (const void *)h);
    add_problem(&l, op->user, q);
    if (op->ptrs != NULL)
        for (int i = 0; i < 3 && ptr_names[op->op][i] != NULL; i++)
            add(&l, ", %s=%p", ptr_names[op->op][i], op->ptrs[i]);
    if (op->ptrs == NULL)
        add(&l, ", info=%p", op->info);
    add(&l, ") = %s", hipsoftmax_status_string(op->status));
    emit(&l);
}

/* ---- bench command line -------------------------------------------------------------------------- */

/* A note for the command's comment: something of the call the bench cannot express. */
static void note(line *notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(line *notes, const char *fmt, ...)
{
    add(notes, "%s", notes->n > 0 ? "; " : "");
    va_list ap;
    va_start(ap, fmt);
    vadd(notes, fmt, ap);
    va_end(ap);
}

/* "--flag dtype", or a note where the value is no dtype. */
static void bench_dtype(line *l, line *notes, const char *flag, hipsoftmax_dtype d)
{
    const char *s = enum_name((int)d, HIPSOFTMAX_DTYPE_F32, bench_dtypes, N_OF(bench_dtypes));
    if (s != NULL)
        add(l, " %s %s", flag, s);
    else
        note(notes, "%s %d is no dtype", flag, (int)d);
}

/* "--flag N" where a row stride differs from the bench's default (cols); the bench reads 0 as that
 * default and refuses negative strides, so those become notes. */
static void bench_stride(line *l, line *notes, const char *flag, int64_t stride, int64_t cols)
{
    if (stride == cols)
        return;
    if (stride > 0)
        add(l, " %s %" PRId64, flag, stride);
    else
        note(notes, "%s %" PRId64 " is not passable", flag, stride);
}

/* hipMalloc and cudaMalloc align to 256 bytes, so do the bench's buffers; a pointer off that can take
 * another plan (unaligned rows take the scalar kernels, rows off their 128-byte line are laid out
 * from it). */
#define HSM_BENCH_ALIGN 256
static void bench_pointer(line *notes, const char *name, const void *ptr)
{
    const uintptr_t off = (uintptr_t)ptr % HSM_BENCH_ALIGN;
    if (ptr != NULL && off != 0)
        note(notes, "%s is %u bytes past a %d-byte boundary", name, (unsigned)off, HSM_BENCH_ALIGN);
}

/* The hipsoftmax-bench command that runs this problem again (bench/hipsoftmax_bench.c's options: a
 * flag where the value differs from the bench's default), and a comment naming what it cannot. */
static void bench_op(const struct hipsoftmax_context *h, const hsm_log_op *op, const hipsoftmax_problem *q)
{
    static const char *const op_names[4] = {"fwd", "bwd", "fwd-stats", "bwd-stats"};
    line l = {.n = 0}, notes = {.n = 0};
    const int bwd = hsm_op_is_backward(op->op), stats_only = hsm_op_stats_only(op->op);
    add(&l, "hipsoftmax-bench-%s --op %s", HSM_LOG_VENDOR, op_names[op->op]);
    if (q->algorithm == HIPSOFTMAX_ALGO_LOG_SOFTMAX)
        add(&l, " --algo log");
    else if (q->algorithm != HIPSOFTMAX_ALGO_SOFTMAX)
        note(&notes, "algorithm %d", (int)q->algorithm);
    /* Forward: x has --dtype, y --y-dtype; backward: dx --dtype, y --y-dtype, dy --dy-dtype. */
    bench_dtype(&l, &notes, "--dtype", q->x_dtype);
    if ((bwd || !stats_only) && q->y_dtype != q->x_dtype)
        bench_dtype(&l, &notes, "--y-dtype", q->y_dtype);
    if (bwd && q->dy_dtype != q->y_dtype)
        bench_dtype(&l, &notes, "--dy-dtype", q->dy_dtype);
    /* CHANNEL: the bench's OUTERxCxINNER shape, whose default stride is C * INNER. */
    const int channel = q->mode == HIPSOFTMAX_MODE_CHANNEL;
    const int64_t span = channel ? q->cols * q->inner : q->cols;
    if (channel)
        add(&l, " --shape %" PRId64 "x%" PRId64 "x%" PRId64, q->rows, q->cols, q->inner);
    else
        add(&l, " --shape %" PRId64 "x%" PRId64, q->rows, q->cols);
    if (!bwd || !stats_only)
        bench_stride(&l, &notes, "--x-stride", q->x_row_stride, span);
    if (bwd || !stats_only)
        bench_stride(&l, &notes, "--y-stride", q->y_row_stride, span);
    if (bwd)
        bench_stride(&l, &notes, "--dy-stride", q->dy_row_stride, span);
    if (!channel && q->mode != HIPSOFTMAX_MODE_ROW)
        note(&notes, "mode %d", (int)q->mode);
    if (q->scale != 1.0f)
        add(&l, " --scale %.9g", (double)q->scale);
    if (q->alpha != 1.0f)
        add(&l, " --alpha %.9g", (double)q->alpha);
    if (q->beta != 0.0f)
        add(&l, " --beta %.9g", (double)q->beta);
    if (q->heads != 1)
        add(&l, " --heads %" PRId64, q->heads);
    if (q->queries != q->rows)
        add(&l, " --queries %" PRId64, q->queries);
    /* The backward reads no mask field (y holds the mask already). */
    if (!bwd && q->mask != HIPSOFTMAX_MASK_NONE) {
        const char *m = enum_name((int)q->mask, HIPSOFTMAX_MASK_NONE, bench_masks, N_OF(bench_masks));
        if (m != NULL)
            add(&l, " --mask %s", m);
        else
            note(&notes, "mask %d", (int)q->mask);
        if (q->mask == HIPSOFTMAX_MASK_ADDITIVE)
            bench_dtype(&l, &notes, "--mask-dtype", q->mask_dtype);
        if (q->mask == HIPSOFTMAX_MASK_ADDITIVE || q->mask == HIPSOFTMAX_MASK_BOOL) {
            /* Exact values: the bench's defaults for the mask's strides are not the library's. */
            if (q->mask_batches != 1)
                add(&l, " --mask-batches %" PRId64, q->mask_batches);
            add(&l, " --mask-rows %" PRId64 " --mask-row-stride %" PRId64 " --mask-batch-stride %" PRId64,
                q->mask_rows, q->mask_row_stride, q->mask_batch_stride);
            if (q->mask_ptr == NULL)
                note(&notes, "mask_ptr NULL");
            /* The bench turns a zero batch stride of several batches into mask_rows * row stride. */
            if (q->mask_batches > 1 && q->mask_batch_stride == 0)
                note(&notes, "mask_batch_stride 0 over %" PRId64 " batches", q->mask_batches);
        }
    }
    if (q->causal_offset != 0)
        add(&l, " --causal-offset %" PRId64, q->causal_offset);
    if (q->flags & HIPSOFTMAX_FLAG_SAFE_ROWS)
        add(&l, " --safe");
    if (q->flags & ~HIPSOFTMAX_FLAG_SAFE_ROWS)
        note(&notes, "flags 0x%x", q->flags);
    /* The statistics-only ops write stats by definition; --stats is the forward's option. */
    if (q->stats != NULL && op->op == HSM_OP_FORWARD)
        add(&l, " --stats");
    else if (q->stats != NULL && !stats_only)
        note(&notes, "stats set");
    else if (q->stats == NULL && stats_only)
        note(&notes, "stats NULL");
    if (q->stats_in != NULL) {
        add(&l, " --stats-in %" PRId64, q->stats_in_shards > 0 ? q->stats_in_shards : 1);
        if (q->stats_in_shard_stride != 0)
            add(&l, " --stats-in-stride %" PRId64, q->stats_in_shard_stride);
    }
    if (h != NULL && h->forced != HIPSOFTMAX_FAMILY_AUTO) {
        const char *f = enum_name((int)h->forced, HIPSOFTMAX_FAMILY_AUTO, families, N_OF(families));
        add(&l, " --family %s", f != NULL ? f : "auto");
    }
    if (h != NULL && h->forced_kernel[0] != '\0')
        add(&l, " --kernel %s", h->forced_kernel);

    /* What the bench's own buffers cannot be: NULL, in place, off their allocation's alignment. */
    const int n = (bwd ? 2 : 1) + (stats_only ? 0 : 1);
    for (int i = 0; i < n; i++) {
        if (op->ptrs[i] == NULL)
            note(&notes, "%s NULL", ptr_names[op->op][i]);
        bench_pointer(&notes, ptr_names[op->op][i], op->ptrs[i]);
    }
    for (int i = 0; !stats_only && i < n - 1; i++)
        if (op->ptrs[i] != NULL && op->ptrs[i] == op->ptrs[n - 1])
            note(&notes, "in place (%s == %s)", ptr_names[op->op][n - 1], ptr_names[op->op][i]);
    if (!bwd && (q->mask == HIPSOFTMAX_MASK_ADDITIVE || q->mask == HIPSOFTMAX_MASK_BOOL))
        bench_pointer(&notes, "mask_ptr", q->mask_ptr);
    bench_pointer(&notes, "stats", q->stats);
    bench_pointer(&notes, "stats_in", q->stats_in);
    if (h == NULL)
        note(&notes, "handle NULL");
    if (op->status != HIPSOFTMAX_STATUS_SUCCESS && op->status != HIPSOFTMAX_STATUS_NO_DEVICE)
        note(&notes, "the call returned %s", hipsoftmax_status_string(op->status));
    if (notes.n > 0)
        add(&l, "  # %s", notes.s);
    emit(&l);
}

/* ---- plan ---------------------------------------------------------------------------------------- */

static void plan_op(struct hipsoftmax_context *h, const hsm_log_op *op)
{
    hsm_plan made;
    const hsm_plan *plan = op->plan;
    hipsoftmax_status st = op->plan_status;
    if (st == HSM_CONTINUE) { /* validated, not planned (an offline handle) */
        st = hsm_plan_get(h, op->call, &made);
        plan = &made;
    }
    line l = {.n = 0};
    const hipsoftmax_problem *q = &op->call->p;
    add(&l, "hipsoftmax plan: %s rows=%" PRId64 " cols=%" PRId64, op->fn, q->rows, q->cols);
    if (q->mode == HIPSOFTMAX_MODE_CHANNEL)
        add(&l, " inner=%" PRId64, q->inner);
    add(&l, " target=%s", h->target);
    if (st == HIPSOFTMAX_STATUS_SUCCESS) {
        const hsm_kernel *k = plan->ks->k;
        const char *f = enum_name((int)k->family, HIPSOFTMAX_FAMILY_AUTO, families, N_OF(families));
        add(&l, " family=%s kernel=%s grid=%d block=%d blocks_per_row=%d group_width=%d dynamic_smem=%zu",
            f != NULL ? f : "?", k->name, plan->grid, plan->block, plan->blocks_per_row, plan->group_width,
            plan->smem_bytes);
        if (k->flat)
            add(&l, " flat_rows=%d", plan->flat_rows);
        if (plan->ahead > 0)
            add(&l, " ahead=%d", plan->ahead);
        /* The occupancy behind the grid, by both models the arch module has: the exact one the plan
         * sized the grid with, and the Triton tutorial's formula for the same kernel and block. */
        const arch_kernel *m = &plan->ks->meta;
        add(&l, " regs=%d static_smem=%u", m->regs, m->static_smem);
        arch_occupancy occ;
        if (arch_occupancy_exact(&h->dev, m, plan->block, plan->smem_bytes, NULL, &occ) == ARCH_OK)
            add(&l, " occupancy_exact=%d blocks/CU (%s)", occ.blocks_per_cu, arch_limiter_string(occ.limiter));
        arch_tutorial tut;
        memset(&tut, 0, sizeof tut);
        const int warps = (plan->block + h->dev.warp_size - 1) / h->dev.warp_size;
        if (arch_occupancy_tutorial(&h->dev, m->regs, (size_t)m->static_smem + plan->smem_bytes, warps, q->rows,
                                    &tut) == ARCH_OK)
            add(&l, " occupancy_tutorial=%d programs/CU", tut.occupancy);
        else
            add(&l, " occupancy_tutorial=undefined (%s)", tut.why_undefined != NULL ? tut.why_undefined : "?");
        if (h->device < 0 && op->ptrs != NULL)
            add(&l, " (offline: not launched)");
    } else {
        add(&l, " no plan: %s", hipsoftmax_status_string(st));
    }
    emit(&l);
}

void hsm_log_op_lines(struct hipsoftmax_context *h, const hsm_log_op *op)
{
    const int on = log_enabled(HSM_LOG_ALL);
    if (on == 0)
        return;
    hipsoftmax_problem q_;
    const hipsoftmax_problem *q = read_problem(op->user, &q_);
    if (on & HSM_LOG_TRACE)
        trace_op(h, op, q);
    if ((on & HSM_LOG_BENCH) && op->ptrs != NULL && q != NULL)
        bench_op(h, op, q);
    /* A plan exists only for a call that passed validation, which implies a handle. */
    if ((on & HSM_LOG_PLAN) && op->call != NULL && h != NULL)
        plan_op(h, op);
}
