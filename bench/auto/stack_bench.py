#!/usr/bin/python3
"""kestrel-auto --stack against the same run without it (docs/auto.md, "Stacking").

For each of the three shared tables (data/tables/NAME: penguins, credit_data, ames; one split
each, their train.csv and test.csv), runs `kestrel-auto --time-budget B --threads 2 --ensemble`
with and without `--stack`, and records the command's wall time, what -o saved (`chosen`:
single, ensemble or stack), the stack's out-of-fold verdict (its second layer's cv mean, the
rival it had to beat and the margin) and the saved model's test score (accuracy, or R^2 for a
numeric label, by kestrel-predict --metrics). Writes bench/auto/stack_bench.md (and .json), with
the machine's load average before and after the runs.

Usage: stack_bench.py BIN_DIR [--budget 60s] [--tables a,b] [--out FILE]
"""
import argparse, json, os, subprocess, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TABLES = {"penguins": ("species", "c"), "credit_data": ("Status", "c"), "ames": ("Sale_Price", "r")}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + r.stderr.strip())
    return r.stdout


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def one_run(bin_dir, name, budget, stack, tmp):
    label, _ = TABLES[name]
    d = os.path.join(ROOT, "data", "tables", name)
    out = os.path.join(tmp, name + ("-stack" if stack else "") + ".json")
    cmd = [os.path.join(bin_dir, "kestrel-auto"), os.path.join(d, "train.csv"), "--label-col", label, "--time-budget",
           budget, "--threads", "2", "--ensemble", "-o", out, "--json"]
    if stack:
        cmd.append("--stack")
    start = time.perf_counter()
    j = json.loads(run(cmd))
    wall = time.perf_counter() - start
    m = json.loads(run([os.path.join(bin_dir, "kestrel-predict"), out, os.path.join(d, "test.csv"), "--label-col", label,
                        "--metrics", "--json", "-o", os.devnull]))
    row = {"table": name, "stack": stack, "seconds": round(wall, 1), "evaluations": j["evaluations"],
           "chosen": j["chosen"], "best_cv": j["best"]["mean"], "test": m.get("accuracy", m.get("r2"))}
    if "stack" in j:
        s = j["stack"]
        row.update({"stack_kept": s["kept"], "stack_note": s.get("note", ""), "stack_mean": s.get("mean"),
                    "rival": s.get("rival"), "rival_mean": s.get("rival_mean"), "margin": s.get("margin"),
                    "second_layer": s.get("chosen")})
    return row


def fmt(v, digits=4):
    return "—" if v is None else format(v, "." + str(digits) + "f") if isinstance(v, float) else str(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--budget", default="60s")
    ap.add_argument("--tables", default=",".join(TABLES))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "auto", "stack_bench.md"))
    a = ap.parse_args()
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    before = load()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.tables.split(","):
            for stack in (False, True):
                rows.append(one_run(a.bin_dir, name, a.budget, stack, tmp))
                print(json.dumps(rows[-1]), flush=True)
    after = load()
    with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
        json.dump({"rev": rev, "budget": a.budget, "load_before": before, "load_after": after, "rows": rows}, f, indent=1)
    lines = ["# kestrel-auto --stack against the same run without it", "",
             "`bench/auto/stack_bench.py` at " + rev + ": `kestrel-auto --time-budget " + a.budget +
             " --threads 2 --ensemble` with and without `--stack`, one split of each shared table; test score of what "
             "`-o` saved (accuracy; R² for ames). Load average (1, 5, 15 min) before: " + before + "; after: " + after +
             ".", "",
             "| table | --stack | seconds | evaluations | best cv | chosen | stack cv (second layer) | rival | margin | test |",
             "|---|---|---:|---:|---:|---|---|---|---:|---:|"]
    for r in rows:
        stack_cv = (fmt(r.get("stack_mean")) + " (" + str(r.get("second_layer")) + ")") if r.get("stack_mean") is not None \
            else (r.get("stack_note") or "—")
        rival = "—" if not r.get("rival") else r["rival"] + " " + fmt(r.get("rival_mean"))
        lines.append("| " + " | ".join([r["table"], "yes" if r["stack"] else "no", fmt(r["seconds"], 1),
                                        str(r["evaluations"]), fmt(r["best_cv"]), r["chosen"], stack_cv, rival,
                                        fmt(r.get("margin")) if r["stack"] else "—", fmt(r["test"])]) + " |")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
