"""Governance: what may run, when it must stop, and who may promote a model pair.

The policy schema it enforces lives in `guardian.policy` (which imports nothing from here).
Module map (building blocks first):
- `errors`     `GovernanceRefused`, the refusal every act raises
- `stats`      pure statistics: JS divergence, PSI, p95, Argo-style pass/fail/inconclusive
- `windows`    rolling windows of live observations per route (in memory or from the audit DB)
- `triggers`   one module per trigger + the registry table (name, evaluator, policy section)
- `gatecheck`  the promotion rule read from the audit store (a passing report for pair+policy)
- `modes`      `effective_mode`: the one answer to "which mode is in force for this route now"
- `routestate` route state in the database + the per-request `ModeResolver`
- `rollback`   the controller: observe, evaluate, roll back (audit, metric, webhook)
  (`rollbackloop` its background loop, `routeanalysis` analysis / canary steps / gauges,
  `observing` the sink that feeds it, `webhook` the evidence POST)
- `registry`   model pairs keyed by pair identity hash
- `gates`      golden-set gate runner (`golden` the prompts, `gatechecks` the checks,
  `gatereport` the report)
- `promotion`  promotion bound to a passing gate report for the exact pair and policy
- `runtime`    wiring all of it onto a running sidecar
"""
