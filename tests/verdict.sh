#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The fbrun authors
#
# The verdict of two groups of runs (compare A... -- B...): its lines for
# the IO Summary and the I/O flowops by kind (their kinds from the
# flowop table, by the types a real run writes), what it leaves out, the
# same in JSON; and the groups' page as Chromium lays it out at 1400
# pixels: the verdict first, no sideways scroll, the groups in their
# colours, interval bars cut at 0 and clear of every label.  The runs'
# figures are set by hand in copies of a real run's file, so the
# answers are known.
. "${srcdir:-.}/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed (it makes the runs' figures)"
	exit 0
fi

long=read_the_whole_file_under_a_name_longer_than_a_chart_label_is
cat >"$TMP/w.f" <<F
define fileset name=fs,path=$TMP/w,entries=16,dirwidth=4,size=16k,prealloc=50
define process name=p {
  thread name=rd {
    flowop openfile name=open1,filesetname=fs,fd=1
    flowop readwholefile name=$long,fd=1,iosize=8k
    flowop closefile name=close1,fd=1
  }
  thread name=up {
    flowop createfile name=create1,filesetname=fs,fd=1
    flowop appendfilerand name=append1,iosize=8k,fd=1
    flowop fsync name=fsync1,fd=1
    flowop closefile name=close2,fd=1
    flowop deletefile name=delete1,filesetname=fs
    flowop hog name=hog1,value=10
  }
}
run 60
F
run_fbrun -q -t 1 -o "$TMP/base.json" "$TMP/w.f"
check "a real run to copy: exit 0 (exit $rc)" test "$rc" -eq 0

# groups PREFIX: three runs of group A and three of B, their figures set
# by hand (per flowop: ops/s, mb/s, ms/op in each run), the rest the
# real run's
python3 - "$TMP" "$long" <<'PY'
import json, sys
tmp, long = sys.argv[1], sys.argv[2]
base = json.load(open(tmp + '/base.json'))
# name: (figure, A's three runs, B's three runs)
figs = {
    # reads: B twice A's throughput at half its latency, significant
    long: [('ops_per_sec', [100, 110, 90], [200, 220, 180]),
           ('mb_per_sec', [10, 11, 9], [20, 22, 18]),
           ('ms_per_op', [1.0, 1.1, 0.9], [0.5, 0.55, 0.45])],
    # writes and fsyncs: B twice as slow in every run alike: no spread
    'append1': [('ops_per_sec', [50] * 3, [50] * 3),
                ('mb_per_sec', [1] * 3, [1] * 3),
                ('ms_per_op', [1.0] * 3, [2.0] * 3)],
    'fsync1': [('ops_per_sec', [50] * 3, [50] * 3),
               ('mb_per_sec', [0] * 3, [0] * 3),
               ('ms_per_op', [3.0] * 3, [6.0] * 3)],
    # noisy: A's interval goes below 0, where the page cuts it
    'open1': [('ms_per_op', [1, 50, 2], [10, 11, 12])],
    # a first mean of 0
    'close1': [('ops_per_sec', [0] * 3, [5, 6, 7])],
}
summary = [('ops_per_sec', [300, 310, 290], [290, 300, 310]),
           ('ms_per_op', [1.0, 1.2, 0.8], [1.1, 1.0, 0.9])]
for g, k in (('a', 1), ('b', 2)):
    for i in range(3):
        run = json.loads(json.dumps(base))
        for fo in run['flowops']:
            for key, *vals in figs.get(fo['name'], []):
                fo[key] = vals[k - 1][i]
        for key, *vals in summary:
            run['summary'][key] = vals[k - 1][i]
        json.dump(run, open('%s/%s%d.json' % (tmp, g, i + 1), 'w'))
PY
A="$TMP/a1.json $TMP/a2.json $TMP/a3.json"
B="$TMP/b1.json $TMP/b2.json $TMP/b3.json"

