# Gatehouse build and test. `make run` and `make test` are the two entry points;
# see README.md. Each target installs (as root) or checks what it needs first.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
# Steps of `make test` run in the order listed and stop at the first failure.
.NOTPARALLEL:
.DEFAULT_GOAL := build

ROOT := $(CURDIR)
# sudo and some CI shells drop Go's usual location from PATH.
export PATH := $(PATH):/usr/local/go/bin

BIN := $(ROOT)/build/bin/gatehouse
DEV_BIN := $(ROOT)/build/bin/gatehouse-dev
OUT := $(ROOT)/test-output
PEERS := testdata/peers
AGENTS := testdata/agents
# Debian 12 ships WebKitGTK 4.1 only; Wails needs the tag to link against it.
WEBKIT_TAG := webkit2_41
# The production binary's tags and flags; bench/floorapp (P4's floor) is built with them too.
PROD_TAGS := desktop,production,$(WEBKIT_TAG)
PROD_LDFLAGS := -w -s
WAILS := github.com/wailsapp/wails/v2/cmd/wails@v2.13.0
NPM_CI := npm ci --no-audit --no-fund
# Xvfb's default screen is 640x480 at 8 bits, smaller than the window.
XVFB_RUN := xvfb-run -a -s "-screen 0 1920x1080x24 -nolisten tcp"

.PHONY: build licences run dev-bin frontend peers agents deps deps-test deps-package vet bindings clean package \
	test test-go test-fuzz test-frontend test-e2e test-window test-package

## Build

deps:
	scripts/deps.sh run

deps-test:
	scripts/deps.sh test

# npm ci only when the lockfile changed since the last install; npm writes
# node_modules/.package-lock.json on every install.
frontend/node_modules/.package-lock.json: $(wildcard frontend/package.json frontend/package-lock.json)
	@test -f frontend/package-lock.json || { echo "frontend/package-lock.json is missing: npm ci needs it"; exit 1; }
	cd frontend && $(NPM_CI)
	touch $@

# The Go binary embeds frontend/dist, so every Go build, vet or test needs it first.
frontend: deps frontend/node_modules/.package-lock.json
	npm --prefix frontend run build
	@test -f frontend/dist/index.html || { echo "npm run build did not produce frontend/dist/index.html"; exit 1; }

# Settings → About's list of what the binary compiles in, with each licence
# (app/licences.json, embedded): written again from go list, bundled.txt and
# node_modules at every build; the same inputs give the same bytes, and
# app's TestLicences_* fail when the committed list is out of date.
licences: frontend
	cd app && go generate -run genlicences .

build: licences
	go build -tags $(PROD_TAGS) -ldflags "$(PROD_LDFLAGS)" -o $(BIN) .
	CGO_ENABLED=0 go build -ldflags "$(PROD_LDFLAGS)" -o $(dir $(BIN))gatehouse-gateway ./cmd/gatehouse-gateway
	@echo "built $(BIN)"

# The Debian package of the production binary: build/gatehouse_VERSION_ARCH.deb
# (scripts/package.sh; README "Install"). dpkg-deb and dpkg-shlibdeps come with
# dpkg-dev, desktop-file-validate with desktop-file-utils.
package: deps-package build
	scripts/package.sh $(BIN) $(ROOT)/build

deps-package:
	scripts/deps.sh package

# Dev-tagged binary for the browser end-to-end tests: with -devserver it serves
# the frontend with live Go bindings to a browser. Never ship it.
dev-bin: frontend
	go build -tags dev,$(WEBKIT_TAG) -o $(DEV_BIN) .
	@echo "built $(DEV_BIN)"

# make run ARGS="servers list" runs a CLI command instead of the window.
run: build
	@if [ -z "$(ARGS)" ] && [ -z "$${DISPLAY:-}" ] && [ -z "$${WAYLAND_DISPLAY:-}" ]; then \
		echo "make run: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot open."; \
		echo "Run it from a desktop session, or under a virtual display: xvfb-run -a $(BIN)"; \
		exit 1; \
	fi
	$(BIN) $(ARGS)

# Regenerates frontend/wailsjs from the bound Go services.
bindings: frontend
	go run $(WAILS) generate module -tags $(WEBKIT_TAG)

## Test

$(PEERS)/node_modules/.package-lock.json: $(wildcard $(PEERS)/package.json $(PEERS)/package-lock.json)
	cd $(PEERS) && if [ -f package-lock.json ]; then $(NPM_CI); else npm install --no-audit --no-fund; fi
	touch $@

