package query

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// Request is the body of POST /v1/query.
type Request struct {
	Query     string  `json:"query"`
	SessionID string  `json:"session_id,omitempty"`
	Options   Options `json:"options"`
}

// Options tune one question.
type Options struct {
	// Mode forces a route: simple (data), complex (llm), hybrid (data+llm); auto (default)
	// takes the intent's route from the rule pack.
	Mode string `json:"mode,omitempty"`
	// MaxResults lowers the route's row cap for this question.
	MaxResults int `json:"max_results,omitempty"`
	// IncludeMetadata, default true, adds the metadata object to the response.
	IncludeMetadata *bool `json:"include_metadata,omitempty"`
	// Page, from 1, is the page of a listing to return (seed 000's pagination above 50
	// results); each page has the route's row cap.
	Page int `json:"page,omitempty"`
	// Explain adds to the metadata the semantic query, the SQL (or request) of every read
	// and what the question asked that the query does not cover.
	Explain bool `json:"explain,omitempty"`
}

// The modes of Options.Mode.
const (
	ModeAuto    = "auto"
	ModeSimple  = "simple"
	ModeComplex = "complex"
	ModeHybrid  = "hybrid"
)

// The route kinds an intent's route takes (rules.Route.Kind).
const (
	KindData    = "data"
	KindLLM     = "llm"
	KindDataLLM = "data+llm"
	KindAgent   = "agent"
)

// MaxQueryBytes caps the question's length.
const MaxQueryBytes = 8 << 10

// DecodeRequest parses a request body strictly: unknown keys, wrong types and an empty or
// oversized question are errors with a message a client can act on.
func DecodeRequest(body []byte) (*Request, error) {
	var r Request
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("the body is not a valid query request: %s", jsonProblem(err))
	}
	if dec.More() {
		return nil, errors.New("the body has data after the JSON object")
	}
	if err := exactKeys(body); err != nil {
		return nil, err
	}
	switch {
	case strings.TrimSpace(r.Query) == "":
		return nil, errors.New("query is required and must not be empty")
	case len(r.Query) > MaxQueryBytes:
		return nil, fmt.Errorf("query is longer than %d bytes", MaxQueryBytes)
	case !utf8.ValidString(r.Query):
		return nil, errors.New("query is not valid UTF-8")
	case len(r.SessionID) > 256:
		return nil, errors.New("session_id is longer than 256 bytes")
	case r.Options.MaxResults < 0:
		return nil, errors.New("options.max_results must not be negative")
	case r.Options.Page < 0:
		return nil, errors.New("options.page must not be negative")
	}
	switch r.Options.Mode {
	case "", ModeAuto, ModeSimple, ModeComplex, ModeHybrid:
	default:
		return nil, fmt.Errorf("options.mode must be auto, simple, complex or hybrid, not %q", r.Options.Mode)
	}
	return &r, nil
}

// requestKeys and optionKeys are the members a request may have, written exactly so.
var (
	requestKeys = []string{"query", "session_id", "options"}
	optionKeys  = []string{"mode", "max_results", "include_metadata", "page", "explain"}
)

// exactKeys refuses what encoding/json accepts but readers could take differently: a key
// twice, two keys that differ only in case, and a key not written exactly as the field it
// fills ("Query", "OPTIONS", "Mode"), which encoding/json matches without case and a client
// or a proxy in front of Weir that reads exact keys does not.
func exactKeys(body []byte) error {
	doc, err := strictjson.Parse(body)
	if err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) && (se.Reason == strictjson.DuplicateKey || se.Reason == strictjson.CaseTwin) {
			return fmt.Errorf("the body is ambiguous: %v; readers could take it differently", se)
		}
		return fmt.Errorf("the body is not a valid query request: %v", err)
	}
	root := doc.Root()
	for k, v := range root.Members() {
		if !slices.Contains(requestKeys, k) {
			return fmt.Errorf("the key %q is not written as a request field; allowed: query, session_id, options", k)
		}
		if k != "options" || v.Kind() != strictjson.Object {
			continue
		}
		for ok := range v.Members() {
			if !slices.Contains(optionKeys, ok) {
				return fmt.Errorf("the key options.%q is not written as an option; allowed: mode, max_results, include_metadata, page, explain", ok)
			}
		}
	}
	return nil
}

