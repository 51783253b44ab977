/* Connection strings in text that is kept or printed: their secrets masked. */
#ifndef CLAIMBENCH_CONNINFO_H
#define CLAIMBENCH_CONNINFO_H

#include <stdbool.h>

/* What a masked secret reads as. */
#define CONNINFO_MASK "***"

/*
 * conninfo (a --db text: a libpq conninfo or URI, or a backend's prefix and its target) as
 * a new string (free it) in key=value form after the prefix, with password and sslpassword
 * masked; the prefix and "***" when libpq cannot parse it; as it is when its backend's
 * target is no conninfo (backend_ops.target_libpq_form NULL: sqlite:PATH) or is the prefix
 * alone. NULL when out of memory.
 */
char *conninfo_masked(const char *conninfo);

/*
 * Whether libpq can parse conninfo (a --db text, read as conninfo_masked reads it; true
 * when its target is no conninfo); its message, which may quote a password, is dropped.
 */
bool conninfo_parses(const char *conninfo);

/* Masks in text, in place, every occurrence of the passwords that conninfo holds. */
void conninfo_scrub(char *text, const char *conninfo);

/*
 * text, as a new string (free it), with what looks like a password masked: the value of
 * password= or sslpassword= (blanks around '=' allowed, the key in any case or
 * percent-encoded) and the password of a URI's user:password@, each as CONNINFO_MASK
 * whatever its length. Already masked text is left as it is. NULL when out of memory.
 */
char *conninfo_redacted(const char *text);

#endif
