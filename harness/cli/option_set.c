/* The rows one command line is read with, and the getopt table made from them (option_set.h). */
#include <stdio.h>
#include <string.h>

#include "cli/option_set.h"
#include "plugin/strategy.h"

/* Adds row o to set unless a row of its name is there already. 0, or -1 with err when set is full. */
static int add_row(struct option_set *set, const struct option_def *o, char *err, size_t errlen)
{
	if (option_set_find(set, o->name))
		return 0;
	if (set->n_rows == OPTION_SET_MAX) {
		snprintf(err, errlen, "more than %d options", OPTION_SET_MAX);
		return -1;
	}
	set->longopts[set->n_rows] = (struct option){
		.name = o->name,
		.has_arg = o->type == OPTION_FLAG ? no_argument : required_argument,
		.val = OPTION_CODE(set->n_rows),
	};
	set->rows[set->n_rows++] = o;
	return 0;
}

int option_set_build(struct option_set *set, const struct option_def *table, enum command_id command, char *err,
		     size_t errlen)
{
	memset(set, 0, sizeof(*set));
	for (const struct option_def *o = table; o->name; o++)
		if ((o->commands & COMMAND_BIT(command)) && add_row(set, o, err, errlen) < 0)
			return -1;
	set->n_command_rows = set->n_rows;
	for (size_t i = 0; (command == COMMAND_RUN || command == COMMAND_EXPLORE) && i < strategy_registry_len; i++)
		for (const struct option_def *o = strategy_registry[i]->options; o && o->name; o++)
			if (add_row(set, o, err, errlen) < 0)
				return -1;
	set->longopts[set->n_rows] = (struct option){ .name = "help", .has_arg = no_argument,
						      .val = OPTION_CODE(set->n_rows) };
	for (const struct option_def *o = table; command == COMMAND_EXPLORE && o->name; o++) {
		if (!(o->commands & COMMAND_BIT(COMMAND_RUN)) || (o->commands & COMMAND_BIT(COMMAND_EXPLORE)) ||
		    option_set_find(set, o->name) || option_set_refuses(set, o->name))
			continue;
		if (set->n_refused == OPTION_SET_MAX) {
			snprintf(err, errlen, "more than %d refused options", OPTION_SET_MAX);
			return -1;
		}
		set->longopts[set->n_rows + 1 + set->n_refused] = (struct option){
			.name = o->name,
			.has_arg = o->type == OPTION_FLAG ? no_argument : required_argument,
			.val = OPTION_REFUSED_CODE(set->n_refused),
		};
		set->refused[set->n_refused++] = o;
	}
	return 0;
}

const struct option_def *option_set_refuses(const struct option_set *set, const char *name)
{
	for (size_t i = 0; i < set->n_refused; i++)
		if (strcmp(set->refused[i]->name, name) == 0)
			return set->refused[i];
	return NULL;
}

void option_set_refusal(const struct option_def *o, char *err, size_t errlen)
{
	snprintf(err, errlen, "--%s is run's: explore does not honour it", o->name);
}

const struct option_def *option_set_find(const struct option_set *set, const char *name)
{
	for (size_t i = 0; i < set->n_rows; i++)
		if (strcmp(set->rows[i]->name, name) == 0)
			return set->rows[i];
	return NULL;
}
