/* Text put into an XML document (the JUnit files of ab and compare): escaped, well-formed. */
#ifndef CLAIMBENCH_XML_TEXT_H
#define CLAIMBENCH_XML_TEXT_H

#include <stdio.h>

/*
 * Prints s (NULL: nothing) as XML character data or an attribute's value: & < > " '
 * as entities, control characters but tab and newline (which XML 1.0 does not allow) as '?'.
 */
void xml_print_text(FILE *out, const char *s);

#endif
