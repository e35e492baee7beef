/* arch_status.c: names of arch_status values for messages. */
#include "arch.h"

const char *arch_status_string(arch_status s)
{
    switch (s) {
    case ARCH_OK: return "ok";
    case ARCH_ERR_CORRUPT: return "corrupt input";
    case ARCH_ERR_UNSUPPORTED: return "unsupported input";
    case ARCH_ERR_LIMIT: return "over a limit";
    case ARCH_ERR_NOMEM: return "out of memory";
    case ARCH_ERR_INVALID: return "invalid argument";
    case ARCH_ERR_NOT_FOUND: return "not found";
    }
    return "unknown status";
}
