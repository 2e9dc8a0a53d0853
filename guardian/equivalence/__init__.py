"""The core promise, measured: equivalence verdicts (verdicts), the shadow evaluator over the
local engine (shadow) and across upstream pools (pool_shadow)."""
