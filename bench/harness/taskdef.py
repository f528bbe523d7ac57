"""The vocabulary of bench/tasks.py: a Task is one problem, solved by kestrel and its anchors.

Command lines are plain strings with placeholders, filled in by bench/run:
  {kestrel}  build-bench/apps        {data}   the dataset's folder      {py}  /usr/bin/python3
  {anchors}  bench/anchors           {model}  this tool's model file    {pred} its predictions
  {work}     this task's scratch dir {threads} threads given to every tool (2)
  {seed}     the random seed (1 in the timed runs; see Task.quality_seeds)
Every tool runs as separate processes per stage (train, then predict), so each side's
"train" time covers the same work: start, read the file, fit, write the model.
"""

from dataclasses import dataclass, field


@dataclass
class Goal:
    """What the family's issue asks of kestrel against this anchor (None: not asked)."""

    train: float | None = None  # kestrel train wall <= train x anchor's
    predict: float | None = None  # kestrel predict wall <= predict x anchor's
    total: float | None = None  # train + predict
    accuracy_points: float | None = None  # |accuracy difference| <= this many points
    rmse_relative: float | None = None  # |RMSE difference| <= this fraction of the anchor's
    sv_relative: float | None = None  # support vector counts within this fraction
    rss: float | None = None  # kestrel peak RSS <= rss x anchor's (training)
    rss_plus_mb: float = 0.0  # ... plus this many MB (LIBSVM's cache allowance)
    rss_data: float | None = None  # kestrel peak RSS (train) <= this x the training data as float64
    #                                (dense n*d*8 bytes, or CSR: nnz*12 + (n+1)*8)
    train_abs_s: float | None = None  # kestrel train wall <= this many seconds, whatever the anchor
    agreement: float | None = None  # identical predictions (classification, fraction) or
    #                                 max |difference| (regression) within this
    metric_relative: float | None = None  # the task's metric (Task.metric, lower is better) at most
    #                                       this fraction above the anchor's


@dataclass
class Tool:
    name: str  # shown in the tables: "kestrel", "LIBSVM", "scikit-learn", ...
    train: str  # command line of the training process (or the only process)
    predict: str | None = None  # command line of the prediction process; None: no test stage
    goal: Goal | None = None  # for anchors: the goal kestrel must meet against this tool
    extras: tuple = ()  # extra figures to read after the last run: "sv_count"


@dataclass
class Task:
    name: str
    family: str  # io, linear, svm, kernel, trees, selection
    dataset: str  # a folder under bench/data/generated, or shared:NAME (../shared/data/NAME)
    what: str  # one line for the report: the problem and the matched settings
    kestrel: Tool
    anchors: list = field(default_factory=list)
    requires: tuple = ()  # kestrel models ("svc") or model parameters ("logistic.penalty")
    # an anchor run takes ~20 s or more: warm the page cache but skip the warm-up run, which
    # keeps `bench/run all` under an hour on 2 cores (earlier tasks have warmed the same tools)
    heavy: bool = False
    quality: bool = True  # score predictions on the test split
    # Randomised models (forests): a difference of a few tenths of a point between two
    # tools at one seed is as much the seed as the algorithm. Each tool also trains and
    # predicts (untimed) at these extra seeds; quality is then the mean over all seeds.
    quality_seeds: tuple = ()
    kind: str = "pair"  # "pair": kestrel vs anchors; "script": run kestrel.train as a whole family
    # Regression scored by its own loss besides RMSE (harness/score.py task_metric):
    # "poisson_deviance", "gamma_deviance", "tweedie_deviance:1.5", "pinball:0.9"
    metric: str | None = None

    def tools(self):
        return [self.kestrel] + list(self.anchors)
