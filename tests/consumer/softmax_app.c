/* softmax_app.c: a program outside hipsoftmax that uses an installed build of it, as the README's
 * "Use" section shows. It needs no GPU: an offline handle for a target the library was built for
 * plans and validates as a device handle does, and answers NO_DEVICE where it would launch.
 * Usage: softmax_app TARGET (sm_90, gfx942, ...). Prints what it found; exits 0 when every call
 * returned what the API documents, 1 otherwise. */
#define HIPSOFTMAX_EXPERIMENTAL /* hipsoftmax_get_plan */
#include <hipsoftmax/hipsoftmax.h>

#include <stdio.h>
#include <string.h>

static int failures;

static void expect(const char *what, hipsoftmax_status got, hipsoftmax_status want)
{
    printf("%-44s %s\n", what, hipsoftmax_status_string(got));
    if (got != want) {
        fprintf(stderr, "softmax_app: %s returned %s, expected %s\n", what, hipsoftmax_status_string(got),
                hipsoftmax_status_string(want));
        failures++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: softmax_app TARGET\n");
        return 2;
    }
    printf("hipsoftmax library %s, header %s\n", hipsoftmax_version_string(), HIPSOFTMAX_VERSION_STRING);
    if (hipsoftmax_version_number() != HIPSOFTMAX_VERSION_NUMBER) {
        fprintf(stderr, "softmax_app: the library is not the version of its header\n");
        failures++;
    }

    hipsoftmax_handle h = NULL;
    expect("hipsoftmax_create_offline", hipsoftmax_create_offline(&h, argv[1]), HIPSOFTMAX_STATUS_SUCCESS);
    if (h == NULL)
        return 1;
    char target[64];
    expect("hipsoftmax_get_target", hipsoftmax_get_target(h, target, sizeof target), HIPSOFTMAX_STATUS_SUCCESS);

    hipsoftmax_problem p;
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 4096, 4096);
    hipsoftmax_plan_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info; /* the library writes no more than the caller's struct */
    expect("hipsoftmax_get_plan (fp32 4096 x 4096)", hipsoftmax_get_plan(h, &p, &info), HIPSOFTMAX_STATUS_SUCCESS);
    printf("  %s: kernel %s, block %d, grid %d, %d blocks per CU on %d CUs, %d registers, metadata from %s\n",
           target, info.kernel, info.block, info.grid, info.blocks_per_cu, info.num_cus, info.regs,
           info.metadata_from_code_object ? "the code object" : "the runtime");
    if (info.kernel[0] == '\0' || info.block <= 0 || info.grid <= 0)
        failures++;

    /* Host buffers stand in for device memory: the call validates them, then has no device. */
    static float x[4096], y[4096];
    hipsoftmax_problem_init(&p, HIPSOFTMAX_DTYPE_F32, 16, 256);
    expect("hipsoftmax_forward (offline: validated)", hipsoftmax_forward(h, &p, x, y), HIPSOFTMAX_STATUS_NO_DEVICE);
    p.cols = 0;
    expect("hipsoftmax_forward (cols 0)", hipsoftmax_forward(h, &p, x, y), HIPSOFTMAX_STATUS_INVALID_SIZE);
    expect("hipsoftmax_destroy", hipsoftmax_destroy(h), HIPSOFTMAX_STATUS_SUCCESS);

    printf("%s\n", failures == 0 ? "softmax_app: ok" : "softmax_app: FAILED");
    return failures == 0 ? 0 : 1;
}
