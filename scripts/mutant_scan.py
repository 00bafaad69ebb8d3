#!/usr/bin/env python3
"""One-line mutants of the .cpp files of a source folder, a random batch of them, for a scan of how
well the suite guards that code (docs/testing.md: one-off scans beside tests/mutants/). Each mutant
flips one relational or logical operator (written with a space on each side), swaps std::min and
std::max, turns + into -, * into / (or back), or scales a decimal constant by 1.5: for each rule,
the first place on a line it matches (so a line may have several mutants, named LINE, LINE-2 …). Writes OUT/scan-FILE-LINE.patch in mutants.sh's format and
prints the names, to run with

  python3 scripts/mutant_scan.py src/judge 43 40 /tmp/scan > /tmp/scan/names
  MUTANTS_DIR=/tmp/scan bash scripts/mutants.sh $(cat /tmp/scan/names)

usage: mutant_scan.py FOLDER SEED COUNT OUT [BUILD_TARGETS [TESTS_REGEX]]
(defaults: judge_tests and ^judge\.). A survivor is read by hand: a gap gets a test and a kept
mutant under tests/mutants/; an equivalent one (no behaviour can tell) is noted in docs/progress.md.
"""
import os, re, random, subprocess, sys, tempfile
if len(sys.argv) < 5:
    sys.exit(__doc__)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
folder, seed, count, out = sys.argv[1].rstrip('/'), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
targets = sys.argv[5] if len(sys.argv) > 5 else 'judge_tests'
tests = sys.argv[6] if len(sys.argv) > 6 else '^judge\\.'
os.makedirs(out, exist_ok=True)
rules = [  # relational operators only with a space each side (not a template)
    (r' <= ', ' < '), (r' >= ', ' > '), (r' < ', ' <= '), (r' > ', ' >= '),
    (r' == ', ' != '), (r' != ', ' == '), (r' && ', ' || '), (r' \|\| ', ' && '),
    (r'std::min\b', 'std::max'), (r'std::max\b', 'std::min'),
    (r'\b(\d+\.\d+)\b', None), (r' \* ', ' / '), (r' / ', ' * '), (r' \+ ', ' - '), (r' - ', ' + '),
]
cands = []
for f in sorted(os.listdir(os.path.join(root, folder))):
    if not f.endswith('.cpp'): continue
    path = folder + '/' + f
    lines = open(root + '/' + path).read().split('\n')
    for i, l in enumerate(lines):
        s = l.strip()
        if not s or s.startswith('//') or s.startswith('#') or 'fmt::format' in s or s.startswith('"'): continue
        code = re.sub(r'"([^"\\]|\\.)*"', lambda m: 'X' * len(m.group(0)), l)  # strings masked
        code = code.split('//')[0]
        for pat, rep in rules:
            for m in re.finditer(pat, code):
                if rep is None:
                    v = m.group(1); new = repr(float(v) * 1.5) if float(v) != 0 else '1.0'
                else:
                    new = rep
                seg = code[max(0, m.start()-12):m.end()+12]
                mutated = l[:m.start()] + new + l[m.end():]
                cands.append((path, i, l, mutated, sum(1 for c in cands if c[:2] == (path, i))))
                break
random.seed(seed)
print(len(cands), 'candidates', file=sys.stderr)
pick = random.sample(cands, min(count, len(cands)))
names = []
for k, (path, i, old, new, j) in enumerate(pick):
    # A line with several operators has a mutant for each rule that matches: -2, -3 … after the first.
    name = f'scan-{os.path.basename(path)[:-4]}-{i+1}' + (f'-{j + 1}' if j else '')
    src = open(root + '/' + path).read().split('\n')
    src[i] = new
    d = tempfile.mkdtemp()
    for side, text in (('a', open(root + '/' + path).read()), ('b', '\n'.join(src))):
        os.makedirs(os.path.join(d, side, os.path.dirname(path)), exist_ok=True)
        open(os.path.join(d, side, path), 'w').write(text)
    r = subprocess.run(['git', 'diff', '--no-index', 'a/' + path, 'b/' + path], cwd=d, capture_output=True, text=True)
    body = '\n'.join(x.replace('a/a/', 'a/').replace('b/b/', 'b/') for x in r.stdout.splitlines() if not x.startswith('index '))
    hdr = f'# mutant: scan {path}:{i+1}: {old.strip()}  ->  {new.strip()}\n# build: {targets}\n# tests: {tests}\n'
    open(f'{out}/{name}.patch', 'w').write(hdr + body + '\n')
    names.append(name)
print(' '.join(names))