# Real MCP servers (server-everything, TypeScript SDK) that the Go tests start.
peers: deps $(PEERS)/node_modules/.package-lock.json

# npm install, not npm ci: the registry here has no copy of some of Qwen Code's
# optional packages for other systems (macOS, Windows), so the lockfile cannot
# list them and npm ci calls it out of sync. npm install still takes every
# version and checksum from the lockfile, and leaves it as it is.
$(AGENTS)/node_modules/.package-lock.json: $(wildcard $(AGENTS)/package.json $(AGENTS)/package-lock.json)
	@test -f $(AGENTS)/package-lock.json || { echo "$(AGENTS)/package-lock.json is missing: it pins the agents"; exit 1; }
	cd $(AGENTS) && npm install --no-audit --no-fund
	touch $@

# Real coding agents from npm (Qwen Code, pinned) that the window tests drive
# through `gatehouse gateway`. Installed in the folder, never globally.
agents: deps $(AGENTS)/node_modules/.package-lock.json

vet: frontend
	go vet ./...
	go vet -tags windowtest ./tests/window/ ./appframe/

# Missing peers fail the Go tests instead of skipping them.
# MCP Inspector's CLI (bench/node) is a real client of the gateway's tests.
test-go: frontend peers bench/node/node_modules/.package-lock.json
	mkdir -p $(OUT)
	GATEHOUSE_REQUIRE_PEERS=1 GATEHOUSE_TEST_OUTPUT=$(OUT) scripts/go-test.sh $(OUT)/go-test.log

# Every Go fuzz test for a few seconds (scripts/fuzz.sh); a crash fails the run.
test-fuzz:
	scripts/fuzz.sh 4

test-frontend: frontend
	npm --prefix frontend test

# Playwright (playwright-core with /usr/bin/chromium) against the dev binary under
# a virtual display, with a D-Bus session bus as on a desktop. node --test passes
# when it finds no test, so the summary ("# pass N" or "ℹ pass N") is checked.
test-e2e: deps-test dev-bin
	mkdir -p $(OUT)
	GATEHOUSE_DEV_BIN=$(DEV_BIN) GATEHOUSE_TEST_OUTPUT=$(OUT) \
		$(XVFB_RUN) dbus-run-session -- npm --prefix frontend run e2e 2>&1 | tee $(OUT)/e2e.log
	@grep -qE '^(# |ℹ )pass [1-9]' $(OUT)/e2e.log || { echo "e2e: no test passed; expected at least one"; exit 1; }

# The production binary's real WebKit window: starts its own Xvfb, needs no display.
# About a dozen starts of the app, 10-30 s each on a loaded 2-core machine.
# appframe's tests run a WebKit view set up as Wails does, on their own Xvfb too:
# the window's bridge out of reach of every frame (issue 24).
# agent_test.go drives Qwen Code (testdata/agents) through the gateway (issue 25).
test-window: deps-test build peers agents
	mkdir -p $(OUT)
	GATEHOUSE_BIN=$(BIN) GATEHOUSE_TEST_OUTPUT=$(OUT) \
		go test -tags windowtest -count=1 -timeout 10m -v ./tests/window/ ./appframe/

# Installs the package with apt-get, uses it, removes and purges it, and checks
# that only the person's data is left (tests/package/run.sh). Needs root:
# without it the test says so and is skipped. Then the same for the tarball's
# install.sh and uninstall.sh, into a temporary home and prefix (no root needed;
# tests/package/tarball.sh).
test-package: package
	tests/package/run.sh $(ROOT)/build/gatehouse_*.deb
	tests/package/tarball.sh $(ROOT)/build/gatehouse-*-linux-*.tar.gz

## Conformance

# The official MCP conformance suite in client mode against a headless client
# built from Gatehouse's own mcp package (tests/conformance/README.md). Two
# pinned suite versions, each installed from its lockfile and judged against
# its own baseline of expected failures. Not part of `make test` yet.
CONFORMANCE := tests/conformance
CONFORMANCE_BIN := $(ROOT)/build/bin/conformance-client

.PHONY: conformance-client test-conformance

$(CONFORMANCE)/node_modules/.package-lock.json: $(wildcard $(CONFORMANCE)/package.json $(CONFORMANCE)/package-lock.json)
	@test -f $(CONFORMANCE)/package-lock.json || { echo "$(CONFORMANCE)/package-lock.json is missing: npm ci needs it"; exit 1; }
	cd $(CONFORMANCE) && $(NPM_CI)
	touch $@

