#ifndef VOW_CSTACK_SHIM_H
#define VOW_CSTACK_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stddef.h>
#include <fcntl.h>
#include <unistd.h>

/* The lowest address of the calling thread's stack (which grows down towards it), or 0 when the
   system cannot tell. pthread_getattr_np is a GNU extension that Swift's Glibc module hides. */
static inline size_t vow_stack_lowest(void) {
    pthread_attr_t attr;
    void *base = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
    if (pthread_attr_getstack(&attr, &base, &size) != 0) base = NULL;
    pthread_attr_destroy(&attr);
    return (size_t)base;
}

/* A pipe whose two ends are closed on exec, made in one step (pipe2, which Swift's Glibc module
   hides too), so that a child started by another thread meanwhile inherits neither end. */
static inline int vow_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

/* The environment a child starts with: this process's own. */
static inline char **vow_environment(void) {
    extern char **environ;
    return environ;
}
#endif
