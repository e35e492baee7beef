/* arch_file.c: bounded whole-file reads for the CLI and the library (arch_read_file, arch_read_fd).
 *
 * The file is untrusted as much as its bytes: a FIFO blocks an open() or read() forever,
 * /dev/zero never ends, and a sparse file claims any size without costing disk. So the type and
 * size are checked with fstat on a descriptor opened without blocking, before anything is
 * allocated or read. POSIX calls, from libc like the rest of arch/.
 */
#define _POSIX_C_SOURCE 200809L /* open flags, fstat, fcntl */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif /* O_CLOEXEC */
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif /* O_NOCTTY */

/* Streams (pipes) are read in chunks that double from this size up to max. */
#define ARCH_STREAM_CHUNK ((size_t)1 << 16)

/* Fills *err (when not NULL) and returns s. size: the file's size for a file over the limit. */
static arch_status file_fail(arch_error *err, arch_status s, const char *what, int sys_errno, int64_t size)
{
    if (err) {
        err->status = s;
        err->what = what;
        err->offset = -1;
        err->sys_errno = sys_errno;
        err->size = size;
    }
    return s;
}

/* What a non-regular file is, for the message. */
static const char *file_kind(mode_t m)
{
    if (S_ISFIFO(m))
        return "not a regular file (a FIFO or pipe)";
    if (S_ISCHR(m))
        return "not a regular file (a character device)";
    if (S_ISBLK(m))
        return "not a regular file (a block device)";
    if (S_ISSOCK(m))
        return "not a regular file (a socket)";
    return "not a regular file";
}

/* read() until n bytes or the end, retrying on EINTR. Returns the bytes read, or -1 (errno set). */
static ssize_t read_full(int fd, unsigned char *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* Reads the size bytes (checked against max by the caller) left in a regular file from its
 * current position, then checks that it ended there. */
static arch_status read_regular(int fd, size_t size, void **buf, size_t *len, arch_error *err)
{
    unsigned char *p = malloc(size ? size : 1), extra;
    ssize_t got, more = 0;

    if (!p)
        return file_fail(err, ARCH_ERR_NOMEM, "allocating the file's bytes", 0, -1);
    got = read_full(fd, p, size);
    if (got >= 0 && (size_t)got == size)
        more = read_full(fd, &extra, 1);
    if (got < 0 || more < 0) {
        int e = errno;
        free(p);
        return file_fail(err, ARCH_ERR_IO, "read", e, -1);
    }
    if ((size_t)got != size || more != 0) {
        free(p);
        return file_fail(err, ARCH_ERR_IO, "file changed size while being read", 0, -1);
    }
    *buf = p;
    *len = size;
    return ARCH_OK;
}

/* Reads a stream to its end, never holding more than max + 1 bytes. */
static arch_status read_stream(int fd, size_t max, void **buf, size_t *len, arch_error *err)
{
    size_t cap = ARCH_STREAM_CHUNK, n = 0;
    unsigned char *p = malloc(cap);

    if (!p)
        return file_fail(err, ARCH_ERR_NOMEM, "allocating the stream's bytes", 0, -1);
    for (;;) {
        ssize_t got;
        if (n == cap) {
            /* max + 1 bytes prove the stream too long: the buffer never grows past that */
            size_t lim = max < SIZE_MAX ? max + 1 : SIZE_MAX, ncap;
            unsigned char *np;
            if (n > max) {
                free(p);
                return file_fail(err, ARCH_ERR_LIMIT, "stream longer than the limit", 0, -1);
            }
            ncap = cap >= lim / 2 ? lim : cap * 2;
            if (ncap <= cap) {
                free(p);
                return file_fail(err, ARCH_ERR_LIMIT, "stream longer than the limit", 0, -1);
            }
            np = realloc(p, ncap);
            if (!np) {
                free(p);
                return file_fail(err, ARCH_ERR_NOMEM, "allocating the stream's bytes", 0, -1);
            }
            p = np;
            cap = ncap;
        }
        got = read(fd, p + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(p);
            return file_fail(err, ARCH_ERR_IO, "read", e, -1);
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > max) {
        free(p);
        return file_fail(err, ARCH_ERR_LIMIT, "stream longer than the limit", 0, -1);
    }
    *buf = p;
    *len = n;
    return ARCH_OK;
}

/* Checks a descriptor's type and size and reads it. stream_ok: pipes and sockets are read to
 * their end (stdin); otherwise only regular files are accepted. */
static arch_status read_checked(int fd, int stream_ok, size_t max, void **buf, size_t *len, arch_error *err)
{
    struct stat st;

    if (fstat(fd, &st) != 0)
        return file_fail(err, ARCH_ERR_IO, "fstat", errno, -1);
    if (S_ISDIR(st.st_mode))
        return file_fail(err, ARCH_ERR_IO, "read", EISDIR, -1);
    if (S_ISREG(st.st_mode)) {
        /* what is left from the current position: 0 for a file just opened, maybe more for a
         * stdin that was partly read */
        off_t at = lseek(fd, 0, SEEK_CUR);
        if (at < 0 || at > st.st_size)
            at = 0;
        /* security: the size is checked before any allocation or read */
        if (st.st_size < 0 || (uintmax_t)(st.st_size - at) > (uintmax_t)max)
            return file_fail(err, ARCH_ERR_LIMIT, "file larger than the limit", 0, (int64_t)(st.st_size - at));
        return read_regular(fd, (size_t)(st.st_size - at), buf, len, err);
    }
    if (stream_ok && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return read_stream(fd, max, buf, len, err);
    return file_fail(err, ARCH_ERR_UNSUPPORTED, file_kind(st.st_mode), 0, -1);
}

arch_status arch_read_file(const char *path, size_t max, void **buf, size_t *len, arch_error *err)
{
    arch_status s;
    int fd, flags;

    file_fail(err, ARCH_OK, "", 0, -1);
    if (buf)
        *buf = NULL;
    if (len)
        *len = 0;
    if (!path || !buf || !len)
        return file_fail(err, ARCH_ERR_INVALID, "arch_read_file (NULL argument)", 0, -1);
    /* security: O_NONBLOCK, so that opening a FIFO without a writer returns at once instead of
     * waiting for one; the type check below then refuses it */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return file_fail(err, ARCH_ERR_IO, "open", errno, -1);
    /* a regular file reads the same either way, but blocking reads are the ones the loop expects */
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return file_fail(err, ARCH_ERR_IO, "fcntl", e, -1);
    }
    s = read_checked(fd, 0, max, buf, len, err);
    close(fd);
    return s;
}

arch_status arch_read_fd(int fd, size_t max, void **buf, size_t *len, arch_error *err)
{
    file_fail(err, ARCH_OK, "", 0, -1);
    if (buf)
        *buf = NULL;
    if (len)
        *len = 0;
    if (fd < 0 || !buf || !len)
        return file_fail(err, ARCH_ERR_INVALID, "arch_read_fd (bad argument)", 0, -1);
    return read_checked(fd, 1, max, buf, len, err);
}
