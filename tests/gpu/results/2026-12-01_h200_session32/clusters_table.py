#!/usr/bin/env python3
# Usage: clusters_table.py call1/candidates.md.gz call2/candidates.md.gz (the table in README.md).
import re,collections,sys,gzip
def load(p):
    rows=[l.split('|')[1:-1] for l in gzip.open(p,'rt') if l.startswith('| ') and 'shape' not in l and '---' not in l]
    by=collections.OrderedDict()
    for r in rows:
        r=[x.strip() for x in r]; by.setdefault(r[0],[]).append(r)
    return by
a=load(sys.argv[1]); b=load(sys.argv[2])
def best(rs, clustered):
    ok=[r for r in rs if r[3]!='-' and not r[1].startswith('rung 14') and r[1]!='cuBLAS' and bool(re.search(r' c\dx\d',r[1]))==clustered]
    r=max(ok,key=lambda r:float(r[3]))
    return '%s %s'%(r[3], r[1][7:] if r[1].startswith('rung 9 ') else r[1])
print('| shape | best unclustered (call 2) | best clustered, call 1 | best clustered, call 2 |')
print('|---|---|---|---|')
for s in a:
    print('| %s | %s | %s | %s |'%(s, best(b[s],False), best(a[s],True), best(b[s],True)))
bad=sum(1 for d in (a,b) for rs in d.values() for r in rs if r[3]=='-')
print('rows not counted:',bad, 'rows:', sum(len(rs) for d in (a,b) for rs in d.values()))