$(CONFORMANCE)/alpha/node_modules/.package-lock.json: $(wildcard $(CONFORMANCE)/alpha/package.json $(CONFORMANCE)/alpha/package-lock.json)
	@test -f $(CONFORMANCE)/alpha/package-lock.json || { echo "$(CONFORMANCE)/alpha/package-lock.json is missing: npm ci needs it"; exit 1; }
	cd $(CONFORMANCE)/alpha && $(NPM_CI)
	touch $@

conformance-client:
	go build -o $(CONFORMANCE_BIN) ./$(CONFORMANCE)/client
	@echo "built $(CONFORMANCE_BIN)"

# Fails when a scenario outside its baseline fails or a baselined one passes.
test-conformance: deps conformance-client $(CONFORMANCE)/node_modules/.package-lock.json $(CONFORMANCE)/alpha/node_modules/.package-lock.json
	$(CONFORMANCE)/run.sh $(CONFORMANCE_BIN) $(OUT)

test: deps-test frontend peers agents vet test-go test-fuzz test-conformance test-frontend test-e2e test-window test-bench test-package
	@echo "make test: all steps passed; artifacts in $(OUT)"

clean:
	rm -rf build/bin build/deb build/*.deb build/tar build/*.tar.gz test-output

## Performance

# Issue 6's benchmarks P1–P6, issue 11's P8, issue 15's P7 and issue 25's P11 (bench/, README "Performance"):
# the bench server, Gatehouse's core, a go-sdk and a TypeScript SDK client, the
# production window on Xvfb, the MCP Inspector and a stand-in model provider,
# in one run. Prints the table at the
# end; the raw output is in test-output/bench.txt. Not part of `make test`.
BENCH_NODE := bench/node
BENCH_SERVER := $(ROOT)/build/bin/bench-server
BENCH_ASKER := $(ROOT)/build/bin/bench-asker
BENCH_FLOOR := $(ROOT)/build/bin/bench-floorapp
BENCH_ENV = GATEHOUSE_BIN=$(BIN) GATEHOUSE_BENCH_SERVER=$(BENCH_SERVER) GATEHOUSE_BENCH_ASKER=$(BENCH_ASKER) \
	GATEHOUSE_BENCH_FLOOR=$(BENCH_FLOOR) GATEHOUSE_TEST_OUTPUT=$(OUT)
BENCH_MCP := ParseRequestedSchema|FormValidate|HistoryWrite|BrokerElicit|CarrySchema

.PHONY: bench test-bench bench-deps

$(BENCH_NODE)/node_modules/.package-lock.json: $(wildcard $(BENCH_NODE)/package.json $(BENCH_NODE)/package-lock.json)
	@test -f $(BENCH_NODE)/package-lock.json || { echo "$(BENCH_NODE)/package-lock.json is missing: npm ci needs it"; exit 1; }
	cd $(BENCH_NODE) && $(NPM_CI)
	touch $@

bench-deps: deps-test build peers $(BENCH_NODE)/node_modules/.package-lock.json
	go build -o $(BENCH_SERVER) ./bench/server
	go build -o $(BENCH_ASKER) ./bench/asker
	go build -tags $(PROD_TAGS) -ldflags "$(PROD_LDFLAGS)" -o $(BENCH_FLOOR) ./bench/floorapp
	mkdir -p $(OUT)

bench: bench-deps
	$(BENCH_ENV) go test -run '^$$' -bench . -benchtime 1x -timeout 30m ./bench/ -args -require 2>&1 | tee $(OUT)/bench.txt
	go test -run '^$$' -bench '$(BENCH_MCP)' -benchtime 300x ./mcp/ 2>&1 | tee -a $(OUT)/bench.txt
	go run ./bench/report < $(OUT)/bench.txt | tee $(OUT)/bench-table.txt
	@echo "make bench: raw output in $(OUT)/bench.txt, table in $(OUT)/bench-table.txt"

# Checks only that the benchmarks still run, with tiny sizes; no timing is judged.
test-bench: bench-deps
	$(BENCH_ENV) go test -run '^$$' -bench . -benchtime 1x -timeout 5m ./bench/ -args -require -quick 2>&1 | tee $(OUT)/test-bench.txt
	go test -run '^$$' -bench '$(BENCH_MCP)' -benchtime 3x ./mcp/ 2>&1 | tee -a $(OUT)/test-bench.txt
	go run ./bench/report < $(OUT)/test-bench.txt > /dev/null
	@grep -qE '^ok\s+github.com/gatehouse-app/gatehouse/bench\s' $(OUT)/test-bench.txt || { echo "test-bench: the bench package did not pass"; exit 1; }
	@echo "make test-bench: the benchmarks run"
