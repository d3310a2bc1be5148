# adtest: the README's two set-up commands are `make demo` and `make test`.
GO ?= go
FUZZTIME ?= 10s

.PHONY: all build setup demo test unit fuzz bench docs vet stress stress-browser stress-grid todomvc todomvc-compare bench-compare components components-compare

all: build

build:
	$(GO) build ./...

setup:
	@bash scripts/setup.sh

# The main job: check, then run the bundled example suite headless against the
# example app served by adtest on a loopback port, with JUnit and JSON reports.
demo:
	@bash scripts/setup.sh --demo
	$(GO) build -o bin/adtest ./cmd/adtest
	bin/adtest check examples/
	bin/adtest run --serve-example -j 2 \
	  --reporter console --reporter junit=.adtest/demo/junit.xml --reporter json=.adtest/demo/result.json \
	  --reporter html \
	  examples/web/suite
	bash examples/android/demo.sh

# Every test, fuzz targets briefly included. vet runs beside the fuzz stage,
# whose length is fixed (FUZZTIME a target): after the unit stage it has
# only its checks left to do (the packages are compiled), and on two cores
# it then adds nothing to the gate's time. A failure of either fails.
test: setup
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory -j 2 vet fuzz

vet:
	$(GO) vet ./...

# The web driver's tests run twice: the second time on pages whose frames
# the sessions draw, as a run that records traces has them.
unit:
	$(GO) test -count=1 ./...
	ADTEST_TEST_FRAME_CONTROL=1 $(GO) test -count=1 ./drivers/web/

fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) bash scripts/fuzz.sh

# Flake rates, not in the gate: the web regression flows of issue 8 repeated
# (30 cold runs and 30 warm repetitions of each flow), and the tests that
# start adb, the daemon or Chromium from the command line 20 times each.
stress:
	ADTEST_STRESS_RUNS=30 $(GO) test -count=1 -timeout 60m -run '^TestFlows(Cold|Warm)$$' ./examples/web/
	$(GO) test -count=20 -timeout 60m ./drivers/android/... ./internal/testsupport/adbtest/ ./internal/testsupport/fakedevice/ ./daemon/
	$(GO) test -count=20 -timeout 60m -run '^TestScripts$$/^(android|interactive)_' ./cmd/adtest/

# Every other test that starts Chromium, 20 times each: the web driver, the
# runner's, the report's and the repair corpus's browser tests, the example
# suite, the gate's TodoMVC cells and the command line's testscripts. Hours
# on two cores; run it with a core kept busy (yes > /dev/null) to see flakes.
stress-browser: setup
	$(GO) test -count=20 -timeout 240m ./drivers/web/ ./runner/webtest/ ./reporters/html/ ./runner/repair/ ./examples/web/
	$(GO) test -count=20 -timeout 240m -run '^TestMatrix$$' ./examples/todomvc/
	$(GO) test -count=20 -timeout 240m ./cmd/adtest/

# The runs on a real Selenium Grid (examples/grid: a hub and two nodes,
# the example suite, an interrupt, a killed node), 10 times each. Not in
# the gate, which runs them once.
stress-grid: setup
	$(GO) test -count=10 -timeout 120m ./examples/grid/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Regenerate the checked-in command reference from the command table.
docs:
	$(GO) run ./cmd/adtest help commands --markdown > docs/commands.md

# Not part of `make test` (which runs the gate's TodoMVC apps only): the nine
# TodoMVC flows on every complete app of the package, about 12 minutes on two cores.
todomvc: setup
	$(GO) test -count=1 -timeout 40m ./examples/todomvc -run TestMatrix -args -matrix-all

# Not part of `make test`: the TodoMVC flows of examples/todomvc under adtest
# and under Playwright Test (pinned, installed into the user cache), side by
# side. TODOMVC_FLAGS="-j 1 --only backbone,react" narrows it.
todomvc-compare: setup
	bash scripts/todomvc-playwright.sh $(TODOMVC_FLAGS)

# Not part of `make test`: adtest and Playwright Test on the same headless
# shell, TodoMVC's gate apps, alternating whole-process runs, medians and
# the ratio pair by pair, adtest's step time per command (docs/performance.md).
# BENCH_FLAGS="-n 9 -j 2 -- --trace retain-on-failure" changes it.
bench-compare: setup
	bash scripts/bench-compare.sh $(BENCH_FLAGS)

# Not part of `make test` (which runs the component flows expected to pass):
# every flow of examples/components under adtest, held to its expectations.
components: setup
	$(GO) test -count=1 -timeout 20m ./examples/components -run TestFlows -args -components-all

# Not part of `make test`: the component flows under adtest and under
# Playwright Test (pinned, in the user cache), side by side, flow by flow.
# COMPONENTS_FLAGS="--flows grid/1-sort,tinymce/2-replace" narrows it.
components-compare: setup
	bash scripts/components-playwright.sh $(COMPONENTS_FLAGS)
