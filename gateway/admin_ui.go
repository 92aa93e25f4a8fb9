package gateway

import (
	"bytes"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/weirgw/weir/gateway/audit/ui"
)

// uiHandler serves the reviewers' web view (/ui) on the admin listener, over the trail
// and the token of the config the gateway started with (audit settings take effect at
// restart). Without audit.ui.token it answers 404.
func (g *Gateway) uiHandler() fasthttp.RequestHandler {
	c := g.snap.Load().Config.Audit
	return fasthttpadaptor.NewFastHTTPHandler(ui.New(ui.Options{Trail: c.Path, Token: c.UI.Token}))
}

// isUI reports whether an admin request is for the web view.
func isUI(path []byte) bool {
	return bytes.Equal(path, []byte("/ui")) || bytes.HasPrefix(path, []byte("/ui/"))
}
