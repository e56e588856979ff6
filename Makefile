# fxd: `make run` serves the embedded default; `make test` runs every test.
GO      ?= go
BIN     := bin/fxd
DATA    ?= ./data
export GOFLAGS := -buildvcs=false
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X github.com/fxd-labs/fxd/internal/buildinfo.version=$(VERSION) \
           -X github.com/fxd-labs/fxd/internal/buildinfo.commit=$(COMMIT)

.PHONY: run example build test vet lint fuzz bench torture contracts clean

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/fxd

run: build
	@DATA=$(DATA) BIN=$(BIN) scripts/run.sh

# A first trade, end to end, against a running `make run` (examples/README.md).
example:
	$(GO) run ./examples/go/firsttrade --data-dir $(DATA)

# The whole suite: gofmt, vet, staticcheck, unit and fuzz-seed tests (race detector),
# then the integration tests that start the real binary on loopback. The e2e
# step takes 9-11 min on the 2-core machine, and make test as a whole ran 1.28x
# as long in CI (1208 s against 946 s), so the e2e timeout, which is only there
# to end a hang, is 30 min: 15 min would leave a slower run 2-3 min of room.
# Unit packages run four at a time (-p 4, twice the CPUs): many of them wait
# (elections, sealed blocks, fsyncs) while the CPUs could work, and no unit
# test asserts a timing. Measured on the 2-core machine with a warm build
# cache: 236 s against 296 s at the default of one package per CPU.
test: lint
	$(GO) test -race -count=1 -p 4 -timeout 15m $$($(GO) list ./... | grep -v /e2e)
	$(GO) test -count=1 -tags faultinject ./internal/faultinject/
	$(GO) test -count=1 -timeout 30m ./e2e/...

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) vet -tags faultinject ./internal/faultinject/

# staticcheck, and go.mod/go.sum exactly as `go mod tidy` leaves them
# (-diff changes nothing and fails on a difference).
lint: vet
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
	$(GO) mod tidy -diff

# Short fuzzing of every parser, FUZZTIME each (scripts/fuzz.sh; the seeds in
# testdata/ run in `make test`).
FUZZTIME ?= 30s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

# Recompile the Solidity contracts (pinned solc from npm) and regenerate the
# committed ABI, bytecode and Go bindings; a test fails when they drift.
contracts:
	bash chain/contracts/build.sh

bench: build
	$(GO) run ./bench/cmd/fxbench -bin $(BIN) -out bench/results

# The long torture run (torture/): seeded workload over every record kind,
# kill -9 / SIGSTOP / hostile webhook receivers, history checks; the summary
# goes to bench/results/torture-<date>.json.
DURATION ?= 1h
torture: build
	$(GO) run ./torture/cmd/fxtorture -bin $(BIN) -duration $(DURATION) -out bench/results

clean:
	rm -rf bin
