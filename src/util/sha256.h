/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/* SHA-256 (FIPS 180-4), for the script digest in the results. */
#ifndef FBRUN_SHA256_H
#define FBRUN_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Hex digest (64 characters and a NUL) of len bytes at data. */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
