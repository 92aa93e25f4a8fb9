# Weir — the commands a developer, CI and a newcomer use. Everything needs only Go.
GO      ?= go
BIN     := bin/weir
EXAMPLES := $(sort $(dir $(wildcard examples/*/rules/)))
BENCH_PKGS := ./rules/... ./policies/... ./gateway/... ./adapters/...
BENCHTIME ?= 300ms
LOAD_FLAGS ?=

.PHONY: build test vet lint unit check-examples fuzz-smoke bench bench-load run classify-examples clean

build:
	$(GO) build -o $(BIN) ./cmd/weir

## test: vet, golangci-lint, the race-enabled test suite, `weir check` over every example pack
## and bundle, and a short run of every fuzz target.
test: vet lint unit check-examples fuzz-smoke

vet:
	$(GO) vet ./...

## lint: golangci-lint with .golangci.yml, built from the module proxy at a pinned version
## (the first run builds it: a minute or two; cached after).
GOLANGCI_LINT ?= $(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
lint:
	$(GOLANGCI_LINT) run ./...

## unit: every test under the race detector; then the classifier's and the policies' agreement
## tests (random inputs, fast path against reference) and the grounding measurements at full
## size without it: under -race they run a tenth of their samples or skip (race_on_test.go).
unit:
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 ./rules/... ./policies/...

check-examples: build
	@set -e; for d in $(EXAMPLES); do \
		ex=$${d%/rules/}; args="--rules $$ex/rules"; \
		if [ -d $$ex/policies ]; then args="$$args --policies $$ex/policies"; fi; \
		echo "== weir check $$args"; $(BIN) check $$args; \
	done

## fuzz-smoke: each fuzz target of the reliability suite for FUZZTIME from its seeds and
## committed corpus (testdata/fuzz); a crash fails the build and leaves its input under the
## package's testdata/fuzz, to be committed as a regression test with the fix. The first run
## builds coverage-instrumented copies of the dependencies (minutes once, cached after).
# A count, not a duration: with -fuzztime 2s Go's fuzz coordinator can fail a healthy target
# with "context deadline exceeded" when the deadline hits while it minimises a new input.
FUZZTIME ?= 20000x
FUZZ_TARGETS := ./rules:FuzzLoad ./rules:FuzzClassify \
	./policies/grounding:FuzzExtract ./policies/grounding:FuzzCheck ./policies:FuzzParseArguments \
	./adapters/data:FuzzPlan ./gateway/config:FuzzParse ./gateway/internal/strictjson:FuzzParse ./gateway/openai:FuzzCompletion ./gateway/openai:FuzzLaterChunk \
	./gateway/audit:FuzzSealMatchesJSON ./gateway:FuzzSSE ./gateway:FuzzStreamRelay ./gateway:FuzzChatResponse \
	./gateway/query/nl:FuzzParse ./adapters/docs:FuzzSearch ./adapters/docs:FuzzParseArguments

fuzz-smoke:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; echo "== fuzz $$fn $$pkg"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

## bench: every stage benchmark (-benchmem) and then the load harness, printed as one table
## with DESIGN.md's budgets (a few minutes on 2 cores). Raw benchmark output: bin/bench-stages.txt.
## Steadier numbers: make bench BENCHTIME=1s LOAD_FLAGS='--duration 8s --rounds 8'
bench: build
	@echo "go test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(BENCH_PKGS) > bin/bench-stages.txt"
	@$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(BENCH_PKGS) > bin/bench-stages.txt; st=$$?; \
	$(BIN) bench --stages bin/bench-stages.txt $(LOAD_FLAGS) || st=1; exit $$st

## bench-load: the load harness alone (weir bench --help for its flags).
bench-load: build
	$(BIN) bench $(LOAD_FLAGS)

## run: Weir on the analytics example: in front of a scripted model (no key, no network needed),
## and answering questions from the demo data on POST /v1/query.
## Point any OpenAI client at http://127.0.0.1:8080/v1; Ctrl-C stops both.
run: build
	@$(BIN) mock-llm --script examples/analytics/mock-llm.yaml --listen 127.0.0.1:8081 & mock=$$!; \
	trap 'kill $$mock 2>/dev/null' EXIT INT TERM; \
	echo "Weir: http://127.0.0.1:8080/v1 (analytics example, enforce + rewrite), admin: http://127.0.0.1:9090/metrics"; \
	echo "Upstream: a scripted model on http://127.0.0.1:8081/v1 (examples/analytics/mock-llm.yaml). Try:"; \
	echo "  curl -si http://127.0.0.1:8080/v1/chat/completions -H 'content-type: application/json' \\"; \
	echo "    -d '{\"model\":\"any\",\"messages\":[{\"role\":\"user\",\"content\":\"Grazie, perfetto!\"}]}'"; \
	echo "Weir answers from the demo data itself (embedded SQLite, no model needed):"; \
	echo "  curl -s http://127.0.0.1:8080/v1/query -d '{\"query\": \"Qual è il fatturato totale?\"}'"; \
	echo "  curl -s http://127.0.0.1:8080/v1/query -d '{\"query\": \"How many orders?\"}'"; \
	$(BIN) serve --config examples/analytics/weir.yaml

## classify-examples: every example pack's inline test questions as a table.
classify-examples: build
	@for d in $(EXAMPLES); do ex=$${d%/rules/}; echo; echo "== $$ex"; $(BIN) check -v --rules $$ex/rules | grep -v '^rules '; done

clean:
	rm -rf bin