# --- the text -------------------------------------------------------------------
# shellcheck disable=SC2086
run_fbrun compare --label raid10 --label raid5 $A -- $B --html "$TMP/page.html"
check "compare of the groups: exit 0 (exit $rc)" test "$rc" -eq 0
sed -n '/^Verdict/,$p' "$TMP/out" >"$TMP/verdict"
check "the verdict comes after the tables" \
	test -s "$TMP/verdict" -a "$(tail -1 "$TMP/out" | cut -c1-2)" = "  "
grepq "... says what it compares" \
	"^Verdict \\(raid5 against raid10: the ratio of the means, its 95% interval, Welch's t-test at the 5% level\\):\$" "$TMP/verdict"
# vline FIGURE: the verdict's line of that figure
vline() { grep -F "  $1 " "$TMP/verdict" | head -1; }
check "reads mb/s: raid5 faster, 2.00x with its interval, significant" \
	eval 'vline "reads mb/s" | grep -Eq "^  reads mb/s +10\\.0 +20\\.0  2\\.00x \\[1\\.53, 2\\.61\\] +raid5 faster, significant$"'
check "reads ms/op: lower is faster, so raid5 again" \
	eval 'vline "reads ms/op" | grep -Eq " 0\\.50x \\[[0-9.]+, [0-9.]+\\] +raid5 faster, significant$"'
check "writes+fsyncs ms/op: the mean of their latencies, each run alike: cannot judge" \
	eval 'vline "writes+fsyncs ms/op" | grep -Eq "^  writes\\+fsyncs ms/op +2\\.000 +4\\.000  2\\.00x +cannot judge: no spread \\(raid10.s mean better\\)$"'
check "IO Summary ops/s: the same means, within noise" \
	eval 'vline "IO Summary ops/s" | grep -Eq "1\\.00x \\[[0-9.]+, [0-9.]+\\] +within noise \\(the same means\\)$"'
check "... and its ms/op" eval 'test -n "$(vline "IO Summary ms/op")"'
check "writes+fsyncs mb/s, the same in every run: cannot judge" \
	eval 'vline "writes+fsyncs mb/s" | grep -q "cannot judge: no spread (the same means)$"'
check "six lines, no more" test "$(grep -c '^  [A-Za-z+ ]*\(mb/s\|ms/op\|ops/s\) ' "$TMP/verdict")" -eq 6
check "nothing without spread is called significant" \
	eval '! grep -E "no spread.*significant|significant.*no spread" "$TMP/verdict"'
grepq "the reads named, by the flowop table's flags" "^  reads: $long\$" "$TMP/verdict"
grepq "the writes with their fsyncs" '^  writes\+fsyncs: append1, fsync1$' "$TMP/verdict"
grepq "the other I/O: in the IO Summary" '^  other I/O, in the IO Summary: open1, close1, create1, close2, delete1$' "$TMP/verdict"
grepq "the flowops that do no I/O, left out" '^  left out, no I/O: hog1$' "$TMP/verdict"
grepq "the IO Summary has its table too" '^IO Summary +raid10 \(3\) +raid5 \(3\) ' "$TMP/out"

# a file without types (an older fbrun's): its flowops are of no kind known
for f in a1 a2 b1 b2; do
	sed 's/"type": *"[a-z]*",//g' "$TMP/$f.json" >"$TMP/nt$f.json"
done
run_fbrun compare "$TMP/nta1.json" "$TMP/nta2.json" -- "$TMP/ntb1.json" "$TMP/ntb2.json"
check "files without types: exit 0 (exit $rc)" test "$rc" -eq 0
grepq "... their flowops left out, said why, the first 8 named" \
	"^  left out, of no type this fbrun knows \\(a composite, or a file without types\\): open1, $long, close1, create1, append1, fsync1, close2, delete1 and 1 more\$" "$TMP/out"