func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return fmt.Sprintf("%s must be %s", te.Field, te.Type)
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d", se.Offset)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ") + "; allowed: query, session_id, options{mode, max_results, include_metadata, page, explain}"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "truncated or empty JSON"
	}
	return "malformed JSON"
}

// Response is a successful answer (seed 000's QueryResponse, generalised).
type Response struct {
	// Type is the query type: simple (data), complex (llm), hybrid (data+llm) or agent.
	Type string `json:"type"`
	// Answer is the answer to show: from the data, the model, or a known answer.
	Answer string `json:"answer"`
	// Analysis is the model's analysis of the rows, in hybrid answers.
	Analysis string `json:"analysis,omitempty"`
	// Columns and Rows are the data the answer rests on (at most the row cap).
	Columns []string   `json:"columns,omitempty"`
	Rows    []data.Row `json:"rows,omitempty"`
	// Known is the known question/answer pair the answer came from or was informed by.
	Known *KnownMatch `json:"known_answer,omitempty"`
	// Result is the answer's value as data: the value, the groups, or the number of rows.
	Result *Result `json:"result,omitempty"`
	// Passages are the document passages the answer rests on, with file and page.
	Passages []Passage `json:"passages,omitempty"`
	Metadata *Metadata `json:"metadata,omitempty"`
}

// Result is what an answer from the data presents: one value (scalar), labelled values
// (groups: a breakdown, a ranking, a comparison), rows (with their count), or none (the
// question could not be answered from the data).
type Result struct {
	Shape string `json:"shape"`
	// Value is a scalar answer's value, in Unit.
	Value any    `json:"value,omitempty"`
	Unit  string `json:"unit,omitempty"`
	// Measure names the value (revenue, count, average_AGE).
	Measure string `json:"measure,omitempty"`
	// Groups are [label, value] pairs, in order.
	Groups [][]any `json:"groups,omitempty"`
	// Count is the number of rows of a listing.
	Count *int64 `json:"count,omitempty"`
	// Difference compares the last side of a comparison with the first.
	Difference *semantic.Difference `json:"difference,omitempty"`
	// Growth is the value grown by the percentage the question asks.
	Growth *semantic.Growth `json:"growth,omitempty"`
	// Notes say how the question was read.
	Notes []string `json:"notes,omitempty"`
}

// StepRecord is one read a question made — a step of its semantic query or a document
// search — for --explain.
type StepRecord struct {
	Source string      `json:"source"`
	Tool   string      `json:"tool"`
	Why    string      `json:"why"`
	Query  *data.Query `json:"query,omitempty"`
	SQL    string      `json:"sql,omitempty"`
	Args   []any       `json:"args,omitempty"`
	// Search and Limit are a document search's text and passage limit; Found cites the
	// passages it returned, best first.
	Search  string   `json:"search,omitempty"`
	Limit   int      `json:"limit,omitempty"`
	Found   []string `json:"found,omitempty"`
	Allowed bool     `json:"allowed"`
}

// SourceResult is one data source's part of a fan-out.
type SourceResult struct {
	Name    string      `json:"name"`
	Quality float64     `json:"quality"`
	Used    bool        `json:"used"`
	Total   int64       `json:"totalCount"`
	Query   *data.Query `json:"query,omitempty"`
	Columns []string    `json:"columns,omitempty"`
	Rows    []data.Row  `json:"rows,omitempty"`
	Error   string      `json:"error,omitempty"`
}

