"""Running one task: warm-up, tools alternating A B A B for N runs, then quality and ratios."""

import datetime
import json
import os
import re
import shutil
import statistics
import time

from harness import machine, measure, score

STAGES = ("train", "predict")


class Context:
    """Where things are and how to run them; filled once by bench/run."""

    def __init__(self, repo, build_dir, runs, warmup, timeout_s, threads, log):
        self.repo = repo
        self.apps = os.path.join(build_dir, "apps")
        self.runs = runs
        self.warmup = warmup  # True: a full warm-up run (page cache only for heavy tasks)
        self.timeout_s = timeout_s
        self.threads = threads
        self.log = log
        self.env = dict(os.environ)
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
            self.env[var] = str(threads)
        self.env.update(LC_ALL="C", PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
        # bench/loading/run.sh (the io family) reads its settings from the environment
        self.env.update(KESTREL_BENCH_THREADS=str(threads), KESTREL_BENCH_RUNS=str(runs),
                        KESTREL_BENCH_BUILD=build_dir)


def dataset_dir(repo, dataset):
    if dataset.startswith("shared:"):
        return os.path.normpath(os.path.join(repo, "..", "shared", "data", dataset.split(":", 1)[1]))
    if dataset.startswith("data:"):
        return os.path.join(repo, "data", dataset.split(":", 1)[1])
    return os.path.join(repo, "bench", "data", "generated", dataset)


def truth_file(data_dir):
    for name in ("test.csv", "test.libsvm"):
        if os.path.exists(os.path.join(data_dir, name)):
            return os.path.join(data_dir, name)
    return None


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def resolve(command, ctx, data_dir, work, tool_slug, seed=1):
    rel = lambda p: os.path.relpath(p, ctx.repo)  # noqa: E731  (short, readable command lines)
    return command.format(
        kestrel=rel(ctx.apps), data=rel(data_dir) if data_dir else "", py="/usr/bin/python3",
        anchors="bench/anchors", work=rel(work), threads=ctx.threads, seed=seed,
        model=rel(os.path.join(work, tool_slug + ".model")),
        pred=rel(os.path.join(work, tool_slug + ".pred.csv")),
    )


def _median(values):
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 4) if values else None


def sv_count(model_path):
    """Support vectors in a LIBSVM model file or a kestrel model JSON (best effort)."""
    try:
        with open(model_path, errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    m = re.search(r"^total_sv (\d+)$", text, re.M)
    if m:
        return int(m.group(1))
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    found = []

    def walk(node):
        if isinstance(node, dict):
            # a count, or per-class counts (kestrel's svc: state.n_sv, as LIBSVM's nr_sv)
            for key in ("total_sv", "n_sv", "sv_count", "n_support_vectors", "n_support", "sv_counts"):
                v = node.get(key)
                if isinstance(v, int) and not isinstance(v, bool):
                    found.append(v)
                    return
                if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
                    found.append(sum(v))
                    return
            for key in ("support", "support_vectors"):
                if isinstance(node.get(key), list):
                    found.append(len(node[key]))
                    return
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc.get("state", doc))
    return sum(found) if found else None


def cv_best(stdout_path):
    """The best grid point as each search tool prints it (kestrel, svm-grid, liblinear_grid.sh)."""
    try:
        with open(stdout_path, errors="replace") as fh:
            lines = [ln.strip() for ln in fh if ln.strip()]
    except OSError:
        return None
    for ln in lines:
        if ln.startswith("best:"):  # kestrel-gridsearch: "best: C=2  accuracy = 0.8960 +/- 0.0041"
            return " ".join(ln[5:].split())
    points = [re.match(r"C=(\S+) accuracy=([\d.]+)%", ln) for ln in lines]
    points = [m for m in points if m]
    if points:  # liblinear_grid.sh: "C=2^e accuracy=89.6%"
        best = max(points, key=lambda m: float(m.group(2)))
        return f"C={best.group(1)} accuracy = {float(best.group(2)) / 100:.4f}"
    last = lines[-1].split() if lines else []
    if len(last) == 3:  # svm-grid: "c gamma rate"
        return f"C={last[0]} gamma={last[1]} accuracy = {float(last[2]) / 100:.4f}"
    return None