check "... the IO Summary still judged" \
	eval 'sed -n "/^Verdict/,\$p" "$TMP/out" | grep -q "^  IO Summary ops/s "'

# --- JSON ---------------------------------------------------------------------------
# shellcheck disable=SC2086
run_fbrun compare --format json $A -- $B
ok=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
v = d['verdict']
lines = {l['figure']: l for l in v['lines']}
r, w = lines['reads mb/s'], lines['writes+fsyncs ms/op']
print(r['means'] == [10, 20] and r['ratio'] == 2 and r['verdict'] == 'significant' and
      r['better'] == 'B' and r['says'] == 'B faster, significant' and r['ratio_low'] > 1 and
      w['means'] == [2, 4] and w['ratio'] == 2 and w['p'] is None and w['ratio_low'] is None and
      w['verdict'] == 'not tested (no spread: cannot judge)' and w['better'] == 'A' and
      v['reads'] == [sys.argv[2]] and v['writes'] == ['append1', 'fsync1'] and
      v['no_io'] == ['hog1'] and v['unknown'] == [] and len(v['other_io']) == 5 and
      d['summary']['ops_per_sec']['verdict'] == 'within noise' and
      d['summary']['ops_per_sec']['groups'][0]['values'] == [300, 310, 290])" "$TMP/out" "$long" || :)
check "--format json: the verdict's lines and kinds, the IO Summary" test "$ok" = True

# --- the page -------------------------------------------------------------------------
check "the page is written" test -s "$TMP/page.html"
check "... with no script of its own" eval '! grep -qi "<script" "$TMP/page.html"'
check "... the verdict before the IO Summary, the runs and the charts" \
	test "$(grep -o '<h2>[^<]*</h2>' "$TMP/page.html" | head -3 | tr '\n' ' ')" = \
	"<h2>Verdict</h2> <h2>IO Summary</h2> <h2>Runs</h2> "
grepq "... 'not tested' with the table's reason" \
	'<td class="verdict">not tested \(no spread: cannot judge\)</td>' "$TMP/page.html"
grepq "... and the other reason" '<td class="verdict">not tested \(a mean of 0\)</td>' "$TMP/page.html"

if ! command -v chromium >/dev/null 2>&1; then
	skip "the page in Chromium: chromium is not installed"
	done_testing
	exit 0
