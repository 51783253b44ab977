/* The --help text (and the man page's) of option rows: each row's name, value, help and default, wrapped. */
#ifndef CLAIMBENCH_OPTION_HELP_H
#define CLAIMBENCH_OPTION_HELP_H

#include <stdio.h>

#include "cli/option_set.h"
#include "model/option.h"

/* Prints row o for --help: "  --name ARG", its help and its default, wrapped. */
void option_print(FILE *out, const struct option_def *o);

/* Prints set's options for --help: the command's rows, then each strategy's under its name. */
void option_set_print(const struct option_set *set, FILE *out);

#endif
