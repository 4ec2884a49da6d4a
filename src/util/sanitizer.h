/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The fbrun authors */
/*
 * Which sanitizer the build has, for the code that must act otherwise
 * under one: FBRUN_ASAN for AddressSanitizer, FBRUN_TSAN for
 * ThreadSanitizer (gcc says so with __SANITIZE_*__, clang with
 * __has_feature).
 */
#ifndef FBRUN_SANITIZER_H
#define FBRUN_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define FBRUN_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define FBRUN_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(FBRUN_ASAN)
#define FBRUN_ASAN 1
#endif
#if __has_feature(thread_sanitizer) && !defined(FBRUN_TSAN)
#define FBRUN_TSAN 1
#endif
#endif

#endif
