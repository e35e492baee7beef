/* arch.reader.find: kernel lookups by every target spelling (one normaliser, arch_target_base, for
 * the tables and the image), the device rules of arch_image_find_for_device, and lookups that stay
 * O(log n) on an image of 65,000 kernels.
 * Usage: reader_find <fatbin with sm_80 and sm_90 cubins> <bundle with gfx908, gfx90a, gfx942> */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_PROCESS_CPUTIME_ID */
#include <time.h>

#include "arch_reader.h"
#include "reader_util.h"

/* 65,000 lookups of each kind; a linear search per lookup takes seconds, the index milliseconds. */
#define FIND_LIMIT_S 1.0

/* The process's CPU time, not the wall clock: on a loaded machine the test waits for a core (it
 * failed once at 1 s of wall time beside a build on both cores, 0.16 s alone), and what it guards
 * is the lookups' work. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static arch_device device(const char *name)
{
    arch_device d;
    memset(&d, 0, sizeof d);
    RU_CHECK(arch_target_lookup(name, 0, &d) == ARCH_OK, "lookup %s", name);
    return d;
}

/* A device the tables do not hold yet: an NVIDIA one of compute capability major.minor. */
static arch_device nv_device(int major, int minor)
{
    arch_device d = device("sm_90");
    d.cc_major = major;
    d.cc_minor = minor;
    snprintf(d.name, sizeof d.name, "sm_%d%d", major, minor);
    return d;
}

/* The kernel found for spelling must be named kernel and have a target whose base is want
 * (want NULL: nothing found). */
static void expect_find(const arch_image *img, const char *spelling, const char *kernel, const char *want)
{
    const arch_kernel *k = arch_image_find(img, spelling, kernel);
    char base[64] = "";
    if (k)
        arch_target_base(k->target, base, sizeof base);
    RU_CHECK(want ? k && strcmp(k->name, kernel) == 0 && strcmp(base, want) == 0 : k == NULL,
             "find(\"%s\", %s): %s, want %s", spelling, kernel, k ? k->target : "NULL", want ? want : "NULL");
}

static void expect_device(const arch_image *img, const arch_device *d, const char *kernel, const char *want)
{
    const arch_kernel *k = arch_image_find_for_device(img, d, kernel);
    char base[64] = "";
    if (k)
        arch_target_base(k->target, base, sizeof base);
    RU_CHECK(want ? k && strcmp(k->name, kernel) == 0 && strcmp(base, want) == 0 : k == NULL,
             "find_for_device(%s %d.%d, %s): %s, want %s", d->name, d->cc_major, d->cc_minor, kernel,
             k ? k->target : "NULL", want ? want : "NULL");
}

