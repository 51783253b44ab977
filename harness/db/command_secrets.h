/*
 * Shell commands of the user's (--restart-command, --failover-command) in text that is kept
 * or printed: what looks like a secret in them masked.
 */
#ifndef CLAIMBENCH_COMMAND_SECRETS_H
#define CLAIMBENCH_COMMAND_SECRETS_H

/*
 * command, as a new string (free it), with every secret masked as CONNINFO_MASK: what
 * conninfo_redacted masks (password=, sslpassword=, so PGPASSWORD= too, a URI's password);
 * the value of an assignment to a variable whose name says PWD, PASS, SECRET or TOKEN
 * (MYSQL_PWD=...); the word after an option whose name says one of those (--password X) and
 * the value after its '=' (--token=X); what follows -p in one word (-pX, mysql's password);
 * the credentials after "Authorization:" (a header alone or joined to its option:
 * --header=Authorization:) and after the schemes Bearer, Basic and Token; the value of a
 * header whose name says one of those words (PRIVATE-TOKEN: X, X-Vault-Token: X); the
 * password of a USER:PASSWORD after -u or --user (curl's; sudo -u USER holds none). A value
 * quoted in ' or " is masked to its closing quote. NULL when out of memory.
 */
char *command_redacted(const char *command);

#endif
