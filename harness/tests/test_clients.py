"""make check-clients: console markers to rows, and the table."""

import unittest

from kpt import clients, console

LOG = """\
@@KPT-BOOTED kernel=ours arch=x86_64 release=6.12.0
@@KPT-TEST-BEGIN 01-pmu-raw
+ /kpt/clients/bin/pmu_kprobe vfs_read
count=12
@@KPT-RESULT 01-pmu-raw PASS
@@KPT-TIME 01-pmu-raw 3
@@KPT-TEST-BEGIN (end)
@@KPT-TEST-BEGIN 02-perf-probe
FAIL: no line matches /Added new event:/
@@KPT-REASON 02-perf-probe no line matches /Added new event:/
@@KPT-RESULT 02-perf-probe FAIL
@@KPT-TIME 02-perf-probe 9
@@KPT-TEST-BEGIN (end)
@@KPT-TEST-BEGIN 04-trace-cmd
[   30.100000] WARNING: CPU: 1 PID: 90 at kernel/trace/trace_kprobe.c:1 x
@@KPT-RESULT 04-trace-cmd PASS
@@KPT-TIME 04-trace-cmd 5
@@KPT-TEST-BEGIN (end)
@@KPT-TEST-BEGIN 09-gen-test
SKIP: kprobe_event_gen_test.ko not built
@@KPT-REASON 09-gen-test kprobe_event_gen_test.ko not built
@@KPT-RESULT 09-gen-test SKIP
@@KPT-TIME 09-gen-test 0
@@KPT-TEST-BEGIN (end)
@@KPT-EXIT rc=0
""".splitlines()


class Rows(unittest.TestCase):
    def setUp(self):
        self.t = clients._rowtable(console.parse(LOG))

    def test_pass_with_masked_output(self):
        self.assertEqual(self.t["01-pmu-raw"][:2], ["PASS", ""])
        self.assertEqual(self.t["01-pmu-raw"][2], ["+ /kpt/clients/bin/pmu_kprobe vfs_read", "count=N"])

    def test_fail_keeps_reason(self):
        self.assertEqual(self.t["02-perf-probe"][0], "FAIL")
        self.assertIn("Added new event", self.t["02-perf-probe"][1])

    def test_splat_fails_the_row_it_hit(self):
        res, why, _ = self.t["04-trace-cmd"]
        self.assertEqual(res, "FAIL")
        self.assertIn("console warning", why)

    def test_skip_is_not_pass(self):
        self.assertEqual(self.t["09-gen-test"][:2],
                         ["SKIP", "kprobe_event_gen_test.ko not built"])


class Table(unittest.TestCase):
    def test_counts_and_differences(self):
        up = {r: ["PASS", "", ["count=N"]] for r in clients.all_rows()}
        ours = dict(up, **{"02-perf-probe": ["FAIL", "boom", ["x"]],
                           "01-pmu-raw": ["PASS", "", ["count=N", "y"]]})
        lines, counts = clients.format_table(
            "x86_64", ["ours", "upstream"],
            {"ours": ours, "upstream": up}, {"ours": 10, "upstream": 11})
        n = len(clients.all_rows())
        self.assertEqual(counts["PASS"], 2 * n - 1)
        self.assertEqual(counts["FAIL"], 1)
        text = "\n".join(lines)
        self.assertIn("DIFFERENCE 02-perf-probe: upstream passes", text)
        self.assertIn("02-perf-probe on ours: FAIL: boom", text)
        self.assertIn("01-pmu-raw: 1 output lines differ", text)
        self.assertIn("02-perf-probe: 2 output lines differ", text)
        self.assertNotIn("04-trace-cmd: ", text)


if __name__ == "__main__":
    unittest.main()
