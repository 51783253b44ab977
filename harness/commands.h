/* The subcommands; each returns the process's exit status (enum exit_status). */
#ifndef CLAIMBENCH_COMMANDS_H
#define CLAIMBENCH_COMMANDS_H

/* `claimbench run [options]`. */
int cmd_run(int argc, char **argv);

/* `claimbench list [--help]`. */
int cmd_list(int argc, char **argv);

#endif
