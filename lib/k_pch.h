/*
 * Precompiled toolkit headers, shared by kscan and kslice.  With the real
 * CUDA headers, most of every parse is the toolkit the driver includes
 * implicitly (__clang_cuda_runtime_wrapper.h and all it pulls in), the
 * same for every unit: it is parsed once into a PCH, kept in the parse
 * cache's work directory, and each unit's parse loads it.
 *
 * The PCH is made from an empty unit parsed with the unit's arguments less
 * those that name files (-I, -isystem, -iquote, -idirafter, -include and
 * their kin), so units that differ only in search paths share one, while
 * language options and macros, which the PCH fixes, stay in its key.  It
 * is addressed by libclang's version and those arguments, and holds the
 * files it was made from with their hashes, checked before use (see
 * k_pcache.h).
 *
 * Needs libclang: lives in libkparse.a.
 */
#ifndef K_PCH_H
#define K_PCH_H

#include <clang-c/Index.h>

#include "k_parse.h"
#include "k_pcache.h"

/*
 * Add "-include-pch FILE" to args when a PCH for them exists or can be
 * made in c (opened for tool "pch"), and the files it was made from to
 * deps (when not NULL); returns 1 then, 0 when args are parsed without
 * one (the cache is off, an argument names the private prelude directory,
 * or the empty unit does not parse cleanly, which is remembered too).
 */
int k_pch_args(CXIndex idx, struct k_pcache *c, struct k_strv *args,
    struct k_strv *deps);

/* k_parse with the PCH for args when there is one (see k_pch_args), and
 * without it when there is none or libclang will not load it. */
/* As k_pch_args, for the unit at path (text, when not NULL, its
 * contents): its PCH also holds the PyTorch stand-in when the unit includes
 * it. */
int k_pch_unit_args(CXIndex idx, struct k_pcache *c, const char *path,
    const char *text, size_t len, struct k_strv *args, struct k_strv *deps);

/*
 * With on set, k_parse_pch's PCH for a unit also holds the toolkit
 * headers the unit includes that can be parsed before it (cub, thrust,
 * cuda_bf16.h...; see k_pch.c): units that include the same ones share
 * it.  k_pch_unit_args never adds them.  Off at start.
 */
void k_pch_hoist(int on);

int k_parse_pch(CXIndex idx, struct k_pcache *c, const char *path,
    const char *text, size_t len, const struct k_strv *args,
    CXTranslationUnit *tu, struct k_strv *deps);

#endif
