#include <string.h>

#include "base/text.h"

void text_clean(char *buf, size_t size, const char *s, size_t max)
{
	size_t i;

	if (!s)
		s = "-";
	for (i = 0; i + 1 < size && i < max && s[i]; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
}

bool text_list_has(const char *list, const char *word)
{
	size_t len = strlen(word), item;

	while (list && *list) {
		item = strcspn(list, ",");
		if (item == len && strncmp(list, word, len) == 0)
			return true;
		list += item;
		list += *list == ',';
	}
	return false;
}