/* Real files: the seeds' sm_80/sm_90 fatbin and gfx908/gfx90a/gfx942 bundle. */
static void check_seeds(const char *fatbin, const char *bundle)
{
    arch_image nv = ru_parse_file(fatbin), amd = ru_parse_file(bundle);
    static const char *const sm90[] = {"90", "sm_90", "sm_90a", "nvptx64-nvidia-cuda--sm_90", "sm_90:x"};
    static const char *const gfx942[] = {"gfx942", "amdgcn-amd-amdhsa--gfx942", "hipv4-amdgcn-amd-amdhsa--gfx942",
                                         "gfx942:sramecc+:xnack-", "hipv4-amdgcn-amd-amdhsa--gfx942:xnack+"};
    for (size_t i = 0; i < sizeof sm90 / sizeof sm90[0]; i++) {
        expect_find(&nv, sm90[i], "seed_smem", "sm_90");
        expect_find(&nv, sm90[i], "seed_stack", "sm_90");
    }
    expect_find(&nv, "80", "seed_smem", "sm_80");
    expect_find(&nv, "sm_80", "seed_stack", "sm_80");
    expect_find(&nv, "86", "seed_smem", NULL); /* exact lookups do not apply the device rules */
    expect_find(&nv, "sm_90", "no_such_kernel", NULL);
    expect_find(&nv, "", "seed_smem", NULL);
    for (size_t i = 0; i < sizeof gfx942 / sizeof gfx942[0]; i++) {
        expect_find(&amd, gfx942[i], "seed_lds", "gfx942");
        expect_find(&amd, gfx942[i], "seed_scratch", "gfx942");
    }
    expect_find(&amd, "gfx90a:xnack-", "seed_lds", "gfx90a");
    expect_find(&amd, "amdgcn-amd-amdhsa--gfx908", "seed_lds", "gfx908");
    expect_find(&amd, "gfx1100", "seed_lds", NULL);
    expect_find(&amd, "gfx94", "seed_lds", NULL);
    expect_find(&amd, "sm_90", "seed_lds", NULL);

    arch_device sm80 = device("sm_80"), sm86 = device("sm_86"), sm89 = device("sm_89"), sm90d = device("sm_90");
    arch_device g942 = device("gfx942:sramecc+:xnack-"), g90a = device("gfx90a"), g908 = device("gfx908");
    arch_device sm100 = nv_device(10, 0), sm120 = nv_device(12, 0), sm70 = nv_device(7, 0);
    expect_device(&nv, &sm80, "seed_smem", "sm_80");
    expect_device(&nv, &sm86, "seed_smem", "sm_80"); /* sm_86 runs sm_80 SASS */
    expect_device(&nv, &sm89, "seed_stack", "sm_80");
    expect_device(&nv, &sm90d, "seed_smem", "sm_90");
    expect_device(&nv, &sm100, "seed_smem", NULL); /* the runtime would JIT the PTX */
    expect_device(&nv, &sm120, "seed_smem", NULL);
    expect_device(&nv, &sm70, "seed_smem", NULL);
    expect_device(&nv, &g942, "seed_smem", NULL);
    expect_device(&amd, &g942, "seed_lds", "gfx942");
    expect_device(&amd, &g90a, "seed_scratch", "gfx90a");
    expect_device(&amd, &g908, "seed_lds", "gfx908");
    expect_device(&amd, &sm90d, "seed_lds", NULL);
    expect_device(&amd, &g942, "no_such_kernel", NULL);
    RU_CHECK(arch_image_find_for_device(NULL, &g942, "seed_lds") == NULL, "NULL image");
    RU_CHECK(arch_image_find_for_device(&amd, NULL, "seed_lds") == NULL, "NULL device");
    RU_CHECK(arch_image_find_for_device(&amd, &g942, NULL) == NULL, "NULL kernel");
    RU_CHECK(arch_image_find(&amd, NULL, "seed_lds") == NULL && arch_image_find(NULL, "gfx942", "seed_lds") == NULL,
             "NULL arguments");
    arch_device unknown = g942;
    unknown.vendor = ARCH_VENDOR_UNKNOWN;
    expect_device(&amd, &unknown, "seed_lds", NULL);
    arch_image_free(&nv);
    arch_image_free(&amd);
}

