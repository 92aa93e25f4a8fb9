package query

import (
	"context"
	"errors"
	"sort"

	"github.com/weirgw/weir/adapters/docs"
	"github.com/weirgw/weir/gateway/config"
)

// DocIndex is a configured document source (`documents:`) opened as a DocSource: an
// adapters/docs index searched under the source's tool name.
type DocIndex struct {
	cfg config.DocumentSource
	ix  *docs.Index
}

// Name is the source's name in the intents' route sources.
func (d *DocIndex) Name() string { return d.cfg.Name }

// Tool is the tool name a search has in the tools decision and for the model.
func (d *DocIndex) Tool() string { return d.cfg.Tool }

// Limit is how many passages a search returns when the call asks for no number.
func (d *DocIndex) Limit() int { return d.cfg.Limit }

// Index is the open index, shared by the DocIndexes of successive snapshots while its
// files and settings are unchanged.
func (d *DocIndex) Index() *docs.Index { return d.ix }

// Search returns the passages best matching text, best first, each with its source.
func (d *DocIndex) Search(ctx context.Context, text string, limit int) ([]Passage, error) {
	ps, err := d.ix.Search(ctx, text, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Passage, len(ps))
	for i, p := range ps {
		out[i] = Passage{Source: d.cfg.Name, Passage: p}
	}
	return out, nil
}

// OpenDocs opens every configured document source. An index of prev whose files and
// settings are unchanged (docs.Index.Unchanged) is kept rather than rebuilt — a reload does
// not reindex — and only its tool name and limit are taken from the new config. On error,
// the indexes opened here are closed again.
func OpenDocs(ctx context.Context, cfgs []config.DocumentSource, prev map[string]*DocIndex) (map[string]*DocIndex, error) {
	out := map[string]*DocIndex{}
	var errs []error
	for _, c := range cfgs {
		if p := prev[c.Name]; p != nil && p.ix.Unchanged(c.Index()) {
			out[c.Name] = &DocIndex{cfg: c, ix: p.ix}
			continue
		}
		ix, err := docs.Open(ctx, c.Index())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[c.Name] = &DocIndex{cfg: c, ix: ix}
	}
	if len(errs) > 0 {
		for _, d := range RetiredDocs(out, prev) {
			_ = d.Close()
		}
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// RetiredDocs are the document sources of old whose index next does not share (nil next:
// all of them): those to close once no request reads them any more.
func RetiredDocs(old, next map[string]*DocIndex) []*DocIndex {
	var out []*DocIndex
	for _, d := range old {
		if !sharesIndex(next, d.ix) {
			out = append(out, d)
		}
	}
	return out
}

// Close closes the index and removes an embedded database.
func (d *DocIndex) Close() error { return d.ix.Close() }

func sharesIndex(m map[string]*DocIndex, ix *docs.Index) bool {
	for _, d := range m {
		if d.ix == ix {
			return true
		}
	}
	return false
}

// DocWarnings are the problems the document sources met when they opened that do not stop
// them: a file without text (a scanned PDF).
func DocWarnings(m map[string]*DocIndex) []string {
	var out []string
	for _, d := range m {
		out = append(out, d.ix.Stats().Warnings...)
	}
	sort.Strings(out)
	return out
}
