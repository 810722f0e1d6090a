"""scripts/cluster-test, split by phase (its entry point and usage: scripts/cluster-test).

  cli          the command line, --self-test, the order of the phases
  run          set-up (PostgreSQL, gateways, nginx, or given URLs), summary rows, teardown
  postgres     the cluster (scripts/lib/postgres.sh), seeding, psycopg
  gateways     the two replicas and their readiness
  nginx        the round-robin proxy
  readers      reader processes (`cluster-test --_reader CONFIG`)
  consistency  phase 1: writes, convergence, stale reads; each replica's cache counters
  throughput   phase 2: the pair through nginx vs one gateway alone
  restart_db   phase 3: PostgreSQL stops and starts again under the replicas
  common       the documents, the profile read, log, failures, figure formats
"""
