# Weir — the commands a developer, CI and a newcomer use. Everything needs only Go.
GO      ?= go
BIN     := bin/weir
EXAMPLES := $(sort $(dir $(wildcard examples/*/rules/)))
BENCH_PKGS := ./rules/ ./policies/...

.PHONY: build test vet unit check-examples bench run clean

build:
	$(GO) build -o $(BIN) ./cmd/weir

## test: vet, the race-enabled test suite, and `weir check` over every example pack and bundle.
test: vet unit check-examples

vet:
	$(GO) vet ./...

unit:
	$(GO) test -race -count=1 ./...

check-examples: build
	@set -e; for d in $(EXAMPLES); do \
		ex=$${d%/rules/}; args="--rules $$ex/rules"; \
		if [ -d $$ex/policies ]; then args="$$args --policies $$ex/policies"; fi; \
		echo "== weir check $$args"; $(BIN) check $$args; \
	done

## bench: every stage benchmark with allocation counts.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(BENCH_PKGS)

## run: until the gateway exists, classify every example pack's sample questions as a table.
run: build
	@for d in $(EXAMPLES); do ex=$${d%/rules/}; echo; echo "== $$ex"; $(BIN) check -v --rules $$ex/rules | grep -v '^rules '; done

clean:
	rm -rf bin
