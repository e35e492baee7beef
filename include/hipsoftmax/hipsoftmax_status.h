/* hipsoftmax_status.h: the status codes every hipsoftmax function returns. */
#ifndef HIPSOFTMAX_STATUS_H_7C21E9
#define HIPSOFTMAX_STATUS_H_7C21E9

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HIPSOFTMAX_API
#  if defined(_WIN32)
#    if defined(HIPSOFTMAX_BUILDING_LIBRARY)
#      define HIPSOFTMAX_API __declspec(dllexport)
#    else
#      define HIPSOFTMAX_API __declspec(dllimport)
#    endif
#  elif defined(__GNUC__)
#    define HIPSOFTMAX_API __attribute__((visibility("default")))
#  else
#    define HIPSOFTMAX_API
#  endif
#endif

/* Values below 100 are stable across releases; new codes are only ever appended. */
typedef enum hipsoftmax_status {
    HIPSOFTMAX_STATUS_SUCCESS = 0,               /**< the call did what it says */
    HIPSOFTMAX_STATUS_INVALID_HANDLE = 1,        /**< the handle is NULL */
    HIPSOFTMAX_STATUS_INVALID_POINTER = 2,       /**< a required pointer is NULL */
    HIPSOFTMAX_STATUS_INVALID_SIZE = 3,          /**< rows or columns <= 0, or a byte count overflows 64 bits */
    HIPSOFTMAX_STATUS_INVALID_STRIDE = 4,        /**< a row stride is shorter than a row */
    HIPSOFTMAX_STATUS_INVALID_VALUE = 5,         /**< an enum value or option is out of range */
    HIPSOFTMAX_STATUS_MISALIGNED = 6,            /**< a pointer is not aligned to its element size */
    HIPSOFTMAX_STATUS_OVERLAP = 7,               /**< input and output overlap but are not exactly in-place */
    HIPSOFTMAX_STATUS_NOT_SUPPORTED = 8,         /**< a valid request this version does not implement */
    HIPSOFTMAX_STATUS_OUT_OF_MEMORY = 9,         /**< a host or device allocation failed */
    HIPSOFTMAX_STATUS_NO_DEVICE = 10,            /**< no usable GPU, or the handle has none (offline) */
    HIPSOFTMAX_STATUS_BACKEND_ERROR = 11,        /**< the GPU runtime reported a known error */
    HIPSOFTMAX_STATUS_INTERNAL_ERROR = 12,       /**< a bug in hipsoftmax: please report it */
    HIPSOFTMAX_STATUS_UNKNOWN_BACKEND_ERROR = 13,/**< the GPU runtime returned a code hipsoftmax does not know */
    HIPSOFTMAX_STATUS_MAX_ = 14                  /**< never returned; do not use */
} hipsoftmax_status;

/* Returns a static, human-readable name for any value (also for values outside the enum); never NULL.
 * Added in 0.1. */
HIPSOFTMAX_API const char *hipsoftmax_status_string(hipsoftmax_status status);

#ifdef __cplusplus
}
#endif
#endif /* HIPSOFTMAX_STATUS_H_7C21E9 */
