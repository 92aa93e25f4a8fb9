package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"mime"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// dataSurface is the surface of a data route: a reverse proxy in front of an existing data API.
// Weir classifies the route's natural-language parameter and admits or denies; the data
// API's answer is its own data, not a model's, and passes through with allowlisted headers.
type dataSurface struct {
	body []byte // the body to forward: a JSON body as Weir re-encoded it, else the client's
}

func (d *dataSurface) decides() bool         { return true }
func (d *dataSurface) kind(*exchange) string { return "data_api" }

// decode finds the text to classify: the route's parameter in the query string, a form
// body, or as the top-level string field of a JSON body. A request without it is
// classified as empty text, which gives the pack's default intent, and the policy decides.
// Weir must classify the text the data API reads, so a parameter given more than once (the
// API may read another copy), a key that differs from it only in case, and a JSON body
// Weir cannot read unambiguously are refused.
func (d *dataSurface) decode(x *exchange) error {
	param := x.route.cfg.Param
	var found []string
	for _, v := range x.rc.QueryArgs().PeekMulti(param) {
		found = append(found, string(v))
	}
	body := x.rc.Request.Body()
	d.body = body
	ct, _, _ := mime.ParseMediaType(string(x.rc.Request.Header.ContentType()))
	switch {
	case len(body) == 0:
	case ct == "application/x-www-form-urlencoded":
		for _, v := range x.rc.PostArgs().PeekMulti(param) {
			found = append(found, string(v))
		}
	case ct == "multipart/form-data":
		f, err := x.rc.MultipartForm()
		if err != nil {
			return errorf(KindBadRequest, "invalid_request", "the multipart/form-data body could not be read")
		}
		found = append(found, f.Value[param]...)
	case ct == "application/json" || strings.HasSuffix(ct, "+json") || bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")):
		v, canon, err := jsonParam(body, param)
		if err != nil {
			return err
		}
		found, d.body = append(found, v...), canon
	}
	switch len(found) {
	case 0:
		return nil
	case 1:
		x.req.Question = found[0]
		return nil
	default:
		return errorf(KindBadRequest, "ambiguous_parameter", "%s is given %d times; give it once, so that the text weir classifies is the text the data API reads", param, len(found))
	}
}

// jsonParam returns the top-level string field param of a JSON body (none when the body is
// not an object or lacks it) and the body as Weir re-encoded it from what it read.
func jsonParam(body []byte, param string) ([]string, []byte, error) {
	doc, err := strictjson.Parse(body)
	if err != nil {
		var se *strictjson.Error
		switch {
		case errors.As(err, &se) && (se.Reason == strictjson.DuplicateKey || se.Reason == strictjson.CaseTwin):
			return nil, nil, errorf(KindBadRequest, "ambiguous_json", "the request body is ambiguous: %v; clients could read it differently", se)
		case errors.As(err, &se) && se.Reason == strictjson.TooDeep:
			return nil, nil, errorf(KindBadRequest, "invalid_json", "the request body is nested too deeply")
		}
		return nil, nil, errorf(KindBadRequest, "invalid_json", "the request body is not valid JSON")
	}
	canon := strictjson.AppendValue(nil, doc.Root())
	root := doc.Root()
	if root.Kind() != strictjson.Object {
		return nil, canon, nil
	}
	for k := range root.Members() {
		if k != param && strictjson.FoldEqual(k, param) {
			return nil, nil, errorf(KindBadRequest, "ambiguous_json", "the key %q differs only in case from %s; the data API could read it as %s", k, param, param)
		}
	}
	v := root.Get(param)
	switch v.Kind() {
	case strictjson.Missing:
		return nil, canon, nil
	case strictjson.String:
		return []string{v.Str()}, canon, nil
	}
	return nil, nil, errorf(KindBadRequest, "invalid_request", "%s must be a string", param)
}

// upstream forwards the request with Weir's headers and keeps the data API's answer.
func (d *dataSurface) upstream(ctx context.Context, x *exchange) error {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	up := x.route.upstream
	up.prepare(&x.rc.Request, req, x.subPath, x.rc.RemoteIP(), dataQuery)
	if ct := x.rc.Request.Header.ContentType(); len(ct) > 0 {
		req.Header.SetContentTypeBytes(ct)
	}
	req.SetBody(d.body)
	filters, err := json.Marshal(x.class.Filters)
	if err != nil {
		filters = []byte("{}")
	}
	req.Header.Set("X-Weir-Intent", x.class.Intent)
	req.Header.SetBytesV("X-Weir-Filters", filters)
	req.Header.Set("X-Weir-Decision-Id", x.decisionID)
	if err := up.do(ctx, req, resp); err != nil {
		x.countUpstreamError(err)
		return err
	}
	x.upstreamStatus = resp.StatusCode()
	raw, err := resp.BodyUncompressedWithLimit(maxUpstreamBody)
	if err != nil {
		return &Error{Kind: KindUpstreamDown, Code: "upstream_invalid_response", Message: "the upstream answer could not be decompressed", Err: err}
	}
	body := append([]byte(nil), raw...)
	if !success(x.upstreamStatus) {
		body = withDecisionID(body, x.decisionID)
	}
	x.out = output{status: x.upstreamStatus, body: body,
		headers: keptResponseHeaders(&resp.Header, dataResponseHeaders, forwardedResponsePrefixes)}
	return nil
}

// withDecisionID adds decision_id to a data API's error body in the OpenAI format
// ({"error": {...}}), re-encoded by Weir, so every error a client sees carries it; another
// body is passed on as it is (the X-Weir-Decision-Id header carries the id).
func withDecisionID(body []byte, id string) []byte {
	doc, err := strictjson.Parse(body)
	if err != nil || doc.Root().Get("error").Kind() != strictjson.Object {
		return body
	}
	var w strictjson.Writer
	w.ObjectStart()
	for k, v := range doc.Root().Members() {
		w.Key(k)
		if k != "error" {
			w.Value(v)
			continue
		}
		w.ObjectStart()
		for ek, ev := range v.Members() {
			if ek != "decision_id" {
				w.Key(ek)
				w.Value(ev)
			}
		}
		w.Key("decision_id")
		w.String(id)
		w.ObjectEnd()
	}
	w.ObjectEnd()
	return w.Bytes()
}

func (d *dataSurface) encode(*exchange) error { return nil } // the data API's answer, as kept

func (d *dataSurface) encodeError(x *exchange, err error) { x.out = openaiError(x, err) }
