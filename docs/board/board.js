'use strict';
/* Sortable tables: click a header (ascending, then descending). Cells sort by
   data-v when present (numbers numerically; empty values last), else by text.
   PAGE#sort=N[-desc] sorts the first table by column N on load. */
function cuaSort(table, col, asc) {
  var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
  var ths = table.tHead.rows[0].cells;
  for (var i = 0; i < ths.length; i++) ths[i].removeAttribute('aria-sort');
  ths[col].setAttribute('aria-sort', asc ? 'ascending' : 'descending');
  function key(r) { var c = r.cells[col];
    return c.hasAttribute('data-v') ? c.getAttribute('data-v') : c.textContent.trim(); }
  rows.sort(function (a, b) {
    var x = key(a), y = key(b);
    if (x === '' || y === '') return (x === '') - (y === '');
    var nx = Number(x), ny = Number(y);
    var d = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
    return asc ? d : -d;
  });
  rows.forEach(function (r) { body.appendChild(r); });
}
document.querySelectorAll('table.sortable').forEach(function (table) {
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    th.addEventListener('click', function () {
      cuaSort(table, col, th.getAttribute('aria-sort') !== 'ascending');
    });
  });
});
var m = /sort=(\d+)(-desc)?/.exec(location.hash);
var first = document.querySelector('table.sortable');
if (m && first && +m[1] < first.tHead.rows[0].cells.length)
  cuaSort(first, +m[1], !m[2]);

/* Everything below reads text (textContent) and writes text nodes and spans:
   a kernel's source is data, never markup. */
function cuaSpan(cls, text) {
  var s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}

/* CUDA/C highlighting: comments, strings, preprocessor lines, numbers,
   keywords, types and CUDA's built-ins, each a span of its class. */
