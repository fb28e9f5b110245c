import json,sys
def src(s):
    ins=s.get("instructions",[])
    miss={k:s.get(k) for k in ("sampling_missing","counters_missing","totals_missing","sass_missing") if s.get(k)}
    return f"error={s.get('error')!r} missing={miss} total_samples={s.get('total_samples')} instructions={len(ins)} samples={sum(i.get('samples',0) for i in ins)} executed={sum(i.get('executed',0) for i in ins)}"
if sys.argv[1]=="--recording":
    r=json.load(open(sys.argv[2]))
    for s in r.get("sources",[]): print(" source", s.get("kernel_id") or s.get("kernel"), src(s))
    sys.exit()
for line in open(sys.argv[1]):
    try: m=json.loads(line)
    except Exception: print(" bad line", line[:100]); continue
    t=m.get("type")
    if t=="progress": continue
    if t=="result":
        res=m.get("result",{})
        if "source" in res: print(" ", m["id"], "source", src(res["source"]))
        elif "profile" in res or "timeline" in res: p=res.get("profile") or res.get("timeline"); print(" ", m["id"], "profile/timeline error=", repr(p.get("error")), "launch_error=", repr(p.get("launch_error","?"))[:80])
        else: print(" ", m["id"], "result", str(res)[:120])
    else: print(" ", m.get("id"), t, str(m)[:300])
