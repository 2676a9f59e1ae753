#ifndef VOW_CEDITLINE_SHIM_H
#define VOW_CEDITLINE_SHIM_H
#include <stdio.h>
#include <histedit.h>
#include <editline/readline.h>

/* Accessors for libedit's global variables, which Swift 6 cannot touch directly. They are only
   used from the REPL's thread. */

/* Names the program, leaves signals to vow, and installs the completion function. */
static inline void vow_rl_setup(rl_completion_func_t *completion) {
    rl_readline_name = "vow";
    rl_catch_signals = 0;
    rl_attempted_completion_function = completion;
}

/* The line being edited (never NULL). */
static inline const char *vow_rl_line_buffer(void) {
    return rl_line_buffer ? rl_line_buffer : "";
}

/* Tells libedit not to fall back to file-name completion. */
static inline void vow_rl_completion_over(void) {
    rl_attempted_completion_over = 1;
}
/* What libedit puts after a word it completed whole: a space, or nothing (`\0`), so that a
   variable can go on with `.` */
static inline void vow_rl_append_after_completion(int c) {
    rl_completion_append_character = c;
}
#endif
