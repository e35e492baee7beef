/* model_check.h: the assertions of the arch model tests. They stay on under NDEBUG and report
 * every failure, so one run shows all mismatches. */
#ifndef HIPSOFTMAX_MODEL_CHECK_H_4B7D20
#define HIPSOFTMAX_MODEL_CHECK_H_4B7D20

#include <stdio.h>

static int model_failures;

#define MODEL_CHECK(cond)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            model_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define MODEL_CHECK_INT(got, want)                                                                 \
    do {                                                                                           \
        long long model_g_ = (long long)(got), model_w_ = (long long)(want);                       \
        if (model_g_ != model_w_) {                                                                \
            fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, model_g_,   \
                    model_w_);                                                                     \
            model_failures++;                                                                      \
        }                                                                                          \
    } while (0)

static int model_report(const char *name)
{
    if (model_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, model_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif /* HIPSOFTMAX_MODEL_CHECK_H_4B7D20 */
