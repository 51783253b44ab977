/* Text made safe for a terminal or a document cell. */
#ifndef CLAIMBENCH_TEXT_H
#define CLAIMBENCH_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Copies at most max bytes of s into buf (size bytes, truncated to fit), control
 * characters shown as '?'; "-" when s is NULL.
 */
void text_clean(char *buf, size_t size, const char *s, size_t max);

/* True when word is one of the comma-separated items of list (NULL: an empty list). */
bool text_list_has(const char *list, const char *word);

#endif
