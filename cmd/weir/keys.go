package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/weirgw/weir/gateway/auth"
)

func init() {
	registered["keys"] = command{"make an API key: weir keys new --id NAME [--roles a,b] [--tenant T]", runKeys}
}

const keysUsage = "usage: weir keys new --id NAME [--roles ROLE,ROLE] [--tenant TENANT]"

// runKeys prints a fresh API key and the auth.api_keys line to paste into weir.yaml: the
// line holds only the key's SHA-256, so the key itself exists only in this output.
func runKeys(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "new" {
		fmt.Fprintln(stderr, keysUsage)
		return 2
	}
	fs := flag.NewFlagSet("keys new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("id", "", "the caller's name in decisions, audit records and rate limits (required)")
	roles := fs.String("roles", "", "comma-separated roles (subject.roles)")
	tenant := fs.String("tenant", "", "the caller's tenant (subject.tenant)")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 || *id == "" {
		fmt.Fprintln(stderr, keysUsage)
		return 2
	}
	key, digest, err := auth.NewKey()
	if err != nil {
		fmt.Fprintf(stderr, "weir keys new: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "key: %s\n\n", key)
	fmt.Fprintln(stdout, "Give the key to the caller (it is shown only now; Weir keeps only its SHA-256) and")
	fmt.Fprintln(stdout, "paste this line under auth.api_keys in weir.yaml:")
	fmt.Fprintf(stdout, "  - %s\n", keyLine(*id, digest, *roles, *tenant))
	return 0
}

// keyLine is the flow-style YAML entry of a key.
func keyLine(id, digest, roles, tenant string) string {
	parts := []string{"id: " + yamlScalar(id), "sha256: " + digest}
	var rs []string
	for _, r := range strings.Split(roles, ",") {
		if r = strings.TrimSpace(r); r != "" {
			rs = append(rs, yamlScalar(r))
		}
	}
	parts = append(parts, "roles: ["+strings.Join(rs, ", ")+"]")
	if tenant != "" {
		parts = append(parts, "tenant: "+yamlScalar(tenant))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

var plainScalar = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.@-]*$`)

// yamlScalar quotes s unless it is a plain word YAML reads as that string.
func yamlScalar(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
		return fmt.Sprintf("%q", s)
	}
	if plainScalar.MatchString(s) {
		return s
	}
	return fmt.Sprintf("%q", s)
}
