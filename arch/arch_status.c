/* arch_status.c: names of arch_status values and arch_error lines for messages. */
#include "arch.h"

#include <stdio.h>
#include <string.h>

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
    case ARCH_ERR_IO: return "input/output error";
    }
    return "unknown status";
}

const char *arch_error_format(const arch_error *e, char *buf, size_t n)
{
    const char *what;

    if (!buf || n == 0)
        return buf;
    if (!e) {
        snprintf(buf, n, "%s", arch_status_string(ARCH_ERR_INVALID));
        return buf;
    }
    what = e->what && e->what[0] ? e->what : NULL;
    if (e->sys_errno != 0)
        snprintf(buf, n, "%s: %s", what ? what : arch_status_string(e->status), strerror(e->sys_errno));
    else if (what && e->size >= 0)
        snprintf(buf, n, "%s: %s (%lld bytes)", arch_status_string(e->status), what, (long long)e->size);
    else if (what && e->offset >= 0)
        snprintf(buf, n, "%s: %s at byte %lld (0x%llx)", arch_status_string(e->status), what, (long long)e->offset,
                 (unsigned long long)e->offset);
    else if (what)
        snprintf(buf, n, "%s: %s", arch_status_string(e->status), what);
    else
        snprintf(buf, n, "%s", arch_status_string(e->status));
    return buf;
}
