/* api_expect.h: the api tests' checks. A failed check prints where and counts in the including
 * file's `static int failures`, so a test reports every failure of a run, not only the first. */
#ifndef HSM_API_EXPECT_H
#define HSM_API_EXPECT_H

#include <stdio.h>

#include <hipsoftmax/hipsoftmax.h>

/* A call that must return `want`. */
#define EXPECT_STATUS(call, want)                                                                     \
    do {                                                                                              \
        const hipsoftmax_status got_ = (call);                                                        \
        if (got_ != (want)) {                                                                         \
            fprintf(stderr, "%s:%d: %s\n  returned %s, expected %s\n", __FILE__, __LINE__, #call,     \
                    hipsoftmax_status_string(got_), hipsoftmax_status_string(want));                  \
            failures++;                                                                               \
        }                                                                                             \
    } while (0)

/* A condition that must hold. */
#define EXPECT(cond)                                                                                  \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);                                \
            failures++;                                                                               \
        }                                                                                             \
    } while (0)

#endif
