#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"

char text_clean_char(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f ? '?' : c;
}

void text_clean(char *buf, size_t size, const char *s, size_t max)
{
	size_t i;

	if (!s)
		s = "-";
	for (i = 0; i + 1 < size && i < max && s[i]; i++)
		buf[i] = text_clean_char(s[i]);
	buf[i] = '\0';
}

void text_clip(char *buf, size_t size, const char *s)
{
	text_clean(buf, size, s, SIZE_MAX);
	if (s && strlen(s) >= size)
		memcpy(buf + size - 4, "...", 3);
}

const char *text_list_next(const char **cursor, size_t *len)
{
	const char *item = *cursor;

	if (!item || !*item)
		return NULL;
	*len = strcspn(item, ",");
	*cursor = item + *len + (item[*len] == ',');
	return item;
}

bool text_list_has(const char *list, const char *word)
{
	size_t len = strlen(word), item_len;

	for (const char *item; (item = text_list_next(&list, &item_len));)
		if (item_len == len && strncmp(item, word, len) == 0)
			return true;
	return false;
}

void text_list_append_id(char *text, size_t len, size_t id)
{
	size_t used = strlen(text);
	char item[24];

	if (used >= 3 && strcmp(text + used - 3, "...") == 0)
		return;
	snprintf(item, sizeof(item), "%s%zu", used ? " " : "", id);
	if (used + strlen(item) + 5 > len)
		snprintf(text + used, len - used, "%s...", used ? " " : "");
	else
		snprintf(text + used, len - used, "%s", item);
}
