/* The subcommands; each returns the process's exit status (enum exit_status). */
#ifndef CLAIMBENCH_COMMANDS_H
#define CLAIMBENCH_COMMANDS_H

/* `claimbench run [options]`. */
int cmd_run(int argc, char **argv);

/* `claimbench list [--help]`. */
int cmd_list(int argc, char **argv);

/* `claimbench history [--results PATH] [--limit N]`. */
int cmd_history(int argc, char **argv);

/* `claimbench show RUN [--results PATH]`. */
int cmd_show(int argc, char **argv);

/* `claimbench export RUN --format csv|json [--results PATH]`. */
int cmd_export(int argc, char **argv);

/* `claimbench compare BASELINE CANDIDATE [--results PATH] [tolerances] [--format table|json]`. */
int cmd_compare(int argc, char **argv);

/* `claimbench report [RUN... | inv:N | --last] [--out DIR] [--results PATH]`. */
int cmd_report(int argc, char **argv);

#endif
