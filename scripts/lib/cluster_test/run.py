"""A run: what it started (PostgreSQL, the gateways, nginx) or was given by URL, the profiles and
their tokens, the summary's rows, and the teardown that stops every process it started."""

import json
import random
import shutil
import tempfile
import time
import uuid

from gateway_scripts.client import Client
from gateway_scripts.process import Children
from gateway_scripts.tokens import mint_token

from .common import BIO_MUTATION, FIELDS, NAME, Failure, Profile, log, read_profile
from .gateways import start_gateways
from .nginx import start_nginx
from .postgres import Postgres, check_authenticator, import_psycopg, profiles_from_sql, seed_profiles


class Run:
    def __init__(self, args):
        self.args = args
        self.children = Children(log=log)
        self.work = tempfile.mkdtemp(prefix="cluster-test.")
        self.client = Client(timeout=10)
        self.rng = random.Random(args.seed)
        self.pg = None
        self.sql = None          # autocommit superuser connection, when there is a database
        self.db_url = None       # superuser URL
        self.replicas, self.proxy, self.profiles, self.tokens = [], None, [], []
        self.gateway_procs = []  # when started here
        self.rows = []           # summary rows: (label, value, goal, ok or None)
        self.failed = []
        self.info = {}

    # --- set-up: each piece is either started here or given by URL
    def setup(self, deadline):
        a = self.args
        psycopg = None
        if a.database_url:
            self.db_url = a.database_url
        elif a.gateway_mode == "postgres" and not a.replica_urls:
            self.pg = Postgres(self.children, self.work, a.timeout + 30)
            self.pg.start()
            self.db_url = self.pg.url("postgres")
            self.info["postgres"] = f"PostgreSQL {self.pg.version} on 127.0.0.1:{self.pg.port}"
            log(f"{self.info['postgres']}, schema applied")
        if self.db_url:
            psycopg = import_psycopg()
            self.sql = psycopg.connect(self.db_url, autocommit=False, connect_timeout=10)
        handles = [a.handle_format.format(i + 1) for i in range(a.profiles)]
        if self.pg:
            t = time.monotonic()
            self.profiles = seed_profiles(self.sql, a.profiles, a.handle_format, a.follows_per_profile, self.rng)
            self.info["seed"] = f"{len(self.profiles)} profiles seeded in {time.monotonic() - t:.1f} s"
            if len(self.profiles) != a.profiles:
                raise Failure(f"seeded {a.profiles} users but found {len(self.profiles)} public profiles with their handles")
            auth_url = self.pg.url("authenticator")
            anon_sees = check_authenticator(psycopg, auth_url)
            if anon_sees != a.profiles:
                raise Failure(f"authenticator as anon sees {anon_sees} profiles, not {a.profiles}")
            log(f"{self.info['seed']}; {auth_url} may act as anon and authenticated")
        if self.sql:
            self.sql.commit()
            self.sql.autocommit = True   # the writer's SQL updates: execute returns after COMMIT

        if a.replica_urls:
            self.replicas = a.replica_urls.split(",")
        else:
            gateway_db = self.pg.url("authenticator") if self.pg else None
            if a.gateway_mode == "postgres" and not gateway_db:
                raise Failure("started gateways use the cluster started here: --database-url goes with --replica-urls")
            self.replicas, self.gateway_procs = start_gateways(a, self.children, self.work, self.client, gateway_db,
                                                              deadline)
            log(f"gateways ready: {', '.join(self.replicas)} ({a.gateway_mode} mode)")
        if a.proxy_url:
            self.proxy = a.proxy_url
        else:
            self.proxy, seen = start_nginx(a, self.children, self.work, self.client, self.replicas, deadline)
            self.info["nginx"] = f"{self.proxy}, round-robin checked: {seen}"
            log(f"nginx ready: {self.info['nginx']}")

        if not self.profiles:   # given servers or the embedded mode: the profiles as the gateway serves them
            if self.sql:
                self.profiles = profiles_from_sql(self.sql, handles)
            else:
                self.profiles = self.discover(handles)
        if len(self.profiles) < 3:
            raise Failure(f"found only {len(self.profiles)} public profiles among {handles[0]}..{handles[-1]} "
                          "(check --handle-format and --profiles)")
        self.tokens = [mint_token(a.jwt_secret, p.id) for p in self.profiles]
        # Every replica answers the first profile as the database has it.
        for r in self.replicas:
            ok, value, _ = read_profile(self.client, r, self.profiles[0].handle)
            if not ok or value != self.profiles[0].state:
                raise Failure(f"{r} answers {self.profiles[0].handle} as {value}, expected {self.profiles[0].state}")

    def discover(self, handles):
        """Ids and current values by GraphQL (25 aliases a request) through the first replica."""
        found = []
        for start in range(0, len(handles), 25):
            chunk = handles[start:start + 25]
            query = "{ " + " ".join(f'p{i}: profile(handle: {json.dumps(h)}) {{ id bio followerCount }}'
                                    for i, h in enumerate(chunk)) + " }"
            status, doc, _ = self.client.post(self.replicas[0], query)
            if status != 200 or not doc or "data" not in doc:
                raise Failure(f"profile discovery failed: {status} {json.dumps(doc)[:300]}")
            for i, h in enumerate(chunk):
                p = doc["data"].get(f"p{i}")
                if p:
                    found.append(Profile(p["id"], h, {f: p[f] for f in FIELDS}))
        return found

    def smoke(self):
        """--setup-only: one signed-in write through the proxy, then both replicas must serve it."""
        p, marker = self.profiles[0], f"setup check {uuid.uuid4().hex[:8]}"
        status, doc, _ = self.client.post(self.proxy, BIO_MUTATION, {"bio": marker}, self.tokens[0])
        bio = ((((doc or {}).get("data") or {}).get("updateProfile") or {}).get("profile") or {}).get("bio")
        self.row("updateProfile via proxy", f"{status} {json.dumps(doc)[:60]}", "its bio", bio == marker)
        for r in self.replicas:
            stop = time.monotonic() + self.args.poll_timeout
            while True:
                ok, value, _ = read_profile(self.client, r, p.handle)
                if (ok and value["bio"] == marker) or time.monotonic() > stop:
                    break
                time.sleep(0.01)
            self.row(f"  read at {r}", str(value)[:60], "its bio", ok and value["bio"] == marker)


    def row(self, label, value, goal, ok):
        self.rows.append((label, value, goal, ok))
        if ok is False:
            self.failed.append(label)

    def print_summary(self):
        a = self.args
        print(f"\n{NAME}: {len(self.replicas)} gateways ({a.gateway_mode if not a.replica_urls else 'given'}) "
              f"behind {self.proxy}, {len(self.profiles)} profiles ({a.hot} written)")
        for k, v in self.info.items():
            print(f"  {k}: {v}")
        width = max(len(r[0]) for r in self.rows) if self.rows else 10
        vwidth = min(70, max(len(r[1]) for r in self.rows)) if self.rows else 10
        print(f"  {'':{width}}  {'measured':{vwidth}}  {'goal':<10}  ")
        for label, value, goal, ok in self.rows:
            mark = "" if ok is None else ("ok" if ok else "MISSED")
            print(f"  {label:{width}}  {value:{vwidth}}  {goal:<10}  {mark}")
        print(f"{NAME}: {'PASS' if not self.failed else 'FAIL (' + ', '.join(self.failed) + ')'}")

    def teardown(self):
        if self.sql is not None:
            try:
                self.sql.close()
            except Exception:
                pass
        # Readers, nginx and the gateways first (reverse order of start), the database last.
        self.children.stop_all(keep=self.pg.proc if self.pg else None)
        if self.pg:
            self.pg.stop()
        if self.args.keep_work:
            log(f"kept {self.work}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)
