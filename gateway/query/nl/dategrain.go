package nl

import (
	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// dateGrain reads a date field with a time grain next to it ("by onset month", "per mese
// di insorgenza", where "mese di" is read as one filler): that field grouped by the grain,
// not by day with the grain left over. The words are marked used.
func (r *reader) dateGrain(j int) *semantic.Dimension {
	f := r.items[j].kind(mField)
	if f == nil || typeOf(f.src, f.field) != data.TypeDate || !r.joinable(f.src) {
		return nil
	}
	g, grain := r.next(j, 1), ""
	switch {
	case g >= 0 && r.items[g].is(gGrain) && !r.items[g].used:
		grain = grains[r.items[g].word]
	case j > 0 && r.items[j-1].is(gFiller) && grains[r.ts[r.items[j-1].i].w] != "":
		g, grain = j-1, grains[r.ts[r.items[j-1].i].w]
	default:
		return nil
	}
	d := r.grainDim(grain) // the date field named: timeTarget's first choice
	if d == nil || d.Source != f.src.Name || d.Field != f.field {
		return nil
	}
	r.items[j].used, r.items[g].used = true, true
	return d
}
