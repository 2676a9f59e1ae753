#include "cpty.h"
#include <pty.h>
#include <signal.h>
#include <unistd.h>

pid_t cpty_spawn(const char *path, char *const argv[], char *const envp[], int *master_fd,
                 unsigned short rows, unsigned short cols) {
    struct winsize ws = {0};
    ws.ws_row = rows;
    ws.ws_col = cols;
    pid_t pid = forkpty(master_fd, NULL, NULL, &ws);
    if (pid == 0) {
        // Only async-signal-safe calls between fork and exec.
        signal(SIGINT, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        execve(path, argv, envp);
        _exit(127);
    }
    return pid;
}
