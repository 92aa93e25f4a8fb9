# Weir — the commands a developer, CI and a newcomer use. Everything needs only Go.
GO      ?= go
BIN     := bin/weir
EXAMPLES := $(sort $(dir $(wildcard examples/*/rules/)))
BENCH_PKGS := ./rules/... ./policies/... ./gateway/... ./adapters/...

.PHONY: build test vet unit check-examples bench run classify-examples clean

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

## run: Weir in front of a scripted model on the analytics example (no key, no network needed).
## Point any OpenAI client at http://127.0.0.1:8080/v1; Ctrl-C stops both.
run: build
	@$(BIN) mock-llm --script examples/analytics/mock-llm.yaml --listen 127.0.0.1:8081 & mock=$$!; \
	trap 'kill $$mock 2>/dev/null' EXIT INT TERM; \
	echo "Weir: http://127.0.0.1:8080/v1 (analytics example, enforce + rewrite), admin: http://127.0.0.1:9090/metrics"; \
	echo "Upstream: a scripted model on http://127.0.0.1:8081/v1 (examples/analytics/mock-llm.yaml). Try:"; \
	echo "  curl -si http://127.0.0.1:8080/v1/chat/completions -H 'content-type: application/json' \\"; \
	echo "    -d '{\"model\":\"any\",\"messages\":[{\"role\":\"user\",\"content\":\"Grazie, perfetto!\"}]}'"; \
	$(BIN) serve --config examples/analytics/weir.yaml

## classify-examples: every example pack's inline test questions as a table.
classify-examples: build
	@for d in $(EXAMPLES); do ex=$${d%/rules/}; echo; echo "== $$ex"; $(BIN) check -v --rules $$ex/rules | grep -v '^rules '; done

clean:
	rm -rf bin