// Metadata is seed 000's QueryMetadata plus what an operator needs to trace the answer.
type Metadata struct {
	QueryType string `json:"queryType"`
	Intent    string `json:"intent"`
	// Route is the route kind the question took: data, llm, data+llm, agent, or known
	// (a known answer); empty when the question was refused before routing.
	Route string `json:"route"`
	// RequestedMode is options.mode as the client sent it ("" when absent).
	RequestedMode string `json:"requestedMode,omitempty"`
	// Sources are the data and document sources Weir read (or was refused to read) for
	// the answer; a document source lists the passages it found with their file and page.
	Sources          []SourceUse    `json:"sources,omitempty"`
	ExecutionTimeMs  float64        `json:"executionTimeMs"`
	FindingsAnalyzed int            `json:"findingsAnalyzed"`
	TokensUsed       int            `json:"tokensUsed"`
	Confidence       float64        `json:"confidence"`
	Classification   string         `json:"classificationSource"`
	ExtractedFilters map[string]any `json:"extractedFilters"`
	DataQuery        *data.Query    `json:"dataQuery,omitempty"`
	// SemanticQuery is the question as the semantic layer read it, with what it could
	// not cover.
	SemanticQuery *semantic.Query `json:"semanticQuery,omitempty"`
	// Steps are the reads of the semantic query with their SQL (options.explain).
	Steps      []StepRecord `json:"steps,omitempty"`
	Iterations int          `json:"iterations,omitempty"`
	ToolCalls  []CallRecord `json:"toolCalls,omitempty"`
	Pagination *Pagination  `json:"pagination,omitempty"`
	Warnings   []string     `json:"warnings"`
	DecisionID string       `json:"decision_id"`
}

// Pagination describes a result larger than the page returned.
type Pagination struct {
	TotalCount int64 `json:"totalCount"`
	Page       int   `json:"page"`
	PageSize   int   `json:"pageSize"`
	Paginated  bool  `json:"paginated"`
}

// SourceUse is what one data or document source gave an answer: the rows (passages) it
// returned and whether they were used, or why it was not read.
type SourceUse struct {
	Name string `json:"name"`
	// Tool is the tool name the read had in the tools decision.
	Tool  string `json:"tool"`
	Rows  int    `json:"rows"`
	Used  bool   `json:"used"`
	Error string `json:"error,omitempty"`
	// Passages are what a document source found (Rows of them), best first.
	Passages []PassageRef `json:"passages,omitempty"`
}

// CallRecord is one tool call the question made — a data read of Weir's own (origin weir)
// or a call the model proposed in the agent loop (origin model) — with its verdict, as the
// response and the audit trail show it.
type CallRecord struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Origin string `json:"origin"`
	Allow  bool   `json:"allow"`
	Reason string `json:"reason,omitempty"`
	// Outcome is rows (with Rows), empty, invalid (sent back to the model), error, or
	// denied (the policy refused it; it did not run).
	Outcome string `json:"outcome"`
	Rows    int    `json:"rows"`
	// Arguments are the call's raw arguments, for the audit trail when it records content.
	Arguments string `json:"-"`
}

// The error codes of seed 000, plus the policy's.
const (
	CodeClassification = "CLASSIFICATION_ERROR"
	CodeDatabase       = "DATABASE_ERROR"
	CodeAI             = "AI_ERROR"
	CodeValidation     = "VALIDATION_ERROR"
	CodeRateLimit      = "RATE_LIMIT_ERROR"
	CodePolicy         = "POLICY_DENIED"
	CodeAnswerRejected = "ANSWER_REJECTED"
)

// Error is a failed question: seed 000's ErrorResponse.
type Error struct {
	Status     int
	Code       string
	Message    string
	Suggestion string
	// Fallback is data that could still be shown (seed 000's fallbackData).
	Fallback *Response
	Err      error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Code + ": " + e.Message + ": " + e.Err.Error()
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// ErrorBody is the JSON of an Error.
type ErrorBody struct {
	Success bool `json:"success"`
	Error   struct {
		Code         string     `json:"code"`
		Message      string     `json:"message"`
		Suggestion   string     `json:"suggestion,omitempty"`
		FallbackData []data.Row `json:"fallbackData,omitempty"`
		DecisionID   string     `json:"decision_id"`
	} `json:"error"`
	Metadata *Metadata `json:"metadata,omitempty"`
}

// Body returns the error's JSON body, with the decision id.
func (e *Error) Body(decisionID string, md *Metadata) ErrorBody {
	var b ErrorBody
	b.Error.Code, b.Error.Message, b.Error.Suggestion, b.Error.DecisionID = e.Code, e.Message, e.Suggestion, decisionID
	if e.Fallback != nil {
		b.Error.FallbackData = e.Fallback.Rows
	}
	b.Metadata = md
	return b
}
