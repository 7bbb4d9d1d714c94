// SPDX-License-Identifier: GPL-2.0
#include "pi_stress.h"
