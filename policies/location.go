package policies

import (
	"errors"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// errorLocation returns the policy location of an evaluation error, when OPA knows it.
func errorLocation(err error) *ast.Location {
	var te *topdown.Error
	if errors.As(err, &te) && te.Location != nil {
		return te.Location
	}
	var ae *ast.Error
	if errors.As(err, &ae) && ae.Location != nil {
		return ae.Location
	}
	return nil
}
