/* explore's --show and --expect values (option_explore.h). */
#include <stdio.h>
#include <string.h>

#include "cli/option_explore.h"
#include "cli/option_table.h"

/* The explore options in the command settings at base. */
static struct explore_options *explore_of(void *base)
{
	return &((struct command_settings *)base)->explore;
}

int parse_explore_show(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct explore_options *eo = explore_of(base);

	eo->show = text ? explore_kind_of(text, strlen(text)) : -1;
	if (!text || eo->show >= 0)
		return 0;
	snprintf(err, errlen, "--%s: unknown kind \"%s\" (the kinds of --expect)", o->name, text);
	return -1;
}

void format_explore_show(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct explore_options *eo = &((const struct command_settings *)base)->explore;

	(void)o;
	snprintf(buf, len, "%s", eo->show < 0 ? "" : explore_kind_name(eo->show));
}

int parse_explore_expect(const struct option_def *o, const char *text, void *base, char *err, size_t errlen)
{
	struct explore_options *eo = explore_of(base);

	if (!text) {
		eo->n_expects = 0;
		return 0;
	}
	if (eo->n_expects == EXPLORE_MAX_EXPECTS) {
		snprintf(err, errlen, "--%s: at most %d, got \"%s\" beyond them", o->name, EXPLORE_MAX_EXPECTS, text);
		return -1;
	}
	if (explore_expect_parse(text, &eo->expects[eo->n_expects], err, errlen) < 0)
		return -1;
	eo->n_expects++;
	return 0;
}

void format_explore_expect(const struct option_def *o, const void *base, char *buf, size_t len)
{
	const struct explore_options *eo = &((const struct command_settings *)base)->explore;
	size_t used = 0;

	(void)o;
	buf[0] = '\0';
	for (int i = 0; i < eo->n_expects && used < len; i++) {
		int wrote = snprintf(buf + used, len - used, "%s%s", i ? "; " : "", eo->expects[i].text);

		if (wrote < 0)
			return;
		used += (size_t)wrote;
	}
}
