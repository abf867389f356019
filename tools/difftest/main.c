// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * uvfs-difftest - see difftest.h and `uvfs-difftest --help`.
 */
#include "difftest.h"

int main(int argc, char **argv)
{
	return difftest_main(argc, argv);
}
