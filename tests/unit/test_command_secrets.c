/*
 * Unit tests of the secrets in a user's shell commands (db/command_secrets.c, cli/secrets.c):
 * each form a command carries a secret in masked, the rest of the command left as it was;
 * the stored command line masking --restart-command and --failover-command, and the scenario
 * text their keys; and the process's own argv, which `ps` shows, overwritten while the
 * options read the original.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/scenario.h"
#include "cli/secrets.h"
#include "db/command_secrets.h"
#include "temp_file.h"

/* Checks that redacting command gives want. */
static void check_command(const char *command, const char *want)
{
	char *got = command_redacted(command);

	CHECK(got && strcmp(got, want) == 0, "command \"%s\" is stored as \"%s\" (got \"%s\")", command, want,
	      got ? got : "(null)");
	free(got);
}

/* Every form of secret a command carries, quoted and not, and commands that hold none. */
static void test_command_redacted(void)
{
	check_command("MYSQL_PWD=s3cr3t mysql -e 'SELECT 1'", "MYSQL_PWD=*** mysql -e 'SELECT 1'");
	check_command("PGPASSWORD=s3cr3t psql -c 'SELECT pg_promote()'", "PGPASSWORD=*** psql -c 'SELECT pg_promote()'");
	check_command("env API_TOKEN='a b' DB_SECRET=\"x\" run", "env API_TOKEN='***' DB_SECRET=\"***\" run");
	check_command("mysqladmin --password s3cr3t shutdown", "mysqladmin --password *** shutdown");
	check_command("mysqladmin --password=s3cr3t shutdown", "mysqladmin --password=*** shutdown");
	check_command("mysqladmin -ps3cr3t -u root shutdown", "mysqladmin -p*** -u root shutdown");
	check_command("tool --api-token=s3cr3t; tool --pass 's3 cr3t' go", "tool --api-token=***; tool --pass '***' go");
	check_command("curl -H \"Authorization: Bearer s3cr3t\" https://ctl/failover",
		      "curl -H \"Authorization: Bearer ***\" https://ctl/failover");
	check_command("curl -H 'Authorization: Basic czNjcjN0' -X POST x", "curl -H 'Authorization: Basic ***' -X POST x");
	check_command("curl -H 'Authorization: s3cr3t' x", "curl -H 'Authorization: ***' x");
	check_command("curl -H 'Authorization: Token s3cr3t' x", "curl -H 'Authorization: Token ***' x");
	check_command("curl -H 'Authorization: token s3cr3t' x", "curl -H 'Authorization: token ***' x");
	check_command("vault token renew", "vault token renew");
	check_command("curl --header='Authorization: token s3cr3t' x", "curl --header='Authorization: token ***' x");
	check_command("curl -H'Authorization: s3cr3t' x", "curl -H'Authorization: ***' x");
	check_command("curl -H 'PRIVATE-TOKEN: s3cr3t' https://gitlab/api", "curl -H 'PRIVATE-TOKEN: ***' https://gitlab/api");
	check_command("curl -H \"X-Vault-Token: s3cr3t\" x", "curl -H \"X-Vault-Token: ***\" x");
	check_command("echo 'Note: done'", "echo 'Note: done'");
	check_command("curl -u admin:s3cr3t -X POST https://ctl/failover", "curl -u admin:*** -X POST https://ctl/failover");
	check_command("curl --user 'admin:s3cr3t' x; curl --user=admin:s3cr3t x",
		      "curl --user 'admin:***' x; curl --user=admin:*** x");
	check_command("psql 'host=h password=s3cr3t port=5' -c x", "psql 'host=h password=*** port=5' -c x");
	check_command("psql postgresql://u:s3cr3t@h/db -c x", "psql postgresql://u:***@h/db -c x");
	check_command("sudo -u postgres pg_ctl -D /d -m immediate -w restart >/dev/null",
		      "sudo -u postgres pg_ctl -D /d -m immediate -w restart >/dev/null");
	check_command("patronictl failover --force && exit 0", "patronictl failover --force && exit 0");
	check_command("MYSQL_PWD=*** x", "MYSQL_PWD=*** x");
}