fi
# The facts of the page as laid out, written into a copy of it by a
# script added to the copy only (the page has none): Chromium prints the
# DOM once the page has loaded, and the script ran as it was parsed, on
# the layout of a 1400-pixel window.
cat >"$TMP/facts.js" <<'JS'
(function () {
  function box(e) { var r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; }
  function overlap(a, b) {
    return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }
  var f = { width: window.innerWidth,
            client: document.documentElement.clientWidth,
            scroll: document.scrollingElement.scrollWidth,
            h2: [], ci: 0, below_zero: [], crossing: [], colors: [[], []],
            swatches: [], untested: [] };
  document.querySelectorAll('h2').forEach(function (h) {
    f.h2.push([h.textContent, box(h)[1]]); });
  document.querySelectorAll('svg.strip').forEach(function (svg) {
    var zero = box(svg.querySelector('line.axis'))[0];
    var tr = svg.closest('tr'), labels = [];
    tr.querySelectorAll('td').forEach(function (td) {
      if (!td.contains(svg)) labels.push(box(td)); });
    svg.querySelectorAll('text').forEach(function (t) {
      labels.push(box(t)); });
    svg.querySelectorAll('.ci, .end, .run, .mean').forEach(function (e) {
      var b = box(e), g = e.classList.contains('g0') ? 0 : 1;
      var s = getComputedStyle(e);
      f.colors[g].push(e.tagName === 'line' ? s.stroke : s.fill);
      if (e.classList.contains('ci')) {
        f.ci++;
        if (b[0] < zero - 0.01) f.below_zero.push(b[0] - zero);
      }
      labels.forEach(function (l) {
        if (overlap(b, l)) f.crossing.push(tr.textContent.slice(0, 40)); });
    });
  });
  document.querySelectorAll('.swatch').forEach(function (s) {
    f.swatches.push(getComputedStyle(s).backgroundColor); });
  document.querySelectorAll('tr.untested td.verdict').forEach(function (t) {
    f.untested.push(t.textContent); });
  var pre = document.createElement('pre');
  pre.id = 'facts';
  pre.textContent = JSON.stringify(f);
  document.body.appendChild(pre);
})();
JS
# layout COPY: the page's facts as Chromium lays it out, into $TMP/facts
layout() {
	{ sed 's|</body>||; s|</html>||' "$TMP/page.html"; printf '<script>\n'; cat "$TMP/facts.js"
	  printf '</script>\n</body>\n</html>\n'; } >"$TMP/$1"
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --disable-quic \
		--user-data-dir="$TMP/chrome" --window-size=1400,900 \
		--dump-dom "file://$TMP/$1" 2>/dev/null >"$TMP/dom.html" || :
	python3 -c "
import html, re, sys
m = re.search(r'<pre id=\"facts\">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
print(html.unescape(m.group(1)) if m else '{}')" "$TMP/dom.html" >"$TMP/facts"
}
layout copy.html
# fact PYTHON-EXPRESSION: True or what the facts are, of f
fact() {
	python3 -c "
import json, sys
f = json.load(open(sys.argv[1]))
print(True if ($1) else json.dumps(f)[:600])" "$TMP/facts" 2>&1 || :
}
ok=$(fact "'width' in f")
check "Chromium laid the page out and the script reported ($ok)" test "$ok" = True
ok=$(fact "f['width'] == 1400 and f['scroll'] <= f['client']")
check "no sideways scroll at 1400 pixels ($ok)" test "$ok" = True
ok=$(fact "f['h2'][0][0] == 'Verdict' and all(f['h2'][0][1] < t for _, t in f['h2'][1:])")
check "the verdict is shown first ($ok)" test "$ok" = True
ok=$(fact "f['ci'] >= 20 and f['below_zero'] == []")
check "interval bars start at 0 or right of it, A's noisy one cut there ($ok)" test "$ok" = True
ok=$(fact "f['crossing'] == []")
check "no dot, tick or bar crosses a label or another cell ($ok)" test "$ok" = True
ok=$(fact "len(set(f['colors'][0])) == 1 and len(set(f['colors'][1])) == 1 and f['colors'][0][0] != f['colors'][1][0]")
check "each group in its own colour, the two told apart ($ok)" test "$ok" = True
ok=$(fact "f['colors'][0][0] in f['swatches'] and f['colors'][1][0] in f['swatches']")
check "... the legend's swatches in those colours ($ok)" test "$ok" = True
ok=$(fact "sorted(set(f['untested'])) == ['not tested (a mean of 0)', 'not tested (no spread: cannot judge)']")
check "'not tested' says the table's own reasons ($ok)" test "$ok" = True

# labels and paths too long for any column: the cells wrap them
mkdir -p "$TMP/a/directory/deep/enough/to/make/the/paths/of/these/runs/long"
for f in a1 a2 a3; do
	cp "$TMP/$f.json" "$TMP/a/directory/deep/enough/to/make/the/paths/of/these/runs/long/$f.json"
done
# shellcheck disable=SC2086
run_fbrun compare --label "raid10_$long" --label "raid5_$long" \
	"$TMP"/a/directory/deep/enough/to/make/the/paths/of/these/runs/long/a?.json -- $B \
	--html "$TMP/page.html"
layout long.html
ok=$(fact "f['width'] == 1400 and f['scroll'] <= f['client'] and f['crossing'] == []")
check "long labels and paths: still no sideways scroll, nothing crossed ($ok)" test "$ok" = True

done_testing
