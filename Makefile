# locksim — make targets. `make test` is the README's test command and what
# CI runs.
GO ?= go

.PHONY: test vet adapters unit examples scenarios claims claims-sweep bench build clean

test: vet adapters unit examples scenarios

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) vet ./...

# What the lock client adapters need (npm ci for the Node ones); outside
# CI a missing tool is a SKIPPED line and their tests skip themselves.
adapters:
	@sh adapters/setup.sh

# 30 minutes, not go test's 10, per package: on a loaded machine the
# packages that run scenarios go fewer runs at once and run again what the
# machine spoiled (issue 32).
unit: adapters
	$(GO) test -count=1 -timeout 30m ./...

# The module under examples/ uses only the public API (lock, locksimtest,
# locksim.Main), as a lock library's own repository would: its adapter's
# conformance test, a scenario and the catalogue, and its own binary.
examples:
	cd examples && $(GO) vet ./... && $(GO) test -count=1 ./... && $(GO) build -o /dev/null ./cmd/mylocksim

# shipped sets the shell variable files to the shipped scenarios (the
# catalogue and the field reports), outside CI less those of an adapter
# whose tools are missing, each left out with a line naming the target $(1).
shipped = files=""; for f in scenarios/*.yaml scenarios/field/*.yaml; do \
	  if [ "$$CI" != true ]; then \
	    if grep -q 'adapters/node/' $$f && [ ! -d adapters/node/node_modules/redlock ]; then echo "$(1): SKIPPED $$f (the Node adapters are not installed; make adapters)"; continue; fi; \
	    if grep -q 'adapters/python/' $$f && ! /usr/bin/python3 -c 'import redis' >/dev/null 2>&1; then echo "$(1): SKIPPED $$f (python3-redis is missing; apt-get install python3-redis)"; continue; fi; \
	  fi; files="$$files $$f"; done

# Every shipped scenario must meet its `expect` (exit 0): the catalogue in
# scenarios/ and the field reports in scenarios/field/ (issue 19).
# The scenarios of an adapter whose tools are missing (make adapters said
# so) are left out, with a line; under CI=true nothing is left out.
# Two runs per CPU, not the default four: a check must not lose its
# compressed time to its own neighbours (a run that does is unknown, and
# fails the check without proving anything); such a run is run again,
# alone, up to twice (--retry-unknown; a definite verdict never is).
# --why=false: the check judges expectations only, and the experiments of
# its 64 invalid runs (154 more runs, issue 27) would more than double it;
# internal/suite's tests run gc-pause's.
scenarios: build adapters
	@$(call shipped,scenarios); \
	out=$$(mktemp -d -t locksim-scenarios-XXXXXX); ./locksim run $$files --parallel 4 --retry-unknown 2 --why=false --out $$out; status=$$?; \
	if [ $$status -eq 0 ]; then rm -rf $$out; else echo "scenarios: the reports are kept in $$out"; fi; exit $$status

# Issue 27: every claim a report makes is true (not part of `make test`;
# .ci/run runs it after the tests, with claims-sweep; go test verifies the
# accuracy corpus's claims and the refused mutations). Runs the catalogue
# (scenarios/ and scenarios/field/) at 3 seeds each (their own and the next
# two), whatever the verdicts, and verifies every report's claims against its
# history with the independent verifier (locksim check --claims); one false
# claim fails it. The accuracy corpus's claims are verified by go test
# (internal/claim/verify). CLAIMS_COUNT=N for more seeds; adapters whose
# tools are missing are left out as in `scenarios`. The runs go at the
# default parallelism (adaptive, fewer at once while runs finish late):
# a run the machine spoiled is unknown, and its claims must hold all the
# same. The reports are verified four at a time (checkall.sh).
CLAIMS_COUNT ?= 3
claims: build adapters
	@$(call shipped,claims); \
	out=$$(mktemp -d -t locksim-claims-XXXXXX); ./locksim run $$files --count $(CLAIMS_COUNT) --why=false --out $$out >/dev/null; \
	sh internal/claim/verify/checkall.sh ./locksim $$out; status=$$?; \
	if [ $$status -eq 0 ]; then rm -rf $$out; else echo "claims: the reports are kept in $$out"; fi; exit $$status

# A random-fault sweep's claims (200 runs of fencing-random-nemesis.yaml,
# seeds 1000-1199), run by .ci/run after the tests. SWEEP_FILE and
# SWEEP_COUNT choose another.
SWEEP_FILE ?= scenarios/fencing-random-nemesis.yaml
SWEEP_COUNT ?= 200
claims-sweep: build
	@out=$$(mktemp -d -t locksim-claims-XXXXXX); ./locksim run $(SWEEP_FILE) --seed 1000 --count $(SWEEP_COUNT) --why=false --out $$out >/dev/null; \
	sh internal/claim/verify/checkall.sh ./locksim $$out; status=$$?; \
	if [ $$status -eq 0 ]; then rm -rf $$out; else echo "claims: the reports are kept in $$out"; fi; exit $$status

# Issues 8, 18 and 29: every performance figure with its target and PASS/FAIL
# (each benchmark runs in its own process; see internal/e2e/cmd/benchsum).
# Takes several minutes (the sweep figure runs 1000 scenario runs, the map
# 250, the shard figure 1200); BENCHFLAGS='-sweep-count 100' or
# BENCHFLAGS='-only Map|Shrink|Shards' for less.
bench:
	$(GO) run ./internal/e2e/cmd/benchsum $(BENCHFLAGS)

build:
	$(GO) build -o locksim ./cmd/locksim

clean:
	rm -f locksim
