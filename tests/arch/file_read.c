/* arch.file: arch_read_file and arch_read_fd refuse what is not a regular file and what is over the
 * limit before reading, without blocking: a FIFO, /dev/zero, a directory, a 10 GiB sparse file;
 * read regular files and pipes exactly; and report errno where a system call failed.
 * Usage: file_read <scratch directory> */
#define _POSIX_C_SOURCE 200809L /* mkfifo, ftruncate, pipe, alarm, clock_gettime */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reader_util.h"

/* Refusals happen before any read: milliseconds, whatever the file claims to hold. */
#define REFUSE_LIMIT_S 0.5

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void path_in(char *out, size_t n, const char *dir, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

/* Reads path with max and checks the status, the error's what (substring), errno and the size
 * reported for a file over the limit (-1: none). */
static void expect_read(const char *path, size_t max, arch_status want, const char *what, int want_errno,
                        long long want_size)
{
    void *buf = (void *)&buf;
    size_t len = 12345;
    arch_error err;
    char msg[256];
    double t0 = now_s();
    arch_status s = arch_read_file(path, max, &buf, &len, &err);
    double dt = now_s() - t0;
    printf("%-40s max %-12zu %-18s %s (%.3f s)\n", path, max, arch_status_string(s),
           s == ARCH_OK ? "" : arch_error_format(&err, msg, sizeof msg), dt);
    RU_CHECK(s == want && err.status == s, "%s: %s, want %s", path, arch_status_string(s), arch_status_string(want));
    if (s != ARCH_OK) {
        RU_CHECK(buf == NULL && len == 0, "%s: outputs not cleared on failure", path);
        RU_CHECK(what == NULL || strstr(err.what, what), "%s: what '%s', want '%s'", path, err.what, what);
        RU_CHECK(err.sys_errno == want_errno, "%s: errno %d, want %d", path, err.sys_errno, want_errno);
        RU_CHECK(err.size == want_size && err.offset == -1, "%s: size %lld, offset %lld, want %lld, -1", path,
                 (long long)err.size, (long long)err.offset, want_size);
        RU_CHECK(dt < REFUSE_LIMIT_S, "%s: refused after %.3f s", path, dt);
    }
    free(s == ARCH_OK ? buf : NULL);
}

static void write_file(const char *path, const char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    RU_CHECK(f && fwrite(bytes, 1, n, f) == n && fclose(f) == 0, "write %s", path);
}

static void check_regular(const char *dir)
{
    char p[1024];
    void *buf;
    size_t len;
    arch_error err;

    path_in(p, sizeof p, dir, "hello");
    write_file(p, "hello, world", 12);
    RU_CHECK(arch_read_file(p, 100, &buf, &len, &err) == ARCH_OK && len == 12 && memcmp(buf, "hello, world", 12) == 0,
             "regular file");
    free(buf);
    expect_read(p, 12, ARCH_OK, NULL, 0, -1);                                  /* exactly max bytes */
    expect_read(p, 11, ARCH_ERR_LIMIT, "larger than the limit", 0, 12);       /* one over: its size reported */
    path_in(p, sizeof p, dir, "empty");
    write_file(p, "", 0);
    RU_CHECK(arch_read_file(p, 100, &buf, &len, NULL) == ARCH_OK && buf != NULL && len == 0, "empty file");
    free(buf);
}

/* A 10 GiB sparse file: refused by its size, nothing read or allocated. */
static void check_sparse(const char *dir)
{
    char p[1024];
    path_in(p, sizeof p, dir, "sparse-10g");
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    RU_CHECK(fd >= 0 && ftruncate(fd, (off_t)10 << 30) == 0, "sparse file");
    if (fd >= 0)
        close(fd);
    expect_read(p, (size_t)1 << 30, ARCH_ERR_LIMIT, "larger than the limit", 0, 10737418240LL);
    unlink(p);
}

static void check_special(const char *dir)
{
    char p[1024];
    path_in(p, sizeof p, dir, "fifo");
    unlink(p);
    RU_CHECK(mkfifo(p, 0600) == 0, "mkfifo");
    /* a FIFO without a writer: a blocking open would wait here forever (alarm ends the test) */
    expect_read(p, 1000, ARCH_ERR_UNSUPPORTED, "FIFO", 0, -1);
    unlink(p);
    expect_read("/dev/zero", (size_t)1 << 30, ARCH_ERR_UNSUPPORTED, "character device", 0, -1);
    expect_read(dir, 1000, ARCH_ERR_IO, "read", EISDIR, -1);
    path_in(p, sizeof p, dir, "no-such-file");
    expect_read(p, 1000, ARCH_ERR_IO, "open", ENOENT, -1);

    arch_error err;
    char msg[256];
    void *buf;
    size_t len;
    arch_read_file(p, 1000, &buf, &len, &err);
    RU_CHECK(strcmp(arch_error_format(&err, msg, sizeof msg), "open: No such file or directory") == 0, "message '%s'",
             msg);
    RU_CHECK(arch_read_file(NULL, 1, &buf, &len, &err) == ARCH_ERR_INVALID, "NULL path");
    RU_CHECK(arch_read_file(p, 1, NULL, &len, &err) == ARCH_ERR_INVALID, "NULL buf");
    RU_CHECK(arch_read_fd(-1, 1, &buf, &len, &err) == ARCH_ERR_INVALID, "fd -1");
}

/* arch_read_fd: pipes are read to their end, within max; devices are refused; files as above. */
static void check_fd(const char *dir)
{
    int fds[2];
    char data[100];
    void *buf;
    size_t len;
    arch_error err;

    memset(data, 'x', sizeof data);
    RU_CHECK(pipe(fds) == 0 && write(fds[1], data, sizeof data) == (ssize_t)sizeof data && close(fds[1]) == 0, "pipe");
    RU_CHECK(arch_read_fd(fds[0], 100, &buf, &len, &err) == ARCH_OK && len == 100 && memcmp(buf, data, 100) == 0,
             "pipe of max bytes");
    free(buf);
    close(fds[0]);
    RU_CHECK(pipe(fds) == 0 && write(fds[1], data, sizeof data) == (ssize_t)sizeof data && close(fds[1]) == 0, "pipe");
    RU_CHECK(arch_read_fd(fds[0], 99, &buf, &len, &err) == ARCH_ERR_LIMIT && buf == NULL && len == 0,
             "pipe over max");
    close(fds[0]);
    int z = open("/dev/zero", O_RDONLY);
    RU_CHECK(z >= 0 && arch_read_fd(z, 1000, &buf, &len, &err) == ARCH_ERR_UNSUPPORTED, "/dev/zero as stdin");
    if (z >= 0)
        close(z);
    char p[1024];
    path_in(p, sizeof p, dir, "hello");
    int f = open(p, O_RDONLY);
    RU_CHECK(f >= 0 && arch_read_fd(f, 100, &buf, &len, &err) == ARCH_OK && len == 12, "regular file as stdin");
    free(buf);
    if (f >= 0)
        close(f);
    /* a stdin already partly read: the rest, checked against max as the rest */
    char two[2];
    f = open(p, O_RDONLY);
    RU_CHECK(f >= 0 && read(f, two, 2) == 2, "read 2 bytes");
    RU_CHECK(arch_read_fd(f, 10, &buf, &len, &err) == ARCH_OK && len == 10 && memcmp(buf, "llo, world", 10) == 0,
             "the rest of a partly read file");
    free(buf);
    if (f >= 0)
        close(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <scratch directory>\n", argv[0]);
        return 2;
    }
    /* a read that blocks fails the test instead of hanging it */
    alarm(30);
    mkdir(argv[1], 0700);
    check_regular(argv[1]);
    check_sparse(argv[1]);
    check_special(argv[1]);
    check_fd(argv[1]);
    return ru_finish("arch.file");
}
