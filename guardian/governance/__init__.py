"""Governance: what may run, when it must stop, and who may promote a model pair.

Module map (building blocks first):
- `schema`     trigger and gate policy models, nested into a route's policy
- `policyfile` loading a policy YAML with errors that point at file:line and field; hot reload
- `stats`      pure statistics: JS divergence, PSI, p95, Argo-style pass/fail/inconclusive
- `windows`    rolling windows of live observations per route (in memory or from the audit DB)
- `triggers`   evaluating a route's triggers on its windows
- `routestate` route state in the database + the per-request `ModeResolver`
- `rollback`   the controller: observe, evaluate, roll back (audit, metric, webhook)
- `registry`   model pairs keyed by pair identity hash
- `gates`      golden-set gate runner and report
- `promotion`  promotion bound to a passing gate report for the exact pair and policy
"""
