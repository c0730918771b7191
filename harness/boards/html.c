/* html.c — the HTML board's frame, its stylesheet and script, and file names
 * (html.h). The script is plain JavaScript with no library (nothing newer than
 * typed arrays and String.endsWith): it runs from file:// in any current browser,
 * with no network. */
#include "boards/html.h"
#include "results/results.h"

#include <errno.h>
#include <string.h>

static const char css[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;\n"
	"  margin:2em auto;max-width:1200px;padding:0 1em;color:#1d2330;background:#fff}\n"
	"h1{font-size:1.6em;margin:.2em 0}\n"
	"h2{font-size:1.2em;margin-top:2em}\n"
	"p.note{color:#555;max-width:60em}\n"
	"table{border-collapse:collapse;margin:1em 0;min-width:60%}\n"
	"th,td{padding:.35em .7em;border-bottom:1px solid #dde1e8;text-align:left;white-space:nowrap}\n"
	"table.sortable th{cursor:pointer;user-select:none}\n"
	"th{background:#f3f5f9;font-weight:600}\n"
	"table.sortable th:hover{background:#e6eaf2}\n"
	"th[aria-sort=ascending]::after{content:' \\25B2'}\n"
	"th[aria-sort=descending]::after{content:' \\25BC'}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tbody tr:nth-child(even){background:#fafbfd}\n"
	"tr.win,tr.best{background:#e9f7ee !important}\n"
	"small{color:#667}\n"
	".ok{color:#17803d;font-weight:600}\n"
	".bad{color:#b42318;font-weight:600}\n"
	".na{color:#889}\n"
	"a{color:#1f5fbf;text-decoration:none}\n"
	"a:hover{text-decoration:underline}\n"
	"details{margin:.6em 0;border:1px solid #dde1e8;border-radius:6px;padding:.4em .8em}\n"
	"summary{cursor:pointer;font-weight:600}\n"
	"pre{background:#f6f8fa;padding:.8em;overflow:auto;\n"
	"  font:13px/1.4 'DejaVu Sans Mono',monospace;max-height:40em}\n"
	"pre.text{white-space:pre-wrap;word-break:break-word}\n"
	"table.facts{min-width:0}\n"
	"table.facts th{background:none;width:11em}\n"
	"table.facts td{white-space:normal}\n"
	"table.facts.wide td{white-space:nowrap}\n"
	"section.turn{border-top:2px solid #dde1e8;margin-top:2em;padding-top:.2em}\n"
	"section.turn table.facts{min-width:60%}\n"
	"pre{tab-size:4}\n"
	"section.turn.best{border-top-color:#17803d}\n"
	".badge{display:inline-block;font-size:.75em;padding:.1em .5em;border-radius:1em;\n"
	"  background:#17803d;color:#fff;vertical-align:middle;margin-left:.4em}\n"
	".c{color:#6a737d;font-style:italic}\n"
	".s{color:#22863a}\n"
	".p{color:#b35900}\n"
	".n{color:#005cc5}\n"
	".k{color:#a626a4;font-weight:600}\n"
	".t{color:#0b7285}\n"
	".b{color:#c2410c}\n"
	"pre.diff span{display:block}\n"
	".add{background:#e6ffec}\n"
	".del{background:#ffebe9}\n"
	".hunk{color:#6a737d;background:#f1f3f6}\n";

/* The one script of every page. Sorting is what the board had; highlighting and
 * diffs read a <code>'s textContent and put back text nodes and spans, so what
 * they show is the text the page holds, never markup made from it. */
static const char js[] =
	"'use strict';\n"
	"/* Sortable tables: click a header (ascending, then descending). Cells sort by\n"
	"   data-v when present (numbers numerically; empty values last), else by text.\n"
	"   PAGE#sort=N[-desc] sorts the first table by column N on load. */\n"
	"function cuaSort(table, col, asc) {\n"
	"  var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
	"  var ths = table.tHead.rows[0].cells;\n"
	"  for (var i = 0; i < ths.length; i++) ths[i].removeAttribute('aria-sort');\n"
	"  ths[col].setAttribute('aria-sort', asc ? 'ascending' : 'descending');\n"
	"  function key(r) { var c = r.cells[col];\n"
	"    return c.hasAttribute('data-v') ? c.getAttribute('data-v') : c.textContent.trim(); }\n"
	"  rows.sort(function (a, b) {\n"
	"    var x = key(a), y = key(b);\n"
	"    if (x === '' || y === '') return (x === '') - (y === '');\n"
	"    var nx = Number(x), ny = Number(y);\n"
	"    var d = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);\n"
	"    return asc ? d : -d;\n"
	"  });\n"
	"  rows.forEach(function (r) { body.appendChild(r); });\n"
	"}\n"
	"document.querySelectorAll('table.sortable').forEach(function (table) {\n"
	"  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {\n"
	"    th.addEventListener('click', function () {\n"
	"      cuaSort(table, col, th.getAttribute('aria-sort') !== 'ascending');\n"
	"    });\n"
	"  });\n"
	"});\n"
	"var m = /sort=(\\d+)(-desc)?/.exec(location.hash);\n"
	"var first = document.querySelector('table.sortable');\n"
	"if (m && first && +m[1] < first.tHead.rows[0].cells.length)\n"
	"  cuaSort(first, +m[1], !m[2]);\n"
	"\n"
	"/* Everything below reads text (textContent) and writes text nodes and spans:\n"
	"   a kernel's source is data, never markup. */\n"
	"function cuaSpan(cls, text) {\n"
	"  var s = document.createElement('span');\n"
	"  s.className = cls;\n"
	"  s.textContent = text;\n"
	"  return s;\n"
	"}\n"
	"\n"
	"/* CUDA/C highlighting: comments, strings, preprocessor lines, numbers,\n"
	"   keywords, types and CUDA's built-ins, each a span of its class. */\n"
	"var cuaWords = {};\n"
	"[['k', 'auto break case catch class const constexpr continue default delete do else ' +\n"
	"  'enum explicit extern false for friend goto if inline mutable namespace new noexcept ' +\n"
	"  'nullptr operator private protected public register restrict return sizeof static ' +\n"
	"  'static_assert static_cast reinterpret_cast const_cast dynamic_cast struct switch ' +\n"
	"  'template this throw true try typedef typename union using virtual volatile while ' +\n"
	"  'decltype alignas alignof __global__ __device__ __host__ __shared__ __constant__ ' +\n"
	"  '__managed__ __restrict__ __forceinline__ __noinline__ __launch_bounds__ ' +\n"
	"  '__grid_constant__ asm __asm__'],\n"
	" ['t', 'void char short int long float double signed unsigned bool size_t ptrdiff_t ' +\n"
	"  'int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uintptr_t half ' +\n"
	"  '__half half2 __half2 __nv_bfloat16 __nv_bfloat162 float2 float3 float4 double2 ' +\n"
	"  'double4 int2 int3 int4 uint2 uint4 char4 uchar4 longlong2 dim3 cudaStream_t ' +\n"
	"  'cudaError_t cudaEvent_t cua_tensor cua_dtype'],\n"
	" ['b', 'threadIdx blockIdx blockDim gridDim warpSize __syncthreads __syncwarp ' +\n"
	"  '__threadfence __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync ' +\n"
	"  '__ballot_sync __any_sync __all_sync __ldg __ldcs __ldcg __ldca __ldlu __stcs __stcg ' +\n"
	"  '__stwt __fmaf_rn __fdividef __expf __logf __sinf __cosf __powf atomicAdd atomicMax ' +\n"
	"  'atomicMin atomicCAS atomicExch cua_solve cua_numel cudaGetLastError ' +\n"
	"  'cudaMemcpyAsync cudaMemsetAsync']\n"
	"].forEach(function (g) {\n"
	"  g[1].split(' ').forEach(function (w) { cuaWords[w] = g[0]; });\n"
	"});\n"
	"var cuaToken = new RegExp([\n"
	"  /* 1 a comment, to the end of the source when it is not closed */\n"
	"  /(\\/\\/[^\\n]*|\\/\\*[\\s\\S]*?(?:\\*\\/|$(?![\\s\\S])))/,\n"
	"  /* 2 a string or character literal */\n"
	"  /(\"(?:[^\"\\\\\\n]|\\\\[\\s\\S])*\"?|'(?:[^'\\\\\\n]|\\\\[\\s\\S])*'?)/,\n"
	"  /* 3 a preprocessor line */\n"
	"  /(^[ \\t]*#[^\\n]*)/,\n"
	"  /* 4 a number: hex, decimal, exponent, suffixes, digit separators */\n"
	"  /((?:0[xX][0-9a-fA-F']+|(?:\\d[\\d']*\\.?[\\d']*|\\.\\d+)(?:[eE][+-]?\\d+)?)[uUlLfF]*)/,\n"
	"  /* 5 a word: coloured when it is a keyword, a type or a CUDA built-in */\n"
	"  /([A-Za-z_]\\w*)/\n"
	"].map(function (r) { return r.source; }).join('|'), 'gm');\n"
	"function cuaHighlight(code) {\n"
	"  var text = code.textContent, out = document.createDocumentFragment(), at = 0, mt;\n"
	"  cuaToken.lastIndex = 0;\n"
	"  while ((mt = cuaToken.exec(text)) !== null) {\n"
	"    if (mt[0] === '') { cuaToken.lastIndex++; continue; }\n"
	"    var cls = mt[1] ? 'c' : mt[2] ? 's' : mt[3] ? 'p' : mt[4] ? 'n' : cuaWords[mt[5]];\n"
	"    if (!cls) continue;\n"
	"    if (mt.index > at) out.appendChild(document.createTextNode(text.slice(at, mt.index)));\n"
	"    out.appendChild(cuaSpan(cls, mt[0]));\n"
	"    at = mt.index + mt[0].length;\n"
	"  }\n"
	"  if (at < text.length) out.appendChild(document.createTextNode(text.slice(at)));\n"
	"  code.textContent = '';\n"
	"  code.appendChild(out);\n"
	"  code.classList.add('hl');\n"
	"}\n"
	"document.querySelectorAll('code.src').forEach(cuaHighlight);\n"
	"\n"
	"/* Line diffs between two turns' sources: the longest common subsequence of\n"
	"   lines (common head and tail cut first), shown as hunks with 3 lines of\n"
	"   context. Sources too large for the table (over 4e6 line pairs) are shown as\n"
	"   replaced whole. */\n"
	"function cuaDiff(a, b) {\n"
	"  var s = 0, ea = a.length, eb = b.length, ops = [], i, j;\n"
	"  while (s < ea && s < eb && a[s] === b[s]) s++;\n"
	"  while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) { ea--; eb--; }\n"
	"  for (i = 0; i < s; i++) ops.push([' ', a[i]]);\n"
	"  var n = ea - s, w = eb - s + 1;\n"
	"  if (n * w > 4e6) {\n"
	"    for (i = s; i < ea; i++) ops.push(['-', a[i]]);\n"
	"    for (j = s; j < eb; j++) ops.push(['+', b[j]]);\n"
	"  } else {\n"
	"    var L = new Uint32Array((n + 1) * w);\n"
	"    for (i = n - 1; i >= 0; i--)\n"
	"      for (j = w - 2; j >= 0; j--)\n"
	"        L[i * w + j] = a[s + i] === b[s + j] ? L[(i + 1) * w + j + 1] + 1\n"
	"                     : Math.max(L[(i + 1) * w + j], L[i * w + j + 1]);\n"
	"    i = 0; j = 0;\n"
	"    while (i < n || j < w - 1) {\n"
	"      if (i < n && j < w - 1 && a[s + i] === b[s + j]) {\n"
	"        ops.push([' ', a[s + i]]); i++; j++;\n"
	"      } else if (i < n && (j === w - 1 || L[(i + 1) * w + j] >= L[i * w + j + 1])) {\n"
	"        ops.push(['-', a[s + i]]); i++;\n"
	"      } else {\n"
	"        ops.push(['+', b[s + j]]); j++;\n"
	"      }\n"
	"    }\n"
	"  }\n"
	"  for (i = ea; i < a.length; i++) ops.push([' ', a[i]]);\n"
	"  return ops;\n"
	"}\n"
	"function cuaLines(el) {\n"
	"  var t = el.textContent;\n"
	"  if (t.endsWith('\\n')) t = t.slice(0, -1);\n"
	"  return t === '' ? [] : t.split('\\n');\n"
	"}\n"
	"function cuaSkipped(k) {\n"
	"  return cuaSpan('hunk', '\\u22ef ' + k + ' unchanged line' + (k === 1 ? '' : 's'));\n"
	"}\n"
	"function cuaShowDiff(box) {\n"
	"  var from = document.getElementById(box.getAttribute('data-from'));\n"
	"  var to = document.getElementById(box.getAttribute('data-to'));\n"
	"  var pre = box.querySelector('pre'), sum = box.querySelector('.count');\n"
	"  if (!from || !to || !pre) return;\n"
	"  var ops = cuaDiff(cuaLines(from), cuaLines(to)), add = 0, del = 0, last = -1, k;\n"
	"  var keep = ops.map(function () { return false; });\n"
	"  ops.forEach(function (o, x) {\n"
	"    if (o[0] === ' ') return;\n"
	"    if (o[0] === '+') add++; else del++;\n"
	"    for (k = Math.max(0, x - 3); k <= Math.min(ops.length - 1, x + 3); k++)\n"
	"      keep[k] = true;\n"
	"  });\n"
	"  ops.forEach(function (o, x) {\n"
	"    if (!keep[x]) return;\n"
	"    if (x !== last + 1) pre.appendChild(cuaSkipped(x - last - 1));\n"
	"    var cls = o[0] === '+' ? 'add' : o[0] === '-' ? 'del' : 'ctx';\n"
	"    pre.appendChild(cuaSpan(cls, o[0] + ' ' + o[1]));\n"
	"    last = x;\n"
	"  });\n"
	"  if (last >= 0 && last < ops.length - 1)\n"
	"    pre.appendChild(cuaSkipped(ops.length - 1 - last));\n"
	"  if (!add && !del) pre.appendChild(cuaSpan('hunk', 'the same source'));\n"
	"  if (sum) sum.textContent = '+' + add + ' \\u2212' + del;\n"
	"}\n"
	"document.querySelectorAll('.diff[data-from]').forEach(cuaShowDiff);\n";

static enum cua_status write_asset(const char *dir, const char *name, const char *text,
                                   char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return cua_write_file(path, text, strlen(text), err, errlen);
}

enum cua_status cua_html_write_assets(const char *dir, char *err, size_t errlen)
{
	enum cua_status st = write_asset(dir, "board.css", css, err, errlen);
	if (st == CUA_OK)
		st = write_asset(dir, "board.js", js, err, errlen);
	return st;
}

void cua_html_head(FILE *f, const char *title, const char *up)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", f);
	cua_fput_esc(f, title, CUA_ESC_HTML);
	fprintf(f, "</title>\n<link rel=\"stylesheet\" href=\"%sboard.css\">\n</head>\n<body>\n",
	        up);
}

void cua_html_tail(FILE *f, const char *up)
{
	fprintf(f, "<script src=\"%sboard.js\"></script>\n</body>\n</html>\n", up);
}

void cua_html_file_name(const char *id, char *buf, size_t len)
{
	snprintf(buf, len, "%s", id);
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			*p = '-';
	if (buf[0] == '.')
		buf[0] = '-';
}

FILE *cua_html_open(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		cua_errf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	return f;
}

enum cua_status cua_html_close(FILE *f, const char *dir, const char *name, char *err,
                               size_t errlen)
{
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		cua_errf(err, errlen, "%s/%s: cannot write", dir, name);
		return CUA_E_IO;
	}
	return CUA_OK;
}
