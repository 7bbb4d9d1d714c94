// SPDX-License-Identifier: GPL-2.0
/* Global options and JSON helpers shared by the subcommands (kept out of
 * main.c so the unit tests can link the subcommands). */
#include <stdio.h>

#include "main.h"

bool json_output;
bool pretty_output;
int verbose;
json_writer_t *json_wtr;

void json_begin(void)
{
	if (!json_output)
		return;
	json_wtr = jsonw_new(stdout);
	jsonw_pretty(json_wtr, pretty_output);
}

void json_end(void)
{
	if (json_wtr)
		jsonw_destroy(&json_wtr);
}
