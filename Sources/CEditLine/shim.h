#ifndef VOW_CEDITLINE_SHIM_H
#define VOW_CEDITLINE_SHIM_H
#include <stdio.h>
#include <histedit.h>
#include <editline/readline.h>
#endif