/* The stored command line and the process's argv: the commands' secrets masked in both, the options read whole. */
static void test_argv(void)
{
	char a0[] = "claimbench", a1[] = "run", a2[] = "--restart-command", a3[] = "MYSQL_PWD=s3cr3t1 restart",
	     a4[] = "--failover-command=curl -H 'Authorization: Bearer s3cr3t2' x", a5[] = "--db",
	     a6[] = "host=h password=s3cr3t3";
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, NULL };
	char *line;

	check_need(secrets_hide_argv(7, argv) == 0, "secrets_hide_argv");
	CHECK(strcmp(a3, "MYSQL_PWD=*** restart    ") == 0, "--restart-command's value as ps shows it: \"%s\"", a3);
	CHECK(strcmp(a4, "--failover-command=curl -H 'Authorization: Bearer ***' x    ") == 0,
	      "--failover-command=VALUE as ps shows it: \"%s\"", a4);
	CHECK(!strstr(a6, "s3cr3t"), "--db's value as ps shows it: \"%s\"", a6);
	CHECK(strcmp(argv[3], "MYSQL_PWD=s3cr3t1 restart") == 0 &&
	      strcmp(argv[4], "--failover-command=curl -H 'Authorization: Bearer s3cr3t2' x") == 0,
	      "the options read the commands whole: \"%s\", \"%s\"", argv[3], argv[4]);
	line = secrets_command_line(7, argv);
	check_need(line != NULL, "secrets_command_line");
	CHECK(!strstr(line, "s3cr3t") && strstr(line, "--restart-command MYSQL_PWD=*** restart") &&
	      strstr(line, "--failover-command=curl -H 'Authorization: Bearer ***' x"),
	      "the stored command line masks both commands' secrets: \"%s\"", line);
	free(line);
	for (int i = 2; i < 7; i++)
		if (argv[i] != a2 && argv[i] != a5)
			free(argv[i]);
}

/* An option abbreviated as getopt_long takes it: its value masked all the same. */
static void test_abbreviated(void)
{
	char a0[] = "claimbench", a1[] = "--restart-comm", a2[] = "PGPASSWORD=s3cr3t x", a3[] = "--failover-c=-ps3cr3t";
	char *argv[] = { a0, a1, a2, a3, NULL };

	check_need(secrets_hide_argv(4, argv) == 0, "secrets_hide_argv");
	CHECK(!strstr(a2, "s3cr3t") && !strstr(a3, "s3cr3t"), "--restart-comm VALUE and --failover-c=VALUE as ps "
	      "shows them: \"%s\", \"%s\"", a2, a3);
	free(argv[2]);
	free(argv[3]);
}

/* A scenario's restart-command and failover-command keys: their secrets masked in the text kept with the runs. */
static void test_scenario_keys(void)
{
	const char *path = temp_file_write("command-secrets", "[global]\nrestart-command = MYSQL_PWD=s3cr3t1 restart\n"
					   "failover-command = curl -H 'Authorization: Bearer s3cr3t2' x\njobs = 5\n");
	struct scenario sc = { 0 };
	char err[256] = "";

	check_need(scenario_load(path, &sc, err, sizeof(err)) == 0, "scenario_load");
	check_need(secrets_mask_scenario(&sc) == 0, "secrets_mask_scenario");
	CHECK(!strstr(sc.text, "s3cr3t") && strstr(sc.text, "restart-command = MYSQL_PWD=*** restart\n") &&
	      strstr(sc.text, "failover-command = curl -H 'Authorization: Bearer ***' x\njobs = 5"),
	      "the scenario text as kept has both keys' secrets masked (%zu bytes)", strlen(sc.text));
	scenario_free(&sc);
	unlink(path);
}

int main(void)
{
	test_command_redacted();
	test_argv();
	test_abbreviated();
	test_scenario_keys();
	return check_exit_status();
}
