"""Tools for developers and benchmarks, never imported by the serving path: the demo traffic
generator (demo), the load test (loadtest), the fake upstream (fake_upstream) and the
benchmarks (benchmarks/). Only guardian.cli reaches in here, lazily, from its dev commands."""