def agreement(task_kind, a_path, b_path):
    """Share of identical predictions (classification) or max |difference| (regression)."""
    try:
        a, b = score.read_predictions(a_path), score.read_predictions(b_path)
    except OSError:
        return None
    if not a or len(a) != len(b):
        return None
    if task_kind == "regression":
        return max(abs(float(x) - float(y)) for x, y in zip(a, b))
    return sum(float(x) == float(y) for x, y in zip(a, b)) / len(a)


def _task_kind(data_dir):
    meta = os.path.join(data_dir, "meta.json")
    try:
        with open(meta) as fh:
            task = json.load(fh).get("task", "")
    except (OSError, ValueError):
        return "classification"
    return "regression" if task == "regression" else "classification"


def data_float64_mb(data_dir):
    """Size of the training split as float64 (dense, or CSR for a LIBSVM-only sparse set)."""
    try:
        with open(os.path.join(data_dir, "meta.json")) as fh:
            meta = json.load(fh)
    except (OSError, ValueError):
        return None
    n, d = meta.get("n_train"), meta.get("n_features")
    if not n or not d:
        return None
    if "nnz" in meta:
        nnz = meta.get("nnz_train") or meta["nnz"] * n / (n + meta.get("n_test", 0))
        return (nnz * 12 + (n + 1) * 8) / 2**20
    return n * d * 8 / 2**20


def _inputs(command, ctx):
    return [os.path.join(ctx.repo, tok) for tok in command.split() if os.path.isfile(os.path.join(ctx.repo, tok))]


def run_task(task, ctx, pending_reason=None, anchors_when_pending=False):
    """Measure one task; returns the JSON-ready record."""
    started = time.time()
    record = _measure_task(task, ctx, pending_reason, anchors_when_pending)
    record["elapsed_s"] = round(time.time() - started, 1)  # warm-up and quality included
    return record


