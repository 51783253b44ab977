/* Text made safe for a terminal or a document cell. */
#ifndef CLAIMBENCH_TEXT_H
#define CLAIMBENCH_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* c as a terminal may show it: a control character (a newline included) as '?', else c. */
char text_clean_char(char c);

/*
 * Copies at most max bytes of s into buf (size bytes, truncated to fit), control
 * characters shown as '?'; "-" when s is NULL.
 */
void text_clean(char *buf, size_t size, const char *s, size_t max);

/*
 * Copies s into buf (size bytes, at least 4) as text_clean does; when s does not fit, it
 * is cut and its last three characters shown are "...". "-" when s is NULL.
 */
void text_clip(char *buf, size_t size, const char *s);

/*
 * The next item of the comma-separated list at *cursor (NULL: an empty list): its start,
 * its length in *len, and *cursor moved past it and its comma. NULL when none is left.
 */
const char *text_list_next(const char **cursor, size_t *len);

/* True when word is one of the comma-separated items of list (NULL: an empty list). */
bool text_list_has(const char *list, const char *word);

/* Appends id to the space-separated list text of len bytes; "..." once it is full (and nothing after). */
void text_list_append_id(char *text, size_t len, size_t id);

#endif
