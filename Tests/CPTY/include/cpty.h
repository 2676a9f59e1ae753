#ifndef CPTY_H
#define CPTY_H
#include <sys/types.h>

/// Starts `path` with `argv`/`envp` on a new pseudo-terminal of `rows`×`cols` as its controlling
/// terminal (so that Ctrl-C typed on it sends SIGINT). Returns the child's pid (or -1) and the
/// master side in `*master_fd`.
pid_t cpty_spawn(const char *path, char *const argv[], char *const envp[], int *master_fd,
                 unsigned short rows, unsigned short cols);

#endif
