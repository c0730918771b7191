/* html.h — what every page of the HTML board shares: its frame, one stylesheet
 * and one script written beside the pages (board.css, board.js: sortable tables,
 * the CUDA/C highlighter, the diff between two turns' sources), and file names
 * made from ids. Everything a run holds is untrusted: pages write it only as
 * escaped text (cua_fput_esc, CUA_ESC_HTML), and the script reads text and
 * makes text nodes, never markup, so no source or message can run in a page. */
#ifndef CUA_HTML_H
#define CUA_HTML_H

#include "common.h"

/* Writes DIR/board.css and DIR/board.js (DIR exists). */
enum cua_status cua_html_write_assets(const char *dir, char *err, size_t errlen);

/* The page up to <body>: title escaped; `up` is the way from the page's folder
 * to the board's top ("", "../", "../../"), where the assets are. */
void cua_html_head(FILE *f, const char *title, const char *up);

/* The script and the end of the page. */
void cua_html_tail(FILE *f, const char *up);

/* A file or folder name for an id: [A-Za-z0-9._-] kept, anything else '-', a
 * leading '.' made '-' (no hidden file, no ".."), cut to fit len. */
void cua_html_file_name(const char *id, char *buf, size_t len);

/* Opens DIR/NAME for writing; NULL with err naming the path on failure. */
FILE *cua_html_open(const char *dir, const char *name, char *err, size_t errlen);

/* Closes f; CUA_E_IO naming DIR/NAME when anything of it failed to be written. */
enum cua_status cua_html_close(FILE *f, const char *dir, const char *name, char *err,
                               size_t errlen);

#endif /* CUA_HTML_H */