def _measure_task(task, ctx, pending_reason, anchors_when_pending):
    record = {
        "task": task.name, "family": task.family, "dataset": task.dataset,
        "what": task.what.format(threads=ctx.threads), "kind": task.kind,
        "timestamp": datetime.datetime.now().isoformat(timespec="seconds"),
        "runs": ctx.runs, "tools": {}, "pairs": [],
    }
    data_dir = dataset_dir(ctx.repo, task.dataset) if task.dataset else None
    work = os.path.join(ctx.repo, "bench", "results", "tmp", task.name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    tools = task.tools()
    if pending_reason:
        record["status"] = "pending"
        record["pending_reason"] = pending_reason
        # kestrel-based references (e.g. "kestrel 1 thread") wait for kestrel like kestrel does
        tools = [a for a in task.anchors if "{kestrel}" not in a.train] if anchors_when_pending else []
    for tool in task.tools():
        slug = _slug(tool.name)
        record["tools"][tool.name] = {"commands": {
            stage: resolve(getattr(tool, stage), ctx, data_dir, work, slug)
            for stage in STAGES if getattr(tool, stage)}}
    if not tools:
        return record
    record["load_before"] = machine.load_average()

    def run_tool(tool, keep):
        entry = record["tools"][tool.name]
        if entry.get("error"):
            return
        for stage, command in entry["commands"].items():
            tag = f"{_slug(tool.name)}.{stage}"
            m = measure.run(command, ctx.env, ctx.repo, ctx.timeout_s, work, tag)
            if m.get("error") is not None or m.get("rc", 0) != 0:
                entry["error"] = f"{stage}: exit {m.get('rc')}: {m.get('error', '')}"
                ctx.log(f"    {tool.name} {stage} FAILED: {entry['error']}")
                return
            if keep:
                entry.setdefault(stage, []).append(m)
                ctx.log(f"    {tool.name:18s} {stage:8s} {m['wall_s']:9.3f} s wall {m['cpu_s']:9.3f} s cpu "
                        f"{m['rss_mb'] or 0:8.1f} MB")

    # warm-up: the files into the page cache, and (unless heavy) one unrecorded run per tool
    for tool in tools:
        for command in record["tools"][tool.name]["commands"].values():
            measure.warm_page_cache(_inputs(command, ctx))
    if ctx.warmup and not task.heavy and task.kind != "script":  # a script warms up itself
        ctx.log("    warm-up")
        for tool in tools:
            run_tool(tool, keep=False)
    runs = 1 if task.kind == "script" else ctx.runs
    for _ in range(runs):
        for tool in tools:  # A B A B: load drift hits every tool alike
            run_tool(tool, keep=True)
    record["load_after"] = machine.load_average()

    kind = _task_kind(data_dir) if data_dir else "classification"
    truth = truth_file(data_dir) if data_dir else None
    for tool in tools:
        entry = record["tools"][tool.name]
        slug = _slug(tool.name)
        med = {}
        for stage in STAGES:
            ms = entry.get(stage, [])
            if ms:
                med[f"{stage}_wall_s"] = _median([m["wall_s"] for m in ms])
                med[f"{stage}_cpu_s"] = _median([m["cpu_s"] for m in ms])
                med[f"{stage}_rss_mb"] = _median([m["rss_mb"] for m in ms])
        if "train_wall_s" in med and "predict_wall_s" in med:
            med["total_wall_s"] = round(med["train_wall_s"] + med["predict_wall_s"], 4)
        entry["median"] = med
        if entry.get("error"):
            continue
        if task.quality and truth and tool.predict:
            entry["quality"] = score.score(truth, os.path.join(work, slug + ".pred.csv"), kind, task.metric)
            if task.quality_seeds:
                _quality_over_seeds(task, tool, entry, ctx, data_dir, work, truth, kind)
        if "cv_best" in tool.extras:
            entry["cv_best"] = cv_best(os.path.join(work, slug + ".train.stdout"))
        if "sv_count" in tool.extras:
            entry["sv_count"] = sv_count(os.path.join(work, slug + ".model"))
    record["task_kind"] = kind
    if pending_reason:
        return record
    errors = [f"{t.name}: {record['tools'][t.name]['error']}" for t in tools if record["tools"][t.name].get("error")]
    record["status"] = "failed" if record["tools"]["kestrel"].get("error") else "ok"
    if errors:
        record["errors"] = errors
    record["data_float64_mb"] = data_float64_mb(data_dir) if data_dir else None
    for anchor in task.anchors:
        record["pairs"].append(compare(task, kind, record["tools"]["kestrel"], record["tools"][anchor.name],
                                       anchor, work, record["data_float64_mb"]))
    return record


def _quality_over_seeds(task, tool, entry, ctx, data_dir, work, truth, kind):
    """Untimed train + predict at each extra seed; entry["quality"] becomes the mean."""
    slug = _slug(tool.name)
    per_seed = {1: entry["quality"]}
    for seed in task.quality_seeds:
        seed_work = os.path.join(work, f"seed{seed}")
        os.makedirs(seed_work, exist_ok=True)
        for stage in STAGES:
            command = resolve(getattr(tool, stage), ctx, data_dir, seed_work, slug, seed)
            m = measure.run(command, ctx.env, ctx.repo, ctx.timeout_s, seed_work, f"{slug}.{stage}")
            if m.get("error") is not None or m.get("rc", 0) != 0:
                entry["quality"] = {"error": f"seed {seed} {stage}: exit {m.get('rc')}"}
                return
        per_seed[seed] = score.score(truth, os.path.join(seed_work, slug + ".pred.csv"), kind, task.metric)
    ctx.log(f"    {tool.name:18s} quality at seeds {sorted(per_seed)}: "
            + ", ".join(f"{q.get('accuracy', q.get('rmse'))}" for _, q in sorted(per_seed.items())))
    keys = [k for k, v in per_seed[1].items() if isinstance(v, (int, float))]
    mean = {k: statistics.fmean(q[k] for q in per_seed.values()) for k in keys
            if all(isinstance(q.get(k), (int, float)) for q in per_seed.values())}
    named = {"metric": per_seed[1]["metric"]} if "metric" in per_seed[1] else {}
    entry["quality"] = {**mean, **named, "seeds": sorted(per_seed)}
    entry["quality_by_seed"] = {str(s): q for s, q in sorted(per_seed.items())}


def _ratio(a, b):
    return round(a / b, 3) if a is not None and b not in (None, 0) else None


def compare(task, kind, k, a, anchor, work, data_mb=None):
    km, am = k.get("median", {}), a.get("median", {})
    pair = {"anchor": anchor.name, "ratios": {
        "train": _ratio(km.get("train_wall_s"), am.get("train_wall_s")),
        "predict": _ratio(km.get("predict_wall_s"), am.get("predict_wall_s")),
        "total": _ratio(km.get("total_wall_s"), am.get("total_wall_s")),
        "train_cpu": _ratio(km.get("train_cpu_s"), am.get("train_cpu_s")),
        "rss": _ratio(km.get("train_rss_mb"), am.get("train_rss_mb")),
    }}
    if task.quality and anchor.predict and not k.get("error") and not a.get("error"):
        pair["agreement"] = agreement(kind, os.path.join(work, "kestrel.pred.csv"),
                                      os.path.join(work, _slug(anchor.name) + ".pred.csv"))
    pair["checks"] = checks(anchor.goal, pair, k, a, km, am, data_mb) if anchor.goal else []
    return pair


def checks(goal, pair, k, a, km, am, data_mb=None):
    """[(label, value shown, met?)] for each criterion the goal names."""
    out = []
    r = pair["ratios"]
    for key, label in (("train", "train"), ("predict", "predict"), ("total", "train+predict")):
        limit = getattr(goal, key)
        if limit is not None and r.get(key) is not None:
            out.append((f"{label} <= {limit}x", f"{r[key]:.2f}x", r[key] <= limit))
    if goal.train_abs_s is not None and km.get("train_wall_s") is not None:
        t = km["train_wall_s"]
        out.append((f"train < {goal.train_abs_s} s", f"{t:.1f} s", t < goal.train_abs_s))
    kq, aq = k.get("quality", {}), a.get("quality", {})
    if goal.accuracy_points is not None and "accuracy" in kq and "accuracy" in aq:
        d = kq["accuracy"] - aq["accuracy"]
        out.append((f"accuracy within {goal.accuracy_points} pt", f"{d:+.2f} pt", abs(d) <= goal.accuracy_points))
    if goal.rmse_relative is not None and "rmse" in kq and "rmse" in aq and aq["rmse"] > 0:
        d = (kq["rmse"] - aq["rmse"]) / aq["rmse"]
        out.append((f"RMSE within {goal.rmse_relative:.0%}", f"{d:+.2%}", abs(d) <= goal.rmse_relative))
    if goal.metric_relative is not None and "metric_value" in kq and "metric_value" in aq and aq["metric_value"] > 0:
        d = (kq["metric_value"] - aq["metric_value"]) / aq["metric_value"]
        out.append((f"{kq['metric']} <= anchor's +{goal.metric_relative:.0%}", f"{d:+.2%}",
                    d <= goal.metric_relative))
    if goal.sv_relative is not None and k.get("sv_count") and a.get("sv_count"):
        d = (k["sv_count"] - a["sv_count"]) / a["sv_count"]
        out.append((f"SVs within {goal.sv_relative:.0%}", f"{d:+.1%}", abs(d) <= goal.sv_relative))
    if goal.rss is not None and km.get("train_rss_mb") and am.get("train_rss_mb"):
        limit = goal.rss * am["train_rss_mb"] + goal.rss_plus_mb
        extra = f" + {goal.rss_plus_mb:.0f} MB" if goal.rss_plus_mb else ""
        out.append((f"peak RSS <= {goal.rss}x{extra}", f"{km['train_rss_mb']:.0f} MB", km["train_rss_mb"] <= limit))
    if goal.rss_data is not None and data_mb and km.get("train_rss_mb"):
        out.append((f"peak RSS <= {goal.rss_data}x data ({data_mb:.0f} MB)", f"{km['train_rss_mb'] / data_mb:.1f}x",
                    km["train_rss_mb"] <= goal.rss_data * data_mb))
    if goal.agreement is not None and pair.get("agreement") is not None:
        if k.get("quality", {}).get("rmse") is not None:
            out.append((f"predictions within {goal.agreement:g}", f"max diff {pair['agreement']:.2g}",
                        pair["agreement"] <= goal.agreement))
        else:
            out.append(("identical predictions" if goal.agreement >= 1 else f">= {goal.agreement:.0%} identical",
                        f"{pair['agreement']:.2%}", pair["agreement"] >= goal.agreement))
    return out
