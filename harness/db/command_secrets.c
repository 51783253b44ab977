#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/command_secrets.h"
#include "db/conninfo.h"

/* Bytes that end a value not quoted: a blank, a quote, or what ends a shell command. */
#define VALUE_END " \t\n'\";&|)`"

/* A copy of a command being written with its secrets masked. */
struct redaction {
	const char *in;	/* the command */
	size_t at;	/* how far it is read */
	char *out;	/* the copy, allocated for the worst case: each byte of a secret becomes CONNINFO_MASK */
	size_t len;	/* bytes written */
	bool user_next;	/* the word read next is the value of -u or --user, curl's USER:PASSWORD */
};

/* Whether the n bytes at name say a secret: PWD, PASS, SECRET or TOKEN in them, in any case. */
static bool says_secret(const char *name, size_t n)
{
	static const char *const words[] = { "pwd", "pass", "secret", "token" };

	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		size_t len = strlen(words[w]);

		for (size_t i = 0; i + len <= n; i++)
			if (strncasecmp(name + i, words[w], len) == 0)
				return true;
	}
	return false;
}

/* Whether the n bytes at word are word, in any case. */
static bool is_word(const char *text, size_t n, const char *word)
{
	return n == strlen(word) && strncasecmp(text, word, n) == 0;
}

/*
 * Whether the n bytes at word end with "Authorization:", in any case: a header alone or
 * joined to its option (--header=Authorization:, -H'Authorization:).
 */
static bool ends_authorization(const char *word, size_t n)
{
	size_t len = strlen("Authorization:");

	return n >= len && strncasecmp(word + n - len, "Authorization:", len) == 0;
}

/*
 * Whether the n bytes at word, the word after "Authorization:", are a scheme whose
 * credentials follow it: Bearer, Basic or Token (GitHub's); another word there is the
 * credentials.
 */
static bool is_scheme(const char *word, size_t n)
{
	return is_word(word, n, "Bearer") || is_word(word, n, "Basic") || is_word(word, n, "Token");
}

/* Copies the command's bytes up to until as they are. */
static void copy_to(struct redaction *r, size_t until)
{
	memcpy(r->out + r->len, r->in + r->at, until - r->at);
	r->len += until - r->at;
	r->at = until;
}

/*
 * Masks the value that starts where the command is read: to its closing quote (kept) when
 * it opens with ' or ", else to a byte of VALUE_END. Empty or already masked: copied.
 */
static void mask_value(struct redaction *r)
{
	const char *v = r->in + r->at;
	size_t start = r->at, end;

	if (*v == '\'' || *v == '"') {
		const char *close = strchr(v + 1, *v);

		start++;
		end = close ? (size_t)(close - r->in) : strlen(r->in);
	} else {
		end = r->at + strcspn(v, VALUE_END);
	}
	copy_to(r, start);
	if (end > start && !(end - start == strlen(CONNINFO_MASK) &&
			     strncmp(r->in + start, CONNINFO_MASK, end - start) == 0)) {
		memcpy(r->out + r->len, CONNINFO_MASK, strlen(CONNINFO_MASK));
		r->len += strlen(CONNINFO_MASK);
		r->at = end;
	}
}

/*
 * Reads the word at the command's read position (leading quotes and '(' copied), masking
 * what the rules of command_redacted mask in it. *mask_next: the word after it is a secret
 * (on entry: this one is, unless it names an authorization scheme); r->user_next: the word
 * after it is a USER:PASSWORD (on entry: this one is).
 */
static void redact_word(struct redaction *r, bool *mask_next)
{
	size_t w = r->at + strspn(r->in + r->at, "'\"("), wend = r->at + strcspn(r->in + r->at, " \t\n");
	const char *word = r->in + w, *eq = memchr(word, '=', wend > w ? wend - w : 0);
	size_t n = wend > w ? wend - w : 0, name = eq ? (size_t)(eq - word) : n;

	if (r->user_next || (eq && is_word(word, name, "--user"))) {
		const char *from = r->user_next ? word : eq + 1, *colon = memchr(from, ':', (size_t)(word + n - from));

		r->user_next = false;
		if (colon) {
			copy_to(r, (size_t)(colon - r->in) + 1);
			mask_value(r);
		}
	} else if (is_word(word, n, "-u") || is_word(word, n, "--user")) {
		r->user_next = true;
	} else if (*mask_next) {
		*mask_next = is_scheme(word, n);
		if (!*mask_next)
			mask_value(r);
	} else if (word[0] == '-' && says_secret(word, name)) {
		if (eq) {
			copy_to(r, (size_t)(eq - r->in) + 1);
			mask_value(r);
		} else {
			*mask_next = true;
		}
	} else if (word[0] == '-' && word[1] == 'p' && n > 2) {
		copy_to(r, w + 2);
		mask_value(r);
	} else if (eq && name && (isalpha((unsigned char)word[0]) || word[0] == '_') &&
		   strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == name &&
		   says_secret(word, name)) {
		copy_to(r, (size_t)(eq - r->in) + 1);
		mask_value(r);
	} else if (ends_authorization(word, n) || (n > 1 && word[n - 1] == ':' && says_secret(word, n)) ||
		   is_word(word, n, "Bearer") || is_word(word, n, "Basic")) {
		*mask_next = true;
	}
	if (r->at < wend)
		copy_to(r, r->at + strcspn(r->in + r->at, " \t\n"));
}

char *command_redacted(const char *command)
{
	char *keywords = conninfo_redacted(command);
	struct redaction r = { .in = keywords };
	bool mask_next = false;

	if (!keywords)
		return NULL;
	r.out = malloc(strlen(keywords) * strlen(CONNINFO_MASK) + 1);
	if (!r.out) {
		free(keywords);
		return NULL;
	}
	while (keywords[r.at]) {
		if (isspace((unsigned char)keywords[r.at]))
			copy_to(&r, r.at + 1);
		else
			redact_word(&r, &mask_next);
	}
	r.out[r.len] = '\0';
	free(keywords);
	return r.out;
}
