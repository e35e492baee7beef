/* api.log.*: the call log switched on by HIPSOFTMAX_LOG (README, "Logging"). The variables are read
 * once per process, so each level is its own ctest entry running one mode of this program:
 *   trace   HIPSOFTMAX_LOG=1: each public call with its arguments and status, bad calls included;
 *   bench   HIPSOFTMAX_LOG=2: each softmax call as a hipsoftmax-bench command line, checked flag by
 *           flag, then run through the bench's own option parser (argv[2], the bench; it exits 2 on
 *           an option it does not take and 1 once it has parsed them all and finds no GPU: the test
 *           hides every GPU from it);
 *   plan    HIPSOFTMAX_LOG=4: each call's plan, as hipsoftmax_get_plan reports it;
 *   threads HIPSOFTMAX_LOG=7: threads logging at once never interleave their lines;
 *   badpath HIPSOFTMAX_LOG=1 with a path that cannot be opened: one warning, lines on stderr;
 *   junk    HIPSOFTMAX_LOG=abc: one warning, nothing logged.
 * Offline handles: no GPU needed; calls that would launch return NO_DEVICE after validation and are
 * logged all the same. Pointers are made-up addresses the library only does arithmetic on. */
#define _POSIX_C_SOURCE 200809L /* setenv, fork, dup2 */
#define HIPSOFTMAX_EXPERIMENTAL
#include <hipsoftmax/hipsoftmax.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

#define EXPECT(cond, ...)                                                                             \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);                                \
            fprintf(stderr, __VA_ARGS__);                                                             \
            fprintf(stderr, "\n");                                                                    \
            failures++;                                                                               \
        }                                                                                             \
    } while (0)

/* Made-up device addresses: 256-byte aligned and far apart, as hipMalloc would give. */
#define ADDR(k) ((void *)(uintptr_t)((uintptr_t)(k) << 28))

/* The first target this library was built for ("sm_90", "gfx942", ...). */
static const char *target(void)
{
    static char t[32];
    snprintf(t, sizeof t, "%s", HSM_TEST_TARGETS);
    t[strcspn(t, ";")] = '\0';
    return t;
}

/* ---- the log file -------------------------------------------------------------------------------- */

#define MAX_LINES 8192
static char *text;           /* the whole file, lines split in place */
static char *lines[MAX_LINES];
static int n_lines;

static int read_lines(const char *path)
{
    free(text);
    text = NULL;
    n_lines = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    fseek(f, 0, SEEK_END);
    const long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = calloc((size_t)len + 1, 1);
    if (text == NULL || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        return 0;
    }
    fclose(f);
    for (char *s = text; *s != '\0' && n_lines < MAX_LINES;) {
        char *nl = strchr(s, '\n');
        EXPECT(nl != NULL, "the log's last line has no newline: %s", s);
        if (nl == NULL)
            break;
        *nl = '\0';
        lines[n_lines++] = s;
        s = nl + 1;
    }
    return 1;
}

/* Lines starting with `prefix`, and the k-th of them. */
static int count_prefix(const char *prefix)
{
    int n = 0;
    for (int i = 0; i < n_lines; i++)
        n += strncmp(lines[i], prefix, strlen(prefix)) == 0;
    return n;
}
static const char *nth_prefix(const char *prefix, int k)
{
    for (int i = 0; i < n_lines; i++)
        if (strncmp(lines[i], prefix, strlen(prefix)) == 0 && k-- == 0)
            return lines[i];
    return "";
}

/* Each needle (NULL-terminated list) must occur in line. */
static void expect_all(const char *line, const char *const *needles)
{
    for (; *needles != NULL; needles++)
        EXPECT(strstr(line, *needles) != NULL, "'%s' lacks '%s'", line, *needles);
}

static const char *log_path(void)
{
    const char *p = getenv("HIPSOFTMAX_LOG_PATH");
    return p != NULL ? p : "";
}

