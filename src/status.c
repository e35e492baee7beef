/* status.c: status names and the library version. */
#include "internal.h"

const char *hipsoftmax_status_string(hipsoftmax_status status)
{
#define HSM_CASE(s) \
    case HIPSOFTMAX_STATUS_##s: return "HIPSOFTMAX_STATUS_" #s
    switch (status) {
        HSM_CASE(SUCCESS);
        HSM_CASE(INVALID_HANDLE);
        HSM_CASE(INVALID_POINTER);
        HSM_CASE(INVALID_SIZE);
        HSM_CASE(INVALID_STRIDE);
        HSM_CASE(INVALID_VALUE);
        HSM_CASE(MISALIGNED);
        HSM_CASE(OVERLAP);
        HSM_CASE(NOT_SUPPORTED);
        HSM_CASE(OUT_OF_MEMORY);
        HSM_CASE(NO_DEVICE);
        HSM_CASE(BACKEND_ERROR);
        HSM_CASE(INTERNAL_ERROR);
        HSM_CASE(UNKNOWN_BACKEND_ERROR);
    case HIPSOFTMAX_STATUS_MAX_: break;
    }
#undef HSM_CASE
    return "HIPSOFTMAX_STATUS_<unknown>";
}

unsigned hipsoftmax_version_number(void) { return HIPSOFTMAX_VERSION_NUMBER; }
const char *hipsoftmax_version_string(void) { return HIPSOFTMAX_VERSION_STRING; }
