#!/usr/bin/env bash
# Lists every rules citation in the code ("docs/rules/village.md G.1.4", "RULES.md B.3" in the
# engines' messages, "(RULES.md H.17)", "RULES.md §0", "LOG-FORMAT.md", "docs/log-format.md" …)
# with the crate it is in, and reports every cited section that
# the game's own rules page does not define as a heading, a table row or a numbered rule item.
#
#   scripts/check-rule-citations.sh            # summary + missing sections; exit 1 if any
#   scripts/check-rule-citations.sh --list     # also list every citation (file:line crate section)
#
# Game of a citation: the crate (engine/caverna, engine/village, engine/above-and-below); outside
# the engines, a file or line that names Village or Above and Below, else Caverna.
# Rules pages: docs/rules/caverna-reference.md (+ the generated docs/rules/caverna.md),
# docs/rules/village.md, docs/rules/above-and-below.md. Log-format pages: docs/log-format.md,
# docs/log-format-village.md, docs/log-format-above-and-below.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, sys, subprocess

LIST = '--list' in sys.argv[1:]
RULES = {
    'caverna': ['docs/rules/caverna-reference.md', 'docs/rules/caverna.md'],
    'village': ['docs/rules/village.md'],
    'above-and-below': ['docs/rules/above-and-below.md'],
}
LOGS = {'caverna': 'docs/log-format.md', 'village': 'docs/log-format-village.md',
        'above-and-below': 'docs/log-format-above-and-below.md'}

def defined(paths):
    """Section ids defined by a page: headings, first cells of table rows, numbered items."""
    ids = set()
    for p in paths:
        for line in open(p, encoding='utf-8'):
            m = re.match(r'^#{1,6}\s+(?:\d+\.\s|§)?([0-9A-H](?:\.\d+)*)\b', line)
            if m:
                ids.add(m.group(1).rstrip('.'))
            m = re.match(r'^#{1,6}\s+(\d+)\.\s', line)
            if m:
                ids.add(m.group(1))
            m = re.match(r'^\|\s*\**`?([A-H]\.\d+(?:\.\d+)*)`?\**\s*\|', line)
            if m:
                ids.add(m.group(1))
            m = re.match(r'^\s*[*-]\s+\*\*([A-H]\.\d+(?:\.\d+)*)\b', line)
            if m:
                ids.add(m.group(1))
    # a section letter is defined by its "## X." heading
    return ids

SEC = r'(?:§\s?\d+|[A-H](?:\.\d+)*)(?![\w.]*\w)'
PAGE = r'(?:RULES(?:\.md)?|docs/rules/(?:caverna-reference|caverna|village|above-and-below)\.md)'
CITE = re.compile(PAGE + r'`?\s*(?:decides)?\s*((?:' + SEC + r')(?:\s*(?:,|/|–|-|and)\s*(?:' + SEC + r'))*)')
HREF = re.compile(r'\b(H\.\d+)\b[^.\n]{0,80}?\.\s*' + PAGE + r' decides')
LOGC = re.compile(r'LOG-FORMAT(?:\.md)?|docs/log-format(?:-village|-above-and-below)?\.md')

files = subprocess.run(['git', 'ls-files', '*.rs', '*.json'], capture_output=True, text=True, check=True).stdout.split()
files = [f for f in files if not f.startswith('docs/') and not f.endswith('.schema.json')]

def crate_of(path):
    parts = path.split('/')
    if parts[0] == 'engine' and len(parts) > 1:
        return 'engine/' + parts[1]
    return parts[0]

def game_of(path, line):
    if path.startswith('engine/'):
        g = path.split('/')[1]
        return g if g in RULES else None
    low = (path + ' ' + line).lower()
    low = re.sub(r'(?<![\w-])(?:wood|stone|ore) gathering', '', low)
    if 'village' in low:
        return 'village'
    if 'above' in low or 'aab' in low:
        return 'above-and-below'
    return 'caverna'

defs = {g: defined(p) for g, p in RULES.items()}
cites, logcites, missing = [], [], []
for f in files:
    try:
        lines = open(f, encoding='utf-8').read().split('\n')
    except (UnicodeDecodeError, FileNotFoundError):
        continue
    for n, line in enumerate(lines, 1):
        if 'RULES' not in line and 'LOG-FORMAT' not in line and 'docs/rules/' not in line and 'docs/log-format' not in line:
            continue
        # the comment block or statement around the citation decides the game outside the engines
        g = game_of(f, ' '.join(lines[max(0, n - 6):n]))
        for m in CITE.finditer(line):
            for s in re.findall(SEC, m.group(1)):
                s = s.replace('§', '').strip()
                cites.append((f, n, crate_of(f), g, s))
        for m in HREF.finditer(line):
            cites.append((f, n, crate_of(f), g, m.group(1)))
        if LOGC.search(line):
            logcites.append((f, n, crate_of(f), g))

for f, n, crate, g, s in cites:
    if g is None:
        continue
    ok = s in defs[g] or (re.fullmatch(r'\d+', s) and s in defs[g])
    if LIST:
        print(f'{f}:{n}\t{crate}\tRULES.md {s}\t-> {RULES[g][0]}' + ('' if ok else '\tMISSING'))
    if not ok:
        missing.append((f, n, crate, g, s))
if LIST:
    for f, n, crate, g in logcites:
        print(f'{f}:{n}\t{crate}\tLOG-FORMAT.md\t-> {LOGS[g] if g else "?"}')

# Bare section references in the engines' code and tests: "(G.1.1)", "D.5.3, H.28".
BARE = re.compile(r'(?<![\w.])([A-H]\.\d+(?:\.\d+)*)(?![\w.]*\w)')
bare_missing = []
for f in files:
    if not f.startswith('engine/') or f.split('/')[1] not in RULES:
        continue
    g = f.split('/')[1]
    for n, line in enumerate(open(f, encoding='utf-8').read().split('\n'), 1):
        for s in BARE.findall(line):
            if s not in defs[g]:
                bare_missing.append((f, n, crate_of(f), g, s))
for b in bare_missing:
    missing.append(b)

by_crate = {}
for f, n, crate, g, s in cites:
    by_crate.setdefault(crate, set()).add(s)
print(f'{len(cites)} RULES.md citations ({len({c[4] + c[3] for c in cites if c[3]})} distinct sections), '
      f'{len(logcites)} LOG-FORMAT.md citations, in {len({c[0] for c in cites} | {c[0] for c in logcites})} files')
for crate in sorted(by_crate):
    print(f'  {crate}: {len(by_crate[crate])} sections cited')
for g, p in LOGS.items():
    if not os.path.exists(p):
        print(f'missing log-format page {p}')
        missing.append(('', 0, '', g, p))
if missing:
    print(f'{len(missing)} citations name a section not found in the game\'s rules page:')
    for f, n, crate, g, s in missing:
        print(f'  {f}:{n} ({crate}) RULES.md {s} -> not in {RULES[g][0]}')
    sys.exit(1)
print('every cited section is defined in docs/rules/')
PY
