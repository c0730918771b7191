/* extract.h — finds the kernel in a model's free-text reply: its fenced code
 * blocks (```cuda ... ```), as written by chat models. Used by the llm backend;
 * anything else that turns prose into a candidate source should use it too. */
#ifndef CUA_EXTRACT_H
#define CUA_EXTRACT_H

#include "common.h"

/* The kernel in `reply` (NUL-terminated; NULL is treated as ""), as a heap
 * string the caller frees, or NULL with a one-sentence reason in note.
 *
 * Fences follow CommonMark: a line of at most 3 spaces of indentation and 3 or
 * more backticks (or tildes) opens a block, with an optional info string whose
 * first word is the language tag; the block closes at a line of the same
 * character, at least as many of them, and nothing else but whitespace. The
 * opening fence's indentation is removed from the content lines; CRLF line ends
 * become LF. The chosen block:
 *   1. the last block that defines cua_solve (`cua_solve(...) {`), whatever its tag;
 *   2. else the last block tagged cuda, cu, cuh, cpp, c++, cxx, cc, c, h, hpp or
 *      untagged (case-insensitive);
 *   3. else the last block.
 * A block still open at the end of the reply is not a block (the reply was
 * probably cut off): the note then says so. Returns NULL with a note also when
 * there is no block at all ("the reply had no fenced code block"), and when
 * out of memory. note may be NULL. */
char *cua_extract_code(const char *reply, char *note, size_t notelen);

/* True when `src` defines cua_solve: the identifier, a parenthesised parameter
 * list, then `{` (comments and whitespace between are skipped). A declaration
 * or a call does not count. */
bool cua_extract_defines_solve(const char *src, size_t len);

#endif /* CUA_EXTRACT_H */
