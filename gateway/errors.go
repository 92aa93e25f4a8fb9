package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Kind classifies a request error; statusOf maps each to its HTTP status, in one place.
type Kind int

// The kinds of request error.
const (
	KindInternal          Kind = iota // a bug or an unexpected failure: 500
	KindBadRequest                    // malformed JSON or a request Weir cannot serve: 400
	KindNotFound                      // no route or endpoint: 404
	KindTooLarge                      // body over limits.max_body_bytes: 413
	KindHeaderTooLarge                // headers over limits.max_header_bytes: 431
	KindToolBlocked                   // enforce + error, a proposed tool call is denied: 403
	KindNotAdmitted                   // enforce, the request decision denies: 403
	KindAnswerRejected                // enforce + error, the response decision denies: 422
	KindPolicy                        // a decision failed to evaluate (fail closed): 500
	KindUpstreamDown                  // connection refused, reset, bad response: 502
	KindUpstreamTimeout               // the upstream took longer than its timeout: 504
	KindAuditUnavailable              // audit on_error: fail_closed and the record was not written: 503
	KindNotReady                      // no snapshot yet: 503
	KindRateLimited                   // a model's rate limit (query surface): 429
	KindUpstreamStatus                // the upstream answered an error status: that status
	KindUnauthenticated               // credentials missing or not valid: 401
	KindLimited                       // the caller's or its tenant's budget is spent: 429 with Retry-After
	KindLimitsUnavailable             // the rate-limit store cannot be reached (on_store_error: deny): 503
)

// Error is a request error: a kind, a stable code for the client and the audit trail, and a
// message that may be shown to the client (it never contains secrets).
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Err     error // the cause: never shown to the client, logged only as its code

	// The upstream's error answer (KindUpstreamStatus): its status, and its type and param
	// when they are identifiers. Its message is not kept: it is text Weir does not judge.
	Status      int
	Type, Param string

	// RetryAfter is when a KindLimited request would be allowed (the Retry-After header).
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// statusOf is the one place request errors get their HTTP status.
func statusOf(err error) int {
	var e *Error
	if !errors.As(err, &e) {
		return http.StatusInternalServerError
	}
	switch e.Kind {
	case KindBadRequest:
		return http.StatusBadRequest
	case KindNotFound:
		return http.StatusNotFound
	case KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case KindHeaderTooLarge:
		return http.StatusRequestHeaderFieldsTooLarge
	case KindToolBlocked, KindNotAdmitted:
		return http.StatusForbidden
	case KindUnauthenticated:
		return http.StatusUnauthorized
	case KindLimited:
		return http.StatusTooManyRequests
	case KindLimitsUnavailable:
		return http.StatusServiceUnavailable
	case KindAnswerRejected:
		return http.StatusUnprocessableEntity
	case KindUpstreamDown:
		return http.StatusBadGateway
	case KindUpstreamTimeout:
		return http.StatusGatewayTimeout
	case KindAuditUnavailable, KindNotReady:
		return http.StatusServiceUnavailable
	case KindRateLimited:
		return http.StatusTooManyRequests
	case KindUpstreamStatus:
		return e.Status
	default:
		return http.StatusInternalServerError
	}
}

// errorType is the OpenAI error "type" of an error.
func errorType(err error) string {
	var e *Error
	if !errors.As(err, &e) {
		return "server_error"
	}
	switch e.Kind {
	case KindToolBlocked, KindNotAdmitted, KindAnswerRejected:
		return "policy_violation"
	case KindBadRequest, KindTooLarge, KindHeaderTooLarge, KindNotFound:
		return "invalid_request_error"
	case KindUpstreamDown, KindUpstreamTimeout:
		return "upstream_error"
	case KindUnauthenticated:
		return "authentication_error"
	case KindLimited:
		return e.Type // requests or tokens, as OpenAI's own 429s say
	case KindUpstreamStatus:
		if e.Type != "" {
			return e.Type
		}
		return "upstream_error"
	default:
		return "server_error"
	}
}

// codeOf returns the stable code of err.
func codeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return "internal_error"
}

// publicMessage is what the client sees: the message of an *Error, never the cause.
func publicMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// errorHeaders are the response headers an error answer carries besides Weir's own:
// WWW-Authenticate on a 401, Retry-After (whole seconds, rounded up) on Weir's own 429 and
// on a 503 of an unreachable limits store.
func errorHeaders(err error) []header {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	switch e.Kind {
	case KindUnauthenticated:
		return []header{{"WWW-Authenticate", `Bearer realm="weir"`}}
	case KindLimited:
		secs := int64((e.RetryAfter + time.Second - 1) / time.Second)
		return []header{{"Retry-After", strconv.FormatInt(max(secs, 1), 10)}}
	case KindLimitsUnavailable:
		return []header{{"Retry-After", "1"}}
	}
	return nil
}