/* ---- trace ------------------------------------------------------------------------------------- */

static void mode_trace(void)
{
    hipsoftmax_handle h = NULL;
    hipsoftmax_create_offline(&h, target());
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F16, 64, 1000);
    p.y_dtype = HIPSOFTMAX_DTYPE_BF16;
    p.x_row_stride = 1024;
    p.scale = 0.125f, p.alpha = 0.5f, p.beta = 0.25f;
    p.mask = HIPSOFTMAX_MASK_ADDITIVE, p.mask_dtype = HIPSOFTMAX_DTYPE_F32, p.mask_ptr = ADDR(3);
    p.mask_row_stride = 1000;
    p.heads = 2, p.queries = 32;
    p.flags = HIPSOFTMAX_FLAG_SAFE_ROWS;
    hipsoftmax_forward(h, &p, ADDR(1), ADDR(2));
    hipsoftmax_forward(NULL, &p, ADDR(1), ADDR(2));
    hipsoftmax_forward(h, NULL, ADDR(1), ADDR(2));
    hipsoftmax_forward(h, &p, NULL, ADDR(2));
    hipsoftmax_problem bad = p;
    bad.struct_size = 3;
    hipsoftmax_forward(h, &bad, ADDR(1), ADDR(2));
    hipsoftmax_problem b;
    hipsoftmax_problem_init(&b, HIPSOFTMAX_DTYPE_F32, 8, 100);
    hipsoftmax_backward(h, &b, ADDR(1), ADDR(2), ADDR(3));
    hipsoftmax_softmax(h, HIPSOFTMAX_DTYPE_BF16, 16, 300, ADDR(1), 320, ADDR(2), 300);
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    hipsoftmax_get_plan(h, &b, &info);
    hipsoftmax_get_stats_plan(h, &b, 2, &info);
    hipsoftmax_get_stats_plan(NULL, &b, 0, &info);
    hipsoftmax_get_stream(NULL, NULL);
    char buf[64];
    hipsoftmax_get_target(h, buf, sizeof buf);
    hipsoftmax_set_kernel(h, NULL);
    hipsoftmax_destroy(h);
    hipsoftmax_destroy(NULL);

    EXPECT(read_lines(log_path()), "no log at %s", log_path());
    EXPECT(count_prefix("hipsoftmax trace: ") == n_lines, "%d of %d lines are traces", count_prefix("hipsoftmax trace: "),
           n_lines);
    char want[128];
    snprintf(want, sizeof want, "hipsoftmax_create_offline(out=0x");
    expect_all(nth_prefix("hipsoftmax trace: ", 0), (const char *const[]){want, "target=\"", ") = HIPSOFTMAX_STATUS_SUCCESS", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_problem_init_sized(", 0),
               (const char *const[]){"dtype=f16, rows=64, cols=1000", ") = HIPSOFTMAX_STATUS_SUCCESS", NULL});
    /* Every non-default field, and none of the defaults. */
    const char *fwd = nth_prefix("hipsoftmax trace: hipsoftmax_forward(", 0);
    expect_all(fwd, (const char *const[]){"problem={rows=64 cols=1000 x_dtype=f16 y_dtype=bf16", " x_row_stride=1024",
                                          " scale=0.125", " alpha=0.5", " beta=0.25", " mask=additive",
                                          " mask_dtype=f32", " mask_ptr=0x30000000", " mask_row_stride=1000",
                                          " flags=0x1", " heads=2", " queries=32", "x=0x10000000, y=0x20000000",
                                          ") = HIPSOFTMAX_STATUS_NO_DEVICE", NULL});
    EXPECT(strstr(fwd, "y_row_stride") == NULL && strstr(fwd, "algorithm") == NULL && strstr(fwd, "stats") == NULL,
           "defaults in %s", fwd);
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_forward(", 1),
               (const char *const[]){"handle=(nil)", ") = HIPSOFTMAX_STATUS_INVALID_HANDLE", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_forward(", 2),
               (const char *const[]){"problem=NULL", ") = HIPSOFTMAX_STATUS_INVALID_POINTER", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_forward(", 3),
               (const char *const[]){"x=(nil)", ") = HIPSOFTMAX_STATUS_INVALID_POINTER", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_forward(", 4),
               (const char *const[]){"problem={struct_size=3 (unreadable)}", ") = HIPSOFTMAX_STATUS_INVALID_VALUE", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_backward(", 0),
               (const char *const[]){"problem={rows=8 cols=100 x_dtype=f32}", "y=0x10000000, dy=0x20000000, dx=0x30000000",
                                     ") = HIPSOFTMAX_STATUS_NO_DEVICE", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_softmax(", 0),
               (const char *const[]){"rows=16 cols=300 x_dtype=bf16 x_row_stride=320}", NULL});
    EXPECT(count_prefix("hipsoftmax trace: hipsoftmax_forward(") == 5, "the softmax shorthand traced as a forward");
    EXPECT(count_prefix("hipsoftmax trace: hipsoftmax_problem_init_sized(") == 2, "hipsoftmax_softmax's own init traced");
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_get_plan(", 0), (const char *const[]){"info=0x", ") = HIPSOFTMAX_STATUS_SUCCESS", NULL});
    /* get_stats_plan's own refusals (an invalid direction, no handle) are traced too */
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_get_stats_plan(", 0),
               (const char *const[]){"backward=2", ") = HIPSOFTMAX_STATUS_INVALID_VALUE", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_get_stats_plan(", 1),
               (const char *const[]){"handle=(nil)", ") = HIPSOFTMAX_STATUS_INVALID_HANDLE", NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_get_stream(", 0),
               (const char *const[]){"handle=(nil), stream=(nil)", ") = HIPSOFTMAX_STATUS_INVALID_HANDLE", NULL});
    snprintf(want, sizeof want, "-> \"%s\") = HIPSOFTMAX_STATUS_SUCCESS", target());
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_get_target(", 0), (const char *const[]){want, NULL});
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_set_kernel(", 0), (const char *const[]){"name=NULL", NULL});
    EXPECT(count_prefix("hipsoftmax trace: hipsoftmax_destroy(") == 2, "destroy traced twice");
    expect_all(nth_prefix("hipsoftmax trace: hipsoftmax_destroy(", 1), (const char *const[]){"handle=(nil)", NULL});
}

/* ---- bench ------------------------------------------------------------------------------------- */

/* Runs the bench with the line's arguments (up to its comment), every GPU hidden: 1 means its parser
 * took every option and it then found no GPU, 2 that it refused an option. */
static int run_bench(const char *bench, const char *line)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", line);
    char *hash = strstr(copy, "  #");
    if (hash != NULL)
        *hash = '\0';
    char *argv[128];
    int argc = 0;
    argv[argc++] = (char *)bench;
    strtok(copy, " "); /* the logged program name: the bench under test stands in for it */
    for (char *tok = strtok(NULL, " "); tok != NULL && argc < 127; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        unsetenv("HIPSOFTMAX_LOG");
        setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
        setenv("HIP_VISIBLE_DEVICES", "-1", 1);
        setenv("ROCR_VISIBLE_DEVICES", "-1", 1);
        if (freopen("/dev/null", "w", stdout) == NULL || freopen("/dev/null", "w", stderr) == NULL)
            _exit(126);
        execv(bench, argv);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws))
        return -1;
    return WEXITSTATUS(ws);
}

static void mode_bench(const char *bench)
{
    hipsoftmax_handle h = NULL;
    hipsoftmax_create_offline(&h, target());
    const char *const *want[16];
    int n = 0;

    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F16, 64, 1000);
    p.algorithm = HIPSOFTMAX_ALGO_LOG_SOFTMAX;
    p.y_dtype = HIPSOFTMAX_DTYPE_BF16;
    p.x_row_stride = 1024;
    p.scale = 0.125f, p.alpha = 0.5f, p.beta = 0.25f;
    p.heads = 2, p.queries = 16;
    p.mask = HIPSOFTMAX_MASK_ADDITIVE, p.mask_dtype = HIPSOFTMAX_DTYPE_F32, p.mask_ptr = ADDR(3);
    p.mask_batches = 2, p.mask_rows = 16, p.mask_row_stride = 1000, p.mask_batch_stride = 16000;
    p.flags = HIPSOFTMAX_FLAG_SAFE_ROWS;
    p.stats = ADDR(4);
    hipsoftmax_forward(h, &p, ADDR(1), ADDR(2));
    want[n++] = (const char *const[]){" --op fwd ", " --algo log", " --dtype fp16", " --y-dtype bf16",
                                      " --shape 64x1000", " --x-stride 1024", " --scale 0.125", " --alpha 0.5",
                                      " --beta 0.25", " --heads 2", " --queries 16", " --mask add",
                                      " --mask-dtype fp32", " --mask-batches 2", " --mask-rows 16",
                                      " --mask-row-stride 1000", " --mask-batch-stride 16000", " --safe", " --stats",
                                      NULL};

    hipsoftmax_problem b;
    hipsoftmax_problem_init(&b, HIPSOFTMAX_DTYPE_F32, 8, 1000);
    b.y_dtype = HIPSOFTMAX_DTYPE_BF16, b.dy_dtype = HIPSOFTMAX_DTYPE_F16;
    b.x_row_stride = 1300, b.y_row_stride = 1100, b.dy_row_stride = 1200;
    b.scale = 2.0f;
    hipsoftmax_backward(h, &b, ADDR(1), ADDR(2), ADDR(3));
    want[n++] = (const char *const[]){" --op bwd ", " --dtype fp32", " --y-dtype bf16", " --dy-dtype fp16",
                                      " --shape 8x1000", " --x-stride 1300", " --y-stride 1100", " --dy-stride 1200",
                                      " --scale 2", NULL};

    /* A forced family and kernel are the handle's: the bench forces them too. */
    hipsoftmax_kernel_info ki = {.struct_size = sizeof ki};
    hipsoftmax_get_kernel_info(h, 0, &ki);
    hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_ROW);
    hipsoftmax_set_kernel(h, ki.name);
    hipsoftmax_problem c;
    hipsoftmax_problem_init(&c, HIPSOFTMAX_DTYPE_BF16, 128, 128);
    c.mask = HIPSOFTMAX_MASK_CAUSAL, c.causal_offset = 5, c.queries = 64;
    hipsoftmax_forward(h, &c, ADDR(1), ADDR(2));
    static char kernel_flag[96];
    snprintf(kernel_flag, sizeof kernel_flag, " --kernel %s", ki.name);
    want[n++] = (const char *const[]){" --op fwd ", " --dtype bf16", " --mask causal", " --causal-offset 5",
                                      " --queries 64", " --family row", kernel_flag, NULL};
    hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_AUTO);
    hipsoftmax_set_kernel(h, NULL);

    hipsoftmax_problem s;
    hipsoftmax_problem_init(&s, HIPSOFTMAX_DTYPE_F32, 8, 4096);
    s.stats = ADDR(4);
    hipsoftmax_forward_stats(h, &s, ADDR(1));
    want[n++] = (const char *const[]){" --op fwd-stats ", " --shape 8x4096", NULL};
    hipsoftmax_backward_stats(h, &s, ADDR(1), ADDR(2));
    want[n++] = (const char *const[]){" --op bwd-stats ", " --shape 8x4096", NULL};
    s.stats = NULL;
    s.stats_in = ADDR(4), s.stats_in_shards = 4, s.stats_in_shard_stride = 64;
    hipsoftmax_forward(h, &s, ADDR(1), ADDR(2));
    want[n++] = (const char *const[]){" --op fwd ", " --stats-in 4", " --stats-in-stride 64", NULL};

    /* What the bench cannot do goes to the comment. */
    hipsoftmax_problem m;
    hipsoftmax_problem_init(&m, HIPSOFTMAX_DTYPE_F16, 4, 1000);
    void *odd = (char *)ADDR(1) + 2;
    hipsoftmax_forward(h, &m, odd, odd);
    want[n++] = (const char *const[]){" --dtype fp16", "  # ", "x is 2 bytes past a 256-byte boundary",
                                      "in place (y == x)", NULL};
    m.x_row_stride = 500;
    hipsoftmax_forward(h, &m, ADDR(1), ADDR(2));
    want[n++] = (const char *const[]){" --x-stride 500", "  # the call returned HIPSOFTMAX_STATUS_INVALID_STRIDE", NULL};
    hipsoftmax_problem ch;
    hipsoftmax_problem_init(&ch, HIPSOFTMAX_DTYPE_F32, 4, 100);
    ch.mode = HIPSOFTMAX_MODE_CHANNEL, ch.inner = 8, ch.x_row_stride = ch.y_row_stride = 800;
    hipsoftmax_forward(h, &ch, ADDR(1), ADDR(2));
    want[n++] = (const char *const[]){" --op fwd ", " --shape 4x100x8", NULL}; /* stride 800: the default */
    hipsoftmax_softmax(NULL, HIPSOFTMAX_DTYPE_BF16, 16, 300, ADDR(1), 320, ADDR(2), 300);
    want[n++] = (const char *const[]){" --op fwd ", " --dtype bf16", " --shape 16x300", " --x-stride 320",
                                      "handle NULL", "the call returned HIPSOFTMAX_STATUS_INVALID_HANDLE", NULL};
    /* No problem to read: no command. */
    hipsoftmax_forward(h, NULL, ADDR(1), ADDR(2));
    hipsoftmax_destroy(h);

    EXPECT(read_lines(log_path()), "no log at %s", log_path());
    char prefix[64];
    snprintf(prefix, sizeof prefix, "hipsoftmax-bench-%s --op ", HSM_TEST_VENDOR);
    EXPECT(count_prefix(prefix) == n && n_lines == n, "%d command lines of %d lines, %d calls", count_prefix(prefix),
           n_lines, n);
    for (int i = 0; i < n && i < count_prefix(prefix); i++) {
        const char *line = nth_prefix(prefix, i);
        expect_all(line, want[i]);
        if (bench[0] != '\0') {
            const int rc = run_bench(bench, line);
            EXPECT(rc == 1, "the bench exited %d (1: parsed, no GPU; 2: an option refused) on: %s", rc, line);
        }
    }
    /* Flags only where they differ from the bench's defaults. */
    const char *fs = nth_prefix(prefix, 3);
    EXPECT(strstr(fs, "--x-stride") == NULL && strstr(fs, "--stats ") == NULL && strstr(fs, "#") == NULL,
           "a default passed, or a note: %s", fs);
}

/* ---- plan -------------------------------------------------------------------------------------- */

static void mode_plan(void)
{
    hipsoftmax_handle h = NULL;
    hipsoftmax_create_offline(&h, target());
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 4096, 1000);
    hipsoftmax_forward(h, &p, ADDR(1), ADDR(2));
    hipsoftmax_plan_info info = {.struct_size = sizeof info};
    EXPECT(hipsoftmax_get_plan(h, &p, &info) == HIPSOFTMAX_STATUS_SUCCESS, "get_plan");
    hipsoftmax_set_family(h, HIPSOFTMAX_FAMILY_WARP);
    hipsoftmax_problem longrow;
    hipsoftmax_problem_init(&longrow, HIPSOFTMAX_DTYPE_F32, 4, 1 << 20);
    hipsoftmax_forward(h, &longrow, ADDR(1), ADDR(2));
    hipsoftmax_forward(NULL, &p, ADDR(1), ADDR(2));
    hipsoftmax_forward(h, &p, NULL, ADDR(2));
    hipsoftmax_destroy(h);

    EXPECT(read_lines(log_path()), "no log at %s", log_path());
    EXPECT(n_lines == 3 && count_prefix("hipsoftmax plan: ") == 3, "%d lines: only the validated calls' plans", n_lines);
    static const char *const fams[] = {"auto", "warp", "row", "online", "split"};
    char fields[256];
    snprintf(fields, sizeof fields, " family=%s kernel=%s grid=%d block=%d blocks_per_row=%d group_width=%d",
             fams[info.family], info.kernel, info.grid, info.block, info.blocks_per_row, info.group_width);
    char head[128];
    snprintf(head, sizeof head, "hipsoftmax plan: hipsoftmax_forward rows=4096 cols=1000 target=%s", target());
    expect_all(nth_prefix("hipsoftmax plan: ", 0), (const char *const[]){head, fields, "(offline: not launched)", NULL});
    expect_all(nth_prefix("hipsoftmax plan: ", 1), (const char *const[]){"hipsoftmax plan: hipsoftmax_get_plan ", fields, NULL});
    EXPECT(strstr(nth_prefix("hipsoftmax plan: ", 1), "offline") == NULL, "a plan query launches nothing");
    expect_all(nth_prefix("hipsoftmax plan: ", 2),
               (const char *const[]){"cols=1048576", "no plan: HIPSOFTMAX_STATUS_NOT_SUPPORTED", NULL});
}

/* ---- threads ----------------------------------------------------------------------------------- */

#define THREADS 8
#define CALLS 200

static void *worker(void *arg)
{
    const int id = (int)(intptr_t)arg;
    hipsoftmax_handle h = NULL;
    hipsoftmax_create_offline(&h, target()); /* the first library call of every thread races on the read */
    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 100 + id, 1000);
    for (int i = 0; i < CALLS; i++)
        hipsoftmax_forward(h, &p, ADDR(1), ADDR(2));
    hipsoftmax_destroy(h);
    return NULL;
}

static void mode_threads(void)
{
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    EXPECT(read_lines(log_path()), "no log at %s", log_path());
    /* Per thread: create, init, destroy traced; per call a trace, a command and a plan. */
    EXPECT(n_lines == THREADS * (3 + 3 * CALLS), "%d lines, expected %d", n_lines, THREADS * (3 + 3 * CALLS));
    char bench_prefix[64];
    snprintf(bench_prefix, sizeof bench_prefix, "hipsoftmax-bench-%s --op fwd --dtype fp32 --shape 1", HSM_TEST_VENDOR);
    int per_rows[THREADS] = {0};
    for (int i = 0; i < n_lines; i++) {
        const char *l = lines[i];
        long rows = -1;
        if (strncmp(l, "hipsoftmax trace: hipsoftmax_forward(", 37) == 0) {
            const char *r = strstr(l, "problem={rows=");
            rows = r != NULL ? strtol(r + 14, NULL, 10) : -1;
            EXPECT(strstr(l, "cols=1000 x_dtype=f32}, x=0x10000000, y=0x20000000) = HIPSOFTMAX_STATUS_NO_DEVICE") != NULL,
                   "a mangled trace: %s", l);
        } else if (strncmp(l, bench_prefix, strlen(bench_prefix)) == 0) {
            rows = strtol(l + strlen(bench_prefix) - 1, NULL, 10);
            EXPECT(strstr(l, "x1000") != NULL && strchr(l, '#') == NULL, "a mangled command: %s", l);
        } else if (strncmp(l, "hipsoftmax plan: hipsoftmax_forward rows=", 41) == 0) {
            rows = strtol(l + 41, NULL, 10);
            EXPECT(strstr(l, " cols=1000 target=") != NULL && strstr(l, " dynamic_smem=") != NULL &&
                       strstr(l, "(offline: not launched)") != NULL,
                   "a mangled plan: %s", l);
        } else {
            EXPECT(strncmp(l, "hipsoftmax trace: hipsoftmax_create_offline(", 44) == 0 ||
                       strncmp(l, "hipsoftmax trace: hipsoftmax_problem_init_sized(", 48) == 0 ||
                       strncmp(l, "hipsoftmax trace: hipsoftmax_destroy(handle=0x", 46) == 0,
                   "a line of no kind: %s", l);
            continue;
        }
        if (rows >= 100 && rows < 100 + THREADS)
            per_rows[rows - 100]++;
        else
            EXPECT(0, "no thread's rows in: %s", l);
    }
    for (int i = 0; i < THREADS; i++)
        EXPECT(per_rows[i] == 3 * CALLS, "thread %d: %d lines", i, per_rows[i]);
}

/* ---- a log that cannot be written where asked, or asked for wrongly ------------------------------ */

/* stderr into `path`, the calls, then back: what the library wrote there. */
static void calls_to_stderr_file(const char *path)
{
    fflush(stderr);
    const int saved = dup(STDERR_FILENO);
    if (saved < 0 || freopen(path, "w", stderr) == NULL) {
        EXPECT(0, "stderr to %s", path);
        return;
    }
    hipsoftmax_handle h = NULL;
    hipsoftmax_create_offline(&h, target());
    hipsoftmax_get_stream(NULL, NULL);
    hipsoftmax_destroy(h);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    read_lines(path);
}

static void mode_badpath(void)
{
    calls_to_stderr_file("api-log-badpath.stderr");
    EXPECT(n_lines == 4, "%d lines on stderr, expected a warning and 3 traces", n_lines);
    expect_all(n_lines > 0 ? lines[0] : "",
               (const char *const[]){"hipsoftmax: cannot open HIPSOFTMAX_LOG_PATH=", "logging to stderr", NULL});
    EXPECT(count_prefix("hipsoftmax trace: ") == 3, "traces on stderr");
    expect_all(nth_prefix("hipsoftmax trace: ", 1), (const char *const[]){"= HIPSOFTMAX_STATUS_INVALID_HANDLE", NULL});
}

static void mode_junk(void)
{
    remove(log_path());
    calls_to_stderr_file("api-log-junk.stderr");
    EXPECT(n_lines == 1, "%d lines on stderr, expected the one warning", n_lines);
    expect_all(n_lines > 0 ? lines[0] : "", (const char *const[]){"HIPSOFTMAX_LOG=abc", "logging off", NULL});
    FILE *f = fopen(log_path(), "r");
    EXPECT(f == NULL, "a log file was made with logging off");
    if (f != NULL)
        fclose(f);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    /* The log appends: start from nothing, before the first call opens it. */
    if (strcmp(mode, "junk") != 0)
        remove(log_path());
    if (!strcmp(mode, "trace"))
        mode_trace();
    else if (!strcmp(mode, "bench"))
        mode_bench(argc > 2 ? argv[2] : "");
    else if (!strcmp(mode, "plan"))
        mode_plan();
    else if (!strcmp(mode, "threads"))
        mode_threads();
    else if (!strcmp(mode, "badpath"))
        mode_badpath();
    else if (!strcmp(mode, "junk"))
        mode_junk();
    else {
        fprintf(stderr, "usage: %s trace|bench [BENCH]|plan|threads|badpath|junk\n", argv[0]);
        return 2;
    }
    free(text);
    printf("api.log.%s: %s\n", mode, failures == 0 ? "all checks passed" : "FAILED");
    return failures == 0 ? 0 : 1;
}