/* A hand-made image with feature-suffixed targets and duplicates, looked up scanned and indexed. */
static void check_handmade(int indexed)
{
    static const struct {
        const char *name, *target;
        arch_vendor v;
    } ks[] = {
        {"k", "gfx942:sramecc+:xnack-", ARCH_VENDOR_AMD}, {"k", "sm_86", ARCH_VENDOR_NVIDIA},
        {"k", "sm_80", ARCH_VENDOR_NVIDIA},               {"k", "sm_90", ARCH_VENDOR_NVIDIA},
        {"j", "gfx90a:xnack-", ARCH_VENDOR_AMD},          {"k", "sm_90", ARCH_VENDOR_NVIDIA},
        {"k", "", ARCH_VENDOR_AMD},                       {"k", "gfx942:sramecc-", ARCH_VENDOR_AMD},
    };
    const size_t n = sizeof ks / sizeof ks[0];
    arch_image img;
    memset(&img, 0, sizeof img);
    img.kernels = calloc(n, sizeof *img.kernels);
    img.n_kernels = n;
    for (size_t i = 0; i < n; i++) {
        snprintf(img.kernels[i].name, sizeof img.kernels[i].name, "%s", ks[i].name);
        snprintf(img.kernels[i].target, sizeof img.kernels[i].target, "%s", ks[i].target);
        img.kernels[i].vendor = ks[i].v;
    }
    if (indexed)
        RU_CHECK(arch_image_index_build(&img) == ARCH_OK && img.index != NULL, "index");
    const char *how = indexed ? "indexed" : "scanned";
    RU_CHECK(arch_image_find(&img, "gfx942", "k") == &img.kernels[0], "%s: gfx942 is the first", how);
    RU_CHECK(arch_image_find(&img, "gfx942:xnack+", "k") == &img.kernels[0], "%s: features not compared", how);
    RU_CHECK(arch_image_find(&img, "90", "k") == &img.kernels[3], "%s: the first sm_90 of two", how);
    RU_CHECK(arch_image_find(&img, "sm_86", "k") == &img.kernels[1], "%s: sm_86", how);
    RU_CHECK(arch_image_find(&img, "amdgcn-amd-amdhsa--gfx90a", "j") == &img.kernels[4], "%s: j", how);
    RU_CHECK(arch_image_find(&img, "", "k") == &img.kernels[6], "%s: a target without a base, as written", how);
    RU_CHECK(arch_image_find(&img, "gfx90a", "k") == NULL, "%s: no gfx90a k", how);
    arch_device sm89 = device("sm_89"), sm86 = device("sm_86"), sm80 = device("sm_80"), g942 = device("gfx942");
    RU_CHECK(arch_image_find_for_device(&img, &sm89, "k") == &img.kernels[1], "%s: sm_89 loads sm_86", how);
    RU_CHECK(arch_image_find_for_device(&img, &sm86, "k") == &img.kernels[1], "%s: sm_86 loads sm_86", how);
    RU_CHECK(arch_image_find_for_device(&img, &sm80, "k") == &img.kernels[2], "%s: sm_80 loads sm_80", how);
    RU_CHECK(arch_image_find_for_device(&img, &g942, "k") == &img.kernels[0], "%s: gfx942", how);
    arch_image_free(&img);
}

/* The index: 65,000 kernels on two targets, each looked up by a short spelling and for a device.
 * The image is built by hand, as a reader would leave it, so that only the lookups are timed. */
static void check_scale(void)
{
    const size_t n = 65000;
    arch_image img;
    memset(&img, 0, sizeof img);
    img.kernels = calloc(n, sizeof *img.kernels);
    img.n_kernels = n;
    for (size_t i = 0; i < n; i++) {
        snprintf(img.kernels[i].name, sizeof img.kernels[i].name, "k%zu", i / 2);
        snprintf(img.kernels[i].target, sizeof img.kernels[i].target, i % 2 ? "sm_90" : "sm_80");
        img.kernels[i].vendor = ARCH_VENDOR_NVIDIA;
    }
    RU_CHECK(arch_image_index_build(&img) == ARCH_OK, "index of 65,000 kernels");
    arch_device sm86 = device("sm_86");
    size_t found = 0, found_dev = 0;
    double t0 = now_s();
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "k%zu", (n - 1 - i) / 2);
        const arch_kernel *k = arch_image_find(&img, i % 2 ? "90" : "sm_80a", name);
        found += k != NULL && strcmp(k->name, name) == 0;
        found_dev += arch_image_find_for_device(&img, &sm86, name) == &img.kernels[(n - 1 - i) / 2 * 2];
    }
    double dt = now_s() - t0;
    printf("65,000 kernels: %zu + %zu lookups found in %.3f s\n", found, found_dev, dt);
    RU_CHECK(found == n && found_dev == n, "found %zu, %zu", found, found_dev);
    RU_CHECK(dt < FIND_LIMIT_S, "lookups took %.3f s, limit %.1f s", dt, FIND_LIMIT_S);
    arch_image_free(&img);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <sm_80+sm_90 fatbin> <gfx908+gfx90a+gfx942 bundle>\n", argv[0]);
        return 2;
    }
    check_seeds(argv[1], argv[2]);
    check_handmade(0);
    check_handmade(1);
    check_scale();
    return ru_finish("arch.reader.find");
}
