/* XML escaping of text, as xml_text.h says. */
#include "output/xml_text.h"

void xml_print_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			putc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s, out);
		}
	}
}
