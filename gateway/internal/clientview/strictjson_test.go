package clientview

import (
	"testing"

	"github.com/weirgw/weir/gateway/internal/strictjson"
)

// TestLoneCaseVariant shows why the codecs must refuse a key that folds to a known key
// even without a twin: strictjson accepts the document (no two keys of one object fold
// together), Weir's canonical form keeps the key, and the two readers then differ.
func TestLoneCaseVariant(t *testing.T) {
	doc, err := strictjson.Parse([]byte(`{"choices":[{"message":{"role":"assistant","Content":"evil"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	exact, fold, err := ReadCompletion(strictjson.AppendValue(nil, doc.Root()))
	if err != nil {
		t.Fatal(err)
	}
	if Diff(exact, fold) == "" {
		t.Fatal("the readers agree on a lone Content")
	}
	var variant string
	for key := range doc.Root().Get("choices").Index(0).Get("message").Members() {
		if key != "content" && strictjson.FoldEqual(key, "content") {
			variant = key
		}
	}
	if variant != "Content" {
		t.Errorf("FoldEqual did not find the variant: %q", variant)
	}
}
