"""make bench's parsing, tables and results file, on canned records."""

import os
import tempfile
import unittest

from kpt import bench

UP = """\
@@KB base getppid ns=236.2
@@KB hit kprobe-0 base=236.2 probed=1030.0 delta=793.8 mech=ftrace off=0
[   12.3] some kernel line @@KB hit int3-0 base=236.2 probed=1167.0 \
delta=930.8 mech=int3 off=17
@@KB hit tracing-off base=236.2 probed=702.2 delta=466.0 mech=ftrace off=0
@@KB scale scale-1000 others=1000 base=236 probed=1126 delta=890.0 add=220000
@@KB bulk line n=10 events=10 add=4.0 enable=50.0 disable=52.0 delete=190.0
@@KB bulk line n=10 events=10 add=6.0 enable=50.0 disable=52.0 delete=192.0
@@KB done failed=0
""".splitlines()


class Records(unittest.TestCase):
    def test_parse(self):
        recs = bench.parse(UP)
        self.assertEqual(recs[0], ("base", "getppid", {"ns": "236.2"}))
        self.assertEqual(recs[2][2]["off"], "17")
        self.assertEqual(recs[-1], ("done", "failed=0", {}))

    def test_error_keeps_case_and_reason(self):
        recs = bench.parse(["@@KB error int3-0 no usable offset in -o ''"])
        self.assertEqual(recs[0][0], "error")
        self.assertIn("int3-0 no usable offset", recs[0][2]["why"])


class Tables(unittest.TestCase):
    def setUp(self):
        up = bench.parse(UP)
        ours = [r for r in up if r[1] != "int3-0"]
        ours[1] = ("hit", "kprobe-0", dict(ours[1][2], delta="700.0"))
        self.recs = {"upstream": up, "ours": ours}

    def test_ratio_and_missing(self):
        text = "\n".join(bench.icount_tables(self.recs))
        self.assertRegex(text, r"kprobe-0 +793\.8 +700\.0 +0\.882 +-93\.8")
        self.assertRegex(text, r"int3-0 +930\.8 +- +- +- +int3 at \+17")
        self.assertRegex(text, r"ring-buffer share +327\.8 +234\.0")

    def test_mechanism_change_named_in_order(self):
        ours = [("hit", "kprobe-0", dict(self.recs["ours"][1][2],
                                         mech="brk"))]
        text = "\n".join(bench.icount_tables({"upstream": self.recs[
            "upstream"], "ours": ours}))
        self.assertRegex(text, r"kprobe-0 .* ftrace -> brk")
        self.assertRegex(text, r"(?m)tracing-off .* ftrace$")

    def test_a_row_one_kernel_skipped_says_why(self):
        up = bench.parse(["@@KB skip fprobe-0 no fprobe events"])
        ours = bench.parse(["@@KB hit fprobe-0 base=241.3 probed=739.5 "
                            "delta=498.2 mech=fprobe off=0"])
        text = "\n".join(bench.icount_tables({"upstream": up, "ours": ours}))
        self.assertRegex(text, r"fprobe-0 +- +498\.2 .* fprobe; upstream: "
                         r"no fprobe events$")

    def test_bulk_median(self):
        text = "\n".join(bench.bulk_table(self.recs))
        self.assertRegex(text, r"line 10 add +5\.0 +5\.0 +1\.000")


class ResultsFile(unittest.TestCase):
    def test_sections_replaced_not_lost(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.txt")
            bench.save(path, "x86_64", {"icount": ["== icount == a", "1"],
                                        "bulk": ["== bulk == b", "2"]})
            bench.save(path, "x86_64", {"icount": ["== icount == c", "3"]})
            with open(path) as f:
                text = f.read()
        self.assertIn("== icount == c", text)
        self.assertNotIn("== icount == a", text)
        self.assertIn("== bulk == b", text)
        self.assertLess(text.index("icount"), text.index("== bulk"))


class Smoke(unittest.TestCase):
    def test_smoke_is_small(self):
        p = bench.Params(env={}, smoke=True)
        self.assertLessEqual(p.iters * p.rounds, 10000)
        self.assertIn("bulk", p.suites)

    def test_unknown_suite(self):
        with self.assertRaises(SystemExit):
            bench.Params(env={"SUITE": "hit,nope"})


class Sections(unittest.TestCase):
    def test_long_runs_keep_their_own_sections(self):
        short = bench.Params(env={"BULK_ICOUNT": "1"})
        long_ = bench.Params(env={"BULK_ICOUNT": "1", "LONG": "1"})
        self.assertEqual(bench.bulk_section(short), "bulk-icount")
        self.assertEqual(bench.icount_section(short), "icount")
        self.assertEqual(bench.bulk_section(long_), "bulk-icount-long")
        self.assertEqual(bench.icount_section(long_), "scale-long")
        self.assertIn("10000", long_.bulk)

    def test_some_icount_suites_keep_the_full_table(self):
        hit = bench.Params(env={"SUITE": "hit"})
        two = bench.Params(env={"SUITE": "scale,hit"})
        full = bench.Params(env={"SUITE": "hit,floor,scale"})
        self.assertEqual(bench.icount_section(hit), "icount-hit")
        self.assertEqual(bench.icount_section(two), "icount-hit-scale")
        self.assertEqual(bench.icount_section(full), "icount")


class Plot(unittest.TestCase):
    """harness/bench/plot.py draws the results files it is given."""

    TEXT = """\
== icount == suites hit,floor,scale
measured 2026-11-26 15:05 UTC, 6.12.117, config x, ours at abc1234

case                       upstream       ours   ratio     diff  notes
base getppid/call             197.2      197.2   1.000     +0.0
kprobe-0                      769.0      631.8   0.822   -137.2  ftrace
fprobe-0                          -          -       -        -  not on this arch
scale others=0                769.0      631.8   0.822   -137.2
scale others=1000             819.0      631.8   0.771   -187.2  per add: x

== scale-long == SUITE=scale SCALE_COUNTS=0,1000,10000 (LONG=1)
measured 2026-11-25 07:33 UTC, 6.12.117, config y, ours at e52a1e8
scale others=0                769.0      761.0   0.990     -8.0
scale others=10000           1529.8      766.0   0.501   -763.8  per add: y
"""

    def load(self):
        import importlib.util
        path = os.path.join(os.path.dirname(__file__), "..", "bench",
                            "plot.py")
        spec = importlib.util.spec_from_file_location("plot", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    def test_rows_and_one_scale_section(self):
        plot = self.load()
        secs = plot.sections(self.TEXT)
        self.assertEqual([r[0] for r in plot.rows(secs["icount"])],
                         ["base getppid/call", "kprobe-0", "scale others=0",
                          "scale others=1000"])
        pts, source = plot.scale_points(secs)
        # the LONG section alone: its run is not mixed with icount's
        self.assertEqual(pts["ours"], [(0, 761.0), (10000, 766.0)])
        self.assertEqual(source, "section scale-long, ours at e52a1e8")

    def test_svg(self):
        plot = self.load()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results-x86_64.txt")
            with open(path, "w") as f:
                f.write(self.TEXT)
            plot.HERE = d
            out = plot.main([path])
            with open(out) as f:
                svg = f.read()
        self.assertIn("x86_64: guest instructions per hit", svg)
        self.assertIn(">kprobe-0<", svg)
        self.assertNotIn(">fprobe-0<", svg)
        self.assertIn("section scale-long", svg)
