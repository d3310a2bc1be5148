# adtest: the README's two set-up commands are `make demo` and `make test`.
GO ?= go
FUZZTIME ?= 20s

.PHONY: all build setup demo test unit fuzz bench docs vet

all: build

build:
	$(GO) build ./...

setup:
	@bash scripts/setup.sh

# The main job: run the bundled example suite.
demo: setup
	$(GO) run ./cmd/adtest check examples/
	$(GO) run ./cmd/adtest parse --json examples/web/suite/login.ad >/dev/null

# Every test, fuzz targets briefly included.
test: setup vet unit fuzz

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Regenerate the checked-in command reference from the command table.
docs:
	$(GO) run ./cmd/adtest help commands --markdown > docs/commands.md