var cuaWords = {};
[['k', 'auto break case catch class const constexpr continue default delete do else ' +
  'enum explicit extern false for friend goto if inline mutable namespace new noexcept ' +
  'nullptr operator private protected public register restrict return sizeof static ' +
  'static_assert static_cast reinterpret_cast const_cast dynamic_cast struct switch ' +
  'template this throw true try typedef typename union using virtual volatile while ' +
  'decltype alignas alignof __global__ __device__ __host__ __shared__ __constant__ ' +
  '__managed__ __restrict__ __forceinline__ __noinline__ __launch_bounds__ ' +
  '__grid_constant__ asm __asm__'],
 ['t', 'void char short int long float double signed unsigned bool size_t ptrdiff_t ' +
  'int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uintptr_t half ' +
  '__half half2 __half2 __nv_bfloat16 __nv_bfloat162 float2 float3 float4 double2 ' +
  'double4 int2 int3 int4 uint2 uint4 char4 uchar4 longlong2 dim3 cudaStream_t ' +
  'cudaError_t cudaEvent_t cua_tensor cua_dtype'],
 ['b', 'threadIdx blockIdx blockDim gridDim warpSize __syncthreads __syncwarp ' +
  '__threadfence __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync ' +
  '__ballot_sync __any_sync __all_sync __ldg __ldcs __ldcg __ldca __ldlu __stcs __stcg ' +
  '__stwt __fmaf_rn __fdividef __expf __logf __sinf __cosf __powf atomicAdd atomicMax ' +
  'atomicMin atomicCAS atomicExch cua_solve cua_numel cudaGetLastError ' +
  'cudaMemcpyAsync cudaMemsetAsync']
].forEach(function (g) {
  g[1].split(' ').forEach(function (w) { cuaWords[w] = g[0]; });
});
var cuaToken = new RegExp([
  /* 1 a comment, to the end of the source when it is not closed */
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$(?![\s\S])))/,
  /* 2 a string or character literal */
  /("(?:[^"\\\n]|\\[\s\S])*"?|'(?:[^'\\\n]|\\[\s\S])*'?)/,
  /* 3 a preprocessor line */
  /(^[ \t]*#[^\n]*)/,
  /* 4 a number: hex, decimal, exponent, suffixes, digit separators */
  /((?:0[xX][0-9a-fA-F']+|(?:\d[\d']*\.?[\d']*|\.\d+)(?:[eE][+-]?\d+)?)[uUlLfF]*)/,
  /* 5 a word: coloured when it is a keyword, a type or a CUDA built-in */
  /([A-Za-z_]\w*)/
].map(function (r) { return r.source; }).join('|'), 'gm');
function cuaHighlight(code) {
  var text = code.textContent, out = document.createDocumentFragment(), at = 0, mt;
  cuaToken.lastIndex = 0;
  while ((mt = cuaToken.exec(text)) !== null) {
    if (mt[0] === '') { cuaToken.lastIndex++; continue; }
    var cls = mt[1] ? 'c' : mt[2] ? 's' : mt[3] ? 'p' : mt[4] ? 'n' : cuaWords[mt[5]];
    if (!cls) continue;
    if (mt.index > at) out.appendChild(document.createTextNode(text.slice(at, mt.index)));
    out.appendChild(cuaSpan(cls, mt[0]));
    at = mt.index + mt[0].length;
  }
  if (at < text.length) out.appendChild(document.createTextNode(text.slice(at)));
  code.textContent = '';
  code.appendChild(out);
  code.classList.add('hl');
}
document.querySelectorAll('code.src').forEach(cuaHighlight);

/* Line diffs between two turns' sources: the longest common subsequence of
   lines (common head and tail cut first), shown as hunks with 3 lines of
   context. Sources too large for the table (over 4e6 line pairs) are shown as
   replaced whole. */
function cuaDiff(a, b) {
  var s = 0, ea = a.length, eb = b.length, ops = [], i, j;
  while (s < ea && s < eb && a[s] === b[s]) s++;
  while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) { ea--; eb--; }
  for (i = 0; i < s; i++) ops.push([' ', a[i]]);
  var n = ea - s, w = eb - s + 1;
  if (n * w > 4e6) {
    for (i = s; i < ea; i++) ops.push(['-', a[i]]);
    for (j = s; j < eb; j++) ops.push(['+', b[j]]);
  } else {
    var L = new Uint32Array((n + 1) * w);
    for (i = n - 1; i >= 0; i--)
      for (j = w - 2; j >= 0; j--)
        L[i * w + j] = a[s + i] === b[s + j] ? L[(i + 1) * w + j + 1] + 1
                     : Math.max(L[(i + 1) * w + j], L[i * w + j + 1]);
    i = 0; j = 0;
    while (i < n || j < w - 1) {
      if (i < n && j < w - 1 && a[s + i] === b[s + j]) {
        ops.push([' ', a[s + i]]); i++; j++;
      } else if (i < n && (j === w - 1 || L[(i + 1) * w + j] >= L[i * w + j + 1])) {
        ops.push(['-', a[s + i]]); i++;
      } else {
        ops.push(['+', b[s + j]]); j++;
      }
    }
  }
  for (i = ea; i < a.length; i++) ops.push([' ', a[i]]);
  return ops;
}
function cuaLines(el) {
  var t = el.textContent;
  if (t.endsWith('\n')) t = t.slice(0, -1);
  return t === '' ? [] : t.split('\n');
}
function cuaSkipped(k) {
  return cuaSpan('hunk', '\u22ef ' + k + ' unchanged line' + (k === 1 ? '' : 's'));
}
function cuaShowDiff(box) {
  var from = document.getElementById(box.getAttribute('data-from'));
  var to = document.getElementById(box.getAttribute('data-to'));
  var pre = box.querySelector('pre'), sum = box.querySelector('.count');
  if (!from || !to || !pre) return;
  var ops = cuaDiff(cuaLines(from), cuaLines(to)), add = 0, del = 0, last = -1, k;
  var keep = ops.map(function () { return false; });
  ops.forEach(function (o, x) {
    if (o[0] === ' ') return;
    if (o[0] === '+') add++; else del++;
    for (k = Math.max(0, x - 3); k <= Math.min(ops.length - 1, x + 3); k++)
      keep[k] = true;
  });
  ops.forEach(function (o, x) {
    if (!keep[x]) return;
    if (x !== last + 1) pre.appendChild(cuaSkipped(x - last - 1));
    var cls = o[0] === '+' ? 'add' : o[0] === '-' ? 'del' : 'ctx';
    pre.appendChild(cuaSpan(cls, o[0] + ' ' + o[1]));
    last = x;
  });
  if (last >= 0 && last < ops.length - 1)
    pre.appendChild(cuaSkipped(ops.length - 1 - last));
  if (!add && !del) pre.appendChild(cuaSpan('hunk', 'the same source'));
  if (sum) sum.textContent = '+' + add + ' \u2212' + del;
}
document.querySelectorAll('.diff[data-from]').forEach(cuaShowDiff);
